// The task sets of a batch: a directory, a .jsonl file or one file (dbf --batch, dbf_batch in Python).
#include "warpspan/dbf/batch_source.hpp"

#include <algorithm>
#include <system_error>

#include "warpspan/core/error.hpp"
#include "warpspan/core/file.hpp"

namespace warpspan {

namespace fs = std::filesystem;

batch_source::batch_source(const std::string& where) : where_(where) {
  const fs::path path(where);
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) throw input_error(where + ": no such file or directory");
  if (fs::is_directory(status)) {
    for (const auto& entry : fs::directory_iterator(path, ec))
      if (entry.is_regular_file() && (entry.path().extension() == ".json" || entry.path().extension() == ".csv"))
        files_.push_back(entry.path());
    if (ec) throw input_error(where + ": cannot list the directory (" + ec.message() + ")");
    if (files_.empty()) throw input_error(where + ": no *.json or *.csv files in the directory");
    std::sort(files_.begin(), files_.end(),
              [](const fs::path& a, const fs::path& b) { return a.filename() < b.filename(); });
  } else if (path.extension() == ".jsonl") {
    lines_ = std::make_unique<line_reader>(where, "task sets", max_task_file_bytes);
    jsonl_ = true;
  } else {
    files_.push_back(path);
    single_ = true;
  }
}

std::string batch_source::last_path() const {
  std::error_code ec;
  const fs::path absolute = fs::absolute(jsonl_ || single_ ? fs::path(where_) : files_[next_file_ - 1], ec);
  const std::string file = ec ? where_ : absolute.lexically_normal().string();
  return jsonl_ ? file + ":" + std::to_string(number_) : file;
}

std::uint64_t batch_source::total() const {
  if (!jsonl_) return files_.size();
  line_reader scan(where_, "task sets", max_task_file_bytes);
  std::uint64_t n = 0;
  for (std::string line; scan.next(line);) n += line.find_first_not_of(" \t\r") != std::string::npos;
  return n;
}

bool batch_source::skip() {
  if (!jsonl_) {
    if (next_file_ == files_.size()) return false;
    ++next_file_;
    return true;
  }
  std::string line;
  while (read_line(line)) {
    ++number_;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    ++sets_;
    return true;
  }
  if (sets_ == 0) throw input_error(where_ + ": no task sets (the file is empty)");
  return false;
}

task_set unparsed_set::parse() const { return file ? load_task_set(where) : parse_task_set(text, where); }

bool batch_source::next(named_set& out) {
  unparsed_set raw;
  if (!next_unparsed(raw)) return false;
  out = {raw.label, raw.parse()};
  return true;
}

bool batch_source::next_unparsed(unparsed_set& out) {
  if (!jsonl_) {
    if (next_file_ == files_.size()) return false;
    const fs::path& f = files_[next_file_++];
    last_label_ = f.filename().string();
    out = {last_label_, {}, single_ ? where_ : f.string(), true};
    return true;
  }
  std::string line;
  while (read_line(line)) {
    ++number_;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    last_label_ = fs::path(where_).filename().string() + ":" + std::to_string(number_);
    ++sets_;  // a line that fails to parse still counts as a set (with --keep-going)
    out = {last_label_, std::move(line), where_ + ":" + std::to_string(number_), false};
    return true;
  }
  if (sets_ == 0) throw input_error(where_ + ": no task sets (the file is empty)");
  return false;
}

/// The next line without its '\n'; false at the end. A line longer than max_task_file_bytes (or a
/// file with no line ends, like /dev/zero) is refused.
bool batch_source::read_line(std::string& line) { return lines_->next(line); }

}  // namespace warpspan
