// io.hpp - the CLI's system-call layer: opening inputs, reading them in bounded
// chunks, writing output with every error checked, and the messages that name
// a file and the reason.
#ifndef UTF8GUARD_CLI_IO_HPP
#define UTF8GUARD_CLI_IO_HPP

#include <sys/types.h>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

namespace utf8guard::cli {

// Inputs are read in chunks of this size: large enough that the per-read cost
// vanishes, small enough to stay in L2 while the line counter revisits it.
inline constexpr std::size_t kChunkSize = 256 * 1024;

// page_buffer is heap memory that starts on a page boundary: the kernel
// copies a read into it faster than into a merely 16-byte-aligned buffer
// (cat(1) aligns too).
inline constexpr std::size_t kPageSize = 4096;
struct free_deleter {
  void operator()(unsigned char* p) const noexcept { std::free(p); }
};
using page_buffer = std::unique_ptr<unsigned char, free_deleter>;
page_buffer allocate_pages(std::size_t size);  // throws std::bad_alloc

// The name of standard input, on the command line and in every report.
inline constexpr std::string_view kStdinName = "-";

// message formats "utf8guard: <text>\n", the shape of every stderr line.
std::string message(std::string_view text);

// file_message formats "utf8guard: PATH: strerror(err)\n".
std::string file_message(std::string_view path, int err);

// write_stderr writes text to standard error. A failure is ignored: there is
// nowhere left to report it.
void write_stderr(std::string_view text);

// input_info is what the one fstat(2) of open_input says about an input.
struct input_info {
  bool regular = false;    // a regular file: its size is known, it can be re-read
  std::uint64_t size = 0;  // st_size, for a regular file
};

// open_input opens PATH for reading ("-" is standard input) and returns the
// descriptor, or -1 with the reason in err. A directory is refused here with
// EISDIR, since open(2) accepts directories and only read(2) would object.
int open_input(const std::string& path, int& err, input_info& info);

// advise_sequential asks for a larger read-ahead window on a regular file
// longer than one chunk. A hint only, and a system call a small file does not
// need: it is read in one read(2) anyway.
void advise_sequential(int fd, const input_info& info);

// close_input closes a descriptor from open_input (standard input stays open).
void close_input(int fd);

// read_some reads up to n bytes, retrying on EINTR. Returns the count, 0 at
// end of input, or -1 with errno set.
ssize_t read_some(int fd, void* buf, std::size_t n);

// pread_some is read_some at a file offset (pread(2)); the descriptor's own
// offset does not move, so threads may share the descriptor.
ssize_t pread_some(int fd, void* buf, std::size_t n, std::uint64_t offset);

// write_all writes all of data, retrying on EINTR and after short writes.
// Returns 0, or the errno of the failure.
int write_all(int fd, const char* data, std::size_t n);

// fd_writer buffers output for a descriptor and checks every write. The first
// failure sticks: later writes do nothing and return false, and error() says
// why (EPIPE for a closed pipe).
class fd_writer {
 public:
  fd_writer(int fd, std::size_t capacity);
  fd_writer(const fd_writer&) = delete;
  fd_writer& operator=(const fd_writer&) = delete;

  bool write(std::string_view bytes);
  bool flush();
  // elide_next drops c if it is the first byte written next: a document
  // whose elements come from many inputs writes each after a comma, and the
  // first comma goes.
  void elide_next(char c) noexcept { elide_ = c; }
  [[nodiscard]] bool failed() const noexcept { return error_ != 0; }
  [[nodiscard]] int error() const noexcept { return error_; }

 private:
  bool put(const char* data, std::size_t n);
  int fd_;
  std::string buffer_;
  std::size_t capacity_;
  int error_ = 0;
  char elide_ = 0;
};

// is_live says whether fd is a pipe, a socket or a terminal: a reader may be
// watching it as it is written.
bool is_live(int fd);

// report_write_failure tells the user why standard output failed, except for
// a broken pipe, which ends the program quietly: the reader has gone away.
void report_write_failure(int err);

}  // namespace utf8guard::cli

#endif  // UTF8GUARD_CLI_IO_HPP
