// SM presets for real compute capabilities, compiled into the binary from data/sm/*.json, and the
// JSON format they use (a user may give a file of the same form).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warpspan/sm/sm_config.hpp"

namespace warpspan {

struct preset_entry {
  std::string name;  ///< e.g. "fermi-2.0"
  std::string json;  ///< the preset file's text
};

/// All presets compiled into this binary, sorted by name.
const std::vector<preset_entry>& sm_presets();

/// Parses an SM configuration in the preset JSON format; `where` names the file for messages.
sm_config parse_sm_json(std::string_view text, std::string_view where);

/// A preset name (case-insensitive; "sm_90", "9.0" and "hopper-9.0" style aliases accepted as
/// documented in data/sm/README.md) or a path to a JSON file. Throws input_error listing the
/// known names when neither matches.
sm_config load_sm(std::string_view name_or_file);

/// The SM of a makespan analysis as the command line (--sm, --sigma, --schedulers) and the Python
/// module choose it: the preset or file `sm` when given, then the `sigma` overrides ("L=1,C=4"),
/// then `schedulers` when >= 0. Neither sm nor sigma is an input_error.
sm_config sm_from_options(const std::optional<std::string>& sm, const std::optional<std::string>& sigma,
                          int schedulers = -1);

}  // namespace warpspan
