// stream.hpp - the one streaming engine behind validator, sanitizer and
// error_scanner.
//
// A stream carries at most 3 bytes between chunks: the start of a sequence
// that the chunk's end cut short (a valid prefix, never an error yet). The
// next chunk first completes or breaks that sequence, through the same
// Table 3-7 classifier, then the rest of the chunk goes through the active
// kernel. An error is reported as soon as the byte that makes it arrives;
// "incomplete" only at finish().
//
// A Handler has   bool valid(const std::uint8_t* p, std::size_t n)
//                 bool error(const result& absolute)
// and returns false from either to stop the stream (feed then returns false).
#ifndef UTF8GUARD_STREAM_HPP
#define UTF8GUARD_STREAM_HPP

#include <cstring>

#include "kernel.hpp"
#include "scalar/table37.hpp"

namespace utf8guard::detail {

// U+FFFD REPLACEMENT CHARACTER, encoded: what every maximal subpart becomes.
inline constexpr char kReplacement[3] = {'\xEF', '\xBF', '\xBD'};

// replacing_handler is the sanitize rule, once for every kind of output: valid
// runs are copied unchanged, each maximal subpart becomes one U+FFFD. Put is
// bool(const char*, std::size_t), false to stop.
template <class Put>
struct replacing_handler {
  Put put;
  std::size_t& replacements;
  bool valid(const std::uint8_t* p, std::size_t n) {
    // SAFETY: p[0..n) lies inside the caller's chunk or the engine's carry copy.
    return n == 0 || put(reinterpret_cast<const char*>(p), n);
  }
  bool error(const result&) {
    ++replacements;
    return put(kReplacement, sizeof kReplacement);
  }
};
template <class Put>
replacing_handler(Put, std::size_t&) -> replacing_handler<Put>;

struct stream_cursor {
  std::size_t& position;     // bytes fed so far
  unsigned char* carry;      // 4 bytes of storage
  unsigned char& carry_len;  // 0..3
};

template <class Handler>
bool stream_feed(stream_cursor s, const std::uint8_t* p, std::size_t n, Handler& h) {
  const std::size_t base = s.position;  // absolute offset of p[0]
  s.position += n;
  std::size_t i = 0;
  if (s.carry_len != 0) {
    const std::size_t have = s.carry_len;
    const std::size_t need = kLeads.entry[s.carry[0]].size - have;
    const std::size_t take = need < n ? need : n;
    std::uint8_t seq[4];
    std::memcpy(seq, s.carry, have);
    if (take != 0)
      std::memcpy(seq + have, p, take);  // SAFETY: take <= n; p may be null only when n == 0
    const result r = sequence_at(seq, have + take, 0);
    if (r.kind == error::incomplete) {  // the chunk ended first: keep carrying
      std::memcpy(s.carry, seq, have + take);
      s.carry_len = static_cast<unsigned char>(have + take);
      return true;
    }
    s.carry_len = 0;
    if (r.ok()) {
      if (!h.valid(seq, have + take)) return false;
      i = take;
    } else {
      // The carried bytes were a valid prefix, so the subpart covers all of them.
      if (!h.error(result{r.kind, base - have, r.length})) return false;
      i = r.length - have;
    }
  }
  while (i < n) {
    const result r = validate_active(p + i, n - i);
    if (r.ok()) return h.valid(p + i, n - i);
    if (r.offset != 0 && !h.valid(p + i, r.offset)) return false;
    if (r.kind == error::incomplete) {  // at most 3 bytes, at the very end
      std::memcpy(s.carry, p + i + r.offset, r.length);
      s.carry_len = static_cast<unsigned char>(r.length);
      return true;
    }
    if (!h.error(result{r.kind, base + i + r.offset, r.length})) return false;
    i += r.offset + r.length;
  }
  return true;
}

template <class Handler>
bool stream_finish(stream_cursor s, Handler& h) {
  if (s.carry_len == 0) return true;
  const std::size_t len = s.carry_len;
  s.carry_len = 0;
  return h.error(result{error::incomplete, s.position - len, len});
}

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_STREAM_HPP
