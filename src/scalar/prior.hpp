// prior.hpp - the bytes a stream carries from one chunk into the next, as
// kernels take them: scan_open(p, n, prior) validates p[0..n) as the
// continuation of an unfinished sequence of 1..3 bytes (prior), so the
// engine need not stitch the carried sequence together with the chunk.
//
// prior packs the carried bytes into the high bytes of a little-endian word:
// the last carried byte in byte 3, the one before it in byte 2, and so on; 0
// means nothing is carried. Carried bytes are a lead (C2..F4) and its
// continuations (80..BF), never 0, so the word also says how many there are.
#ifndef UTF8GUARD_SCALAR_PRIOR_HPP
#define UTF8GUARD_SCALAR_PRIOR_HPP

#include <cstddef>
#include <cstdint>

#include "kernel.hpp"
#include "scalar/table37.hpp"

namespace utf8guard::detail {

inline std::uint32_t prior_word(const std::uint8_t* carry, std::size_t len) noexcept {
  std::uint32_t w = 0;
  for (std::size_t k = 0; k < len; ++k) w |= std::uint32_t{carry[k]} << (8 * (4 - len + k));
  return w;
}

inline std::size_t prior_length(std::uint32_t w) noexcept {
  return (w >> 24 != 0) + ((w >> 16 & 0xFF) != 0) + ((w >> 8 & 0xFF) != 0);
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
  if (r.ok()) return {n, 0};
  if (r.kind == error::incomplete) return {n, r.length};
  return {r.offset > plen ? r.offset - plen : 0, 0};
}

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_SCALAR_PRIOR_HPP
