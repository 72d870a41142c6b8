// json_checks.hpp - what the JSON text tests share: the oracle's answer for
// an input (tests/reference/json_reference.hpp), the one-shot, sanitize and
// streaming checks against it, the pieces random inputs are made of, and
// running a list of cases on every kernel with the oracle asked once.
#ifndef UTF8GUARD_TESTS_CORE_JSON_CHECKS_HPP
#define UTF8GUARD_TESTS_CORE_JSON_CHECKS_HPP

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "encoded_checks.hpp"
#include "json_reference.hpp"
#include "percent_checks.hpp"

namespace utf8guard::testing::json_checks {

inline std::vector<encoded_result> oracle_errors(std::string_view in, policy p) {
  std::vector<encoded_result> out;
  for (const auto& e : reference::json::all_errors(in, denied_names(p))) {
    out.push_back(from_reference(e));
  }
  return out;
}

// decided_by is how many encoded bytes must have arrived, at most, before a
// stream has to report e: a raw ill-formed subpart is settled by the byte
// after it, or when that byte is a backslash, by the escape it starts, which
// the stream holds until it is whole (at most 12 bytes: a pair); a raw or
// escaped denied character by its last byte; a lone surrogate escape by its
// sixth byte if it is a low one, by the byte that shows no low surrogate
// escape follows if it is a high one (at most 6 more); a malformed escape by
// the byte that breaks it (at most 5 after the backslash). An incomplete
// sequence waits for finish().
inline std::size_t decided_by(std::string_view in, const encoded_result& e) {
  if (e.kind == error::incomplete) return SIZE_MAX;
  if (in[e.offset] != '\\') {
    const std::size_t end = e.offset + e.length;
    if (e.kind == error::disallowed) return end;
    return end < in.size() && in[end] == '\\' ? end + 12 : end + 1;
  }
  if (e.kind == error::surrogate) return e.offset + 12;
  if (e.category == category::bad_escape) return e.offset + 6;
  return e.offset + e.length;
}

// expected is the oracle's answer for one input under one policy.
struct expected {
  std::vector<encoded_result> errors;
  std::string sanitized;
};

inline expected oracle(std::string_view in, policy p) {
  return {oracle_errors(in, p), reference::json::sanitize(in, denied_names(p))};
}

// check_one_shot compares the one-shot entry points and sanitize, C++ and
// C, with the oracle's answer.
inline void check_one_shot(std::string_view in, policy p, const expected& want) {
  const encoded_result first = first_of(want.errors);
  EXPECT_EQ(json::validate(in, p), first);
  EXPECT_EQ(json::is_valid(in, p), first.ok());
  EXPECT_EQ(from_c(utf8guard_json_validate(in.data(), in.size(), p.bits())), first);
  EXPECT_EQ(utf8guard_json_is_valid(in.data(), in.size(), p.bits()), first.ok());
  EXPECT_EQ(hex(json::sanitize(in, p)), hex(want.sanitized));
  std::size_t bound = 0;
  ASSERT_EQ(utf8guard_json_sanitize_bound(in.size(), &bound), UTF8GUARD_STATUS_OK);
  ASSERT_GE(bound, want.sanitized.size());
  std::string out(bound, '\x55');
  std::size_t written = 99;
  EXPECT_EQ(
      utf8guard_json_sanitize(in.data(), in.size(), p.bits(), out.data(), out.size(), &written),
      UTF8GUARD_STATUS_OK);
  EXPECT_EQ(hex(out.substr(0, written)), hex(want.sanitized));
}

// check_cut streams the input cut in two at cut (encoded_checks.hpp).
inline void check_cut(std::string_view in, std::size_t cut, policy p,
                      const std::vector<encoded_result>& want) {
  check_cut_in_two<json::validator, json::scanner>(
      in, cut, p, want, [in](const encoded_result& e) { return decided_by(in, e); });
}

// check_pieces feeds the input cut at the given ascending positions to the
// C++ and the C streams.
inline void check_pieces(std::string_view in, const std::vector<std::size_t>& cuts, policy p,
                         const std::vector<encoded_result>& want) {
  json::validator v(p);
  json::scanner s(p);
  utf8guard_json_stream cv, cs;
  utf8guard_json_validator_init(&cv, p.bits());
  utf8guard_json_scanner_init(&cs, p.bits());
  std::vector<encoded_result> got, cgot;
  const auto add = [&got](const encoded_result& r) { got.push_back(r); };
  const auto collect = [](void* ctx, utf8guard_encoded_result r) {
    static_cast<std::vector<encoded_result>*>(ctx)->push_back(from_c(r));
    return true;
  };
  std::size_t from = 0;
  for (std::size_t k = 0; k <= cuts.size(); ++k) {
    const std::size_t to = k < cuts.size() ? std::min(cuts[k], in.size()) : in.size();
    const std::string_view piece = in.substr(from, to - from);
    v.feed(piece);
    ASSERT_TRUE(s.feed(piece, add));
    utf8guard_json_validator_feed(&cv, piece.data(), piece.size());
    ASSERT_EQ(utf8guard_json_scanner_feed(&cs, piece.data(), piece.size(), collect, &cgot),
              UTF8GUARD_STATUS_OK);
    from = to;
  }
  ASSERT_EQ(v.finish(), first_of(want));
  ASSERT_TRUE(s.finish(add));
  ASSERT_EQ(got, want);
  ASSERT_EQ(s.errors(), want.size());
  ASSERT_EQ(from_c(utf8guard_json_validator_finish(&cv)), first_of(want));
  ASSERT_EQ(utf8guard_json_scanner_finish(&cs, collect, &cgot), UTF8GUARD_STATUS_OK);
  ASSERT_EQ(cgot, want);
  ASSERT_EQ(utf8guard_json_scanner_errors(&cs), want.size());
}

// A case: an input, a policy, the oracle's answer, and how to stream it: cut
// at every position (every_cut), in the given pieces, or not at all (the
// one-shot checks alone, for the largest spaces).
struct json_case {
  std::string in;
  policy p;
  expected want;
  bool every_cut = false;
  std::vector<std::size_t> pieces;
  bool streamed = true;
};

inline json_case make_case(std::string in, policy p, bool every_cut,
                           std::vector<std::size_t> pieces = {}) {
  expected want = oracle(in, p);
  return {std::move(in), p, std::move(want), every_cut, std::move(pieces)};
}

inline json_case one_shot_case(std::string in, policy p) {
  json_case c = make_case(std::move(in), p, false);
  c.streamed = false;
  return c;
}

inline void check_case(const json_case& c) {
  check_one_shot(c.in, c.p, c.want);
  if (c.every_cut) {
    for (std::size_t cut = 0; cut <= c.in.size() && !::testing::Test::HasFatalFailure(); ++cut) {
      check_cut(c.in, cut, c.p, c.want.errors);
    }
  }
  if (c.streamed && !::testing::Test::HasFatalFailure()) {
    check_pieces(c.in, c.pieces, c.p, c.want.errors);
  }
}

// check_cases checks every case on every kernel.
inline void check_cases(const std::vector<json_case>& cases) {
  check_every_case(cases, [](const json_case& c) { check_case(c); });
}

// The pieces generated inputs are made of: escapes of every kind (short
// ones, BMP characters in both cases, pairs, the categories' characters),
// lone and swapped surrogate halves, cut and malformed escapes, raw
// well-formed, ill-formed and denied bytes, and the ASCII that escapes are
// spelled with, so that pieces join into escapes too.
inline const std::vector<std::string>& pieces() {
  static const std::vector<std::string> p = {R"(\")",
                                             R"(\\)",
                                             R"(\/)",
                                             R"(\b)",
                                             R"(\f)",
                                             R"(\n)",
                                             R"(\r)",
                                             R"(\t)",
                                             R"(\u0041)",
                                             R"(\u00e9)",
                                             R"(\u00E9)",
                                             R"(\u0000)",
                                             R"(\u0085)",
                                             R"(\u0086)",
                                             R"(\u202e)",
                                             R"(\u2028)",
                                             R"(\ufeff)",
                                             R"(\ufffd)",
                                             R"(\uffff)",
                                             R"(\ufdd0)",
                                             R"(\ue000)",
                                             R"(\u20ac)",
                                             R"(\u001f)",
                                             R"(\u007f)",
                                             R"(\ud83d\ude00)",
                                             R"(\uD83D\uDE00)",
                                             R"(\udbff\udfff)",
                                             R"(\udb80\udc00)",
                                             R"(\ud800)",
                                             R"(\udbff)",
                                             R"(\udc00)",
                                             R"(\udfff)",
                                             R"(\uD800)",
                                             R"(\uDC00)",
                                             R"(\)",
                                             R"(\u)",
                                             R"(\u1)",
                                             R"(\ud8)",
                                             R"(\ud80)",
                                             R"(\uG000)",
                                             R"(\x)",
                                             R"(\U0041)",
                                             "\\ ",
                                             "\\\xC3\xA9",
                                             "a",
                                             "\"",
                                             "u",
                                             "d800",
                                             "dc00",
                                             "0",
                                             "\xC3\xA9",
                                             "\xE2\x82",
                                             "\xAC",
                                             "\x80",
                                             "\xC0",
                                             "\xED\xA0\x80",
                                             "\xF0\x9F\x98\x80",
                                             "\xF0\x9F",
                                             "\xE2\x80\xAE",
                                             std::string(1, '\0'),
                                             "\n",
                                             "\xEF\xBB\xBF",
                                             "\xEF\xBF\xBF",
                                             "\xFF"};
  return p;
}

// random_input joins n random pieces.
template <class Rng>
std::string random_input(Rng& rng, std::size_t n) {
  std::string in;
  for (std::size_t k = 0; k < n; ++k) in += pieces()[rng() % pieces().size()];
  return in;
}

// random_cuts: ascending positions in [0, n], 0..max_step apart.
template <class Rng>
std::vector<std::size_t> random_cuts(Rng& rng, std::size_t n, std::size_t max_step) {
  std::vector<std::size_t> cuts;
  for (std::size_t at = rng() % (max_step + 1); at <= n; at += rng() % (max_step + 1)) {
    cuts.push_back(at);
  }
  return cuts;
}

// Policies for the oracle comparisons: none, bad_escape alone, each
// profile and everything (or, without the Unicode data files, those that
// need none).
inline std::vector<policy> json_policies() {
  if (!reference::ucd_available()) return {policy(), policy(category::bad_escape)};
  return {policy(),         policy(category::bad_escape),
          policy::json(),   policy::field(),
          policy::source(), policy::url(),
          every_category()};
}

}  // namespace utf8guard::testing::json_checks

#endif  // UTF8GUARD_TESTS_CORE_JSON_CHECKS_HPP
