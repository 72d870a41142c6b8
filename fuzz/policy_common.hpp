// policy_common.hpp - what the targets that draw a policy from the data
// share (policy_differential, percent_differential): the policy itself and
// the Unicode data files the oracle cannot work without. The policy's names
// for the oracle are tests/support's denied_names (results.hpp).
#ifndef UTF8GUARD_FUZZ_POLICY_COMMON_HPP
#define UTF8GUARD_FUZZ_POLICY_COMMON_HPP

#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz_common.hpp"
#include "policy_reference.hpp"

namespace fuzz {

// require_ucd aborts, saying why, when the oracle cannot read the Unicode
// data files: without them every verdict would be wrong.
inline void require_ucd(const char* target) {
  std::string why;
  if (reference::ucd_available(&why)) return;
  std::fprintf(stderr, "%s: the oracle needs the Unicode data files: %s\n", target, why.c_str());
  std::abort();
}

// take_policy consumes two control bytes: any set of categories.
inline utf8guard::policy take_policy(data_reader& reader) {
  return utf8guard::policy::from_bits(reader.take_u16() & ((1u << utf8guard::category_count) - 1));
}

}  // namespace fuzz

#endif  // UTF8GUARD_FUZZ_POLICY_COMMON_HPP
