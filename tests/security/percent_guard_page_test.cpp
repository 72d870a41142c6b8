// percent_guard_page_test.cpp - proof that the percent-encoded entry points
// read nothing outside their input and write nothing outside their output,
// on every kernel.
//
// For every length 0..320 (four of the widest kernel's 64-byte blocks and one
// more, so that every length of whole blocks and the partial block after
// them is met) and several contents (escape-dense, raw, noisy,
// ending in '%' or '%X', where a decoder looks for the two hex digits that
// are not there), the input is placed with its last byte against a
// PROT_NONE page and, separately, with its first byte right after one.
// percent::validate, percent::is_valid (C++ and C),
// percent::validator and percent::scanner (whole, and one byte per feed) and
// percent_decode (into an output of exactly the input's size, against a
// guard) must then answer as the oracle does, with no policy, with the
// percent categories denied and under the url profile (whose categories the
// oracle reads from the Unicode data files; without them the entry points
// must agree with one another). Then (NULL, 0) and (pointer into a PROT_NONE
// page, 0) go through every one of them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "guarded_inputs.hpp"
#include "kernels.hpp"
#include "message_reference.hpp"
#include "percent_support.hpp"
#include "policy_reference.hpp"

namespace utf8guard::testing {
namespace {

constexpr std::size_t kMaxLength = 4 * 64 + 64;

const std::vector<std::string> kDense = {"%C3%A9", "%e2%82%ac", "%F0%9F%98%80",
                                         "%41",    "%2F",       "%ef%bb%bf"};
const std::vector<std::string> kBroken = {"%C0%AF", "%zz", "%255c",     "%E2%80%AE",
                                          "%00",    "%",   "%ED%A0%80", "%4"};
const std::vector<std::string> kRaw = {"a", "\xC3\xA9", "\xE2\x82\xAC", "/", "\xF0\x9F\x98\x80"};

// contents returns the inputs of length n, each with its name.
std::vector<std::pair<std::string, std::string>> contents(std::size_t n) {
  std::string noise(n, '\0');
  static const char kAlphabet[] = "%%%4AC3a9Gf\x80\xC3\xE2";
  std::uint32_t x = 0x9E3779B9u ^ static_cast<std::uint32_t>(n);
  for (char& c : noise) {
    x = x * 1664525u + 1013904223u;
    c = kAlphabet[(x >> 24) % (sizeof kAlphabet - 1)];
  }
  return {
      {"escapes", cycle(kDense, n)},
      {"broken escapes", cycle(kBroken, n)},
      {"raw", cycle(kRaw, n)},
      {"escapes then %", with_tail(kDense, n, "%")},
      {"escapes then %X", with_tail(kDense, n, "%C")},
      {"escapes then %XG", with_tail(kDense, n, "%CG")},
      {"raw then %", with_tail(kRaw, n, "%")},
      {"raw then %X", with_tail(kRaw, n, "%4")},
      {"escape cut before the end", with_tail(kDense, n, "%E2%82")},
      {"noise", noise},
  };
}

// check_guarded runs the checks on g under p. With the oracle every answer
// must be its. Without it (p's categories need the Unicode data files, and
// they cannot be read) the one-shot C++ answer is the reference: the C calls,
// the validator and the scanner's first error must equal it, and the scanner
// fed one byte at a time must report what it reports fed the whole input.
void check_guarded(const guarded_buffer& g, policy p, bool oracle) {
  const std::string_view in = g.view();
  const encoded_result one_shot = percent::validate(in, p);
  const streamed whole = stream_pieces(in, {}, p);
  if (oracle) {
    ASSERT_EQ(whole.errors, oracle_percent_errors(in, p));
  }
  const encoded_result first = oracle ? first_of(whole.errors) : one_shot;
  ASSERT_EQ(one_shot, first);
  ASSERT_EQ(first_of(whole.errors), first);
  ASSERT_EQ(percent::is_valid(in, p), first.ok());
  ASSERT_EQ(from_c(utf8guard_percent_validate(in.data(), in.size(), p.bits())), first);
  ASSERT_EQ(utf8guard_percent_is_valid(in.data(), in.size(), p.bits()), first.ok());
  ASSERT_EQ(whole.validator, first);

  // One byte per feed: the last feed is the byte against the guard, or the
  // first one the byte after it.
  std::vector<std::size_t> every;
  for (std::size_t i = 1; i < in.size(); ++i) every.push_back(i);
  const streamed bytes = stream_pieces(in, every, p);
  ASSERT_EQ(bytes.validator, first);
  ASSERT_EQ(bytes.errors, whole.errors);
  if (!oracle) return;

  // Messages decode only the encoded bytes they are given: from the whole
  // input, and from a window that starts the bytes a stream keeps before the
  // error.
  for (const reference::percent::error& e : reference::percent::all_errors(in, denied_names(p))) {
    const encoded_result r = from_reference(e);
    const std::string text = reference::message(in, e, true);
    ASSERT_EQ(percent::describe(in, r, describe_hint), text);
    const std::size_t from = e.offset < 9 ? 0 : e.offset - 9;
    ASSERT_EQ(percent::describe(in.substr(from), r, describe_hint, from), text);
    if (e.kind != "disallowed") {
      ASSERT_EQ(percent::explain(in.substr(from), r, from),
                explain(reference::percent::decode(in).bytes, e.decoded_offset));
    }
  }
}

void check_decode_guarded(const guarded_buffer& g) {
  const std::string_view in = g.view();
  const std::string decoded = reference::percent::decode(in).bytes;
  ASSERT_EQ(percent::decode(in), decoded);
  guarded_output out(in.size());
  std::size_t written = 0;
  ASSERT_EQ(utf8guard_percent_decode(in.data(), in.size(), out.data(), in.size(), &written),
            UTF8GUARD_STATUS_OK);
  ASSERT_EQ(hex(std::string_view(out.data(), written)), hex(decoded));
}

class PercentGuardPage : public EveryKernel {
 protected:
  static void every_length(guarded_buffer::side side) {
    const policy percent_only = policy(category::bad_escape) | category::double_encoding;
    const bool ucd = reference::ucd_available();
    every_guarded_input(side, kMaxLength, contents, [&](const guarded_buffer& g) {
      check_guarded(g, policy(), true);
      check_guarded(g, percent_only, true);
      check_guarded(g, policy::url(), ucd);
      if (!HasFatalFailure()) check_decode_guarded(g);
    });
  }
};

TEST_P(PercentGuardPage, LastByteBeforeGuardEveryLength) { every_length(guarded_buffer::at_end); }

TEST_P(PercentGuardPage, FirstByteAfterGuardEveryLength) { every_length(guarded_buffer::at_start); }

// (NULL, 0) and (pointer into a PROT_NONE page, 0) are the empty input.
TEST_P(PercentGuardPage, EmptyInputEveryEntryPoint) {
  const guarded_buffer g("", guarded_buffer::at_end);
  guarded_output out_page(0);
  for (const char* p : {static_cast<const char*>(nullptr), g.guard_address()}) {
    SCOPED_TRACE(p == nullptr ? "(NULL, 0)" : "(guard page, 0)");
    char* out = p == nullptr ? nullptr : out_page.guard();
    const std::string_view empty(p, 0);
    EXPECT_TRUE(percent::is_valid(empty, policy::url()));
    EXPECT_TRUE(percent::validate(empty, policy::url()).ok());
    EXPECT_TRUE(utf8guard_percent_is_valid(p, 0, UTF8GUARD_PROFILE_URL));
    EXPECT_EQ(utf8guard_percent_validate(p, 0, UTF8GUARD_PROFILE_URL).error.kind,
              UTF8GUARD_ERROR_NONE);
    EXPECT_EQ(percent::decode(empty), "");
    std::size_t written = 7;
    EXPECT_EQ(utf8guard_percent_decode(p, 0, out, 0, &written), UTF8GUARD_STATUS_OK);
    EXPECT_EQ(written, 0u);

    // An empty chunk in the middle of an escape changes nothing.
    percent::validator v(policy::url());
    EXPECT_TRUE(v.feed("%E").ok());
    EXPECT_TRUE(v.feed(empty).ok());
    EXPECT_TRUE(v.feed("2%8").ok());
    EXPECT_TRUE(v.feed(empty).ok());
    EXPECT_TRUE(v.feed("2%AC").ok());
    EXPECT_TRUE(v.finish().ok());
    std::size_t errors = 0;
    percent::scanner s(policy::url());
    const auto count = [&errors](const encoded_result&) { ++errors; };
    EXPECT_TRUE(s.feed(empty, count));
    EXPECT_TRUE(s.feed("%", count));
    EXPECT_TRUE(s.feed(empty, count));
    EXPECT_TRUE(s.feed("4", count));
    EXPECT_TRUE(s.feed(empty, count));
    EXPECT_TRUE(s.finish(count));
    EXPECT_EQ(errors, 1u);  // "%4" at the end is a bad escape
  }
}

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(PercentGuardPage);

}  // namespace
}  // namespace utf8guard::testing
