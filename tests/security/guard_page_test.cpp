// guard_page_test.cpp - proof that no entry point reads outside its input or
// writes outside its output, on every kernel.
//
// For every length 0..320 (four 64-byte AVX-512 vectors + 64, enough for
// every kernel's main loop, tail and error-check groups) with several
// contents per length, and for runs of ASCII around the first 1 KiB blocks,
// the input is placed with its last byte against a PROT_NONE page and,
// separately, with its first byte right after one. A single byte read
// outside [data, data + len) kills the test with SIGSEGV. The one-shot
// calls and streams run with and without a policy. Bounded outputs are
// placed the same way against the end of their capacity. Then (NULL, 0) and
// (pointer into a PROT_NONE page, 0) go through every entry point.
//
// Results are compared with the oracle (tests/reference), so a kernel that
// avoided the guard by reading less than it should fails too. The same
// proofs run on every scan body directly (GuardPageScanBodies), including
// the bodies set_kernel() cannot reach on this CPU's preference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "attack_vectors.hpp"
#include "guard_page.hpp"
#include "hex.hpp"
#include "kernel_check.hpp"
#include "kernels.hpp"
#include "message_reference.hpp"
#include "reference.hpp"
#include "results.hpp"
#include "sinks.hpp"
#include "utf8guard/utf8guard.h"
#include "utf8guard/utf8guard.hpp"

