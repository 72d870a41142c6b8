// policy_properties_test.cpp - RapidCheck properties of policies, on every
// kernel: sanitizing under a policy leaves nothing that policy denies; a
// policy never changes the answer on text that holds nothing it denies; and a
// stream cut anywhere reports the same events as the oracle on the whole
// input, with and without a policy.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <string>
#include <vector>

#include "check_property.hpp"
#include "generators.hpp"
#include "kernels.hpp"
#include "policy_support.hpp"

namespace utf8guard::testing {
namespace {

// A policy: any set of the categories.
rc::Gen<policy> any_policy() {
  return rc::gen::map(rc::gen::inRange<std::uint32_t>(0, 1u << category_count),
                      [](std::uint32_t bits) { return policy::from_bits(bits); });
}

// Bytes with the characters of the categories mixed in.
rc::Gen<std::string> policy_bytes() {
  const rc::Gen<std::string> piece = rc::gen::oneOf(
      gen::piece(), gen::piece(),
      rc::gen::map(gen::index(std::size(kCategoryScalars) - 1),
                   [](std::size_t i) { return reference::encode(kCategoryScalars[i]); }));
  return rc::gen::map(rc::gen::container<std::vector<std::string>>(piece), gen::joined);
}

class PolicyProperties : public EveryKernel {};

TEST_P(PolicyProperties, SanitizedUnderAPolicyIsCleanUnderIt) {
  UTF8GUARD_REQUIRE_UCD();
  check_property([] {
    const std::string in = *policy_bytes();
    const policy p = *any_policy();
    const std::string once = sanitize(in, p);
    RC_ASSERT(hex(once) == hex(reference::sanitize(in, denied_names(p))));
    // U+FFFD is what sanitizing writes, so a policy that denies it finds
    // those and nothing else.
    const policy without = policy::from_bits(p.bits() & ~UTF8GUARD_CATEGORY_REPLACEMENT);
    RC_ASSERT(validate(once, without).ok());
    RC_ASSERT(is_valid(once, without));
    for (const result& r : oracle_all_errors(once, p)) {
      RC_ASSERT(r.kind == error::disallowed && r.category == category::replacement);
    }
    RC_ASSERT(hex(sanitize(once, without)) == hex(once));
  });
}

TEST_P(PolicyProperties, APolicyChangesNothingOnTextWithoutDeniedCharacters) {
  UTF8GUARD_REQUIRE_UCD();
  check_property([] {
    const policy p = *any_policy();
    // Well-formed text, less the characters p denies (the oracle decides).
    std::string in;
    for (const char32_t cp : *gen::scalars()) {
      const std::string_view cat = reference::category_of(cp, in.empty());
      if (cat.empty() || !p.denies(category_named(cat))) in += reference::encode(cp);
    }
    RC_ASSERT(is_valid(in, p));
    RC_ASSERT(validate(in, p).ok());
    RC_ASSERT(hex(sanitize(in, p)) == hex(in));
    // And on any bytes: where the oracle sees no violation, the answer is
    // the policy-free one.
    const std::string any = *policy_bytes();
    const std::vector<result> all = oracle_all_errors(any, p);
    const bool violation = std::any_of(all.begin(), all.end(),
                                       [](const result& r) { return r.kind == error::disallowed; });
    if (!violation) {
      RC_ASSERT(validate(any, p) == validate(any));
      RC_ASSERT(is_valid(any, p) == is_valid(any));
      RC_ASSERT(hex(sanitize(any, p)) == hex(sanitize(any)));
    }
  });
}

TEST_P(PolicyProperties, SplittingAStreamChangesNoEventWithOrWithoutAPolicy) {
  UTF8GUARD_REQUIRE_UCD();
  check_property([] {
    const std::string in = *policy_bytes();
    const std::vector<std::size_t> cuts = *gen::cuts(in.size());
    const policy p = *rc::gen::oneOf(rc::gen::just(policy()), any_policy());
    validator v(p);
    sanitizer s(p);
    error_scanner scan(p);
    std::string out;
    std::vector<result> errors;
    auto sink = [&out](std::string_view b) { out.append(b); };
    auto on_error = [&errors](const result& r) { errors.push_back(r); };
    for (const std::string_view chunk : gen::chunks_of(in, cuts)) {
      v.feed(chunk);
      RC_ASSERT(s.feed(chunk, sink));
      RC_ASSERT(scan.feed(chunk, on_error));
    }
    const std::vector<result> want = oracle_all_errors(in, p);
    RC_ASSERT(v.finish() == (want.empty() ? result{} : want.front()));
    RC_ASSERT(v.finish() == validate(in, p));
    RC_ASSERT(s.finish(sink));
    RC_ASSERT(hex(out) == hex(reference::sanitize(in, denied_names(p))));
    RC_ASSERT(s.replacements() == want.size());
    RC_ASSERT(scan.finish(on_error));
    RC_ASSERT(errors == want);
  });
}

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(PolicyProperties);

}  // namespace
}  // namespace utf8guard::testing
