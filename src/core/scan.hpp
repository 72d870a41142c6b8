// scan.hpp - what a scan of UTF-8 answers, the interface every kernel's
// functions have (kernels/kernel.hpp lists them per instruction set).
//
// "SIMD says yes/no; scalar says where and why": a kernel only scans. It
// returns a position pos such that p[0..pos) is a valid prefix (well-formed but
// for at most one unfinished sequence at its end), and returns n only when all
// of p[0..n) is well-formed. When pos < n, the first error, if any, starts
// within 3 bytes before pos or after it: the driver steps
// back to a sequence boundary and lets the Table 3-7 classifier
// (core/table37.hpp) decide kind, offset and length. So every kernel reports
// identical errors.
//
// scan_open(p, n, prior) is the same scan for a chunk of a stream: p[0..n)
// continues the unfinished sequence in prior (a carry word, core/carry.hpp;
// 0 for none), and a chunk that ends inside a sequence is normal, not an
// error. It returns {n, open, tail} when prior + p[0..n - open) is
// well-formed and the last open bytes (0..3; all in p when n >= 3) are an
// unfinished but valid sequence, tail being those bytes as a carry word (0
// when open is 0; byte 0 may hold the ASCII hint when open is 0 and the chunk
// ends in ASCII), and otherwise {pos, 0, 0} with pos as scan would return it
// (0..2 when the sequence from prior breaks).
#ifndef UTF8GUARD_CORE_SCAN_HPP
#define UTF8GUARD_CORE_SCAN_HPP

#include <cstddef>
#include <cstdint>

#include "utf8guard/utf8guard.hpp"

namespace utf8guard::detail {

using scan_fn = std::size_t (*)(const std::uint8_t* p, std::size_t n) noexcept;
// valid(p, n) is scan(p, n) == n, answered without finding where an error
// is when that is cheaper (is_valid's short inputs).
using valid_fn = bool (*)(const std::uint8_t* p, std::size_t n) noexcept;
// short_copy(p, n, out, capacity, rest), for n <= kShortCopy and n <=
// capacity, is sanitize_to's short path (utf8guard.hpp): n when p[0..n) is
// well-formed, and then p[0..n) has been copied to out[0..n) and nothing past
// it written; else rest(p, n, out, capacity)'s answer. The caller passes
// rest (the engine): a kernel calls nothing above it, and reaches the engine
// by a jump, so that sanitize_to's short path returns with no frame.
inline constexpr std::size_t kShortCopy = 128;
using sanitize_rest_fn = std::size_t (*)(const std::uint8_t* p, std::size_t n, char* out,
                                         std::size_t capacity) noexcept;
// One word: the kernels' default short_dfa (kernels/kernel.hpp).
inline constexpr std::size_t kShortDfa = 8;
using short_copy_fn = std::size_t (*)(const std::uint8_t* p, std::size_t n, char* out,
                                      std::size_t capacity, sanitize_rest_fn rest) noexcept;

// classify_scan is the error near the position pos < n that a scan
// returned: the scalar classifier (core/classify.cpp), from the sequence
// start at most 3 bytes before pos. Out of line; its answer, like every
// kernel's validate, is a packed_result (utf8guard.hpp), which comes back in
// two registers: a function that passes a result's memory to a call gets a
// stack-protector check on every call, the path of valid input too.
packed_result classify_scan(const std::uint8_t* p, std::size_t n, std::size_t pos) noexcept;
inline constexpr packed_result kPackedOk{0, 0};
// validate_at is validate's answer for p[0..n) given what scan returned for
// it: every kernel's validate ends here, so every kernel reports identical
// errors.
inline packed_result validate_at(const std::uint8_t* p, std::size_t n, std::size_t pos) noexcept {
  if (pos == n) return kPackedOk;
  return classify_scan(p, n, pos);
}
// validate(p, n) is validate_at(p, n, scan(p, n)), with the kernel's own
// shortcuts (utf8_lookup.hpp): the one-shot validate calls it directly.
using validate_fn = packed_result (*)(const std::uint8_t* p, std::size_t n) noexcept;

struct open_scan {
  std::size_t pos;
  std::uint32_t open;
  std::uint32_t tail;
};
using open_scan_fn = open_scan (*)(const std::uint8_t* p, std::size_t n,
                                   std::uint32_t prior) noexcept;

// scan_no_percent(p, n) is scan for percent-encoded input (api/percent.cpp):
// it returns kSawStop as soon as it meets a '%' before a certain error, and
// otherwise what scan returns, so that input without escapes is validated
// in one pass. scan_no_backslash(p, n) is the same for JSON text
// (api/json.cpp) and its backslash.
inline constexpr std::uint8_t kPercent = '%';
inline constexpr std::uint8_t kBackslash = '\\';
inline constexpr std::size_t kSawStop = SIZE_MAX;

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_CORE_SCAN_HPP
