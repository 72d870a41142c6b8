// policy_test.cpp - policies through every entry point, on every kernel:
// names and profiles as docs/design.md spells them, hand-written vectors, the
// one-shot and streaming answers against the oracle (categories read from
// the Unicode data files) with every split of each input, and every scalar
// value, alone and across a SIMD block boundary, under every category.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels.hpp"
#include "policy_support.hpp"
#include "reduced.hpp"
#include "stream/policy_scan.hpp"

namespace utf8guard::testing {
namespace {

TEST(PolicyNames, CategoriesAndProfilesAsTheContractSpellsThem) {
  // The oracle's names, in bit order, are the contract's; the tests iterate
  // the library's table (kCategoryNames), which must say the same.
  ASSERT_EQ(reference::kCategoryNames.size(), category_count);
  for (std::size_t k = 0; k < kCategoryNames.size(); ++k) {
    const auto& [name, c] = kCategoryNames[k];
    EXPECT_EQ(name, reference::kCategoryNames[k]);
    EXPECT_EQ(static_cast<std::uint32_t>(c), 1u << k) << name;
    EXPECT_EQ(to_string(c), reference::kCategoryNames[k]);
    EXPECT_EQ(category_from_name(reference::kCategoryNames[k]), c);
  }
  EXPECT_EQ(to_string(category::none), "none");
  EXPECT_EQ(to_string(static_cast<category>(3)), "unknown");
  EXPECT_EQ(category_from_name("Bidi"), category::none);
  EXPECT_EQ(category_from_name(""), category::none);
  EXPECT_EQ(to_string(error::disallowed), kDisallowedName);
  EXPECT_STREQ(utf8guard_error_name(UTF8GUARD_ERROR_DISALLOWED), kDisallowedName.data());
  EXPECT_EQ(static_cast<int>(error::disallowed), UTF8GUARD_ERROR_DISALLOWED);

  const std::vector<std::pair<std::string_view, policy>> profiles = {
      {"strict", policy()},
      {"source",
       policy(category::nul) | category::control | category::c1 | category::bidi | category::bom},
      {"field", policy(category::nul) | category::control | category::newline | category::c1 |
                    category::bidi | category::bom | category::noncharacter},
      {"json", policy(category::noncharacter)},
      {"url", policy(category::nul) | category::control | category::newline | category::c1 |
                  category::bidi | category::bad_escape | category::double_encoding},
  };
  for (std::size_t k = 0; k < profiles.size(); ++k) {
    EXPECT_EQ(profile_name(k), profiles[k].first);
    policy p = policy::json();
    ASSERT_TRUE(profile_from_name(profiles[k].first, p));
    EXPECT_EQ(p, profiles[k].second) << profiles[k].first;
  }
  EXPECT_EQ(profile_name(profiles.size()), "");
  policy untouched = policy::json();
  EXPECT_FALSE(profile_from_name("Source", untouched));
  EXPECT_EQ(untouched, policy::json());
  EXPECT_EQ(policy::source(), profiles[1].second);
  EXPECT_EQ(policy::field(), profiles[2].second);
  EXPECT_EQ(policy::url(), profiles[4].second);
}

class Policy : public EveryKernel {};

TEST_P(Policy, HandWrittenVectors) {
  struct vec {
    std::string in;
    policy p;
    result want;
  };
  const std::vector<vec> vectors = {
      {"a\xE2\x80\xAE"
       "b",
       policy::source(),
       {error::disallowed, 1, 3, category::bidi, 0x202E}},
      {"a\xE2\x80\xAE"
       "b",
       policy::json(),
       {}},
      {"key: a\r\nb", policy::field(), {error::disallowed, 6, 1, category::newline, 0x0D}},
      {"key: a\r\nb", policy::source(), {}},
      {"tab\there", policy::field(), {}},
      {"\x1B[2J", policy::source(), {error::disallowed, 0, 1, category::control, 0x1B}},
      {"x\xC2\x9B"
       "31m",
       policy::source(),
       {error::disallowed, 1, 2, category::c1, 0x9B}},
      {"x\xC2\x85", policy::source(), {}},
      {"x\xC2\x85", policy::field(), {error::disallowed, 1, 2, category::newline, 0x85}},
      {std::string("a\0b", 3), policy::source(), {error::disallowed, 1, 1, category::nul, 0}},
      {"\xEF\xBB\xBFok", policy::source(), {}},
      {"ok\xEF\xBB\xBF", policy::source(), {error::disallowed, 2, 3, category::bom, 0xFEFF}},
      {"\xEF\xB7\x90", policy::json(), {error::disallowed, 0, 3, category::noncharacter, 0xFDD0}},
      {"\xF4\x8F\xBF\xBF",
       policy::json(),
       {error::disallowed, 0, 4, category::noncharacter, 0x10FFFF}},
      {"\xF4\x8F\xBF\xBD",
       policy(category::private_use),
       {error::disallowed, 0, 4, category::private_use, 0x10FFFD}},
      {"\xEF\xBF\xBD",
       policy(category::replacement),
       {error::disallowed, 0, 3, category::replacement, 0xFFFD}},
      {"%41%zz", policy::url(), {}},  // percent categories match nothing here
      // Input order: an ill-formed subpart before a violation wins, and after.
      {"\xC0\xAF\x1B", policy::source(), {error::overlong, 0, 1}},
      {"\x1B\xC0\xAF", policy::source(), {error::disallowed, 0, 1, category::control, 0x1B}},
      {"ab\xE2\x80", policy::field(), {error::incomplete, 2, 2}},
  };
  // The oracle reads its categories from the Unicode data files: without
  // them only the hand-written answers are checked.
  const bool ucd = reference::ucd_available(nullptr);
  for (const vec& v : vectors) {
    EXPECT_EQ(validate(v.in, v.p), v.want) << hex(v.in);
    EXPECT_EQ(is_valid(v.in, v.p), v.want.ok()) << hex(v.in);
    EXPECT_EQ(from_c(utf8guard_validate_policy(v.in.data(), v.in.size(), v.p.bits())), v.want);
    EXPECT_EQ(utf8guard_is_valid_policy(v.in.data(), v.in.size(), v.p.bits()), v.want.ok());
    if (ucd) {
      EXPECT_EQ(validate(v.in, v.p), oracle_first_error(v.in, v.p)) << hex(v.in);
    }
  }
}

// check_all compares every entry point under p with the oracle, for the
// input whole and split at every position (a stream's feeds).
void check_all(const std::string& in, policy p) {
  SCOPED_TRACE(hex(in));
  const std::vector<result> want = oracle_all_errors(in, p);
  const result first = want.empty() ? result{} : want.front();
  const std::string clean = reference::sanitize(in, denied_names(p));
  ASSERT_EQ(validate(in, p), first);
  ASSERT_EQ(is_valid(in, p), first.ok());
  ASSERT_EQ(sanitize(in, p), clean);
  std::string buf(sanitize_bound(in.size()), '\0');
  const std::size_t n = sanitize_to(in, buf.data(), buf.size(), p);
  ASSERT_EQ(buf.substr(0, n), clean);
  for (std::size_t cut = 0; cut <= in.size(); ++cut) {
    const std::string_view a = std::string_view(in).substr(0, cut);
    const std::string_view b = std::string_view(in).substr(cut);
    validator v(p);
    v.feed(a);
    v.feed(b);
    ASSERT_EQ(v.finish(), first) << "cut " << cut;
    error_scanner s(p);
    std::vector<result> got;
    const auto add = [&got](const result& r) { got.push_back(r); };
    s.feed(a, add);
    s.feed(b, add);
    s.finish(add);
    ASSERT_EQ(got, want) << "cut " << cut;
    sanitizer z(p);
    std::string out;
    const auto put = [&out](std::string_view piece) { out += piece; };
    z.feed(a, put);
    z.feed(b, put);
    z.finish(put);
    ASSERT_EQ(out, clean) << "cut " << cut;
    ASSERT_EQ(z.replacements(), want.size());
  }
}

TEST_P(Policy, RandomInputsEverySplitEveryPolicy) {
  UTF8GUARD_REQUIRE_UCD();
  input_maker m(0x9011C7);
  const std::vector<policy> policies = test_policies();
  for (int round = 0; round < 300; ++round) {
    const std::string in = policy_input(m, 12);
    for (const policy& p : policies) check_all(in, p);
  }
}

TEST_P(Policy, ByteByByteStreams) {
  UTF8GUARD_REQUIRE_UCD();
  input_maker m(0xB7E);
  for (int round = 0; round < 200; ++round) {
    const std::string in = policy_input(m, 16);
    const policy p = every_category();
    const std::vector<result> want = oracle_all_errors(in, p);
    validator v(p);
    error_scanner s(p);
    std::vector<result> got;
    for (const char c : in) {
      v.feed(std::string_view(&c, 1));
      s.feed(std::string_view(&c, 1), [&got](const result& r) { got.push_back(r); });
    }
    s.finish([&got](const result& r) { got.push_back(r); });
    EXPECT_EQ(v.finish(), want.empty() ? result{} : want.front()) << hex(in);
    EXPECT_EQ(got, want) << hex(in);
  }
}

TEST_P(Policy, StreamReportsAViolationByTheFeedThatCompletesIt) {
  validator v(policy::source());
  EXPECT_TRUE(v.feed("ab\xE2\x80").ok());
  EXPECT_EQ(v.feed("\xAE"), (result{error::disallowed, 2, 3, category::bidi, 0x202E}));
  EXPECT_EQ(v.feed("more"), (result{error::disallowed, 2, 3, category::bidi, 0x202E}));
  v.reset();  // the policy stays
  EXPECT_EQ(v.feed("\x07"), (result{error::disallowed, 0, 1, category::control, 7}));
  // A BOM split at byte 0 of the stream is a signature; later it is not.
  validator w(policy::source());
  EXPECT_TRUE(w.feed("\xEF").ok());
  EXPECT_TRUE(w.feed("\xBB\xBF").ok());
  EXPECT_EQ(w.feed("\xEF\xBB\xBF"), (result{error::disallowed, 3, 3, category::bom, 0xFEFF}));
}

TEST_P(Policy, EmptyPolicyChangesNothing) {
  input_maker m(0x5EED);
  for (int round = 0; round < 500; ++round) {
    const std::string in = policy_input(m, 10);
    EXPECT_EQ(validate(in, policy()), validate(in));
    EXPECT_EQ(is_valid(in, policy()), is_valid(in));
    EXPECT_EQ(sanitize(in, policy()), sanitize(in));
  }
}

// Every scalar value, under every category: with all categories denied it is
// a violation exactly when the oracle gives it a category (of that name), as
// it is with its category alone, and with all but its own denied it is
// accepted. Alone, and in a 512-byte
// ASCII input: ending at, and crossing, the 64-byte boundary, crossing the
// 256-byte one (AVX-512's prefilter group) after its first and after its
// second byte (where the prefilter finds a noncharacter's pair), and at the
// end.
TEST_P(Policy, EveryScalarValueUnderEveryCategory) {
  UTF8GUARD_REQUIRE_UCD();
  const policy all = every_category();
  std::string block(512, 'a');
  // Every scalar value, or every 7th when reduced (reduced.hpp).
  for (char32_t cp = 0; cp <= 0x10FFFF; cp += reduced_step()) {
    if (cp >= 0xD800 && cp < 0xE000) cp += 0x800;
    const std::string c = reference::encode(cp);
    const std::size_t len = c.size();
    for (const std::size_t at : {std::size_t{0}, 64 - len, std::size_t{63}, std::size_t{254},
                                 std::size_t{255}, 512 - len}) {
      std::string_view in;
      if (at == 0) {
        in = c;
      } else {
        block.replace(at, len, c);
        in = block;
      }
      const category want = category_named(reference::category_of(cp, at == 0));
      const result r = validate(in, all);
      if (want == category::none) {
        ASSERT_TRUE(r.ok()) << std::hex << static_cast<unsigned>(cp) << " at " << at;
      } else {
        ASSERT_EQ(r, (result{error::disallowed, at, len, want, cp}))
            << std::hex << static_cast<unsigned>(cp);
        // Its category alone: a policy that allows private use narrows the
        // prefilter's classes (EF only before B7, BB and BF).
        ASSERT_EQ(validate(in, policy(want)), (result{error::disallowed, at, len, want, cp}))
            << std::hex << static_cast<unsigned>(cp);
        ASSERT_TRUE(
            validate(in, policy::from_bits(all.bits() & ~static_cast<std::uint32_t>(want))).ok())
            << std::hex << static_cast<unsigned>(cp);
      }
      if (at != 0) block.replace(at, len, std::string(len, 'a'));
    }
  }
}

// Every scalar value through a stream cut inside it (after its first byte).
TEST_P(Policy, EveryScalarValueSplitInAStream) {
  UTF8GUARD_REQUIRE_UCD();
  const policy all = every_category();
  for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    if (cp == 0xD800) cp = 0xE000;
    std::string in = reference::encode(cp);
    in.insert(in.begin(), 'x');
    const category want = category_named(reference::category_of(cp, false));
    error_scanner s(all);
    std::size_t seen = 0;
    result got;
    const auto add = [&](const result& r) {
      ++seen;
      got = r;
    };
    s.feed(std::string_view(in).substr(0, 2), add);
    s.feed(std::string_view(in).substr(2), add);
    s.finish(add);
    if (want == category::none) {
      ASSERT_EQ(seen, 0u) << std::hex << static_cast<unsigned>(cp);
    } else {
      ASSERT_EQ(seen, 1u) << std::hex << static_cast<unsigned>(cp);
      ASSERT_EQ(got, (result{error::disallowed, 1, in.size() - 1, want, cp}))
          << std::hex << static_cast<unsigned>(cp);
    }
  }
}

// The one-shot calls settle a prefix of the ASCII a policy allows whole in
// one pass (core/policy.hpp, quiet_ascii_prefix) and check the rest as
// usual. One piece in printable ASCII (whose bytes run from ' ' to '~', the
// edges of field's interval) at every position of short inputs, and at and
// around each register and group boundary of longer ones: the prefix must
// stop before the piece, and hand the rest over at a character boundary
// with its offsets, a BOM after it included.
TEST_P(Policy, QuietAsciiPrefixHandsOverAtTheFirstByteItMustNotPass) {
  UTF8GUARD_REQUIRE_UCD();
  // Below field's interval, allowed or not, above it, ill-formed, and
  // non-ASCII: denied, allowed, a BOM, and cut short by ASCII.
  const std::vector<std::string> pieces = {
      std::string(1, '\0'), "\t",       "\x7F",         "\x80",
      "\xC2\x85",           "\xC2\xA0", "\xEF\xBB\xBF", "\xE2\x80"};
  const std::vector<policy> policies = {policy::field(), policy::json(), every_category()};
  std::vector<std::size_t> lengths;
  for (std::size_t n = 0; n <= 70; ++n) lengths.push_back(n);
  for (const std::size_t edge : {128, 256, 512}) {
    for (std::size_t n = edge - 1; n <= edge + 1; ++n) lengths.push_back(n);
  }
  std::string text;
  for (std::size_t k = 0; k < 520; ++k) text += static_cast<char>(' ' + (k * 37) % 95);
  for (const std::size_t n : lengths) {
    for (std::size_t at = 0; at <= n; at += reduced_step()) {
      // Past 70 bytes: the positions within 2 of a multiple of 16.
      if (n > 70 && (at + 2) % 16 > 4) continue;
      for (const std::string& piece : pieces) {
        const std::string in = text.substr(0, at) + piece + text.substr(at, n - at);
        for (const policy& p : policies) {
          SCOPED_TRACE(hex(in.substr(at > 4 ? at - 4 : 0, 12)) + " at " + std::to_string(at));
          const result want = oracle_first_error(in, p);
          ASSERT_EQ(validate(in, p), want);
          ASSERT_EQ(is_valid(in, p), want.ok());
          const std::string clean = reference::sanitize(in, denied_names(p));
          ASSERT_EQ(sanitize(in, p), clean);
          std::string buf(sanitize_bound(in.size()), '\0');
          ASSERT_EQ(buf.substr(0, sanitize_to(in, buf.data(), buf.size(), p)), clean);
        }
      }
    }
  }
}

// After its whole groups of registers, the vector prefilter reads what is
// left of a short input as registers, the last one partial: a denied
// character at every position of inputs a little longer and shorter than a
// register and a group, among non-ASCII characters it must pass (Arabic, an
// ellipsis and CJK punctuation, which share their leads with bidi controls
// and noncharacters), with a character it flags in the last bytes and in the
// first bytes of the next register. The input starts non-ASCII, so that the
// pass over quiet ASCII stops at byte 0 and the prefilter reads it all.
TEST_P(Policy, PrefilterFindsADeniedCharacterAtEveryPositionOfAShortInput) {
  UTF8GUARD_REQUIRE_UCD();
  const std::vector<std::string> fillers = {"\xD8\xA7", "\xE2\x80\xA6", "\xEF\xBC\x8C", "a",
                                            "\xC3\xA9"};
  const std::vector<std::string> denied = {"\xC2\x85",     "\xE2\x80\xAE", "\xF0\x9F\xBF\xBE",
                                           "\xEF\xBB\xBF", "\x1B",         "\xF3\xB0\x80\x80"};
  const std::vector<policy> policies = {policy::field(), policy::url(), every_category()};
  // Lengths in characters: every one up to past a 64-byte register's group
  // of four in bytes (the fillers average 2.2 bytes), with a step beyond.
  for (std::size_t chars = 1; chars <= 140; chars += chars < 40 ? 1 : reduced_step()) {
    std::string text;
    for (std::size_t k = 0; k < chars; ++k) text += fillers[(k * 7) % fillers.size()];
    for (std::size_t at = 2; at <= text.size(); at += reduced_step()) {
      // Character boundaries only: no continuation byte at text[at].
      if (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) continue;
      for (const std::string& piece : denied) {
        const std::string in = text.substr(0, at) + piece + text.substr(at);
        for (const policy& p : policies) {
          SCOPED_TRACE(std::to_string(in.size()) + " bytes, piece at " + std::to_string(at));
          const result want = oracle_first_error(in, p);
          ASSERT_EQ(validate(in, p), want) << hex(in);
          ASSERT_EQ(is_valid(in, p), want.ok()) << hex(in);
        }
      }
    }
  }
}

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(Policy);

}  // namespace
}  // namespace utf8guard::testing
