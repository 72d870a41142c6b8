// finding_window_test.cpp - finding_window, the bytes a stream keeps for its
// first finding's message: for inputs with a finding in each form (raw,
// percent-encoded, JSON text), fed in two chunks cut at every byte, in three
// cut at every pair of bytes, and a byte at a time, the message and the hint
// over the window are those over the whole input, once the window says it is
// ready; and it says so as soon as the bytes the message reads have come.
// The C API alike, and its refusals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <utf8guard/utf8guard.hpp>

namespace utf8guard::testing {
namespace {

// What a caller shows of a finding: its message with hint, and the hint.
struct shown {
  std::string message;
  hint h;
  friend bool operator==(const shown& a, const shown& b) {
    return a.message == b.message && a.h == b.h;
  }
};

// With flags 0 the message alone (and no hint): what a window kept without
// describe_hint must give.
shown show(form f, std::string_view bytes, std::size_t base, const encoded_result& r,
           unsigned flags) {
  const bool hints = flags != 0;
  switch (f) {
    case form::percent:
      return {percent::describe(bytes, r, flags, base),
              hints ? percent::explain(bytes, r, base) : hint{}};
    case form::json:
      return {json::describe(bytes, r, flags, base),
              hints ? json::explain(bytes, r, base) : hint{}};
    case form::raw: break;
  }
  const hint h = hints && r.offset >= base ? explain(bytes, r.offset - base) : hint{};
  return {describe(bytes, static_cast<const result&>(r), flags, base), h};
}

// The first finding of the whole input, in one call.
encoded_result one_shot(form f, std::string_view in, policy p) {
  if (f == form::percent) return percent::validate(in, p);
  if (f == form::json) return json::validate(in, p);
  encoded_result r;
  static_cast<result&>(r) = validate(in, p);
  return r;
}

// A stream of one form: its validator and the window of its first finding,
// fed as every streaming caller feeds them.
class stream {
 public:
  stream(form f, policy p, unsigned flags)
      : form_(f), raw_(p), percent_(p), json_(p), window_(f, flags) {}

  void feed(std::string_view chunk) {
    if (!found_.ok()) {
      window_.feed(chunk);
      return;
    }
    encoded_result r;
    if (form_ == form::percent) {
      r = percent_.feed(chunk);
    } else if (form_ == form::json) {
      r = json_.feed(chunk);
    } else {
      static_cast<result&>(r) = raw_.feed(chunk);
    }
    if (!r.ok()) {
      found_ = r;
      EXPECT_TRUE(window_.mark(r.offset));
      EXPECT_FALSE(window_.mark(r.offset + 1));  // the first mark stands
    }
    window_.feed(chunk);
  }

  void finish() {
    if (found_.ok()) {
      encoded_result r;
      if (form_ == form::percent) {
        r = percent_.finish();
      } else if (form_ == form::json) {
        r = json_.finish();
      } else {
        static_cast<result&>(r) = raw_.finish();
      }
      if (!r.ok()) {
        found_ = r;
        window_.mark(r.offset);
      }
    }
    window_.finish();
  }

  const encoded_result& found() const { return found_; }
  const finding_window& window() const { return window_; }

