// json_test.cpp - JSON text (docs/design.md, "JSON text") through every entry
// point, on every kernel, against answers worked out by hand:
//   - the four bodies of a JSON request that a raw check passes (a lone
//     surrogate, an escaped bidi control, an escaped NUL, an escaped
//     noncharacter) refused, and escaped pairs that pass;
//   - raw errors at their own offsets, escapes that never complete a raw
//     sequence, malformed escapes, every form of lone surrogate, denied
//     escapes of every length, the BOM at decoded byte 0;
//   - the one-shot answers equal the streams' (validator and scanner) with
//     the input split at every byte, and in pieces of every size;
//   - findings beyond the decoding window, the C API, the streams' misuse.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernels.hpp"
#include "percent_support.hpp"
#include "utf8guard/utf8guard.h"
#include "utf8guard/utf8guard.hpp"

namespace utf8guard::testing {
namespace {

class Json : public EveryKernel {};

encoded_result lone_at(std::size_t offset, std::size_t decoded_offset) {
  return encoded_at(error::surrogate, offset, 6, decoded_offset, 3);
}

encoded_result denied_at(std::size_t offset, std::size_t length, std::size_t decoded_offset,
                         std::size_t decoded_length, category c, char32_t cp) {
  return encoded_at(error::disallowed, offset, length, decoded_offset, decoded_length, c, cp);
}

encoded_result bad_escape_at(std::size_t offset, std::size_t decoded_offset) {
  return encoded_at(error::disallowed, offset, 1, decoded_offset, 1, category::bad_escape, U'\\');
}

utf8guard_encoded_result to_c_result(const encoded_result& r) {
  utf8guard_encoded_result c;
  c.error = {static_cast<utf8guard_error>(r.kind), r.offset, r.length,
             static_cast<utf8guard_category>(r.category), r.code_point};
  c.decoded_offset = r.decoded_offset;
  c.decoded_length = r.decoded_length;
  return c;
}

std::string show(const encoded_result& r) {
  return std::string(to_string(r.kind)) + " " + std::string(to_string(r.category)) + " cp " +
         std::to_string(r.code_point) + " at " + std::to_string(r.offset) + "+" +
         std::to_string(r.length) + " decoded " + std::to_string(r.decoded_offset) + "+" +
         std::to_string(r.decoded_length);
}

std::string show(const std::vector<encoded_result>& all) {
  std::string s;
  for (const encoded_result& r : all) s += show(r) + "; ";
  return s;
}

// scan_in_pieces is every finding of the scanner fed in pieces of `step`
// bytes (the whole input when step is 0), with the first piece cut at
// `first` bytes.
std::vector<encoded_result> scan_in_pieces(std::string_view in, policy p, std::size_t first,
                                           std::size_t step) {
  std::vector<encoded_result> all;
  json::scanner s(p);
  const auto keep = [&all](const encoded_result& r) { all.push_back(r); };
  std::size_t at = 0;
  std::size_t n = first;
  while (at < in.size()) {
    const std::size_t take = n < in.size() - at ? n : in.size() - at;
    EXPECT_TRUE(s.feed(in.substr(at, take), keep));
    at += take;
    n = step == 0 ? in.size() : step;
  }
  EXPECT_TRUE(s.finish(keep));
  EXPECT_EQ(s.errors(), all.size());
  return all;
}

encoded_result validate_in_pieces(std::string_view in, policy p, std::size_t first,
                                  std::size_t step) {
  json::validator v(p);
  std::size_t at = 0;
  std::size_t n = first;
  while (at < in.size()) {
    const std::size_t take = n < in.size() - at ? n : in.size() - at;
    (void)v.feed(in.substr(at, take));
    at += take;
    n = step == 0 ? in.size() : step;
  }
  EXPECT_EQ(v.bytes_fed(), in.size());
  return v.finish();
}

encoded_result first_of(const std::vector<encoded_result>& all) {
  return all.empty() ? encoded_result{} : all.front();
}

// check_all holds every entry point to want (every finding, in order): the
// one-shot forms in C++ and C, and both streams, whole, cut at every byte,
// and one byte per feed.
void check_all(const std::string& in, policy p, const std::vector<encoded_result>& want) {
  SCOPED_TRACE(in);
  const encoded_result first = first_of(want);
  EXPECT_EQ(json::validate(in, p), first) << show(json::validate(in, p)) << " want " << show(first);
  EXPECT_EQ(json::is_valid(in, p), want.empty());
  const utf8guard_encoded_result c = utf8guard_json_validate(in.data(), in.size(), p.bits());
  EXPECT_EQ(c.error.offset, first.offset);
  EXPECT_EQ(static_cast<int>(c.error.kind), static_cast<int>(first.kind));
  EXPECT_EQ(c.decoded_offset, first.decoded_offset);
  EXPECT_EQ(utf8guard_json_is_valid(in.data(), in.size(), p.bits()), want.empty());
  EXPECT_EQ(scan_in_pieces(in, p, in.size(), 0), want)
      << show(scan_in_pieces(in, p, in.size(), 0)) << " want " << show(want);
  for (std::size_t cut = 0; cut <= in.size(); ++cut) {
    EXPECT_EQ(scan_in_pieces(in, p, cut, 0), want) << "cut at " << cut;
    EXPECT_EQ(validate_in_pieces(in, p, cut, 0), first) << "cut at " << cut;
  }
  EXPECT_EQ(scan_in_pieces(in, p, 1, 1), want) << "byte by byte";
  EXPECT_EQ(validate_in_pieces(in, p, 1, 1), first) << "byte by byte";
}

// The four bodies a raw check passes, refused.
TEST_P(Json, FourBodiesRefused) {
  check_all(R"({"a":"x\ud800y"})", policy(), {lone_at(7, 7)});
  check_all(R"({"a":"x\ud800y"})", policy::field(), {lone_at(7, 7)});
  check_all(R"({"a":"x\u202ey"})", policy::field(),
            {denied_at(7, 6, 7, 3, category::bidi, 0x202E)});
  check_all(R"({"a":"x\u0000y"})", policy::field(), {denied_at(7, 6, 7, 1, category::nul, 0)});
  check_all(R"({"a":"x\uffffy"})", policy::json(),
            {denied_at(7, 6, 7, 3, category::noncharacter, 0xFFFF)});
  // The same bodies pass where the policy allows the character.
  check_all(R"({"a":"x\u202ey"})", policy(), {});
  check_all(R"({"a":"x\u0000y"})", policy::json(), {});
}

TEST_P(Json, EscapedPairsPass) {
  check_all(R"({"a":"\ud83d\ude00"})", policy::field(), {});
  check_all(R"(["\uD83D\uDE00\uDBFF\uDFFD"])", policy::json(), {});
  check_all(R"("\u00e9\u20AC\"\\\/\b\f\n\r\t")", policy::json(), {});
  check_all("no escape, caf\xC3\xA9", policy::field(), {});
  check_all("", policy::field(), {});
  // \\ starts nothing: the u after it is a letter.
  check_all(R"("\\ud800")", policy::field(), {});
}

TEST_P(Json, RawErrorsKeepTheirOffsets) {
  // {"a":" is 6 bytes; \u00e9 decodes to 2.
  check_all("{\"a\":\"\\u00e9\xC0x\"}", policy(), {encoded_at(error::overlong, 12, 1, 8, 1)});
  check_all("\xED\xA0\x80", policy(),
            {encoded_at(error::surrogate, 0, 1, 0, 1),
             encoded_at(error::unexpected_continuation, 1, 1, 1, 1),
             encoded_at(error::unexpected_continuation, 2, 1, 2, 1)});
  check_all("x\xE2\x82", policy(), {encoded_at(error::incomplete, 1, 2, 1, 2)});
  // A raw character cut by an escape: truncated, and the escape is its own.
  check_all("\xE2\x82\\u00ac", policy(), {encoded_at(error::truncated, 0, 2, 0, 2)});
  check_all("\xE2\\u0041\xAC", policy(),
            {encoded_at(error::truncated, 0, 1, 0, 1),
             encoded_at(error::unexpected_continuation, 7, 1, 2, 1)});
  // After an escaped character, a continuation byte continues nothing.
  check_all("\\u00e9\xA9", policy(), {encoded_at(error::unexpected_continuation, 6, 1, 2, 1)});
  // Raw denied characters as in raw input.
  check_all("a\xE2\x80\xAE\\n", policy::field(),
            {denied_at(1, 3, 1, 3, category::bidi, 0x202E),
             denied_at(4, 2, 4, 1, category::newline, 0x0A)});
}

TEST_P(Json, MalformedEscapes) {
  for (const char* in :
       {R"(\x)", R"(\u12G4)", R"(\u12)", R"(\)", R"(\u)", R"(\U0041)", "\\\xC3\xA9"}) {
    check_all(in, policy(), {});
    check_all(in, policy(category::bad_escape), {bad_escape_at(0, 0)});
    check_all(in, policy::url(), {bad_escape_at(0, 0)});
  }
  // After a bad escape's backslash, the bytes are read as themselves: an
  // escape may start among them.
  check_all(R"(\u\u0041)", policy::url(), {bad_escape_at(0, 0)});
  check_all(R"(a\q\)", policy::url(), {bad_escape_at(1, 1), bad_escape_at(3, 3)});
  check_all(R"(\u00e9\z)", policy::url(), {bad_escape_at(6, 2)});
  // A bad escape cuts a raw sequence, as a raw backslash would.
  check_all("\xC3\\z", policy::url(),
            {encoded_at(error::truncated, 0, 1, 0, 1), bad_escape_at(1, 1)});
}

TEST_P(Json, LoneSurrogates) {
  check_all(R"(\udc00)", policy(), {lone_at(0, 0)});
  check_all(R"(\uDFFF)", policy(), {lone_at(0, 0)});
  check_all(R"(\ud800)", policy(), {lone_at(0, 0)});
  check_all(R"(\udbff\u0041)", policy(), {lone_at(0, 0)});
  check_all(R"(\ude00\ud83d)", policy(), {lone_at(0, 0), lone_at(6, 3)});
  check_all(R"(\ud800\ud83d\ude00)", policy(), {lone_at(0, 0)});
  check_all(R"(\ud800\\udc00)", policy(), {lone_at(0, 0)});
  check_all(R"(\ud800x\udc00)", policy(), {lone_at(0, 0), lone_at(7, 4)});
  // A high surrogate cut at the end: lone, then what is left is read anew.
  check_all(R"(\ud800\udc0)", policy(), {lone_at(0, 0)});
  check_all(R"(\ud800\udc0)", policy::url(), {lone_at(0, 0), bad_escape_at(6, 3)});
  check_all(R"(\ud800\u)", policy::url(), {lone_at(0, 0), bad_escape_at(6, 3)});
  check_all(R"(\ud800\)", policy::url(), {lone_at(0, 0), bad_escape_at(6, 3)});
  // Ill-formed raw bytes before it come first.
  check_all("\xC3\\ud800", policy(), {encoded_at(error::truncated, 0, 1, 0, 1), lone_at(1, 1)});
}

TEST_P(Json, DeniedEscapesOfEveryLength) {
  check_all(R"(a\bb\t)", policy::field(), {denied_at(1, 2, 1, 1, category::control, 0x08)});
  check_all(R"(\u0085)", policy::field(), {denied_at(0, 6, 0, 2, category::newline, 0x85)});
  check_all(R"(\u0080)", policy::field(), {denied_at(0, 6, 0, 2, category::c1, 0x80)});
  check_all(R"(\udb80\udc00)", policy(category::private_use),
            {denied_at(0, 12, 0, 4, category::private_use, 0xF0000)});
  check_all(R"(\uD83F\uDFFE)", policy::json(),
            {denied_at(0, 12, 0, 4, category::noncharacter, 0x1FFFE)});
  check_all(R"(\ufffd)", policy(category::replacement),
            {denied_at(0, 6, 0, 3, category::replacement, 0xFFFD)});
  // double_encoding matches nothing in JSON text.
  check_all(R"(%255c\u0025)", policy::url(), {});
}

TEST_P(Json, BomAtDecodedByteZero) {
  check_all(R"(\ufeffok)", policy(category::bom), {});
  check_all("\xEF\xBB\xBF\\u0041", policy(category::bom), {});
  check_all(R"(ok\ufeff)", policy(category::bom), {denied_at(2, 6, 2, 3, category::bom, 0xFEFF)});
  check_all(R"(\u0041\ufeff)", policy(category::bom),
            {denied_at(6, 6, 1, 3, category::bom, 0xFEFF)});
}

// Findings past the first decoding window, and raw sequences and escapes
// that straddle a window's end, in pieces of several sizes.
TEST_P(Json, AcrossTheDecodingWindow) {
  for (std::size_t pad : {4090u, 4093u, 4095u, 4096u, 4100u}) {
    std::string in(pad, 'a');
    for (int k = 0; k < 700; ++k) in += "\\u00e9";  // 4200 encoded bytes, 1400 decoded
    const std::size_t decoded = pad + 1400;
    const std::size_t bidi = in.size();
    in += "\xE2\x80\xAE";
    const std::size_t lone = in.size();
    in += "\\udc00";
    const std::size_t raw = in.size();
    in += "\xE2\x82";
    const std::vector<encoded_result> want = {
        denied_at(bidi, 3, decoded, 3, category::bidi, 0x202E), lone_at(lone, decoded + 3),
        encoded_at(error::incomplete, raw, 2, decoded + 6, 2)};
    SCOPED_TRACE(pad);
    EXPECT_EQ(json::validate(in, policy::field()), want.front());
    EXPECT_FALSE(json::is_valid(in, policy::field()));
    for (std::size_t step : {0u, 1u, 5u, 11u, 4097u}) {
      EXPECT_EQ(scan_in_pieces(in, policy::field(), step == 0 ? in.size() : step, step), want)
          << step;
      EXPECT_EQ(validate_in_pieces(in, policy::field(), step == 0 ? in.size() : step, step),
                want.front());
    }
  }
  // An escape-dense long input that is valid.
  std::string ok;
  for (int k = 0; k < 3000; ++k) ok += "\\ud83d\\ude00x\\n";
  EXPECT_TRUE(json::is_valid(ok, policy::json()));
  EXPECT_TRUE(json::validate(ok, policy::json()).ok());
  EXPECT_TRUE(scan_in_pieces(ok, policy::json(), 7, 7).empty());
}

// Sanitize: JSON text in, JSON text out, that validates under the policy.
TEST_P(Json, Sanitize) {
  struct sanitized {
    std::string in;
    policy p;
    std::string out;
  };
  const std::vector<sanitized> cases = {
      {R"({"a":"x\ud800y"})", policy(), R"({"a":"x\ufffdy"})"},
      {R"({"a":"x\u202ey"})", policy::field(), R"({"a":"x\ufffdy"})"},
      {R"({"a":"x\u202ey"})", policy(), R"({"a":"x\u202ey"})"},
      {R"({"a":"x\u0000y"})", policy::field(), R"({"a":"x\ufffdy"})"},
      {R"({"a":"x\uffffy"})", policy::json(), R"({"a":"x\ufffdy"})"},
      {R"(\ude00\ud83d\ude00\ud83d)", policy(), R"(\ufffd\ud83d\ude00\ufffd)"},
      {R"(\udb80\udc00!)", policy(category::private_use), R"(\ufffd!)"},
      {"a\xC0\xAF\\n\xE2\x80\xAE", policy::field(), "a\xEF\xBF\xBD\xEF\xBF\xBD\\ufffd\xEF\xBF\xBD"},
      {R"(\u12G4\q)", policy::url(), R"(\ufffdu12G4\ufffdq)"},
      {R"(\u12G4\q)", policy(), R"(\u12G4\q)"},
      {R"(\ud800\udc0)", policy(), R"(\ufffd\udc0)"},
      {"raw \xF0\x9F\x98 only", policy(), "raw \xEF\xBF\xBD only"},
      {"", policy::field(), ""},
  };
  for (const sanitized& c : cases) {
    SCOPED_TRACE(c.in);
    const std::string out = json::sanitize(c.in, c.p);
    EXPECT_EQ(out, c.out);
    EXPECT_TRUE(json::is_valid(out, c.p));
    EXPECT_EQ(json::sanitize(out, c.p), out);
    std::size_t bound = 0;
    ASSERT_EQ(utf8guard_json_sanitize_bound(c.in.size(), &bound), UTF8GUARD_STATUS_OK);
    std::string buf(bound, '\0');
    std::size_t written = 99;
    ASSERT_EQ(utf8guard_json_sanitize(c.in.data(), c.in.size(), c.p.bits(), buf.data(), buf.size(),
                                      &written),
              UTF8GUARD_STATUS_OK);
    EXPECT_EQ(buf.substr(0, written), c.out);
    if (!c.out.empty()) {  // one byte short: the size needed, and a refusal
      EXPECT_EQ(utf8guard_json_sanitize(c.in.data(), c.in.size(), c.p.bits(), buf.data(),
                                        c.out.size() - 1, &written),
                UTF8GUARD_STATUS_BUFFER_TOO_SMALL);
      EXPECT_EQ(written, c.out.size());
    }
  }
  std::size_t bound = 0;
  EXPECT_EQ(utf8guard_json_sanitize_bound(SIZE_MAX / 6 + 1, &bound), UTF8GUARD_STATUS_OVERFLOW);
  EXPECT_EQ(utf8guard_json_sanitize(nullptr, 1, 0, nullptr, 0, &bound),
            UTF8GUARD_STATUS_INVALID_ARGUMENT);
  EXPECT_THROW((void)json::sanitize(std::string_view(nullptr, 1)), std::invalid_argument);
}

TEST(JsonMessages, DescribeAndExplain) {
  struct message {
    std::string in;
    policy p;
    std::string text;
  };
  const std::vector<message> cases = {
      {R"({"a":"x\ud800y"})", policy(),
       R"(surrogate \ud800 U+D800 at byte 7 (ED A0 80 79) [surrogate_code_point U+D800])"},
      {R"({"a":"x\u202ey"})", policy::field(),
       R"(disallowed bidi \u202e U+202E at byte 7 (E2 80 AE 79))"},
      {R"({"a":"x\u0000y"})", policy::field(),
       R"(disallowed nul \u0000 U+0000 at byte 7 (00 79 22 7D))"},
      {R"({"a":"x\uffffy"})", policy::json(),
       R"(disallowed noncharacter \uffff U+FFFF at byte 7 (EF BF BF 79))"},
      {R"(\uDB80\uDC00)", policy(category::private_use),
       R"(disallowed private_use \uDB80\uDC00 U+F0000 at byte 0 (F3 B0 80 80))"},
      {R"(ab\q)", policy::url(), R"(disallowed bad_escape U+005C at byte 2 (5C 71))"},
      {"a\\u00e9\xC0\xAF", policy(), "overlong at byte 7 (C0 AF) [overlong_form U+002F]"},
      {"x\xED\xA0\xBD\xED\xB8\x80", policy(),
       "surrogate at byte 1 (ED A0 BD ED) [cesu8_pair U+1F600]"},
  };
  for (const message& m : cases) {
    SCOPED_TRACE(m.in);
    const encoded_result r = json::validate(m.in, m.p);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(json::describe(m.in, r, describe_hint), m.text);
    char out[UTF8GUARD_DESCRIBE_MAX];
    EXPECT_EQ(utf8guard_json_describe(m.in.data(), m.in.size(), 0, to_c_result(r),
                                      UTF8GUARD_DESCRIBE_HINT, out, sizeof out),
              m.text.size());
    EXPECT_EQ(std::string(out), m.text);
    // From a window that starts at the finding's offset, as a stream keeps it.
    EXPECT_EQ(json::describe(std::string_view(m.in).substr(r.offset), r, describe_hint, r.offset),
              m.text);
  }
  const std::string lone = R"({"a":"x\ud800y"})";
  const encoded_result r = json::validate(lone);
  const hint h = json::explain(lone, r);
  EXPECT_EQ(h.kind, hint_kind::surrogate_code_point);
  EXPECT_EQ(h.value, 0xD800u);
  const utf8guard_hint c = utf8guard_json_explain(lone.data(), lone.size(), 0, to_c_result(r));
  EXPECT_EQ(c.kind, UTF8GUARD_HINT_SURROGATE_CODE_POINT);
}

TEST(JsonTruncate, NeverInsideAnEscape) {
  const std::string in = R"(ab\u00e9\ud83d\ude00\n)";  // 2 + 6 + 12 + 2 = 22 bytes
  const auto keep = truncate_mode::keep_ill_formed;
  const std::vector<std::pair<std::size_t, std::size_t>> cuts = {
      {0, 0},  {2, 2},   {3, 2},   {7, 2},   {8, 8},  {13, 8},
      {19, 8}, {20, 20}, {21, 20}, {22, 22}, {99, 22}};
  for (const auto& [max, want] : cuts) {
    EXPECT_EQ(json::truncate(in, max, keep).size(), want) << max;
    EXPECT_EQ(json::truncate(in, max).size(), want) << max;
    EXPECT_EQ(
        utf8guard_json_truncate(in.data(), in.size(), max, UTF8GUARD_TRUNCATE_KEEP_ILL_FORMED),
        want);
  }
  // Raw characters as utf8guard::truncate keeps them; a lone surrogate
  // escape is ill-formed.
  const std::string raw = "\\n\xC3\xA9\xF0\x9F\x98\x80";
  EXPECT_EQ(json::truncate(raw, 3, keep).size(), 2u);
  EXPECT_EQ(json::truncate(raw, 4, keep).size(), 4u);
  EXPECT_EQ(json::truncate(raw, 7, keep).size(), 4u);
  const std::string lone = R"(a\ud800b)";
  EXPECT_EQ(json::truncate(lone, 7, keep).size(), 7u);
  EXPECT_EQ(json::truncate(lone, 7).size(), 1u);
  EXPECT_EQ(json::truncate(lone, 99).size(), 1u);
  EXPECT_EQ(utf8guard_json_truncate(lone.data(), lone.size(), 99, UTF8GUARD_TRUNCATE_WELL_FORMED),
            1u);
}

// A stream reports a finding by the feed that delivers the byte deciding
// it: a high surrogate escape waits for the 6 bytes after it.
TEST(JsonStream, ReportsWhenDecided) {
  json::validator v{policy()};
  EXPECT_TRUE(v.feed(R"(ab\ud8)").ok());
  EXPECT_TRUE(v.feed(R"(00\udc)").ok());
  EXPECT_TRUE(v.feed(R"(0)").ok());          // \ud800\udc0 may still pair
  EXPECT_EQ(v.feed(R"(x)"), lone_at(2, 2));  // \udc0x does not
  EXPECT_EQ(v.finish(), lone_at(2, 2));
  json::validator w{policy()};
  EXPECT_TRUE(w.feed(R"(\ud800\udc0)").ok());
  EXPECT_EQ(w.finish(), lone_at(0, 0));  // the end decides it
  json::validator pair{policy::field()};
  EXPECT_TRUE(pair.feed(R"(\ud83d\ude0)").ok());
  EXPECT_TRUE(pair.feed("0").ok());
  EXPECT_TRUE(pair.finish().ok());
}

TEST(JsonStream, CApiAndMisuse) {
  utf8guard_json_stream s;
  utf8guard_json_validator_init(&s, UTF8GUARD_PROFILE_FIELD);
  const std::string in = R"({"a":"x\u202ey"})";
  (void)utf8guard_json_validator_feed(&s, in.data(), in.size());
  const utf8guard_encoded_result r = utf8guard_json_validator_finish(&s);
  EXPECT_EQ(r.error.kind, UTF8GUARD_ERROR_DISALLOWED);
  EXPECT_EQ(r.error.offset, 7u);
  EXPECT_EQ(r.error.length, 6u);
  EXPECT_EQ(r.error.category, UTF8GUARD_CATEGORY_BIDI);
  // A validator's stream is refused by the scanner's functions.
  const auto count = [](void* ctx, utf8guard_encoded_result) {
    ++*static_cast<int*>(ctx);
    return true;
  };
  int n = 0;
  EXPECT_EQ(utf8guard_json_scanner_feed(&s, "a", 1, count, &n), UTF8GUARD_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(utf8guard_json_scanner_errors(&s), SIZE_MAX);
  utf8guard_json_scanner_init(&s, 0);
  const std::string two = R"(\udc00\ud800)";
  EXPECT_EQ(utf8guard_json_scanner_feed(&s, two.data(), two.size(), count, &n),
            UTF8GUARD_STATUS_OK);
  EXPECT_EQ(utf8guard_json_scanner_finish(&s, count, &n), UTF8GUARD_STATUS_OK);
  EXPECT_EQ(n, 2);
  EXPECT_EQ(utf8guard_json_scanner_errors(&s), 2u);
  EXPECT_EQ(utf8guard_json_scanner_feed(&s, "a", 1, count, &n), UTF8GUARD_STATUS_INVALID_ARGUMENT);
  utf8guard_json_scanner_init(&s, 0);
  EXPECT_EQ(utf8guard_json_scanner_feed(&s, nullptr, 1, count, &n),
            UTF8GUARD_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(utf8guard_json_scanner_feed(nullptr, "a", 1, count, &n),
            UTF8GUARD_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(utf8guard_json_validate(nullptr, 1, 0).error.kind, UTF8GUARD_ERROR_INVALID_ARGUMENT);
  EXPECT_FALSE(utf8guard_json_is_valid(nullptr, 1, 0));
  EXPECT_TRUE(utf8guard_json_is_valid(nullptr, 0, 0));
  utf8guard_json_validator_init(&s, 0);
  EXPECT_EQ(utf8guard_json_validator_feed(&s, nullptr, 3).error.kind,
            UTF8GUARD_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(utf8guard_json_validator_finish(&s).error.kind, UTF8GUARD_ERROR_INVALID_ARGUMENT);
  json::validator v;
  EXPECT_EQ(v.feed(std::string_view(nullptr, 2)).kind, error::invalid_argument);
  v.reset();
  EXPECT_TRUE(v.feed("ok").ok());
}

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(Json);

}  // namespace
}  // namespace utf8guard::testing
