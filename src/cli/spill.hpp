// spill.hpp - an append-only byte buffer that moves to an anonymous temporary
// file once it outgrows its memory bound: the JSON error list of an input
// with millions of errors, which cannot be printed before the input's size.
#ifndef UTF8GUARD_CLI_SPILL_HPP
#define UTF8GUARD_CLI_SPILL_HPP

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace utf8guard::cli {

class spill_buffer {
 public:
  explicit spill_buffer(std::size_t memory_bound) : bound_(memory_bound) {}
  ~spill_buffer();
  spill_buffer(const spill_buffer&) = delete;
  spill_buffer& operator=(const spill_buffer&) = delete;

  // append adds bytes. false: the temporary file failed; error() says why.
  bool append(std::string_view bytes);

  // drain passes the whole content, in order and in bounded pieces, to out
  // (which returns false to stop). false if out stopped or the file failed.
  bool drain(const std::function<bool(std::string_view)>& out);

  [[nodiscard]] int error() const noexcept { return error_; }

 private:
  bool spill();
  std::size_t bound_;
  std::string memory_;
  int fd_ = -1;
  int error_ = 0;
};

}  // namespace utf8guard::cli

#endif  // UTF8GUARD_CLI_SPILL_HPP
