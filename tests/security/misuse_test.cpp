// misuse_test.cpp - caller bugs fail closed in the C++ API too (utf8guard.hpp):
// a view of (nullptr, n > 0) is never read and never valid, a null function
// pointer is never called, and the streaming classes refuse a feed() after
// finish(), answer a second finish() the same, keep their first failure and
// start over on reset(), on every kernel. The C API's side is
// c_misuse_test.c.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "kernels.hpp"
#include "utf8guard/utf8guard.hpp"

namespace utf8guard {
namespace {

class Misuse : public testing::EveryKernel {};

// lost is a view whose pointer was lost and whose length was kept.
std::string_view lost(std::size_t n) { return std::string_view(nullptr, n); }

constexpr std::size_t kLengths[] = {1, 3, 16, 64, 4096, SIZE_MAX};

result refused_at(std::size_t position) { return {error::invalid_argument, position, 0}; }

TEST_P(Misuse, OneShotEntryPointsRefuseALostView) {
  for (const std::size_t n : kLengths) {
    SCOPED_TRACE(n);
    EXPECT_FALSE(is_valid(lost(n)));
    EXPECT_EQ(validate(lost(n)), refused_at(0));
    EXPECT_THROW((void)sanitize(lost(n)), std::invalid_argument);
    char out[8] = {'x'};
    EXPECT_EQ(sanitize_to(lost(n), out, sizeof out), SIZE_MAX);
    EXPECT_EQ(out[0], 'x');
    EXPECT_EQ(sanitize_to("ab\xC0", nullptr, n), SIZE_MAX);

    const decoded d = decode_one(lost(n));
    EXPECT_EQ(d.kind, error::invalid_argument);
    EXPECT_EQ(d.length, 0u);
    std::u32string cps = U"k";
    EXPECT_EQ(decode(lost(n), cps), refused_at(0));
    EXPECT_EQ(cps, U"k");
    std::string bytes = "k";
    EXPECT_FALSE(encode(std::u32string_view(nullptr, n), bytes));
    EXPECT_EQ(bytes, "k");
    EXPECT_FALSE(set_kernel(lost(n)));

    // The policy forms and the names refuse it too.
    EXPECT_FALSE(is_valid(lost(n), policy::field()));
    EXPECT_EQ(validate(lost(n), policy::field()), refused_at(0));
    EXPECT_THROW((void)sanitize(lost(n), policy::field()), std::invalid_argument);
    EXPECT_EQ(sanitize_to(lost(n), out, sizeof out, policy::field()), SIZE_MAX);
    EXPECT_EQ(explain(lost(n), 0).kind, hint_kind::none);
    EXPECT_EQ(category_from_name(lost(n)), category::none);
    policy p = policy::json();
    EXPECT_FALSE(profile_from_name(lost(n), p));
    EXPECT_EQ(p.bits(), policy::json().bits());
  }
  EXPECT_EQ(encode_one(U'A', nullptr), 0u);
  EXPECT_EQ(active_kernel(), GetParam());
  // (nullptr, 0) stays the empty input, and real input still validates.
  EXPECT_TRUE(is_valid(lost(0)));
  EXPECT_EQ(sanitize(lost(0)), "");
  EXPECT_EQ(validate("a\xC0"), (result{error::overlong, 1, 1}));
}

TEST_P(Misuse, TheValidatorKeepsARefusalAtItsPosition) {
  for (const std::size_t n : kLengths) {
    validator v;
    EXPECT_EQ(v.feed("ab\xE2"), result{});
    EXPECT_EQ(v.feed(lost(n)), refused_at(3));
    EXPECT_EQ(v.feed("\x82\xAC"), refused_at(3));
    EXPECT_EQ(v.finish(), refused_at(3));
    EXPECT_EQ(v.finish(), refused_at(3));
  }
  // An error found first stands.
  validator v;
  EXPECT_EQ(v.feed("\xFF"), (result{error::invalid_byte, 0, 1}));
  EXPECT_EQ(v.feed(lost(4)), (result{error::invalid_byte, 0, 1}));
}

TEST_P(Misuse, TheValidatorRefusesAFeedAfterFinishAndAnswersFinishTwice) {
  validator v;
  EXPECT_EQ(v.feed("caf\xC3\xA9"), result{});
  EXPECT_EQ(v.finish(), result{});
  EXPECT_EQ(v.finish(), result{});
  EXPECT_EQ(v.feed("x"), refused_at(5));
  EXPECT_EQ(v.feed(""), refused_at(5));
  EXPECT_EQ(v.finish(), refused_at(5));

  validator w;
  EXPECT_EQ(w.feed("ab\xF0\x9F"), result{});
  EXPECT_EQ(w.finish(), (result{error::incomplete, 2, 2}));
  EXPECT_EQ(w.finish(), (result{error::incomplete, 2, 2}));
  EXPECT_EQ(w.feed("\x98\x80"), (result{error::incomplete, 2, 2}));
}

TEST_P(Misuse, ResetStartsANewInputInTheMiddleAndAfterAFailure) {
  validator v;
  EXPECT_EQ(v.feed("\xE2\x82"), result{});
  v.reset();  // the carried E2 82 is dropped
  EXPECT_EQ(v.bytes_fed(), 0u);
  EXPECT_EQ(v.feed("\xAC"), (result{error::unexpected_continuation, 0, 1}));
  v.reset();
  EXPECT_EQ(v.feed(lost(2)), refused_at(0));
  v.reset();
  EXPECT_EQ(v.feed("ok"), result{});
  EXPECT_EQ(v.finish(), result{});
  v.reset();
  EXPECT_EQ(v.feed("\xC3"), result{});
  EXPECT_EQ(v.feed("\xA9"), result{});
  EXPECT_EQ(v.finish(), result{});
}

TEST_P(Misuse, TheSanitizerRefusesAndStaysRefused) {
  for (const std::size_t n : kLengths) {
    sanitizer s;
    std::string out;
    auto sink = [&out](std::string_view b) { out.append(b); };
    EXPECT_TRUE(s.feed("x\xC0y\xE2\x82", sink));
    EXPECT_FALSE(s.feed(lost(n), sink));
    EXPECT_FALSE(s.feed("\xAC", sink));
    EXPECT_FALSE(s.finish(sink));  // the held E2 82 is not written as the end
    EXPECT_EQ(out, "x\xEF\xBF\xBDy");
    EXPECT_EQ(s.replacements(), 1u);
  }

  // A sink that said stop is not called again.
  sanitizer s;
  int calls = 0;
  auto refuse = [&calls](std::string_view) {
    ++calls;
    return false;
  };
  EXPECT_FALSE(s.feed("abc", refuse));
  EXPECT_FALSE(s.feed("def", refuse));
  EXPECT_FALSE(s.finish(refuse));
  EXPECT_EQ(calls, 1);

  // A null function pointer is refused, never called.
  bool (*no_sink)(std::string_view) = nullptr;
  sanitizer t;
  EXPECT_FALSE(t.feed("abc", no_sink));
  std::string out;
  EXPECT_FALSE(t.feed("abc", [&out](std::string_view b) { out.append(b); }));
  EXPECT_EQ(out, "");
  sanitizer u;
  EXPECT_TRUE(u.feed("a\xE2", [&out](std::string_view b) { out.append(b); }));
  EXPECT_FALSE(u.finish(no_sink));
  EXPECT_EQ(out, "a");
}

TEST_P(Misuse, TheSanitizerRefusesAFeedAfterFinishAndAnswersFinishTwice) {
  sanitizer s;
  std::string out;
  auto sink = [&out](std::string_view b) { out.append(b); };
  EXPECT_TRUE(s.feed("a\xF0\x9F", sink));
  EXPECT_TRUE(s.finish(sink));
  EXPECT_TRUE(s.finish(sink));  // nothing left: nothing written twice
  EXPECT_EQ(out, "a\xEF\xBF\xBD");
  EXPECT_FALSE(s.feed("\x98\x80", sink));
  EXPECT_FALSE(s.finish(sink));
  EXPECT_EQ(out, "a\xEF\xBF\xBD");
  EXPECT_EQ(s.replacements(), 1u);
  s.reset();
  EXPECT_TRUE(s.feed("\x80!", sink));
  EXPECT_TRUE(s.finish(sink));
  EXPECT_EQ(out, "a\xEF\xBF\xBD\xEF\xBF\xBD!");
  EXPECT_EQ(s.replacements(), 1u);
}

TEST_P(Misuse, TheScannerRefusesAndStaysRefused) {
  for (const std::size_t n : kLengths) {
    error_scanner scan;
    std::vector<result> errors;
    auto collect = [&errors](const result& r) { errors.push_back(r); };
    EXPECT_TRUE(scan.feed("\xFFq\xF0\x90", collect));
    EXPECT_FALSE(scan.feed(lost(n), collect));
    EXPECT_FALSE(scan.feed("\x80", collect));
    EXPECT_FALSE(scan.finish(collect));  // no "incomplete" for the held F0 90
    EXPECT_EQ(errors, (std::vector<result>{{error::invalid_byte, 0, 1}}));
    EXPECT_EQ(scan.errors(), 1u);
  }

  error_scanner scan;
  int calls = 0;
  auto stop = [&calls](const result&) {
    ++calls;
    return false;
  };
  EXPECT_FALSE(scan.feed("\x80\x80", stop));
  EXPECT_FALSE(scan.feed("\x80", stop));
  EXPECT_FALSE(scan.finish(stop));
  EXPECT_EQ(calls, 1);

  bool (*no_callback)(const result&) = nullptr;
  error_scanner t;
  EXPECT_FALSE(t.feed("\x80", no_callback));
  EXPECT_FALSE(t.feed("\x80", stop));
  EXPECT_EQ(calls, 1);
}

TEST_P(Misuse, TheScannerRefusesAFeedAfterFinishAndAnswersFinishTwice) {
  error_scanner scan;
  std::vector<result> errors;
  auto collect = [&errors](const result& r) { errors.push_back(r); };
  EXPECT_TRUE(scan.feed("ab\xE2", collect));
  EXPECT_TRUE(scan.finish(collect));
  EXPECT_TRUE(scan.finish(collect));  // "incomplete" reported once
  EXPECT_FALSE(scan.feed("\x80", collect));
  EXPECT_EQ(errors, (std::vector<result>{{error::incomplete, 2, 1}}));
  scan.reset();
  EXPECT_TRUE(scan.feed("\xFF", collect));
  EXPECT_TRUE(scan.finish(collect));
  EXPECT_EQ(errors.back(), (result{error::invalid_byte, 0, 1}));
  EXPECT_EQ(scan.errors(), 1u);
}

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(Misuse);

}  // namespace
}  // namespace utf8guard
