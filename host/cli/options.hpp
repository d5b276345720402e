// Checks shared by every command's options, so that a number means the same everywhere and a bad one
// is refused in the option's own terms ("--seed: must be an integer from 0 to ...").
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>

#include "warpspan/core/error.hpp"

namespace warpspan::cli {

/// Refuses a negative number (in a signed option whose "not given" default is negative).
const CLI::Validator& not_negative();

/// An integer from `lo` to `hi`, written in decimal.
CLI::Validator integer_range(std::int64_t lo, std::int64_t hi);

/// Adds to every option of `app` and its subcommands the check its type needs before CLI11 converts
/// the text (CLI11 2.1 reads "-1" into an unsigned option as 2^64 - 1, saturates overflow, and takes
/// "010" as octal and "0x10" as hex): integers must be plain decimal and fit the type (no sign for
/// unsigned ones), floating-point values must be finite numbers. Call once all options exist.
void check_numeric_options(CLI::App& app);

/// The command line's spelling of the library's parameters (core/error.hpp): its options
/// (`warps` is `--warps`, `slices` `--shard`). main() renders every error message with it.
const parameter_face& cli_face();

}  // namespace warpspan::cli
