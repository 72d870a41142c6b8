// json_properties_test.cpp - RapidCheck properties of JSON text (docs/design.md,
// the JSON form), on every kernel:
//   - every sequence of scalar values, spelled with \u escapes (a pair for a
//     supplementary character, hex digits in either case), is valid and
//     decodes back to it (the oracle's decoding); under a policy it is
//     refused exactly where the same text written raw is, for the same
//     category and code point;
//   - sanitize's output always validates under the same policy (less
//     replacement, which is what sanitize writes), and equals the oracle's;
//   - sanitize is the identity on valid input.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstdio>
#include <string>
#include <vector>

#include "check_property.hpp"
#include "generators.hpp"
#include "json_checks.hpp"
#include "json_reference.hpp"
#include "kernels.hpp"
#include "policy_support.hpp"

namespace utf8guard::testing {
namespace {

rc::Gen<policy> any_policy() {
  return rc::gen::map(rc::gen::inRange<std::uint32_t>(0, 1u << category_count),
                      [](std::uint32_t bits) { return policy::from_bits(bits); });
}

// unit_escape is \uXXXX for one UTF-16 unit, in lower or upper case hex.
std::string unit_escape(unsigned u, bool upper) {
  char buf[8];
  std::snprintf(buf, sizeof buf, upper ? "\\u%04X" : "\\u%04x", u);
  return buf;
}

// escaped spells a scalar value as JSON escapes: \uXXXX, or a surrogate pair.
std::string escaped(char32_t cp, bool upper) {
  if (cp < 0x10000) return unit_escape(cp, upper);
  const unsigned v = static_cast<unsigned>(cp) - 0x10000;
  return unit_escape(0xD800 + (v >> 10), upper) + unit_escape(0xDC00 + (v & 0x3FF), upper);
}

// Scalar values, the categories' edges among them.
rc::Gen<std::vector<char32_t>> json_scalars() {
  const rc::Gen<char32_t> one = rc::gen::oneOf(
      gen::scalar(), rc::gen::map(gen::index(std::size(kCategoryScalars) - 1),
                                  [](std::size_t i) { return kCategoryScalars[i]; }));
  return rc::gen::container<std::vector<char32_t>>(one);
}

// JSON text of any kind: the pieces of json_checks.hpp and any bytes.
rc::Gen<std::string> json_bytes() {
  const rc::Gen<std::string> piece = rc::gen::oneOf(
      gen::piece(), rc::gen::map(gen::index(json_checks::pieces().size() - 1),
                                 [](std::size_t i) { return json_checks::pieces()[i]; }));
  return rc::gen::map(rc::gen::container<std::vector<std::string>>(piece), gen::joined);
}

class JsonProperties : public EveryKernel {};

TEST_P(JsonProperties, EscapedScalarsAreValidAndDecodeBack) {
  check_property([] {
    const std::vector<char32_t> cps = *json_scalars();
    const bool upper = *rc::gen::arbitrary<bool>();
    std::string in;
    std::string raw;
    for (const char32_t cp : cps) {
      in += escaped(cp, upper);
      raw += reference::encode(cp);
    }
    RC_ASSERT(json::validate(in).ok());
    RC_ASSERT(json::is_valid(in));
    RC_ASSERT(reference::json::scalars(in) == std::u32string(cps.begin(), cps.end()));
    RC_ASSERT(hex(json::sanitize(in, policy())) == hex(in));
  });
}

TEST_P(JsonProperties, EscapedTextIsRefusedWhereRawTextIs) {
  UTF8GUARD_REQUIRE_UCD();
  check_property([] {
    const std::vector<char32_t> cps = *json_scalars();
    const policy p = *any_policy();
    std::string in;
    std::string raw;
    for (const char32_t cp : cps) {
      in += escaped(cp, false);
      raw += reference::encode(cp);
    }
    const encoded_result got = json::validate(in, p);
    const result want = validate(raw, p);
    RC_ASSERT(got.kind == want.kind);
    RC_ASSERT(got.category == want.category);
    RC_ASSERT(got.code_point == want.code_point);
    RC_ASSERT(json::is_valid(in, p) == want.ok());
  });
}

TEST_P(JsonProperties, SanitizedAlwaysValidates) {
  UTF8GUARD_REQUIRE_UCD();
  check_property([] {
    const std::string in = *json_bytes();
    const policy p = *any_policy();
    const std::string once = json::sanitize(in, p);
    RC_ASSERT(hex(once) == hex(reference::json::sanitize(in, denied_names(p))));
    const policy without = policy::from_bits(p.bits() & ~UTF8GUARD_CATEGORY_REPLACEMENT);
    RC_ASSERT(json::validate(once, without).ok());
    RC_ASSERT(json::is_valid(once, without));
    RC_ASSERT(hex(json::sanitize(once, without)) == hex(once));
  });
}

TEST_P(JsonProperties, SanitizeIsTheIdentityOnValidInput) {
  UTF8GUARD_REQUIRE_UCD();
  check_property([] {
    const policy p = *any_policy();
    // Characters p allows, each raw or escaped (a backslash always escaped:
    // raw, it would start an escape), and the short escapes.
    std::string in;
    for (const char32_t cp : *json_scalars()) {
      const std::string_view cat = reference::category_of(cp, in.empty());
      if (!cat.empty() && p.denies(category_named(cat))) continue;
      switch (*rc::gen::inRange(0, 3)) {
        case 0: in += cp == U'\\' ? std::string("\\\\") : reference::encode(cp); break;
        case 1: in += escaped(cp, true); break;
        default:
          in += *rc::gen::element(std::string("\\\\"), std::string("\\/"), std::string("\\\""),
                                  std::string("\\t"));
          break;
      }
    }
    RC_ASSERT(reference::json::all_errors(in, denied_names(p)).empty());
    RC_ASSERT(json::is_valid(in, p));
    RC_ASSERT(hex(json::sanitize(in, p)) == hex(in));
  });
}

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(JsonProperties);

}  // namespace
}  // namespace utf8guard::testing
