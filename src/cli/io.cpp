// io.cpp - system calls with every error checked and named.
#include "io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <new>

namespace utf8guard::cli {

page_buffer allocate_pages(std::size_t size) {
  void* p = nullptr;
  if (::posix_memalign(&p, kPageSize, size) != 0) throw std::bad_alloc();
  return page_buffer(static_cast<unsigned char*>(p));
}

std::string message(std::string_view text) {
  std::string line = "utf8guard: ";
  line.append(text);
  line.push_back('\n');
  return line;
}

std::string file_message(std::string_view path, int err) {
  std::string text(path);
  text.append(": ");
  text.append(std::strerror(err));
  return message(text);
}

void write_stderr(std::string_view text) {
  (void)write_all(STDERR_FILENO, text.data(), text.size());
}

int open_input(const std::string& path, int& err, input_info& info) {
  int fd = STDIN_FILENO;
  if (path != kStdinName) {
    do {
      fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
    } while (fd < 0 && errno == EINTR);  // open of a FIFO blocks and may be interrupted
    if (fd < 0) {
      err = errno;
      return -1;
    }
  }
  info = input_info{};
  struct stat st {};
  if (::fstat(fd, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      close_input(fd);
      err = EISDIR;
      return -1;
    }
    info.regular = S_ISREG(st.st_mode) && st.st_size >= 0;
    if (info.regular) info.size = static_cast<std::uint64_t>(st.st_size);
  }
  return fd;
}

void advise_sequential(int fd, const input_info& info) {
  if (info.regular && info.size > kChunkSize) {
    (void)::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  }
}

void close_input(int fd) {
  if (fd != STDIN_FILENO) (void)::close(fd);  // read-only: close cannot lose data
}

ssize_t read_some(int fd, void* buf, std::size_t n) {
  ssize_t got;
  do {
    got = ::read(fd, buf, n);
  } while (got < 0 && errno == EINTR);
  return got;
}

ssize_t pread_some(int fd, void* buf, std::size_t n, std::uint64_t offset) {
  ssize_t got;
  do {
    got = ::pread(fd, buf, n, static_cast<off_t>(offset));
  } while (got < 0 && errno == EINTR);
  return got;
}

int write_all(int fd, const char* data, std::size_t n) {
  while (n != 0) {
    const ssize_t put = ::write(fd, data, n);
    if (put < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (put == 0) return EIO;  // no progress and no reason: do not spin
    data += put;
    n -= static_cast<std::size_t>(put);
  }
  return 0;
}

fd_writer::fd_writer(int fd, std::size_t capacity) : fd_(fd), capacity_(capacity) {
  buffer_.reserve(capacity);
}

bool fd_writer::write(std::string_view bytes) {
  if (error_ != 0) return false;
  if (elide_ != 0 && !bytes.empty()) {
    if (bytes.front() == elide_) bytes.remove_prefix(1);
    elide_ = 0;
  }
  if (buffer_.size() + bytes.size() <= capacity_) {
    buffer_.append(bytes);
    return true;
  }
  if (!flush()) return false;
  // Large pieces (whole valid chunks from sanitize) skip the copy.
  if (bytes.size() >= capacity_) return put(bytes.data(), bytes.size());
  buffer_.append(bytes);
  return true;
}

bool fd_writer::flush() {
  if (error_ != 0) return false;
  if (buffer_.empty()) return true;
  const bool ok = put(buffer_.data(), buffer_.size());
  buffer_.clear();
  return ok;
}

bool fd_writer::put(const char* data, std::size_t n) {
  error_ = write_all(fd_, data, n);
  return error_ == 0;
}

bool is_live(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return false;
  return S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || ::isatty(fd) == 1;
}

void report_write_failure(int err) {
  if (err == 0 || err == EPIPE) return;
  write_stderr(message(std::string("error writing standard output: ") + std::strerror(err)));
}

}  // namespace utf8guard::cli