namespace utf8guard::testing {
namespace {

constexpr std::size_t kMaxLength = 320;  // 4 * 64 + 64

enum class content {
  ascii,
  multibyte,          // well-formed, every sequence length, up to the last byte
  error_at_end,       // a stray continuation as the last byte
  unfinished_at_end,  // the buffer ends inside a 4-byte sequence
  error_at_start,     // an overlong lead as the first byte
  surrogate_at_end,   // ED A0: an error decided by the very last byte
  noise,              // pseudo-random bytes: errors of every kind anywhere
};
constexpr content kContents[] = {content::ascii,          content::multibyte,
                                 content::error_at_end,   content::unfinished_at_end,
                                 content::error_at_start, content::surrogate_at_end,
                                 content::noise};
const char* name_of(content c) {
  switch (c) {
    case content::ascii: return "ascii";
    case content::multibyte: return "multibyte";
    case content::error_at_end: return "error_at_end";
    case content::unfinished_at_end: return "unfinished_at_end";
    case content::error_at_start: return "error_at_start";
    case content::surrogate_at_end: return "surrogate_at_end";
    case content::noise: return "noise";
  }
  return "?";
}

// well_formed is n bytes of valid UTF-8 cycling through 1- to 4-byte
// sequences (the edges of Table 3-7 rows among them), ASCII where the next
// sequence would not fit.
std::string well_formed(std::size_t n) {
  static const char* const kSeqs[] = {
      "\xC3\xA9",     "\xE2\x82\xAC",    "\xF0\x9F\x98\x80", "a",
      "\xED\x9F\xBF", "\xDF\xBF",        "\xF4\x8F\xBF\xBF", "\xE0\xA0\x80",
      "\xEF\xBF\xBD", "\xF0\x90\x80\x80"};
  std::string s;
  for (std::size_t k = 0; s.size() < n; ++k) {
    const std::string seq = kSeqs[k % (sizeof kSeqs / sizeof kSeqs[0])];
    s += (s.size() + seq.size() <= n) ? seq : std::string(1, 'z');
  }
  return s;
}

std::string make(content c, std::size_t n) {
  auto with_tail = [n](std::string tail) {
    if (tail.size() > n) tail.resize(n);
    return well_formed(n - tail.size()) + tail;
  };
  switch (c) {
    case content::ascii: return utf8guard::security::ascii_run(n);
    case content::multibyte: return well_formed(n);
    case content::error_at_end: return with_tail("\x80");
    case content::unfinished_at_end: return with_tail("\xF0\x9F\x98");
    case content::error_at_start:
      return n == 0 ? std::string() : std::string("\xC0").append(well_formed(n - 1));
    case content::surrogate_at_end: return with_tail("\xED\xA0");
    case content::noise: {
      std::string s(n, '\0');
      std::uint32_t x = 0x9E3779B9u ^ static_cast<std::uint32_t>(n);
      for (char& ch : s) {
        x = x * 1664525u + 1013904223u;
        ch = static_cast<char>(x >> 24);
      }
      return s;
    }
  }
  return {};
}

// What decode_one must say for the sequence at the start of s (non-empty).
struct one {
  std::string kind;
  std::size_t length;
  char32_t value;
};
one expected_one(std::string_view s) {
  const reference::error e = reference::first_error(s);
  if (!e.ok() && e.offset == 0) return {std::string(e.kind), e.length, 0};
  const char32_t cp = reference::decode(s)[0];
  return {"none", reference::encode(cp).size(), cp};
}

// check_guarded runs every entry point on g and compares with the oracle.
void check_guarded(const guarded_buffer& g) {
  const std::string_view in = g.view();
  const reference::error first = reference::first_error(in);
  const std::vector<reference::error> all = reference::all_errors(in);
  const std::string sanitized = reference::sanitize(in);
  const std::u32string cps = reference::decode(in);

  ASSERT_TRUE(same(utf8guard::validate(in), first));
  ASSERT_EQ(utf8guard::is_valid(in), first.ok());
  ASSERT_TRUE(same(utf8guard_validate(in.data(), in.size()), first));
  ASSERT_EQ(utf8guard_is_valid(in.data(), in.size()), first.ok());

  // Streaming: the whole buffer, then one byte per feed (the last feed is the
  // byte against the guard, or the first one the byte after it).
  utf8guard::validator v;
  v.feed(in);
  ASSERT_TRUE(same(v.finish(), first));
  utf8guard_validator cv;
  utf8guard_validator_init(&cv);
  for (std::size_t i = 0; i < in.size(); ++i) utf8guard_validator_feed(&cv, in.data() + i, 1);
  ASSERT_TRUE(same(utf8guard_validator_finish(&cv), first));

  // Sanitize: one-shot, into an output that ends at a guard page, streaming.
  ASSERT_EQ(utf8guard::sanitize(in), sanitized);
  {
    guarded_output out(sanitized.size());
    ASSERT_EQ(utf8guard::sanitize_to(in, out.data(), out.size()), sanitized.size());
    ASSERT_EQ(std::string_view(out.data(), out.size()), sanitized);
    std::size_t written = 0, replaced = 0;
    ASSERT_EQ(utf8guard_sanitize(in.data(), in.size(), out.data(), out.size(), &written, &replaced),
              UTF8GUARD_STATUS_OK);
    ASSERT_EQ(written, sanitized.size());
    ASSERT_EQ(replaced, all.size());
  }
  if (!sanitized.empty()) {  // one byte short: refused, and nothing past the end
    guarded_output out(sanitized.size() - 1);
    ASSERT_EQ(utf8guard::sanitize_to(in, out.data(), out.size()), sanitized.size());
    std::size_t needed = 0;
    ASSERT_EQ(utf8guard_sanitize(in.data(), in.size(), out.data(), out.size(), &needed, nullptr),
              UTF8GUARD_STATUS_BUFFER_TOO_SMALL);
    ASSERT_EQ(needed, sanitized.size());
  }
  {
    std::string out;
    utf8guard::sanitizer s;
    s.feed(in, [&out](std::string_view b) { out.append(b); });
    s.finish([&out](std::string_view b) { out.append(b); });
    ASSERT_EQ(out, sanitized);
    std::string cout;
    utf8guard_sanitizer cs;
    utf8guard_sanitizer_init(&cs);
    for (std::size_t i = 0; i < in.size(); ++i)
      ASSERT_EQ(utf8guard_sanitizer_feed(&cs, in.data() + i, 1, append_sink, &cout),
                UTF8GUARD_STATUS_OK);
    ASSERT_EQ(utf8guard_sanitizer_finish(&cs, append_sink, &cout), UTF8GUARD_STATUS_OK);
    ASSERT_EQ(cout, sanitized);
  }

  // Under a policy: the one-shot calls' pass over quiet ASCII and the
  // prefilter read only the input too. The answers are those of a validator
  // fed one byte at a time and of a sanitizer fed the whole input (the
  // policy tests compare every path with the oracle).
  {
    const utf8guard::policy field = utf8guard::policy::field();
    utf8guard::validator pv(field);
    for (std::size_t i = 0; i < in.size(); ++i) pv.feed(in.substr(i, 1));
    const utf8guard::result want = pv.finish();
    ASSERT_EQ(utf8guard::validate(in, field), want);
    ASSERT_EQ(utf8guard::is_valid(in, field), want.ok());
    std::string clean;
    utf8guard::sanitizer ps(field);
    ps.feed(in, [&clean](std::string_view b) { clean.append(b); });
    ps.finish([&clean](std::string_view b) { clean.append(b); });
    ASSERT_EQ(utf8guard::sanitize(in, field), clean);
    // A policy can shrink the input (a 4-byte noncharacter becomes U+FFFD),
    // and sanitize_to takes no capacity below the input's size.
    guarded_output out(std::max(clean.size(), in.size()));
    ASSERT_EQ(utf8guard::sanitize_to(in, out.data(), out.size(), field), clean.size());
    ASSERT_EQ(std::string_view(out.data(), clean.size()), clean);
  }

  // Every error of the stream.
  std::size_t errors = 0;
  utf8guard::error_scanner scan;
  scan.feed(in, [&errors](const utf8guard::result&) { ++errors; });
  scan.finish([&errors](const utf8guard::result&) { ++errors; });
  ASSERT_EQ(errors, all.size());
  std::size_t cerrors = 0;
  utf8guard_error_scanner cscan;
  utf8guard_error_scanner_init(&cscan);
  ASSERT_EQ(utf8guard_error_scanner_feed(&cscan, in.data(), in.size(), count_error, &cerrors),
            UTF8GUARD_STATUS_OK);
  ASSERT_EQ(utf8guard_error_scanner_finish(&cscan, count_error, &cerrors), UTF8GUARD_STATUS_OK);
  ASSERT_EQ(cerrors, all.size());

  // decode_one at the last four positions, where a decoder that assumes "a
  // lead promises its continuations" reads past the end, and at the first.
  for (std::size_t back = 1; back <= 4 && back <= in.size(); ++back) {
    for (std::size_t at : {in.size() - back, std::size_t{0}}) {
      const std::string_view tail = in.substr(at);
      const one want = expected_one(tail);
      const utf8guard::decoded d = utf8guard::decode_one(tail);
      ASSERT_EQ(utf8guard::to_string(d.kind), want.kind) << "at " << at;
      ASSERT_EQ(d.length, want.length) << "at " << at;
      std::uint32_t cp = 0;
      const utf8guard_result r = utf8guard_decode_one(tail.data(), tail.size(), &cp);
      ASSERT_EQ(std::string(utf8guard_error_name(r.kind)), want.kind);
      ASSERT_EQ(r.length, want.length);
      if (want.kind == "none") {
        ASSERT_EQ(d.value, want.value);
        ASSERT_EQ(cp, static_cast<std::uint32_t>(want.value));
      }
    }
  }

  // Messages read only the bytes they are given: each error described from
  // the whole input and from a window that starts 3 bytes before it; and
  // truncation at the lengths that reach the guard.
  for (const reference::error& e : all) {
    const utf8guard::result r = utf8guard::testing::from_reference(e);
    const std::string want = reference::message(in, e, true);
    ASSERT_EQ(utf8guard::describe(in, r, utf8guard::describe_hint), want);
    const std::size_t from = e.offset < 3 ? 0 : e.offset - 3;
    ASSERT_EQ(utf8guard::describe(in.substr(from), r, utf8guard::describe_hint, from), want);
  }
  for (std::size_t max : {std::size_t{0}, std::size_t{1}, in.size() / 2, in.size() - 3,
                          in.size() - 2, in.size() - 1, in.size(), in.size() + 1}) {
    if (max > in.size() + 1) continue;  // in.size() - k wrapped around
    ASSERT_EQ(utf8guard::truncate(in, max).size(), reference::truncate(in, max, false));
    ASSERT_EQ(utf8guard_truncate(in.data(), in.size(), max, UTF8GUARD_TRUNCATE_KEEP_ILL_FORMED),
              reference::truncate(in, max, true));
  }

  // decode into an output of exactly the needed capacity, against a guard.
  std::u32string got;
  ASSERT_TRUE(same(utf8guard::decode(in, got), first));
  ASSERT_TRUE(got == cps);
  {
    guarded_output out(cps.size() * sizeof(std::uint32_t));
    // SAFETY: the page-aligned end minus a multiple of 4 is 4-byte aligned.
    auto* cp_out = reinterpret_cast<std::uint32_t*>(out.data());
    std::size_t count = 0;
    utf8guard_result err{};
    const utf8guard_status st =
        utf8guard_decode(in.data(), in.size(), cp_out, cps.size(), &count, &err);
    ASSERT_EQ(st, first.ok() ? UTF8GUARD_STATUS_OK : UTF8GUARD_STATUS_ILL_FORMED);
    ASSERT_EQ(count, cps.size());
    ASSERT_TRUE(same(err, first));
  }
}

// encode reads code points from a guarded array and writes UTF-8 into a
// guarded output of exactly the needed size.
void check_encode_guarded(const std::u32string& cps, guarded_buffer::side side) {
  const std::string_view raw(reinterpret_cast<const char*>(cps.data()),
                             cps.size() * sizeof(char32_t));
  const guarded_buffer g(raw, side);
  const auto* in = reinterpret_cast<const std::uint32_t*>(g.data());
  std::string want;
  for (char32_t c : cps) want += reference::encode(c);
  guarded_output out(want.size());
  std::size_t written = 0, bad = 99;
  ASSERT_EQ(utf8guard_encode(in, cps.size(), out.data(), out.size(), &written, &bad),
            UTF8GUARD_STATUS_OK);
  ASSERT_EQ(std::string_view(out.data(), written), want);
  ASSERT_EQ(bad, 99u);  // untouched on success
  std::string cpp;
  ASSERT_TRUE(utf8guard::encode(
      std::u32string_view(reinterpret_cast<const char32_t*>(g.data()), cps.size()), cpp));
  ASSERT_EQ(cpp, want);
  if (!want.empty()) {
    guarded_output short_out(want.size() - 1);
    ASSERT_EQ(
        utf8guard_encode(in, cps.size(), short_out.data(), short_out.size(), &written, nullptr),
        UTF8GUARD_STATUS_BUFFER_TOO_SMALL);
    ASSERT_EQ(written, want.size());
  }
}

class GuardPage : public utf8guard::testing::EveryKernel {
 protected:
  void every_length(guarded_buffer::side side) {
    std::size_t cases = 0;
    for (std::size_t n = 0; n <= kMaxLength; ++n) {
      for (content c : kContents) {
        const std::string bytes = make(c, n);
        ASSERT_EQ(bytes.size(), n);
        SCOPED_TRACE(std::string(name_of(c)) + ", length " + std::to_string(n) + ": [" +
                     hex(bytes.substr(0, 16)) + (n > 16 ? " ...]" : "]"));
        const guarded_buffer g(bytes, side);
        check_guarded(g);
        if (HasFatalFailure()) return;
        ++cases;
      }
      check_encode_guarded(reference::decode(well_formed(n)), side);
      if (HasFatalFailure()) return;
    }
    RecordProperty("guarded_inputs", static_cast<int>(cases));
  }
};

TEST_P(GuardPage, LastByteBeforeGuardEveryLength) { every_length(guarded_buffer::at_end); }

TEST_P(GuardPage, FirstByteAfterGuardEveryLength) { every_length(guarded_buffer::at_start); }

// Kernels read long runs of ASCII by whole blocks (1 KiB, 256 bytes in the
// scalar kernel), and a stream chunk after one that ended in ASCII by whole
// blocks first: lengths around the first blocks, the run alone or ending in
// an error or an unfinished sequence, against either page, one-shot and
// streamed as a 64-byte chunk and the rest.
TEST_P(GuardPage, LongAsciiRunsEveryEntryPoint) {
  for (const std::size_t edge : {std::size_t{1024}, std::size_t{2048}}) {
    for (std::size_t n = edge - 4; n <= edge + 68; ++n) {
      for (const std::string_view tail : {"", "\x80", "\xF0\x9F\x98", "\xED\xA0"}) {
        const std::string bytes =
            utf8guard::security::ascii_run(n - tail.size()) + std::string(tail);
        SCOPED_TRACE("ASCII run of " + std::to_string(n) + " bytes, then [" + hex(tail) + "]");
        for (const guarded_buffer::side side : {guarded_buffer::at_end, guarded_buffer::at_start}) {
          const guarded_buffer g(bytes, side);
          check_guarded(g);
          if (HasFatalFailure()) return;
          const reference::error first = reference::first_error(g.view());
          utf8guard::validator v;
          v.feed(g.view().substr(0, 64));
          v.feed(g.view().substr(64));
          ASSERT_TRUE(same(v.finish(), first));
          std::string out;
          utf8guard::sanitizer s;
          auto append = [&out](std::string_view b) { out.append(b); };
          s.feed(g.view().substr(0, 64), append);
          s.feed(g.view().substr(64), append);
          s.finish(append);
          ASSERT_EQ(out, reference::sanitize(g.view()));
        }
      }
    }
  }
}

// policy_parse reads the text it is given and no further, whatever the text
// ends with: a name, a sign, a comma, a name cut short.
TEST_P(GuardPage, PolicyTextAgainstTheGuard) {
  using namespace std::string_view_literals;
  for (std::string_view text : {"field"sv, "field,-newline"sv, "nul,"sv, "url,-"sv, "bid"sv,
                                "source,json,+bidi,-bom"sv, ","sv, "x"sv}) {
    const utf8guard::policy_parse_result want = utf8guard::policy_parse(std::string(text));
    for (auto side : {guarded_buffer::at_end, guarded_buffer::at_start}) {
      const guarded_buffer g(text, side);
      const utf8guard::policy_parse_result got = utf8guard::policy_parse(g.view());
      EXPECT_EQ(got.ok, want.ok) << text;
      EXPECT_EQ(got.policy.bits(), want.policy.bits()) << text;
      EXPECT_EQ(got.error_offset, want.error_offset) << text;
      utf8guard_policy c = 0;
      EXPECT_EQ(utf8guard_policy_parse(g.data(), g.size(), &c, nullptr, nullptr), want.ok) << text;
    }
  }
}

// (NULL, 0) and (pointer into a PROT_NONE page, 0) are the empty input for
// every entry point: nothing is read through the pointer, nothing written.
TEST_P(GuardPage, EmptyInputEveryEntryPoint) {
  const guarded_buffer g("", guarded_buffer::at_end);
  guarded_output sink_page(0);
  for (const char* p : {static_cast<const char*>(nullptr), g.guard_address()}) {
    SCOPED_TRACE(p == nullptr ? "(NULL, 0)" : "(guard page, 0)");
    char* out = p == nullptr ? nullptr : sink_page.guard();
    const std::string_view empty(p, 0);

    EXPECT_TRUE(utf8guard::is_valid(empty));
    EXPECT_TRUE(utf8guard::validate(empty).ok());
    EXPECT_TRUE(utf8guard_is_valid(p, 0));
    EXPECT_EQ(utf8guard_validate(p, 0).kind, UTF8GUARD_ERROR_NONE);

    utf8guard::validator v;
    EXPECT_TRUE(v.feed(empty).ok());
    EXPECT_TRUE(v.finish().ok());
    utf8guard_validator cv;
    utf8guard_validator_init(&cv);
    EXPECT_EQ(utf8guard_validator_feed(&cv, p, 0).kind, UTF8GUARD_ERROR_NONE);
    EXPECT_EQ(utf8guard_validator_finish(&cv).kind, UTF8GUARD_ERROR_NONE);

    // An empty chunk in the middle of a carried sequence changes nothing.
    utf8guard::validator mid;
    EXPECT_TRUE(mid.feed("\xE2").ok());
    EXPECT_TRUE(mid.feed(empty).ok());
    EXPECT_TRUE(mid.feed("\x82").ok());
    EXPECT_TRUE(mid.feed(empty).ok());
    EXPECT_TRUE(mid.feed("\xAC").ok());
    EXPECT_TRUE(mid.finish().ok());
    EXPECT_EQ(mid.bytes_fed(), 3u);

    EXPECT_EQ(utf8guard::sanitize(empty), "");
    EXPECT_EQ(utf8guard::sanitize_to(empty, out, 0), 0u);
    std::size_t written = 7, replaced = 7;
    EXPECT_EQ(utf8guard_sanitize(p, 0, out, 0, &written, &replaced), UTF8GUARD_STATUS_OK);
    EXPECT_EQ(written, 0u);
    EXPECT_EQ(replaced, 0u);
    std::size_t bound = 7;
    EXPECT_EQ(utf8guard_sanitize_bound(0, &bound), UTF8GUARD_STATUS_OK);
    EXPECT_EQ(bound, 0u);
    EXPECT_EQ(utf8guard::sanitize_bound(0), 0u);

    std::string got;
    utf8guard::sanitizer s;
    auto append = [&got](std::string_view b) { got.append(b); };
    EXPECT_TRUE(s.feed("\xF0\x9F", append));
    EXPECT_TRUE(s.feed(empty, append));
    EXPECT_TRUE(s.feed("\x98\x80", append));
    EXPECT_TRUE(s.feed(empty, append));
    EXPECT_TRUE(s.finish(append));
    EXPECT_EQ(got, "\xF0\x9F\x98\x80");
    std::string cgot;
    utf8guard_sanitizer cs;
    utf8guard_sanitizer_init(&cs);
    EXPECT_EQ(utf8guard_sanitizer_feed(&cs, p, 0, append_sink, &cgot), UTF8GUARD_STATUS_OK);
    EXPECT_EQ(utf8guard_sanitizer_finish(&cs, append_sink, &cgot), UTF8GUARD_STATUS_OK);
    EXPECT_EQ(cgot, "");
    EXPECT_EQ(utf8guard_sanitizer_replacements(&cs), 0u);

    std::size_t errors = 0;
    utf8guard::error_scanner scan;
    EXPECT_TRUE(scan.feed(empty, [&errors](const utf8guard::result&) { ++errors; }));
    EXPECT_TRUE(scan.finish([&errors](const utf8guard::result&) { ++errors; }));
    utf8guard_error_scanner cscan;
    utf8guard_error_scanner_init(&cscan);
    EXPECT_EQ(utf8guard_error_scanner_feed(&cscan, p, 0, count_error, &errors),
              UTF8GUARD_STATUS_OK);
    EXPECT_EQ(utf8guard_error_scanner_finish(&cscan, count_error, &errors), UTF8GUARD_STATUS_OK);
    EXPECT_EQ(errors, 0u);
    EXPECT_EQ(utf8guard_error_scanner_errors(&cscan), 0u);

    // decode_one: the empty input is "incomplete" with length 0 (the headers).
    const utf8guard::decoded d = utf8guard::decode_one(empty);
    EXPECT_EQ(d.kind, utf8guard::error::incomplete);
    EXPECT_EQ(d.length, 0u);
    std::uint32_t cp = 0x41;
    const utf8guard_result r1 = utf8guard_decode_one(p, 0, &cp);
    EXPECT_EQ(r1.kind, UTF8GUARD_ERROR_INCOMPLETE);
    EXPECT_EQ(r1.length, 0u);
    EXPECT_EQ(cp, 0x41u);  // left unchanged on error

    std::u32string cps;
    EXPECT_TRUE(utf8guard::decode(empty, cps).ok());
    EXPECT_TRUE(cps.empty());
    std::size_t count = 7;
    utf8guard_result err{UTF8GUARD_ERROR_OVERLONG, 1, 1, UTF8GUARD_CATEGORY_NONE, 0};
    EXPECT_EQ(utf8guard_decode(p, 0, reinterpret_cast<std::uint32_t*>(out), 0, &count, &err),
              UTF8GUARD_STATUS_OK);
    EXPECT_EQ(count, 0u);
    EXPECT_EQ(err.kind, UTF8GUARD_ERROR_NONE);

    const auto* no_cps = reinterpret_cast<const std::uint32_t*>(p);
    std::string enc;
    EXPECT_TRUE(
        utf8guard::encode(std::u32string_view(reinterpret_cast<const char32_t*>(p), 0), enc));
    EXPECT_EQ(enc, "");
    written = 7;
    EXPECT_EQ(utf8guard_encode(no_cps, 0, out, 0, &written, nullptr), UTF8GUARD_STATUS_OK);
    EXPECT_EQ(written, 0u);
  }

  // A NULL pointer with a non-zero length or capacity is a caller bug, which
  // fails closed without a dereference: tests/security/c_misuse_test.c and
  // misuse_test.cpp try every entry point with it. A non-empty result into
  // (NULL, 0) is "too small", never a write.
  std::size_t written = 7, count = 7;
  EXPECT_EQ(utf8guard_sanitize("a", 1, nullptr, 0, &written, nullptr),
            UTF8GUARD_STATUS_BUFFER_TOO_SMALL);
  EXPECT_EQ(utf8guard_decode("a", 1, nullptr, 0, &count, nullptr),
            UTF8GUARD_STATUS_BUFFER_TOO_SMALL);
  const std::uint32_t one_cp = 0x41;
  EXPECT_EQ(utf8guard_encode(&one_cp, 1, nullptr, 0, &written, nullptr),
            UTF8GUARD_STATUS_BUFFER_TOO_SMALL);

  // The remaining C functions take no input buffer; their edge arguments.
  EXPECT_FALSE(utf8guard_set_kernel(nullptr));
  EXPECT_EQ(utf8guard_kernel_name(utf8guard_kernel_count(), nullptr), nullptr);
  std::size_t bound = 0;
  EXPECT_EQ(utf8guard_sanitize_bound(SIZE_MAX, &bound), UTF8GUARD_STATUS_OVERFLOW);
  EXPECT_EQ(utf8guard::sanitize_bound(SIZE_MAX), SIZE_MAX);
  guarded_output four(4);
  EXPECT_EQ(utf8guard_encode_one(0x10FFFF, four.data()), 4u);
  EXPECT_EQ(utf8guard_encode_one(0x110000, four.data()), 0u);
  EXPECT_EQ(utf8guard_encode_one(0xD800, four.data()), 0u);
  EXPECT_EQ(utf8guard::encode_one(U'\U0001F600', four.data()), 4u);
  // Something must run on the forced kernel for the fixture's check.
  EXPECT_TRUE(utf8guard::is_valid("a"));
}

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(GuardPage);

// Every usable kernel is checked on its own, without set_kernel()
// (kcheck::check_one: the driver every public entry point uses, then scan and
// scan_open, from a fresh start and after carried bytes) against the guard on
// both sides, for every length 0..320: the contents above, and
// kernel_check's well-formed backgrounds of 1- to 4-byte and mixed
// characters, whole or with the last byte an F0 lead.
TEST(GuardPageScanBodies, EveryUsableBodyBothSides) {
  static_assert(kMaxLength == kcheck::kSpan);
  const std::vector<const kcheck::kernel*> bodies = kcheck::bodies();
  ASSERT_FALSE(bodies.empty());
  std::size_t checked = 0;
  auto check = [&](const std::string& bytes, const std::string& what) {
    for (auto side : {guarded_buffer::at_end, guarded_buffer::at_start}) {
      const guarded_buffer g(bytes, side);
      const reference::error want = reference::first_error(g.view());
      for (const kcheck::kernel* body : bodies) {
        ASSERT_EQ(kcheck::check_one(*body, g.view(), want), "")
            << what << (side == guarded_buffer::at_end ? ", at the end" : ", at the start");
        ++checked;
      }
    }
  };
  for (std::size_t n = 0; n <= kMaxLength; ++n) {
    for (content c : kContents) {
      check(make(c, n), std::string(name_of(c)) + ", length " + std::to_string(n));
      if (HasFatalFailure()) return;
    }
    for (kcheck::text t : kcheck::kTexts) {
      std::string text = kcheck::background(t, n);
      check(text, "background, length " + std::to_string(n));
      if (n == 0) continue;
      text.back() = '\xF0';  // ends inside a sequence
      check(text, "background ending in F0, length " + std::to_string(n));
      if (HasFatalFailure()) return;
    }
  }
  RecordProperty("guarded_inputs", static_cast<int>(checked));
}

// Long runs of ASCII, read by whole blocks (and, after the ASCII hint, by
// whole blocks first): every input of kcheck::each_ascii_block, on every
// usable body, against either page.
TEST(GuardPageScanBodies, LongAsciiRunsBothSides) {
  const std::vector<const kcheck::kernel*> bodies = kcheck::bodies();
  ASSERT_FALSE(bodies.empty());
  std::size_t checked = 0;
  kcheck::each_ascii_block([&](const std::string& group, std::string_view in) {
    for (const guarded_buffer::side side : {guarded_buffer::at_end, guarded_buffer::at_start}) {
      const guarded_buffer g(in, side);
      const reference::error want = reference::first_error(in);
      for (const kcheck::kernel* body : bodies) {
        EXPECT_EQ(kcheck::check_one(*body, g.view(), want), "") << group;
        ++checked;
      }
    }
  });
  EXPECT_GT(checked, 0u);
}

// (pointer into a PROT_NONE page, 0) and (NULL, 0) on every usable body's
// scan: nothing to read, nothing read.
TEST(GuardPageScanBodies, EmptyInputAtAProtectedAddress) {
  const guarded_buffer g("", guarded_buffer::at_end);
  const std::vector<const kcheck::kernel*> bodies = kcheck::bodies();
  ASSERT_FALSE(bodies.empty());
  for (const kcheck::kernel* body : bodies) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(g.guard_address());
    EXPECT_EQ(body->scan(p, 0), 0u) << body->name;
    EXPECT_EQ(body->scan(nullptr, 0), 0u) << body->name;
  }
}

}  // namespace
}  // namespace utf8guard::testing
