// policy_common.hpp - what the targets that draw a policy from the data
// share (policy_differential, percent_differential): the policy itself, its
// categories in the oracle's spelling, and the Unicode data files the oracle
// cannot work without.
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

// denied_names is the policy's categories as the oracle spells them, never
// through the library's names.
inline reference::denied denied_names(utf8guard::policy p) {
  reference::denied out;
  for (std::size_t k = 0; k < utf8guard::category_count; ++k) {
    if (p.denies(static_cast<utf8guard::category>(1u << k))) {
      out.insert(reference::kCategoryNames.at(k));
    }
  }
  return out;
}

}  // namespace fuzz

#endif  // UTF8GUARD_FUZZ_POLICY_COMMON_HPP
