#include "warpspan/core/file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <streambuf>
#include <system_error>
#include <vector>

#include "warpspan/core/error.hpp"

namespace warpspan {

namespace {

/// `path` opened for reading, or the input_error that says why not.
std::ifstream open_input(const std::string& path, const std::string& what) {
  if (path.empty()) throw input_error(what + ": the path is empty");
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status))
    throw input_error(what + " " + path + ": cannot open the file (no such file)");
  if (std::filesystem::is_directory(status)) throw input_error(what + " " + path + ": is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(what + " " + path + ": cannot open the file (" + std::strerror(errno) + ")");
  return in;
}

}  // namespace

std::string read_text_file(const std::string& path, const std::string& what, std::size_t max_bytes,
                           const message& limit_option) {
  std::ifstream in = open_input(path, what);
  std::string text;
  char chunk[1 << 16];
  while (in) {
    in.read(chunk, sizeof chunk);
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got == 0) break;
    if (text.size() + got > max_bytes)
      throw input_error(what + " " + path + ": larger than " + std::to_string(max_bytes >> 20) +
                        " MiB; refused (is it the right file?" +
                        (limit_option.empty() ? message() : " " + limit_option + " raises the limit") + ")");
    text.append(chunk, got);
  }
  if (in.bad()) throw input_error(what + " " + path + ": read error");
  return text;
}

namespace {

constexpr std::uint64_t fnv_offset = 14695981039346656037ull, fnv_prime = 1099511628211ull;

void fnv1a(std::uint64_t& h, const char* data, std::size_t n) {
  for (std::size_t k = 0; k < n; ++k) h = (h ^ static_cast<unsigned char>(data[k])) * fnv_prime;
}

void hash_file(std::uint64_t& h, const std::string& path, const std::string& what) {
  std::ifstream in = open_input(path, what);
  char chunk[1 << 16];
  while (in) {
    in.read(chunk, sizeof chunk);
    fnv1a(h, chunk, static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw input_error(what + " " + path + ": read error");
}

}  // namespace

std::string content_hash(const std::string& path, const std::string& what) {
  std::uint64_t h = fnv_offset;
  std::error_code ec;
  if (!path.empty() && std::filesystem::is_directory(path, ec)) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(path, ec))
      if (entry.is_regular_file()) files.push_back(entry.path());
    if (ec) throw input_error(what + " " + path + ": cannot list the directory (" + ec.message() + ")");
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      const std::string name = f.filename().string();
      fnv1a(h, name.c_str(), name.size() + 1);  // with its NUL: names and contents do not run together
      hash_file(h, f.string(), what);
    }
  } else {
    hash_file(h, path, what);
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

line_reader::line_reader(const std::string& path, const std::string& what, std::size_t max_line_bytes)
    : path_(path), what_(what), max_line_(max_line_bytes), in_(open_input(path, what)) {}

bool line_reader::next(std::string& line) {
  // A block at a time, each line found by memchr: a .jsonl of task sets is read at memory speed, not
  // a character at a time (the reading thread of a batch is its one serial stage).
  line.clear();
  bool any = false;
  for (;;) {
    if (at_ == end_) {
      if (buffer_.empty()) buffer_.resize(std::size_t{1} << 16);
      in_.read(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
      at_ = 0;
      end_ = static_cast<std::size_t>(in_.gcount());
      if (end_ == 0) break;
    }
    any = true;
    const char* begin = buffer_.data() + at_;
    const auto* nl = static_cast<const char*>(std::memchr(begin, '\n', end_ - at_));
    const std::size_t take = nl ? static_cast<std::size_t>(nl - begin) : end_ - at_;
    if (line.size() + take > max_line_)
      throw input_error(what_ + " " + path_ + ":" + std::to_string(number_ + 1) + ": the line is longer than " +
                        std::to_string(max_line_ >> 20) + " MiB; refused (is it the right file?)");
    line.append(begin, take);
    at_ += take;
    bytes_ += take;
    if (nl) {
      ++at_;
      ++bytes_;
      break;
    }
  }
  if (!any) return false;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  ++number_;
  return true;
}

// ------------------------------------------------------------------------------------ atomic_file

/// A stream buffer over a file descriptor that remembers the first failed write (errno).
class atomic_file::buffer : public std::streambuf {
 public:
  explicit buffer(int fd) : fd_(fd) { setp(data_, data_ + sizeof data_); }
  /// Writes out what is buffered; false (and error() says why) once any write failed.
  bool drain() {
    const char* p = pbase();
    while (p < pptr() && error_ == 0) {
      const ssize_t n = ::write(fd_, p, static_cast<std::size_t>(pptr() - p));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        error_ = n < 0 ? errno : EIO;
      else
        p += n;
    }
    setp(data_, data_ + sizeof data_);
    return error_ == 0;
  }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  int fd_;
  int error_ = 0;
  char data_[1 << 16];
};

namespace {

std::string cannot_write(const std::string& path, int error) {
  return "cannot write " + path + " (" + std::strerror(error) + ")";
}

}  // namespace

atomic_file::atomic_file(const std::string& path) : path_(path) {
  if (path.empty()) throw input_error("cannot write a file: the path is empty");
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) throw input_error("cannot write " + path + ": is a directory");
    fd_ = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);  // a device or a pipe: in place
    if (fd_ < 0) throw input_error(cannot_write(path, errno));
  } else {
    const std::filesystem::path p(path);
    const std::string dir = p.has_parent_path() ? p.parent_path().string() + "/" : std::string();
    static std::atomic<std::uint64_t> serial{0};
    static const std::uint64_t salt = std::random_device{}();
    for (int attempt = 0; fd_ < 0; ++attempt) {
      temp_ = dir + "." + p.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
              std::to_string(salt % 1000000) + "-" + std::to_string(serial++);
      fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0666);
      if (fd_ < 0 && (errno != EEXIST || attempt >= 100)) {
        const int error = errno;
        temp_.clear();
        throw input_error(cannot_write(path, error));
      }
    }
  }
  buf_ = std::make_unique<buffer>(fd_);
  out_ = std::make_unique<std::ostream>(buf_.get());
}

atomic_file::~atomic_file() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
}

std::ostream& atomic_file::stream() { return *out_; }

void atomic_file::commit() {
  out_->flush();
  int error = buf_->drain() ? 0 : buf_->error();
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error == 0 && !temp_.empty() && ::rename(temp_.c_str(), path_.c_str()) != 0) error = errno;
  if (error != 0) throw input_error(cannot_write(path_, error));
  committed_ = true;
}

std::string write_file_atomically(const std::string& path, std::string_view content) {
  atomic_file file(path);
  file.stream().write(content.data(), static_cast<std::streamsize>(content.size()));
  file.commit();
  return path;
}

}  // namespace warpspan
