// The text printers' stream format (io/dbf_text.hpp, io/estimate_text.hpp): what they print does
// not depend on the format the caller left on the stream, and the caller's comes back.
#pragma once

#include <ios>
#include <ostream>

namespace warpspan::io_detail {

/// The stream in a new stream's format (decimal, precision 6, fill ' ', no width or alignment)
/// while a printer runs; the caller's format back when it returns.
class default_format {
 public:
  explicit default_format(std::ostream& out)
      : out_(out), flags_(out.flags()), precision_(out.precision()), width_(out.width()), fill_(out.fill()) {
    out.flags(std::ios::dec | std::ios::skipws);
    out.precision(6);
    out.width(0);
    out.fill(' ');
  }
  ~default_format() {
    out_.flags(flags_);
    out_.precision(precision_);
    out_.width(width_);
    out_.fill(fill_);
  }
  default_format(const default_format&) = delete;
  default_format& operator=(const default_format&) = delete;

 private:
  std::ostream& out_;
  std::ios::fmtflags flags_;
  std::streamsize precision_, width_;
  char fill_;
};

}  // namespace warpspan::io_detail
