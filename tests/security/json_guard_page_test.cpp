// json_guard_page_test.cpp - proof that the JSON text entry points read
// nothing outside their input, on every kernel.
//
// For every length 0..320 (four of the widest kernel's 64-byte blocks and one
// more, so that the vector decoder's blocks, with the 8 bytes it reads past
// each, meet every length) and several contents (dense \uXXXX escapes and
// pairs, raw text between them, and the same ending in an escape cut short:
// "\", "\u", "\u12", a high surrogate escape alone or with its low half cut,
// where a decoder looks for bytes that are not there), the input is placed
// with its last byte against a PROT_NONE page and, separately, with its first
// byte right after one. json::validate, json::is_valid (C++ and C),
// json::validator and json::scanner (whole, and one byte per feed) and
// json::sanitize must then answer as the oracle does
// (tests/reference/json_reference.hpp), with no policy and under the json
// profile (whose categories the oracle reads from the Unicode data files;
// without them the json profile's answers are only checked to agree with
// one another).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "guarded_inputs.hpp"
#include "json_reference.hpp"
#include "kernels.hpp"
#include "percent_support.hpp"

namespace utf8guard::testing {
namespace {

constexpr std::size_t kMaxLength = 4 * 64 + 64;

const std::vector<std::string> kDense = {R"(\u0444)", R"(\u4e2d)", R"(\ud83d\ude00)",
                                         R"(\u00E9)", R"(\u0041)", R"(\uD83D\uDE4F)"};
const std::vector<std::string> kMixed = {R"(\u0444)", "ab", R"(\ud83d\ude00)", "\xC3\xA9",
                                         R"(\n)",     " ",  R"(\u20ac)",       "\xF0\x9F\x98\x80"};

std::vector<std::pair<std::string, std::string>> contents(std::size_t n) {
  return {
      {"escapes", cycle(kDense, n)},
      {"escapes and raw", cycle(kMixed, n)},
      {"escapes then \\", with_tail(kDense, n, "\\")},
      {"escapes then \\u", with_tail(kDense, n, "\\u")},
      {"escapes then \\u12", with_tail(kDense, n, "\\u12")},
      {"escapes then a high surrogate", with_tail(kDense, n, "\\ud83d")},
      {"escapes then a pair cut", with_tail(kDense, n, "\\ud83d\\ude0")},
      {"escapes then a cut sequence", with_tail(kDense, n, "\xE2\x82")},
  };
}

struct streamed_json {
  encoded_result validator;
  std::vector<encoded_result> errors;
};

streamed_json stream(std::string_view in, std::size_t piece, policy p) {
  json::validator v(p);
  json::scanner s(p);
  streamed_json out;
  const auto add = [&out](const encoded_result& r) { out.errors.push_back(r); };
  for (std::size_t at = 0; at < in.size(); at += piece) {
    const std::string_view chunk = in.substr(at, piece);
    v.feed(chunk);
    EXPECT_TRUE(s.feed(chunk, add));
  }
  out.validator = v.finish();
  EXPECT_TRUE(s.finish(add));
  return out;
}

void check_guarded(const guarded_buffer& g, policy p, bool oracle) {
  const std::string_view in = g.view();
  const encoded_result one_shot = json::validate(in, p);
  const streamed_json whole = stream(in, in.size() + 1, p);
  if (oracle) {
    std::vector<encoded_result> want;
    for (const auto& e : reference::json::all_errors(in, denied_names(p))) {
      want.push_back(from_reference(e));
    }
    ASSERT_EQ(whole.errors, want);
    ASSERT_EQ(hex(json::sanitize(in, p)), hex(reference::json::sanitize(in, denied_names(p))));
  }
  const encoded_result first = oracle ? first_of(whole.errors) : one_shot;
  ASSERT_EQ(one_shot, first);
  ASSERT_EQ(first_of(whole.errors), first);
  ASSERT_EQ(whole.validator, first);
  ASSERT_EQ(json::is_valid(in, p), first.ok());
  ASSERT_EQ(from_c(utf8guard_json_validate(in.data(), in.size(), p.bits())), first);
  ASSERT_EQ(utf8guard_json_is_valid(in.data(), in.size(), p.bits()), first.ok());
  const streamed_json bytes = stream(in, 1, p);
  ASSERT_EQ(bytes.validator, first);
  ASSERT_EQ(bytes.errors, whole.errors);
}

class JsonGuardPage : public EveryKernel {
 protected:
  static void every_length(guarded_buffer::side side) {
    const bool ucd = reference::ucd_available();
    every_guarded_input(side, kMaxLength, contents, [ucd](const guarded_buffer& g) {
      check_guarded(g, policy(), true);
      check_guarded(g, policy::json(), ucd);
    });
  }
};

TEST_P(JsonGuardPage, LastByteBeforeGuardEveryLength) { every_length(guarded_buffer::at_end); }

TEST_P(JsonGuardPage, FirstByteAfterGuardEveryLength) { every_length(guarded_buffer::at_start); }

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(JsonGuardPage);

}  // namespace
}  // namespace utf8guard::testing
