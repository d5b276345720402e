// Exceptions of the project. The command line turns input_error into one line on stderr and exit 2.
#pragma once

#include <stdexcept>
#include <string>

namespace warpspan {

/// Something the user gave is wrong (a string, a file, a configuration). The message says what and
/// where, in words a user can act on.
class input_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The backend asked for was not compiled into this build (for example CUDA without nvcc).
class not_compiled : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A CUDA runtime call or kernel launch failed.
class cuda_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A result from one backend disagreed with the CPU reference (`--validate`).
class validation_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace warpspan
