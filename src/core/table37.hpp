// table37.hpp - Unicode Table 3-7 ("Well-Formed UTF-8 Byte Sequences") as a
// first-byte table plus accept ranges, and the one classifier that decides an
// error's kind, offset and length for every kernel.
//
//   code points         byte 1  byte 2  byte 3  byte 4     lead class
//   U+0000..U+007F      00..7F                             ascii
//   U+0080..U+07FF      C2..DF  80..BF                     len2
//   U+0800..U+0FFF      E0      A0..BF  80..BF             len3, range E0
//   U+1000..U+CFFF      E1..EC  80..BF  80..BF             len3
//   U+D000..U+D7FF      ED      80..9F  80..BF             len3, range ED
//   U+E000..U+FFFF      EE..EF  80..BF  80..BF             len3
//   U+10000..U+3FFFF    F0      90..BF  80..BF  80..BF     len4, range F0
//   U+40000..U+FFFFF    F1..F3  80..BF  80..BF  80..BF     len4
//   U+100000..U+10FFFF  F4      80..8F  80..BF  80..BF     len4, range F4
//
// Only the second byte ever has a range narrower than 80..BF. When it is a
// continuation byte outside that range, the lead is reported alone with the
// range's kind (E0 80..9F and F0 80..8F: overlong; ED A0..BF: surrogate;
// F4 90..BF: too_large), and the next byte starts the next subpart
// (docs/design.md).
// A non-continuation byte anywhere after a valid prefix makes it "truncated";
// the end of input makes it "incomplete". Either way the subpart is the valid
// prefix, which is exactly Unicode's maximal subpart (section 3.9).
#ifndef UTF8GUARD_CORE_TABLE37_HPP
#define UTF8GUARD_CORE_TABLE37_HPP

#include <cstddef>
#include <cstdint>

#include "utf8guard/utf8guard.hpp"

namespace utf8guard::detail {

// One entry per lead byte. size: 1..4 for a valid lead, 0 for a byte that can
// never start a sequence (then bad_kind says why). lo/hi: the accept range of
// the second byte. range_kind: the kind when the second byte is a
// continuation outside lo..hi.
struct lead_info {
  std::uint8_t size;
  std::uint8_t lo, hi;
  error range_kind;
  error bad_kind;
};

constexpr lead_info make_lead(std::uint8_t b) {
  if (b <= 0x7F) return {1, 0, 0, error::none, error::none};
  if (b <= 0xBF) return {0, 0, 0, error::none, error::unexpected_continuation};
  if (b <= 0xC1) return {0, 0, 0, error::none, error::overlong};
  if (b <= 0xDF) return {2, 0x80, 0xBF, error::none, error::none};
  if (b == 0xE0) return {3, 0xA0, 0xBF, error::overlong, error::none};
  if (b == 0xED) return {3, 0x80, 0x9F, error::surrogate, error::none};
  if (b <= 0xEF) return {3, 0x80, 0xBF, error::none, error::none};
  if (b == 0xF0) return {4, 0x90, 0xBF, error::overlong, error::none};
  if (b <= 0xF3) return {4, 0x80, 0xBF, error::none, error::none};
  if (b == 0xF4) return {4, 0x80, 0x8F, error::too_large, error::none};
  return {0, 0, 0, error::none, error::invalid_byte};
}

struct lead_table {
  lead_info entry[256];
  constexpr lead_table() : entry{} {
    for (int b = 0; b < 256; ++b) entry[b] = make_lead(static_cast<std::uint8_t>(b));
  }
};
inline constexpr lead_table kLeads{};

constexpr bool is_continuation(std::uint8_t b) { return (b & 0xC0) == 0x80; }

// sequence_at classifies the one sequence starting at p[i] (i < n): an ok()
// result whose length is the sequence's size, or the error at offset i.
inline result sequence_at(const std::uint8_t* p, std::size_t n, std::size_t i) noexcept {
  const lead_info& lead = kLeads.entry[p[i]];
  if (lead.size == 0) return {lead.bad_kind, i, 1};
  if (lead.size == 1) return {error::none, i, 1};
  // SAFETY: every p[i + k] below is read only after checking i + k < n.
  for (std::size_t k = 1; k < lead.size; ++k) {
    if (i + k >= n) return {error::incomplete, i, k};
    const std::uint8_t c = p[i + k];
    const bool in_range = (k == 1) ? (c >= lead.lo && c <= lead.hi) : is_continuation(c);
    if (!in_range) {
      if (k == 1 && is_continuation(c)) return {lead.range_kind, i, 1};
      return {error::truncated, i, k};
    }
  }
  return {error::none, i, lead.size};
}

// first_error_from returns the first error in p[start..n), with offsets
// relative to p, or an ok() result. start must be a sequence boundary.
inline result first_error_from(const std::uint8_t* p, std::size_t n, std::size_t start) noexcept {
  std::size_t i = start;
  while (i < n) {
    const result r = sequence_at(p, n, i);
    if (!r.ok()) return r;
    i += r.length;
  }
  return {};
}

// boundary_before steps back from pos to a sequence boundary, given that
// p[lo..pos) is a valid prefix: well-formed but for at most one unfinished
// sequence (<= 3 bytes) at its end, and lo a boundary. In such a prefix every
// non-continuation byte starts a sequence, and an unfinished sequence has its
// lead at most 3 bytes back. If the last 3 bytes are all continuations they
// end a complete 4-byte sequence, so pos itself is a boundary.
inline std::size_t boundary_before(const std::uint8_t* p, std::size_t lo,
                                   std::size_t pos) noexcept {
  for (std::size_t k = 1; k <= 3 && pos - k + 1 > lo; ++k) {
    if (!is_continuation(p[pos - k])) return pos - k;
  }
  return pos - lo < 3 ? lo : pos;
}

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_CORE_TABLE37_HPP
