// one_shot.hpp - a one-shot check under a policy, written once: the
// sequence behind validate and is_valid with a policy, and behind the
// percent-encoded forms (api/percent.cpp). sanitize takes the same quiet
// prefix and leaves the rest to the engine's policy_filter
// (api/sanitize.cpp), which also writes the output.
#ifndef UTF8GUARD_API_ONE_SHOT_HPP
#define UTF8GUARD_API_ONE_SHOT_HPP

#include <cstddef>
#include <cstdint>

#include "stream/policy_scan.hpp"
#include "utf8guard/utf8guard.hpp"

namespace utf8guard::detail {

// policy_first is the policy's part: r is the kernel's answer for the bytes
// p[0..n) (offsets absolute, p[0] at base, which starts a character). The
// answer is the first character deny holds in the well-formed bytes before
// r's error (all of them when r is ok), else r. quiet_checked as
// find_violation's.
inline result policy_first(const std::uint8_t* p, std::size_t n, const result& r, std::size_t base,
                           utf8guard_policy deny, bool quiet_checked) noexcept {
  const result v =
      find_violation(p, (r.ok() ? base + n : r.offset) - base, base, deny, quiet_checked);
  return v.ok() ? r : v;
}

// one_shot checks p[0..n) under deny != 0 in three steps:
//   1. a prefix of ASCII that deny allows whole is settled by one pass
//      (quiet_ascii_prefix): all of a quiet input, such as a header value;
//   2. scan(q, len), the kernel's first error in the rest p[q..q+len), which
//      starts at a character boundary, as if it started the input;
//   3. policy_first: the policy's check of the well-formed bytes before it.
// scan returns a result with offsets from the rest's start; an answer that
// only says yes or no may give any error at offset 0, which leaves the
// policy nothing to read.
template <class Scan>
result one_shot(const std::uint8_t* p, std::size_t n, utf8guard_policy deny, Scan&& scan) {
  const std::size_t q = quiet_ascii_prefix(p, n, deny);
  if (q == n) return {};
  result r = scan(p + q, n - q);
  if (!r.ok()) {
    r.offset += q;
    if (r.offset == q) return r;  // the rest starts with its error: nothing before it
  }
  return policy_first(p + q, n - q, r, q, deny, true);
}

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_API_ONE_SHOT_HPP
