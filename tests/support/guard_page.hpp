// guard_page.hpp - buffers that fault on the first byte read outside them.
//
// guarded_buffer places n bytes so that the byte after the last one (at_end)
// or the byte before the first one (at_start) is on a PROT_NONE page: any
// read outside [data, data + n) that reaches that side crashes the test with
// SIGSEGV instead of passing silently. Used by every "never reads outside
// the input" proof, for every kernel.
#ifndef UTF8GUARD_TESTS_SUPPORT_GUARD_PAGE_HPP
#define UTF8GUARD_TESTS_SUPPORT_GUARD_PAGE_HPP

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace utf8guard::testing {

class guarded_buffer {
 public:
  enum side { at_end, at_start };

  guarded_buffer(std::string_view bytes, side s) : size_(bytes.size()) {
    page_ = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t data_pages = (size_ + page_ - 1) / page_ + 1;
    map_len_ = (data_pages + 2) * page_;  // a guard page on both sides
    void* m = mmap(nullptr, map_len_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) std::abort();
    map_ = static_cast<char*>(m);
    char* first_guard = map_;
    char* last_guard = map_ + map_len_ - page_;
    if (mprotect(first_guard, page_, PROT_NONE) != 0) std::abort();
    if (mprotect(last_guard, page_, PROT_NONE) != 0) std::abort();
    data_ = (s == at_end) ? last_guard - size_ : first_guard + page_;
    if (size_ != 0) std::memcpy(data_, bytes.data(), size_);
    // Leave the data pages read-only: the library must never write its input.
    if (mprotect(first_guard + page_, map_len_ - 2 * page_, PROT_READ) != 0) std::abort();
  }
  ~guarded_buffer() { munmap(map_, map_len_); }
  guarded_buffer(const guarded_buffer&) = delete;
  guarded_buffer& operator=(const guarded_buffer&) = delete;

  const char* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::string_view view() const { return {data_, size_}; }

  // guard_address is a pointer into a PROT_NONE page, for (ptr, 0) checks.
  const char* guard_address() const { return map_; }

 private:
  std::size_t size_;
  std::size_t page_ = 0;
  std::size_t map_len_ = 0;
  char* map_ = nullptr;
  char* data_ = nullptr;
};

}  // namespace utf8guard::testing

#endif  // UTF8GUARD_TESTS_SUPPORT_GUARD_PAGE_HPP
