// percent_test.cpp - percent-encoded input (docs/design.md 2.3) through every
// entry point, on every kernel, against the oracle
// (tests/reference/percent_reference.hpp) and hand-worked answers:
//   - every %XX in both cases of hex digits, alone and between raw bytes and
//     other escapes;
//   - every sequence of 2, 3 and 4 escapes over the bytes at the edges of
//     Table 3-7's rows;
//   - every malformed escape form, also next to multibyte sequences;
//   - the policies: the url profile, bad_escape and double_encoding denied
//     or not, %00, an encoded bidi control, the BOM at decoded byte 0;
//   - escapes across vector blocks, raw runs and the decoding window;
//   - streams cut at every encoded position (sampled for the larger
//     spaces), errors reported no later than the bytes deciding them arrive
//     and never wrongly early, and the streams' misuse.
// The PercentEveryKernel tests ask the oracle once per case and check every
// usable kernel against it in one process (on_every_kernel forces each, as
// the EveryKernel fixture does): the oracle and its Unicode data files are
// most of the cost under the sanitizers. The Kernels/Percent tests need no
// oracle.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels.hpp"
#include "percent_support.hpp"
#include "policy_support.hpp"

namespace utf8guard::testing {
namespace {

// The bytes at the edges of Table 3-7's rows: ASCII's ends, the three
// continuation ranges' ends, the overlong leads, each lead class's ends and
// the bytes never in UTF-8.
constexpr unsigned char kEdgeBytes[] = {0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF,
                                        0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED,
                                        0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF};
constexpr std::size_t kEdgeCount = sizeof kEdgeBytes;

// escape is %XX for byte b, in upper or lower case hex digits.
std::string escape(unsigned char b, bool lower) {
  const char* digits = lower ? "0123456789abcdef" : "0123456789ABCDEF";
  return {'%', digits[b >> 4], digits[b & 15]};
}

// policy_bits names a policy in failure messages by its categories.
std::string policy_bits(policy p) {
  std::string out = "policy {";
  for (const auto& [name, c] : kCategoryNames) {
    if (p.denies(c)) out.append(out.back() == '{' ? "" : " ").append(name);
  }
  return out + "}";
}

// decided_by is how many encoded bytes must have arrived, at most, before a
// stream has to report e: a bad escape is settled by the two bytes after its
// '%'; a double encoding by its %25 and two more units of up to 3 bytes; a
// denied character by its last unit; an ill-formed subpart by the unit after
// it. One byte more in each case, since a raw byte after a '%' is known to
// be raw only when the byte after it shows that the '%' starts no escape.
// An incomplete sequence waits for finish().
std::size_t decided_by(const percent_result& e) {
  if (e.kind == error::incomplete) return SIZE_MAX;
  if (e.category == category::bad_escape) return e.offset + 3;
  if (e.category == category::double_encoding) return e.offset + 10;
  return e.offset + e.length + 4;
}

// expected is the oracle's answer for one input under one policy.
struct expected {
  std::vector<percent_result> errors;
  std::string decoded;
};

expected oracle(std::string_view in, policy p) {
  return {oracle_percent_errors(in, p), reference::percent::decode(in).bytes};
}

// check_one_shot compares the one-shot entry points, C++ and C, and the
// decoders with the oracle's answer.
void check_one_shot(std::string_view in, policy p, const expected& want) {
  const percent_result first = first_of(want.errors);
  EXPECT_EQ(validate_percent_encoded(in, p), first);
  EXPECT_EQ(is_valid_percent_encoded(in, p), first.ok());
  EXPECT_EQ(from_c(utf8guard_validate_percent(in.data(), in.size(), p.bits())), first);
  EXPECT_EQ(utf8guard_is_valid_percent(in.data(), in.size(), p.bits()), first.ok());
  EXPECT_EQ(hex(percent_decode(in)), hex(want.decoded));
  std::string out(in.size(), '\x55');
  std::size_t written = 99;
  EXPECT_EQ(utf8guard_percent_decode(in.data(), in.size(), out.data(), &written), UTF8GUARD_OK);
  EXPECT_EQ(hex(out.substr(0, written)), hex(want.decoded));
}

// check_cut streams the input as in[0, cut) and in[cut, n): the final
// answers equal the oracle's, and what the first feed reported is right (a
// prefix of the errors, the first error or nothing) and complete (every
// error the first piece decides).
void check_cut(std::string_view in, std::size_t cut, policy p,
               const std::vector<percent_result>& want) {
  const percent_result first = first_of(want);
  const std::string_view a = in.substr(0, cut);
  const std::string_view b = in.substr(cut);
  percent_validator v(p);
  percent_scanner s(p);
  std::vector<percent_result> got;
  const auto add = [&got](const percent_result& r) { got.push_back(r); };
  const percent_result early = v.feed(a);
  ASSERT_TRUE(s.feed(a, add));
  const std::size_t early_count = got.size();
  ASSERT_TRUE(early.ok() || early == first)
      << "cut " << cut << ": the first feed said " << ::testing::PrintToString(early);
  if (!first.ok() && decided_by(first) <= cut) {
    ASSERT_EQ(early, first) << "cut " << cut << ": decided by the first feed";
  }
  v.feed(b);
  ASSERT_TRUE(s.feed(b, add));
  ASSERT_EQ(v.finish(), first) << "cut " << cut;
  ASSERT_EQ(v.bytes_fed(), in.size());
  ASSERT_TRUE(s.finish(add));
  ASSERT_EQ(got, want) << "cut " << cut;
  ASSERT_EQ(s.errors(), want.size());
  for (std::size_t k = 0; k < want.size(); ++k) {
    if (decided_by(want[k]) <= cut) {
      ASSERT_LT(k, early_count) << "cut " << cut << ": error " << k << " decided by the first feed";
    }
  }
}

// check_cuts: one-shot, and the stream cut at each of cuts (those past the
// end are skipped), or at every position when cuts is empty.
void check_cuts(std::string_view in, policy p, const expected& want,
                const std::vector<std::size_t>& cuts) {
  check_one_shot(in, p, want);
  if (cuts.empty()) {
    for (std::size_t cut = 0; cut <= in.size() && !::testing::Test::HasFatalFailure(); ++cut) {
      check_cut(in, cut, p, want.errors);
    }
  }
  for (const std::size_t cut : cuts) {
    if (cut <= in.size() && !::testing::Test::HasFatalFailure()) check_cut(in, cut, p, want.errors);
  }
}

// A case of the spaces below: an input, a policy, the oracle's answer, and
// where to cut the stream (empty: everywhere).
struct space_case {
  std::string in;
  policy p;
  expected want;
  std::vector<std::size_t> cuts;
};

space_case make_case(std::string in, policy p, std::vector<std::size_t> cuts) {
  expected want = oracle(in, p);
  return {std::move(in), p, std::move(want), std::move(cuts)};
}

// on_every_kernel runs check(kernel) once per usable kernel, forced through
// the public set_kernel() and checked to be the one every entry point calls.
// The large spaces ask the oracle once and check every kernel against that
// answer in one test, which keeps them cheap under the sanitizers.
template <class Check>
void on_every_kernel(const Check& check) {
  for (const std::string& kernel : usable_kernels()) {
    const forced_kernel forced(kernel);
    ASSERT_TRUE(forced.ok()) << kernel;
    ASSERT_TRUE(is_active(kernel)) << kernel;
    check(kernel);
    ASSERT_TRUE(is_active(kernel)) << "the checks ended on another kernel than " << kernel;
    if (::testing::Test::HasFailure()) return;
  }
}

// check_cases checks every case on every kernel.
void check_cases(const std::vector<space_case>& cases) {
  on_every_kernel([&cases](const std::string& kernel) {
    for (const space_case& c : cases) {
      check_cuts(c.in, c.p, c.want, c.cuts);
      if (::testing::Test::HasFailure()) {
        FAIL() << "kernel " << kernel << ", input [" << c.in << "] = " << hex(c.in) << ", "
               << policy_bits(c.p);
      }
    }
  });
}

// Policies for the oracle comparisons: none, each percent category alone,
// the url profile and everything.
std::vector<policy> percent_policies() {
  return {policy(), policy(category::bad_escape), policy(category::double_encoding), policy::url(),
          every_category()};
}

class Percent : public EveryKernel {};

// ---- Hand-worked answers ------------------------------------------------

percent_result at(error kind, std::size_t offset, std::size_t length, std::size_t decoded_offset,
                  std::size_t decoded_length, category c = category::none, char32_t cp = 0) {
  percent_result r;
  r.kind = kind;
  r.offset = offset;
  r.length = length;
  r.category = c;
  r.code_point = cp;
  r.decoded_offset = decoded_offset;
  r.decoded_length = decoded_length;
  return r;
}

// refused is a refused call's answer, as a result: its offset is the
// stream's position, length 0. Where it puts decoded_offset the contract does
// not say, so a percent_result is compared with it by its result part alone.
result refused(std::size_t position) { return {error::invalid_argument, position, 0}; }

percent_result bad_escape_at(std::size_t offset, std::size_t decoded_offset) {
  return at(error::disallowed, offset, 1, decoded_offset, 1, category::bad_escape, U'%');
}

percent_result double_encoding_at(std::size_t offset, std::size_t decoded_offset) {
  return at(error::disallowed, offset, 3, decoded_offset, 1, category::double_encoding, U'%');
}

struct vec {
  std::string in;
  policy p;
  std::vector<percent_result> want;  // every error, in order
  std::string decoded;
};

// Worked out by hand from docs/design.md 2.3, before the library ran.
const std::vector<vec>& hand_vectors() {
  static const std::vector<vec> v = {
      {"caf%C3%A9", policy(), {}, "caf\xC3\xA9"},
      {"caf%c3%a9", policy::url(), {}, "caf\xC3\xA9"},
      {"%C3", policy(), {at(error::incomplete, 0, 3, 0, 1)}, "\xC3"},
      {"%80", policy(), {at(error::unexpected_continuation, 0, 3, 0, 1)}, "\x80"},
      {"%c0%af",
       policy(),
       {at(error::overlong, 0, 3, 0, 1), at(error::unexpected_continuation, 3, 3, 1, 1)},
       "\xC0\xAF"},
      {"..%E0%80%AF..",
       policy(),
       {at(error::overlong, 2, 3, 2, 1), at(error::unexpected_continuation, 5, 3, 3, 1),
        at(error::unexpected_continuation, 8, 3, 4, 1)},
       "..\xE0\x80\xAF.."},
      // A subpart carried by an escape and a raw byte: 3 + 1 encoded bytes.
      {"%F0\x9F"
       "x",
       policy(),
       {at(error::truncated, 0, 4, 0, 2)},
       "\xF0\x9F"
       "x"},
      {"%E2%82", policy(), {at(error::incomplete, 0, 6, 0, 2)}, "\xE2\x82"},
      {"a%ED%A0%80",
       policy(),
       {at(error::surrogate, 1, 3, 1, 1), at(error::unexpected_continuation, 4, 3, 2, 1),
        at(error::unexpected_continuation, 7, 3, 3, 1)},
       "a\xED\xA0\x80"},
      // Malformed escapes: the '%' is a literal byte, decoding resumes after it.
      {"%", policy(category::bad_escape), {bad_escape_at(0, 0)}, "%"},
      {"%", policy(), {}, "%"},
      {"%4", policy::url(), {bad_escape_at(0, 0)}, "%4"},
      {"%4G", policy::url(), {bad_escape_at(0, 0)}, "%4G"},
      {"%G1", policy::url(), {bad_escape_at(0, 0)}, "%G1"},
      {"%%41", policy::url(), {bad_escape_at(0, 0)}, "%A"},
      {"%%41", policy(), {}, "%A"},
      {"a%%%",
       policy::url(),
       {bad_escape_at(1, 1), bad_escape_at(2, 2), bad_escape_at(3, 3)},
       "a%%%"},
      {"%41%", policy::url(), {bad_escape_at(3, 1)}, "A%"},
      {"%41%4", policy::url(), {bad_escape_at(3, 1)}, "A%4"},
      // Bad escapes next to multibyte sequences: '%' cuts a sequence.
      {"%C3%", policy::url(), {at(error::truncated, 0, 3, 0, 1), bad_escape_at(3, 1)}, "\xC3%"},
      {"%C3%", policy(), {at(error::truncated, 0, 3, 0, 1)}, "\xC3%"},
      {"%E2%82%G",
       policy::url(),
       {at(error::truncated, 0, 6, 0, 2), bad_escape_at(6, 2)},
       "\xE2\x82%G"},
      {"\xC3%\xA9",
       policy::url(),
       {at(error::truncated, 0, 1, 0, 1), bad_escape_at(1, 1),
        at(error::unexpected_continuation, 2, 1, 2, 1)},
       "\xC3%\xA9"},
      {"%C3%A9%zz\xC3\xA9", policy::url(), {bad_escape_at(6, 2)}, "\xC3\xA9%zz\xC3\xA9"},
      // Double encoding: %25 whose '%' is followed by two decoded hex digits.
      {"%255c", policy::url(), {double_encoding_at(0, 0)}, "%5c"},
      {"%255c", policy(), {}, "%5c"},
      {"%255c", policy(category::bad_escape), {}, "%5c"},
      {"..%25%35%63..", policy::url(), {double_encoding_at(2, 2)}, "..%5c.."},
      {"%25%354", policy::url(), {double_encoding_at(0, 0)}, "%54"},
      {"%25", policy::url(), {}, "%"},
      {"%254", policy::url(), {}, "%4"},
      {"%25zz", policy::url(), {}, "%zz"},
      {"%25%25", policy::url(), {}, "%%"},
      {"%25%2541", policy::url(), {double_encoding_at(3, 1)}, "%%41"},
      {"%25%4", policy::url(), {bad_escape_at(3, 1)}, "%%4"},
      // Policies over the decoded characters.
      {"a%00b",
       policy::url(),
       {at(error::disallowed, 1, 3, 1, 1, category::nul, 0)},
       std::string("a\0b", 3)},
      {"%0a", policy::url(), {at(error::disallowed, 0, 3, 0, 1, category::newline, 0x0A)}, "\n"},
      {"x%E2%80%AEy",
       policy::url(),
       {at(error::disallowed, 1, 9, 1, 3, category::bidi, 0x202E)},
       "x\xE2\x80\xAEy"},
      {"%E2\x80%ae",
       policy::url(),
       {at(error::disallowed, 0, 7, 0, 3, category::bidi, 0x202E)},
       "\xE2\x80\xAE"},
      {"%EF%BB%BFok", policy::source(), {}, "\xEF\xBB\xBFok"},
      {"%EF\xBB%bfok", policy(category::bom), {}, "\xEF\xBB\xBFok"},
      {"ok%EF%BB%BF",
       policy(category::bom),
       {at(error::disallowed, 2, 9, 2, 3, category::bom, 0xFEFF)},
       "ok\xEF\xBB\xBF"},
      // "%41" decodes to one byte: the BOM after it is not at decoded byte 0.
      {"%41\xEF\xBB\xBF",
       policy(category::bom),
       {at(error::disallowed, 3, 3, 1, 3, category::bom, 0xFEFF)},
       "A\xEF\xBB\xBF"},
      {"+%2B+", policy::url(), {}, "+++"},
      // Without a '%' the input is its own decoding (validated where it lies).
      {"\xEF\xBB\xBFok", policy(category::bom), {}, "\xEF\xBB\xBFok"},
      {"ok\xEF\xBB\xBF",
       policy(category::bom),
       {at(error::disallowed, 2, 3, 2, 3, category::bom, 0xFEFF)},
       "ok\xEF\xBB\xBF"},
      {std::string("a\0b", 3),
       policy::url(),
       {at(error::disallowed, 1, 1, 1, 1, category::nul, 0)},
       std::string("a\0b", 3)},
      {"a\xC0\xAF\x07",
       policy::url(),
       {at(error::overlong, 1, 1, 1, 1), at(error::unexpected_continuation, 2, 1, 2, 1),
        at(error::disallowed, 3, 1, 3, 1, category::control, 7)},
       "a\xC0\xAF\x07"},
      {"x\xE2\x80\xAE",
       policy::url(),
       {at(error::disallowed, 1, 3, 1, 3, category::bidi, 0x202E)},
       "x\xE2\x80\xAE"},
      // The attacks of security/vectors/percent.tsv in one input.
      {"%c0%ae%c0%ae/%255c%00%E2%80%AE%",
       policy::url(),
       {at(error::overlong, 0, 3, 0, 1), at(error::unexpected_continuation, 3, 3, 1, 1),
        at(error::overlong, 6, 3, 2, 1), at(error::unexpected_continuation, 9, 3, 3, 1),
        double_encoding_at(13, 5), at(error::disallowed, 18, 3, 8, 1, category::nul, 0),
        at(error::disallowed, 21, 9, 9, 3, category::bidi, 0x202E), bad_escape_at(30, 12)},
       std::string("\xC0\xAE\xC0\xAE/%5c\0\xE2\x80\xAE%", 13)},
  };
  return v;
}

// The oracle agrees with the hand (where it can read the categories), and
// every entry point on every kernel with both, at every cut.
TEST(PercentEveryKernel, HandWorkedVectors) {
  const bool ucd = reference::ucd_available();
  std::vector<space_case> cases;
  for (const vec& v : hand_vectors()) {
    if (ucd || v.p == policy() || v.p == policy(category::bad_escape) ||
        v.p == policy(category::double_encoding)) {
      EXPECT_EQ(oracle_percent_errors(v.in, v.p), v.want) << v.in << ", " << policy_bits(v.p);
      EXPECT_EQ(hex(reference::percent::decode(v.in).bytes), hex(v.decoded)) << v.in;
    }
    cases.push_back({v.in, v.p, {v.want, v.decoded}, {}});
  }
  check_cases(cases);
}

// ---- Exhaustive spaces --------------------------------------------------
// Each asks the oracle once per case, then checks every kernel against it.

// Every %XX, both cases, alone and embedded: between raw bytes, between other
// escapes, after a raw and an escaped lead, before a raw continuation, after
// %25. Every cut, under each test policy.
TEST(PercentEveryKernel, EveryEscapeBothCasesEmbeddedEveryCut) {
  std::vector<policy> policies = {policy(), policy(category::bad_escape),
                                  policy(category::double_encoding)};
  if (reference::ucd_available()) policies = percent_policies();
  std::vector<space_case> cases;
  for (unsigned b = 0; b < 256; ++b) {
    for (const bool lower : {false, true}) {
      const std::string e = escape(static_cast<unsigned char>(b), lower);
      if (lower && e == escape(static_cast<unsigned char>(b), false)) continue;
      const std::string forms[] = {e,          "a" + e + "z", "%41" + e + "%7A",
                                   "%C3" + e,  "\xC3" + e,    "%E2%82" + e,
                                   e + "\x80", e + "%BF",     "%25" + e + "1"};
      for (const std::string& in : forms) {
        for (const policy& p : policies) cases.push_back(make_case(in, p, {}));
      }
    }
  }
  check_cases(cases);
}

// edge_escapes is escape number index of the sequences of count escapes over
// the edge bytes. The hex digits' case alternates from one escape to the
// next, and from one input to the next.
std::string edge_escapes(std::size_t index, std::size_t count) {
  std::string in;
  std::size_t rest = index;
  for (std::size_t k = 0; k < count; ++k) {
    in += escape(kEdgeBytes[rest % kEdgeCount], (index + k) % 2 == 1);
    rest /= kEdgeCount;
  }
  return in;
}

// Every sequence of 2 escapes over the edge bytes: every cut, every policy.
TEST(PercentEveryKernel, EveryTwoEdgeEscapesEveryCut) {
  std::vector<policy> policies = {policy(), policy(category::bad_escape)};
  if (reference::ucd_available()) policies = percent_policies();
  std::vector<space_case> cases;
  for (std::size_t i = 0; i < kEdgeCount * kEdgeCount; ++i) {
    for (const policy& p : policies) cases.push_back(make_case(edge_escapes(i, 2), p, {}));
  }
  check_cases(cases);
}

// Every sequence of 3 escapes: every cut on every 8th input, two cuts on the
// others (one anywhere, one inside the second escape), strict and everything.
TEST(PercentEveryKernel, EveryThreeEdgeEscapes) {
  std::vector<policy> policies = {policy()};
  if (reference::ucd_available()) policies.push_back(every_category());
  std::vector<space_case> cases;
  for (std::size_t i = 0; i < kEdgeCount * kEdgeCount * kEdgeCount; ++i) {
    for (const policy& p : policies) {
      std::vector<std::size_t> cuts;
      if (i % 8 != 0) cuts = {i % 10, 3 + i % 3};
      cases.push_back(make_case(edge_escapes(i, 3), p, cuts));
    }
  }
  check_cases(cases);
}

// Every sequence of 4 escapes, strict: one-shot on all, a stream cut once
// (every position in turn) on every 4th, every cut and the url profile on
// every 64th.
TEST(PercentEveryKernel, EveryFourEdgeEscapes) {
  const std::size_t total = kEdgeCount * kEdgeCount * kEdgeCount * kEdgeCount;
  std::vector<percent_result> firsts(total);
  std::vector<space_case> cases;
  for (std::size_t i = 0; i < total; ++i) {
    const std::string in = edge_escapes(i, 4);
    firsts[i] = from_reference(reference::percent::first_error(in, reference::denied{}));
    if (i % 64 == 0) {
      cases.push_back(make_case(in, policy(), {}));
      if (reference::ucd_available()) cases.push_back(make_case(in, policy::url(), {}));
    }
  }
  on_every_kernel([&firsts](const std::string& kernel) {
    for (std::size_t i = 0; i < firsts.size(); ++i) {
      // No SCOPED_TRACE in this loop: each costs a stream; the input goes
      // into the failure messages instead.
      const std::string in = edge_escapes(i, 4);
      ASSERT_EQ(validate_percent_encoded(in), firsts[i]) << kernel << ": " << in;
      ASSERT_EQ(is_valid_percent_encoded(in), firsts[i].ok()) << kernel << ": " << in;
      if (i % 4 != 0) continue;
      const std::size_t cut = i / 4 % 13;
      percent_validator v;
      v.feed(std::string_view(in).substr(0, cut));
      v.feed(std::string_view(in).substr(cut));
      ASSERT_EQ(v.finish(), firsts[i]) << kernel << ": " << in << " cut " << cut;
    }
  });
  check_cases(cases);
}

// Every 2 and 3 escapes over the edge bytes again, placed in a longer input
// so that they straddle the 16-, 32- and 64-byte blocks a vector decoder
// reads, and the 64-byte raw runs fed without a copy: after raw ASCII and
// after escapes. Pairs at every offset from 5 before such a boundary to 1
// after, each triple at one of them, on one background, in turn.
TEST(PercentEveryKernel, EdgeEscapesAcrossBlockBoundaries) {
  std::string escaped;
  while (escaped.size() < 96) escaped += "%61";
  const std::string backgrounds[] = {std::string(96, 'a'), escaped};
  constexpr std::size_t kBoundaries[] = {16, 32, 64};
  auto place = [&backgrounds](std::size_t b, std::size_t at, const std::string& esc) {
    return backgrounds[b].substr(0, at) + esc + backgrounds[b].substr(at, 16);
  };
  std::vector<space_case> cases;
  for (std::size_t i = 0; i < kEdgeCount * kEdgeCount; ++i) {
    const std::string esc = edge_escapes(i, 2);
    for (std::size_t b = 0; b < 2; ++b) {
      for (const std::size_t boundary : kBoundaries) {
        for (std::size_t at = boundary - 5; at <= boundary + 1; ++at) {
          cases.push_back(make_case(place(b, at, esc), policy(), {at + 1, boundary}));
        }
      }
    }
  }
  for (std::size_t i = 0; i < kEdgeCount * kEdgeCount * kEdgeCount; ++i) {
    const std::size_t boundary = kBoundaries[i / 2 % 3];
    const std::size_t at = boundary - 5 + i / 6 % 7;
    cases.push_back(make_case(place(i % 2, at, edge_escapes(i, 3)), policy(), {at + 2}));
  }
  check_cases(cases);
}

// A raw run of about 64 bytes (fed without a copy from 64 on) that ends
// inside a sequence, an escape or a %25, and escapes that finish or break
// it; and the other way round, escapes then a raw run. Every cut near the
// run's end, with no policy and with every category denied.
TEST(PercentEveryKernel, RawRunsNextToEscapes) {
  const std::vector<policy> policies = {
      policy(), reference::ucd_available() ? every_category() : policy(category::bad_escape)};
  const std::string ends[] = {"",    "\xE2",    "\xE2\x82", "\xF0\x9F\x98", "\x80", "\xC3\xA9",
                              "%E2", "%F0\x9F", "%25",      "%254",         "%",    "%4"};
  const std::string nexts[] = {"",    "%82%AC", "%AC",    "%98%80", "%80", "\x82\xAC",
                               "%zz", "41",     "%34%31", "1",      "a"};
  std::vector<space_case> cases;
  for (const std::size_t run : {62, 63, 64, 65, 128}) {
    std::vector<std::size_t> cuts;
    for (std::size_t cut = run - 8; cut <= run + 12; ++cut) cuts.push_back(cut);
    for (const std::string& end : ends) {
      for (const std::string& next : nexts) {
        const std::string ascii(run - (run == 128 ? end.size() : 0), 'q');
        for (const std::string& in :
             {ascii + end + next, next + end + ascii, "%41" + ascii + end + next + ascii}) {
          for (const policy& p : policies) cases.push_back(make_case(in, p, cuts));
        }
      }
    }
  }
  check_cases(cases);
}

// The engine decodes escapes in windows of 4,096 decoded bytes, and an
// input of up to one window in one call: inputs of 4,090..4,100 escapes and
// then a sequence, an error, a bad escape or a double encoding, so that one
// of them straddles the end of the first window; and inputs of 4,090..4,100
// encoded bytes that end in one of them. One-shot, and cut near that end.
TEST(PercentEveryKernel, ErrorsAcrossTheDecodingWindow) {
  const policy p = reference::ucd_available()
                       ? policy::url()
                       : policy(category::bad_escape) | category::double_encoding;
  const std::string tails[] = {"%E2%82%AC", "%F0%9F%98%80", "%E2%80%AE", "%C0%AF",
                               "%ED%A0%80", "%zz",          "%255c",     "%25%35%63",
                               "%00",       "%F0%9F%98",    "%",         "%4"};
  std::vector<space_case> cases;
  for (std::size_t n = 4090; n <= 4100; ++n) {
    std::string head;
    for (std::size_t k = 0; k < n; ++k) head += k % 2 == 0 ? "%2f" : "%41";
    for (const std::string& tail : tails) {
      const std::size_t end = 3 * n;
      cases.push_back(make_case(head + tail + "%41", p, {end - 2, end, end + 1, end + 4}));
      std::string whole = head.substr(0, (n - tail.size()) / 3 * 3);
      whole.append(n - tail.size() - whole.size(), 'x');
      cases.push_back(make_case(whole + tail, p, {n - tail.size(), n - 1}));
    }
  }
  check_cases(cases);
}

// Longer random inputs: escapes, raw multibyte text and malformed escapes
// mixed, 0..600 bytes, one-shot and two random cuts, against the oracle.
TEST(PercentEveryKernel, LongRandomInputs) {
  std::mt19937 rng(0x3737);
  const std::string parts[] = {
      "%",    "%4",  "%25", "%2",     "5",   "c",         "G",          "\xC3\xA9",     "\xE2\x82",
      "\x80", "%00", "/",   "%E2%80", "%AE", "%EF%BB%BF", "abcdefghij", "%F0%9F%98%80", "%c3%A9"};
  const policy p = reference::ucd_available() ? every_category() : policy(category::bad_escape);
  std::vector<space_case> cases;
  for (int round = 0; round < 300; ++round) {
    std::string in;
    const std::size_t target = rng() % 600;
    while (in.size() < target) {
      in += (rng() % 3 == 0) ? escape(static_cast<unsigned char>(rng()), rng() % 2 == 0)
                             : parts[rng() % std::size(parts)];
    }
    const std::size_t n = in.size();
    const std::size_t cut_a = rng() % (n + 1);
    const std::size_t cut_b = rng() % (n + 1);
    cases.push_back(make_case(in, p, {cut_a, cut_b}));
  }
  check_cases(cases);
}

// Every malformed escape form, alone, embedded, next to multibyte
// sequences, and at the end.
TEST(PercentEveryKernel, EveryMalformedEscapeForm) {
  const std::string forms[] = {
      "%",    "%4",  "%a",  "%G",    "%4G",    "%G4",       "%%",         "%%4",     "%%41", "%4%",
      "%4%1", "%-1", "% 1", "%\x80", "%4\x80", "%\xC3\xA9", "%4\xC3\xA9", "%%C3%A9", "%2%35"};
  const std::string around[][2] = {{"", ""},       {"a", ""},         {"", "b"},
                                   {"%C3", ""},    {"%C3", "%A9"},    {"\xC3", "\xA9"},
                                   {"%E2%82", ""}, {"%E2", "%82%AC"}, {"%F0%9F%98", "%80"},
                                   {"%25", "1"},   {"%25", "%34%31"}, {"", "%80"}};
  std::vector<policy> policies = {policy(), policy(category::bad_escape),
                                  policy(category::double_encoding)};
  if (reference::ucd_available()) policies = percent_policies();
  std::vector<space_case> cases;
  for (const std::string& form : forms) {
    for (const auto& [before, after] : around) {
      for (const policy& p : policies) cases.push_back(make_case(before + form + after, p, {}));
    }
  }
  check_cases(cases);
}

// ---- Streams ------------------------------------------------------------

TEST_P(Percent, EscapesCutAcrossFeeds) {
  // %C3%A9 fed as %C | 3%A9 and byte by byte: no error, offsets absolute.
  percent_validator v(policy::url());
  EXPECT_TRUE(v.feed("x%C").ok());
  EXPECT_TRUE(v.feed("3%A9").ok());
  EXPECT_TRUE(v.feed("%").ok());
  EXPECT_TRUE(v.feed("C").ok());
  // The cut escape turns out to be a lead followed by a non-continuation.
  EXPECT_EQ(v.feed("0%"), at(error::overlong, 7, 3, 3, 1));
  EXPECT_EQ(v.finish(), at(error::overlong, 7, 3, 3, 1));
  EXPECT_EQ(v.bytes_fed(), 11u);

  // A bad escape at the end is decided by finish().
  percent_validator w(policy::url());
  EXPECT_TRUE(w.feed("ab%4").ok());
  EXPECT_EQ(w.finish(), bad_escape_at(2, 2));
  EXPECT_EQ(w.finish(), bad_escape_at(2, 2));

  // Byte by byte, the scanner reports everything, in order.
  const std::string in = "%c0%ae%c0%ae/%255c%00%E2%80%AE%";
  const std::vector<percent_result> want = {
      at(error::overlong, 0, 3, 0, 1),
      at(error::unexpected_continuation, 3, 3, 1, 1),
      at(error::overlong, 6, 3, 2, 1),
      at(error::unexpected_continuation, 9, 3, 3, 1),
      double_encoding_at(13, 5),
      at(error::disallowed, 18, 3, 8, 1, category::nul, 0),
      at(error::disallowed, 21, 9, 9, 3, category::bidi, 0x202E),
      bad_escape_at(30, 12),
  };
  percent_scanner s(policy::url());
  std::vector<percent_result> got;
  for (const char c : in) {
    EXPECT_TRUE(
        s.feed(std::string_view(&c, 1), [&got](const percent_result& r) { got.push_back(r); }));
  }
  EXPECT_TRUE(s.finish([&got](const percent_result& r) { got.push_back(r); }));
  EXPECT_EQ(got, want);
  EXPECT_EQ(s.errors(), want.size());
}

// Many pieces: random inputs from escapes, raw bytes and malformed escapes,
// cut into pieces of 0..5 bytes, against the oracle; also through the C API.
TEST(PercentEveryKernel, RandomInputsRandomPieces) {
  std::mt19937 rng(0x37);
  const std::string parts[] = {"%",    "%4",   "%25",  "%2",  "5", "c",      "G",   "a",
                               "\xC3", "\xA9", "\x80", "%00", "/", "%E2%80", "%AE", "%EF%BB%BF"};
  const policy p = reference::ucd_available() ? every_category() : policy(category::bad_escape);
  std::vector<space_case> cases;
  for (int round = 0; round < 2000; ++round) {
    std::string in;
    const std::size_t n = rng() % 10;
    for (std::size_t k = 0; k < n; ++k) {
      in += (rng() % 3 == 0) ? escape(static_cast<unsigned char>(rng()), rng() % 2 == 0)
                             : parts[rng() % std::size(parts)];
    }
    std::vector<std::size_t> cuts;
    for (std::size_t at = rng() % 6; at <= in.size(); at += rng() % 6) cuts.push_back(at);
    cases.push_back(make_case(in, p, cuts));
  }
  const auto collect = [](void* ctx, utf8guard_percent_result r) {
    static_cast<std::vector<percent_result>*>(ctx)->push_back(from_c(r));
    return true;
  };
  on_every_kernel([&](const std::string& kernel) {
    for (const space_case& c : cases) {
      const std::vector<percent_result>& want = c.want.errors;
      const std::string_view in = c.in;
      const streamed got = stream_pieces(in, c.cuts, p);
      ASSERT_EQ(got.validator, first_of(want)) << kernel << ": " << hex(in);
      ASSERT_EQ(got.errors, want) << kernel << ": " << hex(in);
      ASSERT_TRUE(got.scanner_ok);
      ASSERT_EQ(got.scanner_count, want.size());
      // The same pieces through the C streams.
      utf8guard_percent_stream cv, cs;
      utf8guard_percent_validator_init(&cv, p.bits());
      utf8guard_percent_scanner_init(&cs, p.bits());
      std::vector<percent_result> cgot;
      std::size_t from = 0;
      for (std::size_t k = 0; k <= c.cuts.size(); ++k) {
        const std::size_t to = k < c.cuts.size() ? c.cuts[k] : in.size();
        utf8guard_percent_validator_feed(&cv, in.data() + from, to - from);
        ASSERT_EQ(utf8guard_percent_scanner_feed(&cs, in.data() + from, to - from, collect, &cgot),
                  UTF8GUARD_OK);
        from = to;
      }
      ASSERT_EQ(from_c(utf8guard_percent_validator_finish(&cv)), first_of(want))
          << kernel << ": " << hex(in);
      ASSERT_EQ(utf8guard_percent_scanner_finish(&cs, collect, &cgot), UTF8GUARD_OK);
      ASSERT_EQ(cgot, want) << kernel << ": " << hex(in);
      ASSERT_EQ(utf8guard_percent_scanner_errors(&cs), want.size());
    }
  });
}

TEST_P(Percent, ResetStartsANewInput) {
  percent_validator v(policy::url());
  EXPECT_TRUE(v.feed("ab%C").ok());  // in the middle of an escape
  v.reset();
  EXPECT_EQ(v.bytes_fed(), 0u);
  EXPECT_TRUE(v.feed("3").ok());  // a plain '3', not the end of %C3
  EXPECT_TRUE(v.finish().ok());
  v.reset();
  EXPECT_EQ(v.feed("%zz"), bad_escape_at(0, 0));  // the policy stays
  v.reset();
  EXPECT_TRUE(v.feed("%EF%BB%BF").ok());  // byte 0 again
  EXPECT_TRUE(v.finish().ok());

  percent_scanner s(policy::url());
  std::vector<percent_result> got;
  const auto add = [&got](const percent_result& r) { got.push_back(r); };
  EXPECT_TRUE(s.feed("%25%3", add));
  s.reset();
  EXPECT_EQ(s.errors(), 0u);
  EXPECT_TRUE(s.feed("1%", add));  // not the end of a double encoding
  EXPECT_TRUE(s.finish(add));
  EXPECT_EQ(got, (std::vector<percent_result>{bad_escape_at(1, 1)}));
  EXPECT_EQ(s.errors(), 1u);
}

// ---- Misuse (the C API's: tests/security/c_misuse_test.c) -----------------

TEST_P(Percent, MisuseFailsClosed) {
  const std::string_view null_chunk(nullptr, 3);
  EXPECT_FALSE(is_valid_percent_encoded(null_chunk));
  EXPECT_EQ(validate_percent_encoded(null_chunk), refused(0));
  EXPECT_THROW((void)percent_decode(null_chunk), std::invalid_argument);
  EXPECT_EQ(percent_decode(std::string_view(nullptr, 0)), "");

  // (nullptr, n > 0) fails the validator at its position, and it stays failed.
  percent_validator v;
  EXPECT_TRUE(v.feed("ab%C").ok());
  EXPECT_EQ(v.feed(null_chunk), refused(4));
  EXPECT_EQ(v.feed("3"), refused(4));
  EXPECT_EQ(v.finish(), refused(4));
  // A feed after finish is refused at the stream's position.
  percent_validator w;
  EXPECT_TRUE(w.feed("%41").ok());
  EXPECT_TRUE(w.finish().ok());
  EXPECT_EQ(w.feed("b"), refused(3));
  EXPECT_EQ(w.finish(), refused(3));
  w.reset();
  EXPECT_TRUE(w.feed("b").ok());

  percent_scanner s;
  std::size_t calls = 0;
  const auto count = [&calls](const percent_result&) { ++calls; };
  EXPECT_TRUE(s.feed("%C", count));
  EXPECT_FALSE(s.feed(null_chunk, count));
  EXPECT_FALSE(s.feed("0", count));
  EXPECT_FALSE(s.finish(count));
  EXPECT_EQ(calls, 0u);  // %C was still open, and nothing is read after the failure
  percent_scanner t;
  EXPECT_TRUE(t.finish(count));
  EXPECT_FALSE(t.feed("a", count));
  void (*null_callback)(const percent_result&) = nullptr;
  percent_scanner u;
  EXPECT_FALSE(u.feed("a", null_callback));
  // A callback returning false stops the stream.
  percent_scanner stop(policy::url());
  std::size_t stops = 0;
  EXPECT_FALSE(stop.feed("%zz%zz", [&stops](const percent_result&) { return ++stops == 0; }));
  EXPECT_FALSE(stop.finish([&stops](const percent_result&) { return ++stops == 0; }));
  EXPECT_EQ(stops, 1u);
}

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(Percent);

}  // namespace
}  // namespace utf8guard::testing