 private:
  form form_;
  validator raw_;
  percent::validator percent_;
  json::validator json_;
  finding_window window_;
  encoded_result found_;
};

struct input {
  form f;
  std::string text;
  policy p;
};

std::vector<input> inputs() {
  const policy field = policy::field();
  return {
      {form::raw, "GET /a\xC0\xAF../b", {}},
      {form::raw, "\xED\xA0\xBD\xED\xB8\x80 tail bytes", {}},
      {form::raw,
       "abc\xE2\x80\xAE"
       "def",
       field},
      {form::raw, "\xEF\xBB\xBF\xFE\xFF", {}},
      {form::raw, "plain then cut \xE2\x82", {}},
      {form::raw, "x\x80", {}},
      {form::percent, "a=%C0%AF%2E%2E%2Fetc&b=1", {}},
      {form::percent, "q=caf%C3%A9+%ED%A0%BD%ED%B8%80+%E2%80", {}},
      {form::percent, "q=%E2%80%AE%41%42%43%44%45%46%47", field},
      {form::percent, "%F0%9F%98", {}},
      {form::json, R"({"a":"\ud800","b":"tail text here and more"})", {}},
      {form::json, R"({"name": "photo\u202egpj.exe", "ok": "\ud83d\ude00 and more"})", field},
      {form::json, "{\"a\":\"\xC0\xAF\\u0041\\u0042\\u0043\\u0044\\u0045\\u0046\"}", {}},
      {form::json, "[\"\\u0000\"]", field},
  };
}

// Feeds in[0..cuts[0]), [cuts[0]..cuts[1]), ... and checks the window, kept
// for a message with flags: not ready before the bytes the message reads
// have come, ready from then on, and then showing the whole input's message.
void check_cuts(const input& in, const std::vector<std::size_t>& cuts, unsigned flags) {
  const std::string_view all = in.text;
  const encoded_result whole = one_shot(in.f, all, in.p);
  ASSERT_FALSE(whole.ok()) << all;
  const shown expected = show(in.f, all, 0, whole, flags);
  const std::size_t ahead = flags == 0              ? (in.f == form::percent ? 12
                                                       : in.f == form::json  ? 30
                                                                             : 4)
                            : in.f == form::percent ? UTF8GUARD_DESCRIBE_PERCENT_AHEAD
                            : in.f == form::json    ? UTF8GUARD_DESCRIBE_JSON_AHEAD
                                                    : UTF8GUARD_DESCRIBE_AHEAD;
  stream s(in.f, in.p, flags);
  std::size_t at = 0;
  for (std::size_t cut : cuts) {
    s.feed(all.substr(at, cut - at));
    at = cut;
    if (s.window().ready()) {
      ASSERT_TRUE(s.window().marked());
      EXPECT_EQ(show(in.f, s.window().bytes(), s.window().base(), s.found(), flags), expected)
          << all << " cut at " << cut;
    } else if (s.window().marked()) {
      EXPECT_LT(at, s.found().offset + ahead) << all << " waits, at " << at;
    }
  }
  s.feed(all.substr(at));
  s.finish();
  ASSERT_TRUE(s.window().ready());
  EXPECT_EQ(static_cast<const result&>(s.found()), static_cast<const result&>(whole));
  EXPECT_EQ(show(in.f, s.window().bytes(), s.window().base(), s.found(), flags), expected) << all;
}

// check_cuts for a message with its hint, and without.
void check_cuts(const input& in, const std::vector<std::size_t>& cuts) {
  check_cuts(in, cuts, describe_hint);
  check_cuts(in, cuts, 0);
}

TEST(FindingWindow, TwoChunksCutAtEveryByte) {
  for (const input& in : inputs()) {
    for (std::size_t cut = 0; cut <= in.text.size(); ++cut) check_cuts(in, {cut});
  }
}

TEST(FindingWindow, ThreeChunksCutAtEveryPair) {
  for (const input& in : inputs()) {
    for (std::size_t a = 0; a <= in.text.size(); ++a) {
      for (std::size_t b = a; b <= in.text.size(); ++b) check_cuts(in, {a, b});
    }
  }
}

TEST(FindingWindow, OneByteAtATime) {
  for (const input& in : inputs()) {
    std::vector<std::size_t> cuts;
    for (std::size_t k = 1; k < in.text.size(); ++k) cuts.push_back(k);
    check_cuts(in, cuts);
  }
}

TEST(FindingWindow, LongInputKeepsOnlyItsReach) {
  // A finding far into a long input, in large chunks: the window holds the
  // describe window and no more.
  const std::string in = std::string(100000, 'a') + "\xC0\xAF" + std::string(100000, 'b');
  finding_window w(form::raw);
  w.feed(std::string_view(in).substr(0, 100001));
  EXPECT_TRUE(w.mark(100000));
  EXPECT_FALSE(w.ready());
  w.feed(std::string_view(in).substr(100001));
  ASSERT_TRUE(w.ready());
  EXPECT_EQ(w.base(), 100000u - UTF8GUARD_DESCRIBE_BEHIND);
  EXPECT_EQ(w.bytes().size(), std::size_t{UTF8GUARD_DESCRIBE_BEHIND + UTF8GUARD_DESCRIBE_AHEAD});
  EXPECT_EQ(w.bytes(), std::string_view(in).substr(w.base(), w.bytes().size()));
}

TEST(FindingWindow, ACutEscapeIsLeftOutUntilItsEnd) {
  // Before the window is ready its end is not the input's: %A of %AF is
  // left out, not shown as a literal '%' and 'A'.
  finding_window w(form::percent);
  w.mark(1);
  w.feed("x%C0%A");
  ASSERT_FALSE(w.ready());
  EXPECT_EQ(w.bytes(), "x%C0");
  w.finish();
  EXPECT_EQ(w.bytes(), "x%C0%A");
}

TEST(FindingWindow, CopiesKeepOneFindingEach) {
  // A caller that reports every finding copies the stream's window for each.
  const std::string in =
      "ab\xC0"
      "cdefgh\xFF"
      "ijklmnop";
  finding_window stream_window(form::raw);
  stream_window.feed(std::string_view(in).substr(0, 4));
  finding_window first = stream_window;
  first.mark(2);
  first.feed(std::string_view(in).substr(4));
  stream_window.feed(std::string_view(in).substr(4, 6));
  finding_window second = stream_window;
  second.mark(9);
  second.feed(std::string_view(in).substr(10));
  ASSERT_TRUE(first.ready());
  ASSERT_TRUE(second.ready());
  EXPECT_EQ(describe(first.bytes(), validate(in), describe_hint, first.base()),
            describe(in, validate(in), describe_hint));
  const result last{error::invalid_byte, 9, 1};
  EXPECT_EQ(describe(second.bytes(), last, describe_hint, second.base()),
            describe(in, last, describe_hint));
}

TEST(FindingWindow, CApi) {
  const std::string in = "caf%C3%A9%C0%AF%41%42%43%44%45%46";
  const utf8guard_encoded_result whole = utf8guard_percent_validate(in.data(), in.size(), 0);
  char expected[UTF8GUARD_DESCRIBE_MAX];
  const std::size_t n = utf8guard_percent_describe(
      in.data(), in.size(), 0, whole, UTF8GUARD_DESCRIBE_HINT, expected, sizeof expected);
  for (std::size_t cut = 0; cut <= in.size(); ++cut) {
    utf8guard_percent_stream v;
    utf8guard_percent_validator_init(&v, 0);
    utf8guard_finding_window w;
    utf8guard_finding_window_init(&w, UTF8GUARD_FORM_PERCENT, UTF8GUARD_DESCRIBE_HINT);
    EXPECT_FALSE(utf8guard_finding_window_marked(&w));
    std::size_t len = 1;
    std::size_t base = 1;
    EXPECT_STREQ(utf8guard_finding_window_bytes(&w, &len, &base), "");
    EXPECT_EQ(len + base, 0u);
    utf8guard_encoded_result found{};
    for (const std::string_view chunk :
         {std::string_view(in).substr(0, cut), std::string_view(in).substr(cut)}) {
      if (found.error.kind == UTF8GUARD_ERROR_NONE) {
        found = utf8guard_percent_validator_feed(&v, chunk.data(), chunk.size());
        if (found.error.kind != UTF8GUARD_ERROR_NONE) {
          EXPECT_TRUE(utf8guard_finding_window_mark(&w, found.error.offset));
        }
      }
      utf8guard_finding_window_feed(&w, chunk.data(), chunk.size());
    }
    utf8guard_finding_window_finish(&w);
    ASSERT_TRUE(utf8guard_finding_window_ready(&w));
    const char* bytes = utf8guard_finding_window_bytes(&w, &len, &base);
    char got[UTF8GUARD_DESCRIBE_MAX];
    const std::size_t m = utf8guard_percent_describe(bytes, len, base, found,
                                                     UTF8GUARD_DESCRIBE_HINT, got, sizeof got);
    EXPECT_EQ(std::string(got, m), std::string(expected, n)) << cut;
  }
  // Refusals: a NULL window, a (NULL, len > 0) chunk.
  utf8guard_finding_window_init(nullptr, UTF8GUARD_FORM_RAW, 0);
  utf8guard_finding_window_feed(nullptr, "x", 1);
  utf8guard_finding_window_finish(nullptr);
  EXPECT_FALSE(utf8guard_finding_window_mark(nullptr, 0));
  EXPECT_FALSE(utf8guard_finding_window_ready(nullptr));
  EXPECT_FALSE(utf8guard_finding_window_marked(nullptr));
  utf8guard_finding_window w;
  utf8guard_finding_window_init(&w, static_cast<utf8guard_form>(7), 0);  // taken as raw
  utf8guard_finding_window_feed(&w, nullptr, 5);
  EXPECT_TRUE(utf8guard_finding_window_mark(&w, 0));
  std::size_t len = 1;
  (void)utf8guard_finding_window_bytes(&w, &len, nullptr);
  EXPECT_EQ(len, 0u);
}

}  // namespace
}  // namespace utf8guard::testing
