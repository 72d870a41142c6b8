// spill.cpp - the temporary file behind spill_buffer: created unlinked
// (O_TMPFILE, or mkstemp + unlink), in $TMPDIR or /tmp.
#include "spill.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <cstdlib>

#include "io.hpp"

namespace utf8guard::cli {
namespace {

int open_anonymous_file(int& err) {
  const char* env = std::getenv("TMPDIR");
  const std::string dir = env != nullptr && *env != '\0' ? env : "/tmp";
#ifdef O_TMPFILE
  const int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) return fd;
#endif
  std::string name = dir + "/utf8guard-XXXXXX";
  const int named = ::mkostemp(name.data(), O_CLOEXEC);
  if (named < 0) {
    err = errno;
    return -1;
  }
  (void)::unlink(name.c_str());  // anonymous from now on; gone when closed
  return named;
}

}  // namespace

spill_buffer::~spill_buffer() {
  if (fd_ >= 0) (void)::close(fd_);
}

bool spill_buffer::append(std::string_view bytes) {
  if (error_ != 0) return false;
  memory_.append(bytes);
  return memory_.size() < bound_ || spill();
}

bool spill_buffer::spill() {
  if (fd_ < 0) {
    fd_ = open_anonymous_file(error_);
    if (fd_ < 0) return false;
  }
  error_ = write_all(fd_, memory_.data(), memory_.size());
  memory_.clear();
  return error_ == 0;
}

bool spill_buffer::drain(const std::function<bool(std::string_view)>& out) {
  if (error_ != 0) return false;
  if (fd_ >= 0) {
    if (::lseek(fd_, 0, SEEK_SET) != 0) {
      error_ = errno;
      return false;
    }
    std::string piece(64 * 1024, '\0');
    for (;;) {
      const ssize_t got = read_some(fd_, piece.data(), piece.size());
      if (got < 0) {
        error_ = errno;
        return false;
      }
      if (got == 0) break;
      if (!out(std::string_view(piece.data(), static_cast<std::size_t>(got)))) return false;
    }
  }
  return memory_.empty() || out(memory_);
}

}  // namespace utf8guard::cli
