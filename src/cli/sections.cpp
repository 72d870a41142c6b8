// sections.cpp - see sections.hpp. The proof that a prefix is well-formed is
// that it is a concatenation of well-formed sections: each section is
// validated as a whole input (feed, then finish), and well-formed UTF-8 joined
// to well-formed UTF-8 is well-formed. Where the cuts fall therefore decides
// only how much is proved, never whether a proof is right: a cut left inside
// a character makes the sections beside it fail, and the one-pass check does
// the rest.
#include "sections.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <new>
#include <string_view>
#include <thread>
#include <vector>

#include <utf8guard/utf8guard.hpp>

#include "io.hpp"

namespace utf8guard::cli {
namespace {

// Cuts start on multiples of this file offset, so that each section's reads
// begin (but for the 0-3 bytes a cut moves) on a page of the page cache, as
// the one-pass reads do.
constexpr std::uint64_t kCutAlign = 64 * 1024;

bool is_continuation(unsigned char b) noexcept { return (b & 0xC0) == 0x80; }

// character_start moves a cut forward past the continuation bytes of the
// character it falls in (at most 3 in well-formed text). With 4 of them, or
// bytes it cannot read, it leaves the cut alone: the text is ill-formed
// there, or unreadable, and the sections next to it will say so.
std::uint64_t character_start(int fd, std::uint64_t cut) noexcept {
  unsigned char head[4];
  const ssize_t got = pread_some(fd, head, sizeof head, cut);
  for (ssize_t i = 0; i < got; ++i) {
    if (!is_continuation(head[i])) return cut + static_cast<std::uint64_t>(i);
  }
  return cut;
}

// section_valid reads [begin, end) and validates it as a whole input. It
// gives up, false, on the first error, on a read that fails or comes up short
// (the file shrank), or once an earlier section has failed, since the prefix
// then ends before this section anyway.
bool section_valid(int fd, std::uint64_t begin, std::uint64_t end, unsigned index,
                   const std::atomic<unsigned>& first_failed) noexcept {
  page_buffer buffer;
  try {
    buffer = allocate_pages(kChunkSize);
  } catch (const std::bad_alloc&) {
    return false;
  }
  validator v;
  while (begin < end) {
    if (first_failed.load(std::memory_order_relaxed) < index) return false;
    const std::uint64_t left = end - begin;
    const std::size_t want = left < kChunkSize ? static_cast<std::size_t>(left) : kChunkSize;
    const ssize_t got = pread_some(fd, buffer.get(), want, begin);
    if (got <= 0) return false;
    const std::string_view bytes(reinterpret_cast<const char*>(buffer.get()),
                                 static_cast<std::size_t>(got));
    if (!v.feed(bytes).ok()) return false;
    begin += static_cast<std::uint64_t>(got);
  }
  return v.finish().ok();
}

// lower_to stores index in first_failed if it is lower than what is there.
void lower_to(std::atomic<unsigned>& first_failed, unsigned index) noexcept {
  unsigned seen = first_failed.load(std::memory_order_relaxed);
  while (index < seen && !first_failed.compare_exchange_weak(seen, index)) {
  }
}

}  // namespace

std::uint64_t valid_prefix(int fd, std::uint64_t from, std::uint64_t size,
                           unsigned threads) noexcept {
  const unsigned sections =
      static_cast<unsigned>(std::min<std::uint64_t>(threads, size / kMinSection));
  if (sections <= 1) return 0;  // nothing to do side by side: the serial check reads it all
  // Section i is [cut[i], cut[i + 1]). The interior cuts lie at least
  // kMinSection - kCutAlign apart, so rounding and moving them by 3 bytes
  // keeps them in order.
  std::vector<std::uint64_t> cut;
  std::vector<std::thread> helpers;
  try {
    cut.resize(sections + 1);
    helpers.reserve(sections - 1);  // emplace_back below then never reallocates
  } catch (const std::bad_alloc&) {
    return 0;
  }
  cut[0] = from;
  for (unsigned i = 1; i < sections; ++i) {
    const std::uint64_t nominal = from + size / sections * i;
    cut[i] = character_start(fd, nominal - nominal % kCutAlign);
  }
  cut[sections] = from + size;

  std::atomic<unsigned> first_failed{sections};
  const auto check = [&](unsigned i) noexcept {
    if (!section_valid(fd, cut[i], cut[i + 1], i, first_failed)) lower_to(first_failed, i);
  };
  unsigned started = 1;
  for (; started < sections; ++started) {
    try {
      helpers.emplace_back(check, started);
    } catch (const std::exception&) {  // system_error, or bad_alloc for its state
      break;                           // out of threads: this thread takes the rest
    }
  }
  check(0);
  for (unsigned i = started; i < sections; ++i) check(i);
  for (std::thread& t : helpers) t.join();
  return cut[first_failed.load()] - from;
}

}  // namespace utf8guard::cli
