// scalar_kernel.cpp - the portable kernel: a branch-free shift DFA over
// Table 3-7 with an ASCII fast path of 16 bytes at a time.
//
// Each DFA state is a bit offset (a multiple of 6) into a 64-bit row; the row
// of byte b holds, at offset s, the state reached from s on b. One step is
// `state = row[b] >> (state & 63)`, a single shift on the critical path (the
// mask is implied by x86 and AArch64 shift instructions), so hostile input
// costs no branch mispredictions. The rows come from scalar/dfa.hpp, which
// computes them from table37.hpp. Only yes/no is decided here; the classifier
// in table37.hpp says where and why.
#include <cstring>

#include "kernel.hpp"
#include "scalar/dfa.hpp"
#include "scalar/prior.hpp"
#include "scalar/table37.hpp"

namespace utf8guard::detail {
namespace {

// The yes/no rows, computed from Table 3-7's lead table (scalar/dfa.hpp).
constexpr const std::uint64_t (&kRows)[256] = dfa::kTables.valid;
constexpr std::uint64_t A = dfa::kValidAccept;
constexpr std::uint64_t ERR = dfa::kValidError;

constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;
constexpr std::size_t kBlock = 16;

// Both entry points of kernel.hpp: with Open, an unfinished sequence at the
// very end is reported as open bytes, not as an error.
template <bool Open>
open_scan scan_impl(const std::uint8_t* p, std::size_t n, std::uint32_t prior) noexcept {
  if (Open && prior != 0 && n < 3) return stitched_open(p, n, prior);
  // Start in the state the carried bytes leave (a valid prefix: never ERR).
  std::uint64_t state = A;
  for (std::size_t k = 4 - prior_length(prior); k < 4; ++k)
    state = kRows[prior >> (8 * k) & 0xFF] >> (state & 63);
  std::size_t i = 0;
  // SAFETY: every block read is bounded by n - i >= kBlock.
  while (n - i >= kBlock) {
    if ((state & 63) == A) {
      std::uint64_t a, b;
      std::memcpy(&a, p + i, 8);
      std::memcpy(&b, p + i + 8, 8);
      if (((a | b) & kHighBits) == 0) {
        i += kBlock;
        continue;
      }
    }
    std::uint64_t s = state;
    for (std::size_t k = 0; k < kBlock; ++k) s = kRows[p[i + k]] >> (s & 63);
    if ((s & 63) == ERR) return {i, 0};  // the error is in this block (or its lead just before it)
    state = s;
    i += kBlock;
  }
  for (; i < n; ++i) {
    const std::uint64_t s = kRows[p[i]] >> (state & 63);
    if ((s & 63) == ERR) return {i, 0};
    state = s;
  }
  if ((state & 63) == A) return {n, 0};
  // Ending inside a sequence: open bytes for a stream, else the lead for the
  // classifier (which says "incomplete").
  const std::size_t lead = boundary_before(p, 0, n);
  return Open ? open_scan{n, n - lead} : open_scan{lead, 0};
}

std::size_t scalar_scan(const std::uint8_t* p, std::size_t n) noexcept {
  return scan_impl<false>(p, n, 0).pos;
}
open_scan scalar_scan_open(const std::uint8_t* p, std::size_t n, std::uint32_t prior) noexcept {
  return scan_impl<true>(p, n, prior);
}

bool always_usable() noexcept { return true; }

}  // namespace

extern const kernel kernel_scalar{
    "scalar",         kScalar, &always_usable, &scalar_scan, "nothing beyond the baseline CPU",
    &scalar_scan_open};

}  // namespace utf8guard::detail
