// percent_test.cpp - percent-encoded input (docs/design.md 2.3) through every
// entry point, on every kernel, against hand-worked answers and the oracle
// (tests/reference/percent_reference.hpp); the exhaustive spaces are in
// percent_spaces_test.cpp.
//   - hand-worked vectors: malformed escapes next to multibyte sequences,
//     double encodings, the url profile, %00, an encoded bidi control, the
//     BOM at decoded byte 0, input without a '%';
//   - every malformed escape form, alone, embedded and at the end;
//   - errors across the decoding window, longer random inputs;
//   - streams cut at every encoded position, errors reported no later than
//     the bytes deciding them arrive and never wrongly early, random pieces
//     through the C++ and C streams, reset, and the streams' misuse.
// The PercentEveryKernel tests ask the oracle once per case and check every
// usable kernel against it (percent_checks.hpp); the Kernels/Percent tests
// need no oracle and use the EveryKernel fixture.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "percent_checks.hpp"

namespace utf8guard::testing {
namespace {

class Percent : public EveryKernel {};

// ---- Hand-worked answers ------------------------------------------------

// refused is a refused call's answer, as a result: its offset is the
// stream's position, length 0. Where it puts decoded_offset the contract does
// not say, so a encoded_result is compared with it by its result part alone.
result refused(std::size_t position) { return {error::invalid_argument, position, 0}; }

encoded_result bad_escape_at(std::size_t offset, std::size_t decoded_offset) {
  return encoded_at(error::disallowed, offset, 1, decoded_offset, 1, category::bad_escape, U'%');
}

encoded_result double_encoding_at(std::size_t offset, std::size_t decoded_offset) {
  return encoded_at(error::disallowed, offset, 3, decoded_offset, 1, category::double_encoding,
                    U'%');
}

struct vec {
  std::string in;
  policy p;
  std::vector<encoded_result> want;  // every error, in order
  std::string decoded;
};

// Worked out by hand from docs/design.md 2.3, before the library ran.
const std::vector<vec>& hand_vectors() {
  static const std::vector<vec> v = {
      {"caf%C3%A9", policy(), {}, "caf\xC3\xA9"},
      {"caf%c3%a9", policy::url(), {}, "caf\xC3\xA9"},
      {"%C3", policy(), {encoded_at(error::incomplete, 0, 3, 0, 1)}, "\xC3"},
      {"%80", policy(), {encoded_at(error::unexpected_continuation, 0, 3, 0, 1)}, "\x80"},
      {"%c0%af",
       policy(),
       {encoded_at(error::overlong, 0, 3, 0, 1),
        encoded_at(error::unexpected_continuation, 3, 3, 1, 1)},
       "\xC0\xAF"},
      {"..%E0%80%AF..",
       policy(),
       {encoded_at(error::overlong, 2, 3, 2, 1),
        encoded_at(error::unexpected_continuation, 5, 3, 3, 1),
        encoded_at(error::unexpected_continuation, 8, 3, 4, 1)},
       "..\xE0\x80\xAF.."},
      // A subpart carried by an escape and a raw byte: 3 + 1 encoded bytes.
      {"%F0\x9F"
       "x",
       policy(),
       {encoded_at(error::truncated, 0, 4, 0, 2)},
       "\xF0\x9F"
       "x"},
      {"%E2%82", policy(), {encoded_at(error::incomplete, 0, 6, 0, 2)}, "\xE2\x82"},
      {"a%ED%A0%80",
       policy(),
       {encoded_at(error::surrogate, 1, 3, 1, 1),
        encoded_at(error::unexpected_continuation, 4, 3, 2, 1),
        encoded_at(error::unexpected_continuation, 7, 3, 3, 1)},
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
      {"%C3%",
       policy::url(),
       {encoded_at(error::truncated, 0, 3, 0, 1), bad_escape_at(3, 1)},
       "\xC3%"},
      {"%C3%", policy(), {encoded_at(error::truncated, 0, 3, 0, 1)}, "\xC3%"},
      {"%E2%82%G",
       policy::url(),
       {encoded_at(error::truncated, 0, 6, 0, 2), bad_escape_at(6, 2)},
       "\xE2\x82%G"},
      {"\xC3%\xA9",
       policy::url(),
       {encoded_at(error::truncated, 0, 1, 0, 1), bad_escape_at(1, 1),
        encoded_at(error::unexpected_continuation, 2, 1, 2, 1)},
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
       {encoded_at(error::disallowed, 1, 3, 1, 1, category::nul, 0)},
       std::string("a\0b", 3)},
      {"%0a",
       policy::url(),
       {encoded_at(error::disallowed, 0, 3, 0, 1, category::newline, 0x0A)},
       "\n"},
      {"x%E2%80%AEy",
       policy::url(),
       {encoded_at(error::disallowed, 1, 9, 1, 3, category::bidi, 0x202E)},
       "x\xE2\x80\xAEy"},
      {"%E2\x80%ae",
       policy::url(),
       {encoded_at(error::disallowed, 0, 7, 0, 3, category::bidi, 0x202E)},
       "\xE2\x80\xAE"},
      {"%EF%BB%BFok", policy::source(), {}, "\xEF\xBB\xBFok"},
      {"%EF\xBB%bfok", policy(category::bom), {}, "\xEF\xBB\xBFok"},
      {"ok%EF%BB%BF",
       policy(category::bom),
       {encoded_at(error::disallowed, 2, 9, 2, 3, category::bom, 0xFEFF)},
       "ok\xEF\xBB\xBF"},
      // "%41" decodes to one byte: the BOM after it is not at decoded byte 0.
      {"%41\xEF\xBB\xBF",
       policy(category::bom),
       {encoded_at(error::disallowed, 3, 3, 1, 3, category::bom, 0xFEFF)},
       "A\xEF\xBB\xBF"},
      {"+%2B+", policy::url(), {}, "+++"},
      // Without a '%' the input is its own decoding (validated where it lies).
      {"\xEF\xBB\xBFok", policy(category::bom), {}, "\xEF\xBB\xBFok"},
      {"ok\xEF\xBB\xBF",
       policy(category::bom),
       {encoded_at(error::disallowed, 2, 3, 2, 3, category::bom, 0xFEFF)},
       "ok\xEF\xBB\xBF"},
      {std::string("a\0b", 3),
       policy::url(),
       {encoded_at(error::disallowed, 1, 1, 1, 1, category::nul, 0)},
       std::string("a\0b", 3)},
      {"a\xC0\xAF\x07",
       policy::url(),
       {encoded_at(error::overlong, 1, 1, 1, 1),
        encoded_at(error::unexpected_continuation, 2, 1, 2, 1),
        encoded_at(error::disallowed, 3, 1, 3, 1, category::control, 7)},
       "a\xC0\xAF\x07"},
      {"x\xE2\x80\xAE",
       policy::url(),
       {encoded_at(error::disallowed, 1, 3, 1, 3, category::bidi, 0x202E)},
       "x\xE2\x80\xAE"},
      // The attacks of security/vectors/percent.tsv in one input.
      {"%c0%ae%c0%ae/%255c%00%E2%80%AE%",
       policy::url(),
       {encoded_at(error::overlong, 0, 3, 0, 1),
        encoded_at(error::unexpected_continuation, 3, 3, 1, 1),
        encoded_at(error::overlong, 6, 3, 2, 1),
        encoded_at(error::unexpected_continuation, 9, 3, 3, 1), double_encoding_at(13, 5),
        encoded_at(error::disallowed, 18, 3, 8, 1, category::nul, 0),
        encoded_at(error::disallowed, 21, 9, 9, 3, category::bidi, 0x202E), bad_escape_at(30, 12)},
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

// The engine decodes a long input in windows of 16,384 encoded bytes
// (percent_engine.hpp), and an input of up to 4,096 bytes in one call:
// inputs of 5,456..5,466 escapes (16,368..16,398 bytes) and then a sequence,
// an error, a bad escape or a double encoding, so that one of them straddles
// the end of the first window; and inputs of 4,090..4,100 encoded bytes that
// end in one of them. One-shot, and cut near that end.
TEST(PercentEveryKernel, ErrorsAcrossTheDecodingWindow) {
  const policy p = reference::ucd_available()
                       ? policy::url()
                       : policy(category::bad_escape) | category::double_encoding;
  const std::string tails[] = {"%E2%82%AC", "%F0%9F%98%80", "%E2%80%AE", "%C0%AF",
                               "%ED%A0%80", "%zz",          "%255c",     "%25%35%63",
                               "%00",       "%F0%9F%98",    "%",         "%4"};
  std::vector<space_case> cases;
  for (std::size_t n = 5456; n <= 5466; ++n) {
    std::string head;
    for (std::size_t k = 0; k < n; ++k) head += k % 2 == 0 ? "%2f" : "%41";
    for (const std::string& tail : tails) {
      const std::size_t end = 3 * n;
      cases.push_back(make_case(head + tail + "%41", p, {end - 2, end, end + 1, end + 4}));
    }
  }
  for (std::size_t n = 4090; n <= 4100; ++n) {
    std::string head;
    for (std::size_t k = 0; 3 * k < n; ++k) head += k % 2 == 0 ? "%2f" : "%41";
    for (const std::string& tail : tails) {
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
  percent::validator v(policy::url());
  EXPECT_TRUE(v.feed("x%C").ok());
  EXPECT_TRUE(v.feed("3%A9").ok());
  EXPECT_TRUE(v.feed("%").ok());
  EXPECT_TRUE(v.feed("C").ok());
  // The cut escape turns out to be a lead followed by a non-continuation.
  EXPECT_EQ(v.feed("0%"), encoded_at(error::overlong, 7, 3, 3, 1));
  EXPECT_EQ(v.finish(), encoded_at(error::overlong, 7, 3, 3, 1));
  EXPECT_EQ(v.bytes_fed(), 11u);

  // A bad escape at the end is decided by finish().
  percent::validator w(policy::url());
  EXPECT_TRUE(w.feed("ab%4").ok());
  EXPECT_EQ(w.finish(), bad_escape_at(2, 2));
  EXPECT_EQ(w.finish(), bad_escape_at(2, 2));

  // Byte by byte, the scanner reports everything, in order.
  const std::string in = "%c0%ae%c0%ae/%255c%00%E2%80%AE%";
  const std::vector<encoded_result> want = {
      encoded_at(error::overlong, 0, 3, 0, 1),
      encoded_at(error::unexpected_continuation, 3, 3, 1, 1),
      encoded_at(error::overlong, 6, 3, 2, 1),
      encoded_at(error::unexpected_continuation, 9, 3, 3, 1),
      double_encoding_at(13, 5),
      encoded_at(error::disallowed, 18, 3, 8, 1, category::nul, 0),
      encoded_at(error::disallowed, 21, 9, 9, 3, category::bidi, 0x202E),
      bad_escape_at(30, 12),
  };
  percent::scanner s(policy::url());
  std::vector<encoded_result> got;
  for (const char c : in) {
    EXPECT_TRUE(
        s.feed(std::string_view(&c, 1), [&got](const encoded_result& r) { got.push_back(r); }));
  }
  EXPECT_TRUE(s.finish([&got](const encoded_result& r) { got.push_back(r); }));
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
  const auto collect = [](void* ctx, utf8guard_encoded_result r) {
    static_cast<std::vector<encoded_result>*>(ctx)->push_back(from_c(r));
    return true;
  };
  on_every_kernel([&](const std::string& kernel) {
    for (const space_case& c : cases) {
      const std::vector<encoded_result>& want = c.want.errors;
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
      std::vector<encoded_result> cgot;
      std::size_t from = 0;
      for (std::size_t k = 0; k <= c.cuts.size(); ++k) {
        const std::size_t to = k < c.cuts.size() ? c.cuts[k] : in.size();
        utf8guard_percent_validator_feed(&cv, in.data() + from, to - from);
        ASSERT_EQ(utf8guard_percent_scanner_feed(&cs, in.data() + from, to - from, collect, &cgot),
                  UTF8GUARD_STATUS_OK);
        from = to;
      }
      ASSERT_EQ(from_c(utf8guard_percent_validator_finish(&cv)), first_of(want))
          << kernel << ": " << hex(in);
      ASSERT_EQ(utf8guard_percent_scanner_finish(&cs, collect, &cgot), UTF8GUARD_STATUS_OK);
      ASSERT_EQ(cgot, want) << kernel << ": " << hex(in);
      ASSERT_EQ(utf8guard_percent_scanner_errors(&cs), want.size());
    }
  });
}

TEST_P(Percent, ResetStartsANewInput) {
  percent::validator v(policy::url());
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

  percent::scanner s(policy::url());
  std::vector<encoded_result> got;
  const auto add = [&got](const encoded_result& r) { got.push_back(r); };
  EXPECT_TRUE(s.feed("%25%3", add));
  s.reset();
  EXPECT_EQ(s.errors(), 0u);
  EXPECT_TRUE(s.feed("1%", add));  // not the end of a double encoding
  EXPECT_TRUE(s.finish(add));
  EXPECT_EQ(got, (std::vector<encoded_result>{bad_escape_at(1, 1)}));
  EXPECT_EQ(s.errors(), 1u);
}

// ---- Misuse (the C API's: tests/security/c_misuse_test.c) -----------------

TEST_P(Percent, MisuseFailsClosed) {
  const std::string_view null_chunk(nullptr, 3);
  EXPECT_FALSE(percent::is_valid(null_chunk));
  EXPECT_EQ(percent::validate(null_chunk), refused(0));
  EXPECT_THROW((void)percent::decode(null_chunk), std::invalid_argument);
  EXPECT_TRUE(percent::is_valid(std::string_view(nullptr, 0)));
  EXPECT_EQ(percent::decode(std::string_view(nullptr, 0)), "");

  // (nullptr, n > 0) fails the validator at its position, and it stays failed.
  percent::validator v;
  EXPECT_TRUE(v.feed("ab%C").ok());
  EXPECT_EQ(v.feed(null_chunk), refused(4));
  EXPECT_EQ(v.feed("3"), refused(4));
  EXPECT_EQ(v.finish(), refused(4));
  // A feed after finish is refused at the stream's position.
  percent::validator w;
  EXPECT_TRUE(w.feed("%41").ok());
  EXPECT_TRUE(w.finish().ok());
  EXPECT_EQ(w.feed("b"), refused(3));
  EXPECT_EQ(w.finish(), refused(3));
  w.reset();
  EXPECT_TRUE(w.feed("b").ok());

  percent::scanner s;
  std::size_t calls = 0;
  const auto count = [&calls](const encoded_result&) { ++calls; };
  EXPECT_TRUE(s.feed("%C", count));
  EXPECT_FALSE(s.feed(null_chunk, count));
  EXPECT_FALSE(s.feed("0", count));
  EXPECT_FALSE(s.finish(count));
  EXPECT_EQ(calls, 0u);  // %C was still open, and nothing is read after the failure
  percent::scanner t;
  EXPECT_TRUE(t.finish(count));
  EXPECT_FALSE(t.feed("a", count));
  void (*null_callback)(const encoded_result&) = nullptr;
  percent::scanner u;
  EXPECT_FALSE(u.feed("a", null_callback));
  // A callback returning false stops the stream.
  percent::scanner stop(policy::url());
  std::size_t stops = 0;
  EXPECT_FALSE(stop.feed("%zz%zz", [&stops](const encoded_result&) { return ++stops == 0; }));
  EXPECT_FALSE(stop.finish([&stops](const encoded_result&) { return ++stops == 0; }));
  EXPECT_EQ(stops, 1u);
}

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(Percent);

}  // namespace
}  // namespace utf8guard::testing
