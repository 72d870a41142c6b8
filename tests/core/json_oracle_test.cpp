// json_oracle_test.cpp - JSON text (docs/design.md, the JSON form) through every
// entry point, on every kernel, against the answers worked out by hand
// (json_vectors.hpp) and the oracle (tests/reference/json_reference.hpp):
//   - one-shot validate and is_valid, C++ and C; sanitize, C++ and C;
//   - the validator and the scanner cut at every byte of short inputs
//     (findings reported no later than the bytes deciding them arrive, and
//     never wrongly early), and in random pieces through the C++ and C
//     streams;
//   - generated inputs: escapes of every kind, pairs, lone and swapped
//     surrogates, cut and malformed escapes, raw ill-formed bytes, denied
//     characters raw and escaped; under the profiles and every category;
//   - every \uXXXX alone and between two raw bytes;
//   - long runs of escapes, so that findings straddle the library's windows;
//   - long raw runs between escapes;
//   - dense runs of escapes at every lane of the vector decoders' blocks;
//   - input without a backslash answers as the raw check does.
// Each test asks the oracle once per case and checks every usable kernel
// against it (json_checks.hpp).
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "json_checks.hpp"
#include "json_vectors.hpp"
#include "reduced.hpp"

namespace utf8guard::testing {
namespace {

using namespace json_checks;

TEST(JsonEveryKernel, HandWorkedVectors) {
  const bool ucd = reference::ucd_available();
  std::vector<json_case> cases;
  for (const json_vectors::vec& v : json_vectors::hand_vectors()) {
    if (!ucd && v.p != policy() && v.p != policy(category::bad_escape)) continue;
    json_case c = make_case(v.in, v.p, true);
    std::vector<encoded_result> want;
    for (const auto& f : v.want) want.push_back(from_reference(f));
    ASSERT_EQ(c.want.errors, want) << v.in;  // the oracle agrees with the hand
    ASSERT_EQ(hex(c.want.sanitized), hex(v.sanitized)) << v.in;
    cases.push_back(std::move(c));
  }
  check_cases(cases);
}

// Inputs of 1..4 pieces under every policy of json_policies, the stream cut
// at every byte.
TEST(JsonEveryKernel, ShortInputsCutEverywhere) {
  std::mt19937 rng(0x15011);
  std::vector<json_case> cases;
  for (int round = 0; round < 400; ++round) {
    const std::string in = random_input(rng, 1 + rng() % 4);
    for (const policy& p : json_policies()) cases.push_back(make_case(in, p, true));
  }
  check_cases(cases);
}

// Inputs of 0..16 pieces in random pieces of 0..7 bytes, C++ and C.
TEST(JsonEveryKernel, RandomInputsRandomPieces) {
  std::mt19937 rng(0x15012);
  const std::vector<policy> policies = json_policies();
  std::vector<json_case> cases;
  for (int round = 0; round < 1500; ++round) {
    std::string in = random_input(rng, rng() % 17);
    std::vector<std::size_t> cuts = random_cuts(rng, in.size(), 7);
    cases.push_back(
        make_case(std::move(in), policies[rng() % policies.size()], false, std::move(cuts)));
  }
  check_cases(cases);
}

// Longer inputs: pieces between runs of plain text, 0..3,000 bytes, in
// pieces of up to 600 bytes.
TEST(JsonEveryKernel, LongRandomInputs) {
  std::mt19937 rng(0x15013);
  const std::vector<policy> policies = json_policies();
  const std::string text = R"({"name":"Zoë","text":"Lorem ipsum dolor sit amet, )";
  std::vector<json_case> cases;
  for (int round = 0; round < 150; ++round) {
    std::string in;
    const std::size_t target = rng() % 3000;
    while (in.size() < target) {
      in += rng() % 3 == 0 ? text.substr(0, rng() % text.size()) : random_input(rng, 1);
    }
    std::vector<std::size_t> cuts = random_cuts(rng, in.size(), 600);
    cases.push_back(
        make_case(std::move(in), policies[rng() % policies.size()], false, std::move(cuts)));
  }
  check_cases(cases);
}

// Every \uXXXX alone (every seventh under the sanitizers: reduced.hpp), and
// every seventh between two raw bytes that it cuts
// (a truncated sequence, then the escape, then an unexpected continuation),
// one-shot; every high surrogate escape before a few others and after them,
// streamed cut inside.
TEST(JsonEveryKernel, EveryEscapedUnit) {
  const policy p = reference::ucd_available() ? every_category() : policy(category::bad_escape);
  std::vector<json_case> cases;
  char buf[16];
  for (unsigned u = 0; u <= 0xFFFF; u += reduced_step()) {
    std::snprintf(buf, sizeof buf, u % 2 == 0 ? "\\u%04x" : "\\u%04X", u);
    cases.push_back(one_shot_case(buf, p));
    if (u % 7 == 0) {
      std::string cut = "\xC3";
      cut.append(buf).append("\xA9");
      cases.push_back(one_shot_case(std::move(cut), policy()));
    }
  }
  for (unsigned high = 0xD800; high <= 0xDBFF; ++high) {
    for (const unsigned other : {0xDBFFu, 0xDC00u, 0xDFFFu, 0xE000u}) {
      std::snprintf(buf, sizeof buf, "\\u%04x\\u%04x", high, other);
      cases.push_back(make_case(buf, p, false, {6}));
      std::snprintf(buf, sizeof buf, "\\u%04x\\u%04x", other, high);
      cases.push_back(make_case(buf, p, false, {7}));
    }
  }
  check_cases(cases);
}

// Runs of escapes (2, 6 or 12 bytes; 1, 2 or 4 decoded) whose decoded size
// is within an escape of 4,096 bytes, the library's window, then a finding
// or a pair; cut near the end of the run.
TEST(JsonEveryKernel, FindingsAfterLongRunsOfEscapes) {
  const policy p = reference::ucd_available() ? policy::field() | category::bad_escape
                                              : policy(category::bad_escape);
  struct run {
    std::string escape;
    std::size_t decoded;
  };
  const run runs[] = {{R"(\n)", 1}, {R"(\u00e9)", 2}, {R"(\ud83d\ude00)", 4}, {"\\\\", 1}};
  const std::string tails[] = {R"(\ud800)", R"(\ud800\udc00)", R"(\u202e)", R"(\x)",
                               R"(\u12)",   "\xE2\x82",        "\xC0",      R"(\udc00x)"};
  std::vector<json_case> cases;
  for (const run& r : runs) {
    for (std::size_t n = 4096 / r.decoded - 1; n <= 4096 / r.decoded + 1; ++n) {
      std::string head;
      for (std::size_t k = 0; k < n; ++k) head += r.escape;
      for (const std::string& tail : tails) {
        const std::size_t end = head.size();
        cases.push_back(make_case(head + tail + "a", p, false, {end - 5, end + 3, end + 7}));
        cases.push_back(make_case(head + tail, p, false, {end - 1}));
      }
    }
  }
  check_cases(cases);
}

// Long raw runs between escapes, which the one-shot check reads in place,
// run by run: runs of 0..700 bytes of ASCII or of multibyte text, a random
// piece (an escape, an ill-formed or denied raw byte...) at either end of
// some or inside them, under every policy of json_policies. One-shot.
TEST(JsonEveryKernel, LongRawRunsBetweenEscapes) {
  std::mt19937 rng(0x15015);
  const std::vector<policy> policies = json_policies();
  const std::string ascii = R"(Lorem ipsum dolor sit amet, consectetur adipiscing elit. )";
  const std::string multibyte = "Zo\xC3\xAB \xE2\x82\xAC \xF0\x9F\x98\x80 \xD0\x96\xD0\xB8 ";
  const std::string escapes[] = {R"(\n)", R"(\")", R"(\u00e9)", R"(\ud83d\ude00)", R"(\u0041\n)"};
  std::vector<json_case> cases;
  for (int round = 0; round < 400; ++round) {
    std::string in;
    for (std::size_t runs = 1 + rng() % 4; runs > 0; --runs) {
      const std::string& text = rng() % 2 == 0 ? ascii : multibyte;
      std::string run;
      for (std::size_t len = rng() % 700; run.size() < len;) run += text;
      const std::size_t where = rng() % 4;
      if (where == 0) run.insert(0, random_input(rng, 1));
      if (where == 1) run += random_input(rng, 1);
      if (where == 2) run.insert(rng() % (run.size() + 1) / 4 * 4, random_input(rng, 1));
      in += run;
      in += escapes[rng() % std::size(escapes)];
    }
    if (rng() % 2 == 0) in.insert(0, escapes[rng() % std::size(escapes)]);
    for (const policy& p : policies) cases.push_back(one_shot_case(in, p));
  }
  check_cases(cases);
}

// Dense runs of \uXXXX escapes, as the vector decoders read them in blocks
// (generic/json_decode.hpp): after 0..70 raw bytes, so that each escape
// meets every lane of every register width, the last two lanes and the
// five bytes past a block included; escapes of 1, 2 and 3 decoded bytes in
// both cases, denied ones, pairs, lone surrogates, short and bad escapes
// (where a block stops) and raw bytes among them. One-shot, and streamed in
// random pieces.
TEST(JsonEveryKernel, DenseEscapesAtEveryLane) {
  std::mt19937 rng(0x15016);
  const std::vector<policy> policies = json_policies();
  const std::string units[] = {
      R"(\u0041)",    R"(\u007A)", R"(\u00e9)", R"(\u00E9)",       R"(\u07ff)", R"(\u0800)",
      R"(\u20ac)",    R"(\u4E2D)", R"(\uffef)", R"(\ud7ff)",       R"(\ue000)", R"(\u0000)",
      R"(\u0085)",    R"(\u202e)", R"(\uffff)", R"(\ud83d\ude00)", R"(\ud800)", R"(\udfff)",
      R"(\n)",        R"(\\)",     R"(\x)",     R"(\u12G4)",       "a",         "\xC3\xA9",
      "\xE2\x82\xAC", "\xC0"};
  // Weights: mostly the escapes a vector block decodes whole.
  const std::size_t common = 11;
  std::vector<json_case> cases;
  for (std::size_t lead = 0; lead <= 70; ++lead) {
    for (int round = 0; round < 6; ++round) {
      std::string in(lead, round % 2 == 0 ? 'a' : 'e');
      if (round % 3 == 2 && lead >= 2) in.replace(lead - 2, 2, "\xC3\xA9");
      const std::size_t count = 20 + rng() % 30;
      for (std::size_t k = 0; k < count; ++k) {
        in += rng() % 8 != 0 ? units[rng() % common] : units[rng() % std::size(units)];
      }
      std::vector<std::size_t> cuts = random_cuts(rng, in.size(), 97);
      cases.push_back(
          make_case(std::move(in), policies[rng() % policies.size()], false, std::move(cuts)));
    }
  }
  check_cases(cases);
}

// Without a backslash, JSON text is checked as raw bytes are.
TEST(JsonEveryKernel, WithoutBackslashAsRaw) {
  std::mt19937 rng(0x15014);
  const std::vector<policy> policies = json_policies();
  on_every_kernel([&](const std::string& kernel) {
    std::mt19937 local(rng());
    for (int round = 0; round < 500; ++round) {
      std::string in;
      const std::size_t n = round % 10 == 0 ? local() % 2000 : local() % 40;
      while (in.size() < n) {
        const std::string& piece = pieces()[local() % pieces().size()];
        if (piece.find('\\') == std::string::npos) in += piece;
      }
      for (const policy& p : policies) {
        const result raw = validate(in, p);
        const encoded_result got = json::validate(in, p);
        ASSERT_EQ(static_cast<const result&>(got), raw) << kernel << ": " << hex(in);
        ASSERT_EQ(json::is_valid(in, p), raw.ok()) << kernel << ": " << hex(in);
      }
    }
  });
}

}  // namespace
}  // namespace utf8guard::testing
