// carry.hpp - the bytes a stream carries from one chunk into the next, as
// kernels take them: scan_open(p, n, prior) validates p[0..n) as the
// continuation of an unfinished sequence of 1..3 bytes (prior), so the
// engine need not stitch the carried sequence together with the chunk.
//
// prior packs the carried bytes into the high bytes of a little-endian word:
// the last carried byte in byte 3, the one before it in byte 2, and so on; 0
// means nothing is carried. Carried bytes are a lead (C2..F4) and its
// continuations (80..BF), never 0, so the word also says how many there are.
//
// Byte 0 never holds a carried byte. A kernel's scan_open may set it to
// kAsciiHint in the tail it returns when the chunk ends in ASCII and leaves
// nothing open; the stream keeps the tail as its carry, so the next chunk's
// scan_open gets the hint as its prior and tries whole blocks of ASCII
// before anything else. On a stream of ASCII that settles each chunk in a
// loop of loads and one branch per block; on other text the hint is rarely
// set, so its chunks never load a block twice (a second load of a chunk's
// first lines, while they still come from memory, costs a memory latency).
// The hint changes speed, never a verdict: prior kAsciiHint means nothing is
// carried, as 0 does.
#ifndef UTF8GUARD_STREAM_CARRY_HPP
#define UTF8GUARD_STREAM_CARRY_HPP

#include <cstddef>
#include <cstdint>

#include "core/scan.hpp"
#include "core/table37.hpp"

namespace utf8guard::detail {

inline constexpr std::uint32_t kAsciiHint = 1;  // byte 0 only, see above

inline std::uint32_t prior_word(const std::uint8_t* carry, std::size_t len) noexcept {
  std::uint32_t w = 0;
  for (std::size_t k = 0; k < len; ++k) w |= std::uint32_t{carry[k]} << (8 * (4 - len + k));
  return w;
}

inline std::size_t prior_length(std::uint32_t w) noexcept {
  return (w >> 24 != 0) + ((w >> 16 & 0xFF) != 0) + ((w >> 8 & 0xFF) != 0);
}

// The end of a chunk, for scan_open: `last` holds its last 3 bytes in bytes
// 1..3 (the last byte in byte 3, as in a prior word). These are branch-free:
// whether a chunk ends inside a sequence changes from chunk to chunk.
//
// last_bytes reads them from p[0..n), n >= 3.
inline std::uint32_t last_bytes(const std::uint8_t* p, std::size_t n) noexcept {
  return std::uint32_t{p[n - 3]} << 8 | std::uint32_t{p[n - 2]} << 16 |
         std::uint32_t{p[n - 1]} << 24;
}

// last_bytes_after_boundary is last_bytes for any n >= 1 when p[0] starts
// a sequence (nothing is carried into p): bytes before p[0] read as 0.
inline std::uint32_t last_bytes_after_boundary(const std::uint8_t* p, std::size_t n) noexcept {
  if (n >= 3) return last_bytes(p, n);
  const std::uint32_t before = n == 2 ? std::uint32_t{p[0]} << 16 : 0;
  return before | std::uint32_t{p[n - 1]} << 24;
}

// open_length is how many of them may belong to a sequence still waiting for
// more: a lead 11______ last, 111_____ one before, or 1111____ three from the end.
inline std::uint32_t open_length(std::uint32_t last) noexcept {
  std::uint32_t open = (last >> 8 & 0xFF) >= 0xF0 ? 3 : 0;
  open = (last >> 16 & 0xFF) >= 0xE0 ? 2 : open;
  return (last >> 24) >= 0xC0 ? 1 : open;
}

// open_word keeps the last `open` bytes of last: a prior word, 0 for none.
inline std::uint32_t open_word(std::uint32_t last, std::uint32_t open) noexcept {
  return static_cast<std::uint32_t>(0xFFFFFFFF00000000u >> (8 * open)) & last;
}

// open_lead_ok says whether the open bytes start with a lead that wants more
// than them: the pair checks saw no byte after the last one, so a lone C0,
// C1 or F5..FF at the end is an error, not an open sequence. True for none
// (the lead then reads as 00, ASCII, size 1).
inline bool open_lead_ok(std::uint32_t tail, std::uint32_t open) noexcept {
  const auto lead = static_cast<std::uint8_t>(std::uint64_t{tail} >> (32 - 8 * open));
  return kLeads.entry[lead].size > open;
}

// stitched_open is scan_open for chunks of fewer than 3 bytes, where the
// sequence open at the end may begin in the prior bytes: by the classifier,
// over the carried bytes and the chunk side by side. open may exceed n then.
// (Out of line and cold: kept out of the kernels' own frames.)
__attribute__((noinline, cold)) inline open_scan stitched_open(const std::uint8_t* p, std::size_t n,
                                                               std::uint32_t prior) noexcept {
  std::uint8_t buf[6];
  const std::size_t plen = prior_length(prior);
  for (std::size_t k = 0; k < plen; ++k)
    buf[k] = static_cast<std::uint8_t>(prior >> (8 * (4 - plen + k)));
  for (std::size_t k = 0; k < n && k < 3; ++k) buf[plen + k] = p[k];  // SAFETY: k < n
  const result r = first_error_from(buf, plen + n, 0);
  if (r.ok()) return {n, 0, 0};
  if (r.kind == error::incomplete) {
    const auto open = static_cast<std::uint32_t>(r.length);
    return {n, open, prior_word(buf + r.offset, open)};
  }
  return {r.offset > plen ? r.offset - plen : 0, 0, 0};
}

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_STREAM_CARRY_HPP
