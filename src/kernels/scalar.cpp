// scalar.cpp - the portable kernel: a branch-free shift DFA over
// Table 3-7 with an ASCII fast path of 16 bytes at a time.
//
// Each DFA state is a bit offset (a multiple of 6) into a 64-bit row; the row
// of byte b holds, at offset s, the state reached from s on b. One step is
// `state = row[b] >> (state & 63)`, a single shift on the critical path (the
// mask is implied by x86 and AArch64 shift instructions), so hostile input
// costs no branch mispredictions. The rows come from core/dfa.hpp, which
// computes them from table37.hpp. Only yes/no is decided here; the classifier
// in table37.hpp says where and why.
#include <cstdint>
#include <cstring>

#include "core/carry.hpp"
#include "core/dfa.hpp"
#include "core/short_input.hpp"
#include "core/table37.hpp"
#include "kernels/kernel.hpp"

namespace utf8guard::detail {
namespace {

// The yes/no rows, computed from Table 3-7's lead table (core/dfa.hpp).
constexpr const std::uint64_t (&kRows)[256] = dfa::kTables.valid;
constexpr std::uint64_t A = dfa::kValidAccept;
constexpr std::uint64_t ERR = dfa::kValidError;

constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;
constexpr std::size_t kBlock = 16;
// Inputs at least this long are walked as two halves side by side.
constexpr std::size_t kSplitMin = 256;
// Inputs up to this long (stream chunks, typically) have their first 4 KiB
// prefetched (walk_all).
constexpr std::size_t kPrefetchMax = 64 * 1024;

// is_ascii_block says whether the 16 bytes at p[i] are all ASCII.
inline bool is_ascii_block(const std::uint8_t* p, std::size_t i) noexcept {
  // SAFETY: the caller checked i + kBlock <= n.
  return ((load_word(p + i) | load_word(p + i + 8)) & kHighBits) == 0;
}

// ascii_blocks returns the end of the whole 256-byte blocks of ASCII from
// p[i] on: one branch per 32 words, where 16-byte blocks took one per 2.
constexpr std::size_t kAsciiBlock = 256;
inline std::size_t ascii_blocks(const std::uint8_t* p, std::size_t n, std::size_t i) noexcept {
  // SAFETY: each block read is bounded by n - i >= kAsciiBlock.
  for (; n - i >= kAsciiBlock; i += kAsciiBlock) {
    std::uint64_t any = 0;
    for (std::size_t k = 0; k < kAsciiBlock; k += 8) any |= load_word(p + i + k);
    if ((any & kHighBits) != 0) break;
  }
  return i;
}

// One step of one stream over a 16-byte block at p[i]: skipped when the
// stream is at a boundary and the block is ASCII, else 16 DFA steps.
// The block is tested first: on non-ASCII text whether the stream is at a
// boundary is a coin toss, while "this block is not ASCII" is a steady
// answer. Forced inline: clang keeps one out-of-line copy that both
// streams of walk_all call, so their loads shared one address in the code,
// and prefetchers that follow a load instruction's stride lose both streams.
inline __attribute__((always_inline)) std::uint64_t block(const std::uint8_t* p, std::size_t i,
                                                          std::uint64_t state) noexcept {
  if (is_ascii_block(p, i) && (state & 63) == A) return state;
  for (std::size_t k = 0; k < kBlock; ++k) state = kRows[p[i + k]] >> (state & 63);
  return state;
}

// walk runs one stream over p[i..end) from `state`: the final state, or the
// position where it failed (the start of the block, or the byte, that led to
// ERR).
struct walk_end {
  std::uint64_t state;
  std::size_t failed_at;  // SIZE_MAX when it did not fail
};
inline walk_end walk(const std::uint8_t* p, std::size_t i, std::size_t end,
                     std::uint64_t state) noexcept {
  // SAFETY: every block read is bounded by end - i >= kBlock.
  for (; end - i >= kBlock; i += kBlock) {
    const std::uint64_t s = block(p, i, state);
    if ((s & 63) == ERR) return {s, i};
    state = s;
  }
  for (; i < end; ++i) {
    const std::uint64_t s = kRows[p[i]] >> (state & 63);
    if ((s & 63) == ERR) return {s, i};
    state = s;
  }
  return {state, SIZE_MAX};
}

// walk_all runs the DFA over p[0..n) from `state`: the final state and where
// its last sequence may begin (a boundary), or where it failed.
//
// One DFA walk costs a shift per byte on its dependency chain, so a long
// input is cut in two near the middle, at a byte that is not a continuation,
// and both halves are walked at once: two chains in flight. The first half
// must end at a boundary for the cut to be one; when it does not, the
// sequence there is broken by the byte after the cut. An ASCII prefix is
// read first, in one stream: for ASCII the work is reading, and one
// sequential stream is what the hardware prefetcher follows best. One
// function for both entry points, so both get the same code.
struct walk_all_end {
  std::uint64_t state;
  std::size_t boundary;   // a sequence boundary at or before the last sequence
  std::size_t failed_at;  // SIZE_MAX when it did not fail
};
walk_all_end walk_all(const std::uint8_t* p, std::size_t n, std::uint64_t state) noexcept {
  std::size_t start = 0;
  // Whole blocks only after a first 16 bytes of ASCII: after an error the
  // engine scans from the next byte, and on text with errors every few
  // hundred bytes a block attempted there would fail at nearly every scan.
  if ((state & 63) == A && n >= kBlock && is_ascii_block(p, 0)) {
    start = ascii_blocks(p, n, kBlock);
    while (n - start >= kBlock && is_ascii_block(p, start)) start += kBlock;
  }
  if (n - start < kSplitMin) {
    const walk_end w = walk(p, start, n, state);
    return {w.state, start, w.failed_at};
  }
  // Two streams that start cold, at every call: a stream of 4 KiB chunks
  // from memory makes one call per chunk, and the hardware prefetcher, which
  // learns a stream from its misses and stops at a page's end, leaves both
  // halves waiting for memory. So the first 4 KiB are requested at once, one
  // prefetch per cache line, all inside p[0..n) (prefetching only the second
  // half's start does not help). Only for inputs up to kPrefetchMax: a call
  // on a long input is one-shot (the hardware prefetcher soon has its
  // stream) or, far more often, the rest of an input after an error, whose
  // next lines the scan that found the error has just read, and there the
  // prefetches would cost a good part of the walk.
  if (n - start <= kPrefetchMax) {
    for (std::size_t o = start; o < n && o - start < 4096; o += 64) __builtin_prefetch(p + o);
  }
  // The cut steps over at most 3 continuations, counted without branches:
  // whether p[mid] continues a sequence is a coin toss on non-ASCII text, and
  // a mispredicted branch on it waits for a line of the input that nothing
  // has read yet (from memory, in a stream of small chunks).
  std::size_t mid = start + (n - start) / 2;
  // SAFETY: n - start >= kSplitMin, so mid + 2 < n.
  const std::size_t c0 = is_continuation(p[mid]);
  const std::size_t c1 = c0 & is_continuation(p[mid + 1]);
  mid += c0 + c1 + (c1 & is_continuation(p[mid + 2]));
  std::uint64_t sa = state, sb = A;
  std::size_t a = start, b = mid;
  // SAFETY: b + kBlock <= n and a + kBlock <= mid while both run.
  const std::size_t steps = (mid - start < n - mid ? mid - start : n - mid) / kBlock;
  for (std::size_t step = 0; step < steps; ++step) {
    const std::uint64_t na = block(p, a, sa), nb = block(p, b, sb);
    if ((na & 63) == ERR || (nb & 63) == ERR) break;
    sa = na;
    sb = nb;
    a += kBlock;
    b += kBlock;
  }
  // The first half decides first: its errors come before the second's.
  const walk_end first = walk(p, a, mid, sa);
  if (first.failed_at != SIZE_MAX) return {first.state, 0, first.failed_at};
  if ((first.state & 63) != A) return {first.state, 0, mid};  // its last sequence is cut at mid
  const walk_end second = walk(p, b, n, sb);
  return {second.state, mid, second.failed_at};
}

// Both entry points of kernels/kernel.hpp: with Open, an unfinished sequence at the
// very end is reported as open bytes, not as an error.
template <bool Open>
open_scan scan_impl(const std::uint8_t* p, std::size_t n, std::uint32_t prior) noexcept {
  if (Open && n < 3) return stitched_open(p, n, prior);
  // Start in the state the carried bytes leave (a valid prefix: never ERR).
  std::uint64_t state = A;
  for (std::size_t k = 4 - prior_length(prior); k < 4; ++k)
    state = kRows[prior >> (8 * k) & 0xFF] >> (state & 63);
  const walk_all_end w = walk_all(p, n, state);
  if (w.failed_at != SIZE_MAX) return {w.failed_at, 0, 0};
  if constexpr (Open) {
    // A valid prefix that ends inside a sequence ends with its lead and the
    // continuations so far, all in the last 3 bytes (n >= 3, so the lead is
    // in the chunk): core/carry.hpp finds them without a branch on where the
    // chunk ends, a coin toss on non-ASCII text that would wait for the end
    // of the DFA's chain. A chunk whose ASCII prefix ran to its end leaves
    // the hint.
    const std::uint32_t last = last_bytes(p, n);
    const std::uint32_t open = open_length(last);
    return {n, open, open_word(last, open) | (w.boundary == n ? kAsciiHint : 0)};
  } else {
    if ((w.state & 63) == A) return {n, 0, 0};
    // Ending inside a sequence: the lead, for the classifier (which says
    // "incomplete").
    return {boundary_before(p, w.boundary, n), 0, 0};
  }
}

std::size_t scalar_scan(const std::uint8_t* p, std::size_t n) noexcept {
  if (n <= kShortScalar) return short_scan(p, n);
  return scan_impl<false>(p, n, 0).pos;
}
// The streaming body, out of line, so that a chunk the hint settles costs
// its loads and no frame.
__attribute__((noinline)) open_scan scan_open_body(const std::uint8_t* p, std::size_t n,
                                                   std::uint32_t prior) noexcept {
  return scan_impl<true>(p, n, prior);
}
open_scan scalar_scan_open(const std::uint8_t* p, std::size_t n, std::uint32_t prior) noexcept {
  // A short chunk after one that left nothing open, as a stream of header
  // values or keys feeds them: short_scan, as one-shot validation. A chunk
  // that ends inside a sequence, or holds an error, takes the general path.
  if (prior <= kAsciiHint && n - 1 < kShortScalar) {
    if (short_scan(p, n) == n) return {n, 0, 0};
    return scan_open_body(p, n, 0);
  }
  if (prior != kAsciiHint) return scan_open_body(p, n, prior);
  // The chunk before ended in ASCII (core/carry.hpp): whole blocks first. The
  // rest of the chunk follows ASCII, as if it started a stream.
  const std::size_t i = ascii_blocks(p, n, 0);
  if (i == n) return {n, 0, kAsciiHint};
  open_scan rest = scan_open_body(p + i, n - i, 0);  // SAFETY: i < n
  rest.pos += i;
  return rest;
}

// scan_no_percent and scan_no_backslash (core/scan.hpp): memchr, then the
// scan, two passes where the vector kernels make one.
template <std::uint8_t Stop>
std::size_t scalar_scan_no(const std::uint8_t* p, std::size_t n) noexcept {
  if (n != 0 && std::memchr(p, Stop, n) != nullptr) return kSawStop;
  return scalar_scan(p, n);
}

bool scalar_valid(const std::uint8_t* p, std::size_t n) noexcept { return scalar_scan(p, n) == n; }
packed_result scalar_validate(const std::uint8_t* p, std::size_t n) noexcept {
  return validate_at(p, n, scalar_scan(p, n));
}

}  // namespace

extern const kernel kernel_scalar{"scalar",
                                  "",
                                  &scalar_scan,
                                  &scalar_scan_open,
                                  &scalar_scan_no<kPercent>,
                                  &scalar_scan_no<kBackslash>,
                                  &scalar_valid,
                                  &scalar_validate,
                                  kShortDfa,
                                  &checked_copy<&scalar_valid>};

}  // namespace utf8guard::detail
