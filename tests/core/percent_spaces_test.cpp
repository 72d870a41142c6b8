// percent_spaces_test.cpp - percent-encoded input over exhaustive spaces,
// on every kernel, against the oracle (tests/reference/percent_reference.hpp):
//   - every %XX in both cases of hex digits, alone and embedded;
//   - every sequence of 2, 3 and 4 escapes over the bytes at the edges of
//     Table 3-7's rows, alone and across the blocks a vector decoder reads;
//   - raw runs next to escapes.
// Each test asks the oracle once per case and checks every usable kernel
// against it (encoded_checks.hpp: on_every_kernel), since the oracle is most
// of the cost under the sanitizers.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "percent_checks.hpp"
#include "reduced.hpp"

namespace utf8guard::testing {
namespace {

// The bytes at the edges of Table 3-7's rows: ASCII's ends, the three
// continuation ranges' ends, the overlong leads, each lead class's ends and
// the bytes never in UTF-8.
constexpr unsigned char kEdgeBytes[] = {0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF,
                                        0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED,
                                        0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF};
constexpr std::size_t kEdgeCount = sizeof kEdgeBytes;

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
  std::vector<encoded_result> firsts(total);
  std::vector<space_case> cases;
  for (std::size_t i = 0; i < total; i += reduced_step()) {  // the inputs checked below
    const std::string in = edge_escapes(i, 4);
    firsts[i] = from_reference(reference::percent::first_error(in, reference::denied{}));
    if (i % 64 == 0) {
      cases.push_back(make_case(in, policy(), {}));
      if (reference::ucd_available()) cases.push_back(make_case(in, policy::url(), {}));
    }
  }
  on_every_kernel([&firsts](const std::string& kernel) {
    // Every input, or every 7th when reduced (reduced.hpp).
    for (std::size_t i = 0; i < firsts.size(); i += reduced_step()) {
      // No SCOPED_TRACE in this loop: each costs a stream; the input goes
      // into the failure messages instead.
      const std::string in = edge_escapes(i, 4);
      ASSERT_EQ(percent::validate(in), firsts[i]) << kernel << ": " << in;
      ASSERT_EQ(percent::is_valid(in), firsts[i].ok()) << kernel << ": " << in;
      if (i % 4 != 0) continue;
      const std::size_t cut = i / 4 % 13;
      percent::validator v;
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

}  // namespace
}  // namespace utf8guard::testing
