// guard_page.hpp - buffers that fault on the first byte read or written
// outside them.
//
// guarded_buffer places n bytes so that the byte after the last one (at_end)
// or the byte before the first one (at_start) is on a PROT_NONE page: any
// read outside [data, data + n) that reaches that side crashes the test with
// SIGSEGV instead of passing silently. Used by every "never reads outside
// the input" proof, for every kernel. guarded_output is the same for a
// writable output: one byte written past its end faults.
#ifndef UTF8GUARD_TESTS_SUPPORT_GUARD_PAGE_HPP
#define UTF8GUARD_TESTS_SUPPORT_GUARD_PAGE_HPP

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace utf8guard::testing {

// guarded_pages maps room for n bytes between two PROT_NONE pages. Failing
// to map aborts: a test without its guard would prove nothing.
class guarded_pages {
 public:
  explicit guarded_pages(std::size_t n) {
    page_ = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t data_pages = (n + page_ - 1) / page_ + 1;
    map_len_ = (data_pages + 2) * page_;  // a guard page on both sides
    void* m = mmap(nullptr, map_len_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) std::abort();
    map_ = static_cast<char*>(m);
    if (mprotect(map_, page_, PROT_NONE) != 0) std::abort();
    if (mprotect(end(), page_, PROT_NONE) != 0) std::abort();
  }
  ~guarded_pages() { munmap(map_, map_len_); }
  guarded_pages(const guarded_pages&) = delete;
  guarded_pages& operator=(const guarded_pages&) = delete;

  // begin is the first byte after the leading guard, end the first byte of
  // the trailing one.
  char* begin() const { return map_ + page_; }
  char* end() const { return map_ + map_len_ - page_; }
  // guard_address is a pointer into a PROT_NONE page, for (ptr, 0) checks.
  const char* guard_address() const { return map_; }
  void make_read_only() const {
    if (mprotect(begin(), static_cast<std::size_t>(end() - begin()), PROT_READ) != 0) std::abort();
  }

 private:
  std::size_t page_ = 0;
  std::size_t map_len_ = 0;
  char* map_ = nullptr;
};

class guarded_buffer {
 public:
  enum side { at_end, at_start };

  guarded_buffer(std::string_view bytes, side s) : pages_(bytes.size()), size_(bytes.size()) {
    data_ = (s == at_end) ? pages_.end() - size_ : pages_.begin();
    if (size_ != 0) std::memcpy(data_, bytes.data(), size_);
    // Leave the data pages read-only: the library must never write its input.
    pages_.make_read_only();
  }

  const char* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::string_view view() const { return {data_, size_}; }
  const char* guard_address() const { return pages_.guard_address(); }

 private:
  guarded_pages pages_;
  std::size_t size_;
  char* data_ = nullptr;
};

// guarded_output is a writable buffer of n bytes whose end touches a
// PROT_NONE page: one byte written past out[n - 1] kills the test with
// SIGSEGV. Proves the bounded writers (sanitize_to, utf8guard_sanitize,
// utf8guard_decode, utf8guard_encode) honour their capacity.
class guarded_output {
 public:
  explicit guarded_output(std::size_t n) : pages_(n), size_(n), data_(pages_.end() - n) {}

  char* data() { return data_; }
  std::size_t size() const { return size_; }
  // guard is the first byte after the buffer: on the PROT_NONE page.
  char* guard() { return data_ + size_; }

 private:
  guarded_pages pages_;
  std::size_t size_;
  char* data_;
};

}  // namespace utf8guard::testing

#endif  // UTF8GUARD_TESTS_SUPPORT_GUARD_PAGE_HPP
