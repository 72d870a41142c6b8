// stream_test.cpp - the streaming validator, sanitizer and error_scanner on
// every kernel: every input split at every position, and random splits down
// to 1-byte chunks, give the one-shot answers; after each chunk the validator
// reports exactly the errors its bytes so far decide, and the sanitizer and
// scanner have emitted everything except an unfinished sequence at the end.
// Also bytes_fed, reset, the sticky first error and a sink that says stop.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "guard_page.hpp"
#include "hex.hpp"
#include "kernels.hpp"
#include "random_inputs.hpp"
#include "results.hpp"
#include "sinks.hpp"
#include "vectors.hpp"

namespace utf8guard::testing {
namespace {

// settled is what a stream may report once it has seen `prefix`: the
// oracle's errors of the prefix except an "incomplete" one at its end, which
// more bytes could still complete.
std::vector<result> settled_errors(std::string_view prefix) {
  std::vector<result> errors = oracle_all_errors(prefix);
  if (!errors.empty() && errors.back().kind == error::incomplete) errors.pop_back();
  return errors;
}

result settled_first_error(std::string_view prefix) {
  const result r = oracle_first_error(prefix);
  return r.kind == error::incomplete ? result{} : r;
}

// settled_output is what the sanitizer must have written after `prefix`: the
// oracle's sanitized prefix, without the bytes of an unfinished sequence.
std::string settled_output(std::string_view prefix) {
  const std::vector<result> errors = oracle_all_errors(prefix);
  if (!errors.empty() && errors.back().kind == error::incomplete) {
    prefix = prefix.substr(0, errors.back().offset);
  }
  return reference::sanitize(prefix);
}

// check_chunks feeds `in`, cut at the ascending positions `cuts`, to a
// validator, a sanitizer and an error_scanner, checking each after every
// chunk and at the end against the oracle.
void check_chunks(std::string_view in, const std::vector<std::size_t>& cuts) {
  validator v;
  sanitizer s;
  error_scanner scan;
  std::string out;
  std::vector<result> errors;
  auto sink = [&out](std::string_view bytes) { out.append(bytes); };
  auto on_error = [&errors](const result& r) { errors.push_back(r); };
  std::size_t from = 0;
  for (std::size_t i = 0; i <= cuts.size(); ++i) {
    const std::size_t to = i < cuts.size() ? cuts[i] : in.size();
    const std::string_view chunk = in.substr(from, to - from);
    const std::string_view seen = in.substr(0, to);
    SCOPED_TRACE("after the chunk ending at " + std::to_string(to));
    ASSERT_EQ(v.feed(chunk), settled_first_error(seen));
    ASSERT_EQ(v.bytes_fed(), to);
    ASSERT_TRUE(s.feed(chunk, sink));
    ASSERT_EQ(hex(out), hex(settled_output(seen)));
    ASSERT_TRUE(scan.feed(chunk, on_error));
    ASSERT_EQ(errors, settled_errors(seen));
    from = to;
  }
  ASSERT_EQ(v.finish(), oracle_first_error(in));
  ASSERT_EQ(v.finish(), oracle_first_error(in)) << "finish() twice";
  ASSERT_TRUE(s.finish(sink));
  ASSERT_EQ(hex(out), hex(reference::sanitize(in)));
  ASSERT_TRUE(scan.finish(on_error));
  ASSERT_EQ(errors, oracle_all_errors(in));
  ASSERT_EQ(s.replacements(), errors.size());
  ASSERT_EQ(scan.errors(), errors.size());
  // The one-shot calls on this kernel agree with the stream.
  ASSERT_EQ(validate(in), oracle_first_error(in));
  ASSERT_EQ(sanitize(in), out);
}

// Inputs: the hand-written vectors, and error-dense random inputs.
std::vector<std::string> inputs() {
  std::vector<std::string> all;
  for (const test_vector& v : kVectors) all.emplace_back(v.bytes);
  for (const sanitize_vector& v : kSanitizeVectors) all.emplace_back(v.in);
  input_maker maker(0x5EED0001);
  for (int i = 0; i < 300; ++i) all.push_back(maker.error_dense(24));
  return all;
}

class Stream : public EveryKernel {};

TEST_P(Stream, EverySplitInTwoEqualsOneShot) {
  for (const std::string& in : inputs()) {
    SCOPED_TRACE(hex(in));
    for (std::size_t cut = 0; cut <= in.size(); ++cut) {
      check_chunks(in, {cut});
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST_P(Stream, OneByteChunksEqualOneShot) {
  for (const std::string& in : inputs()) {
    SCOPED_TRACE(hex(in));
    std::vector<std::size_t> cuts;
    for (std::size_t cut = 1; cut < in.size(); ++cut) cuts.push_back(cut);
    check_chunks(in, cuts);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST_P(Stream, RandomSplitsEqualOneShot) {
  input_maker maker(0x5EED0002);
  for (const std::string& in : inputs()) {
    SCOPED_TRACE(hex(in));
    for (int round = 0; round < 8; ++round) {
      // Chunks of 0..8 bytes, empty ones included: feed("") must change nothing.
      std::vector<std::size_t> cuts;
      for (std::size_t at = maker.below(9); at < in.size(); at += maker.below(9)) {
        cuts.push_back(at);
      }
      check_chunks(in, cuts);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

// After a chunk that ends in ASCII, the next chunk's scan tries whole blocks
// of ASCII first (the hint of src/core/carry.hpp). Errors and characters
// at the start of such a chunk, on its block edges and at its end, in
// chunks of 4 KiB and of 1000 bytes, give the one-shot answers.
TEST_P(Stream, ChunksAfterAsciiChunksEqualOneShot) {
  const std::string base = std::string(2 * 4096, 'a') + std::string(4096, '\n');
  const std::string_view pieces[] = {
      "\x80",  "\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xFF",
      "\xC3z", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80"};
  for (const std::string_view piece : pieces) {
    for (const std::size_t at : {0, 1, 255, 256, 1023, 1024, 2047, 4092}) {
      std::string in = base;
      in.replace(4096 + at, piece.size(), piece);
      SCOPED_TRACE(hex(piece) + " at " + std::to_string(4096 + at));
      for (const std::size_t step : {4096, 1000}) {
        std::vector<std::size_t> cuts;
        for (std::size_t cut = step; cut < in.size(); cut += step) cuts.push_back(cut);
        check_chunks(in, cuts);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

TEST_P(Stream, AnErrorIsReportedByTheFeedThatDeliversIt) {
  validator v;
  EXPECT_EQ(v.feed("\xED"), result{});
  EXPECT_EQ(v.feed("\xA0"), (result{error::surrogate, 0, 1}));  // not at finish()
  validator w;
  EXPECT_EQ(w.feed("ab\xF0\x9F"), result{});
  EXPECT_EQ(w.feed("\x98"), result{});
  EXPECT_EQ(w.feed("x"), (result{error::truncated, 2, 3}));  // offsets stay absolute
}

TEST_P(Stream, IncompleteIsReportedOnlyByFinish) {
  validator v;
  EXPECT_EQ(v.feed("caf"), result{});
  EXPECT_EQ(v.feed("\xE0"), result{});
  EXPECT_EQ(v.feed("\xA0"), result{});
  EXPECT_EQ(v.finish(), (result{error::incomplete, 3, 2}));
}

TEST_P(Stream, TheFirstErrorIsSticky) {
  validator v;
  const result first{error::overlong, 1, 1};
  EXPECT_EQ(v.feed("a\xC0"), first);
  EXPECT_EQ(v.feed("valid text"), first);
  EXPECT_EQ(v.feed("\xFF\xFF"), first);
  // After an error the validator must not read its input at all: a pointer
  // into a PROT_NONE page would crash the test if it did.
  const guarded_buffer guard("", guarded_buffer::at_end);
  EXPECT_EQ(v.feed(std::string_view(guard.guard_address(), 16)), first);
  EXPECT_EQ(v.bytes_fed(), 2u + 10 + 2 + 16);
  EXPECT_EQ(v.finish(), first);
}

TEST_P(Stream, BytesFedCountsEveryChunk) {
  validator v;
  EXPECT_EQ(v.bytes_fed(), 0u);
  v.feed("");
  EXPECT_EQ(v.bytes_fed(), 0u);
  v.feed("\xF0\x9F");
  EXPECT_EQ(v.bytes_fed(), 2u);
  v.feed("\x98\x80z");
  EXPECT_EQ(v.bytes_fed(), 5u);
  EXPECT_TRUE(v.finish().ok());
  EXPECT_EQ(v.bytes_fed(), 5u);
}

TEST_P(Stream, ResetStartsANewInput) {
  validator v;
  EXPECT_FALSE(v.feed("\x80").ok());
  v.reset();
  EXPECT_EQ(v.bytes_fed(), 0u);
  EXPECT_EQ(v.feed("\xE2\x82"), result{});
  v.reset();  // drops the carried E2 82: what follows starts a new input
  EXPECT_EQ(v.feed("\xAC"), (result{error::unexpected_continuation, 0, 1}));

  sanitizer s;
  std::string out;
  auto sink = [&out](std::string_view b) { out.append(b); };
  EXPECT_TRUE(s.feed("\x80\xE2\x82", sink));
  EXPECT_EQ(s.replacements(), 1u);
  s.reset();
  out.clear();
  EXPECT_EQ(s.replacements(), 0u);
  EXPECT_TRUE(s.feed("\xAC!", sink));
  EXPECT_TRUE(s.finish(sink));
  EXPECT_EQ(hex(out), hex("\xEF\xBF\xBD!"));

  error_scanner scan;
  std::vector<result> errors;
  auto on_error = [&errors](const result& r) { errors.push_back(r); };
  EXPECT_TRUE(scan.feed("\xFF\xE2", on_error));
  EXPECT_EQ(scan.errors(), 1u);
  scan.reset();
  errors.clear();
  EXPECT_EQ(scan.errors(), 0u);
  EXPECT_TRUE(scan.feed("\xAC", on_error));
  EXPECT_TRUE(scan.finish(on_error));
  EXPECT_EQ(errors, (std::vector<result>{{error::unexpected_continuation, 0, 1}}));
}

// finish() replaces or reports the carried bytes and drops them: a second
// finish() does not replace or report them again (the carry is a word the
// kernels take whole, so dropping it must clear its bytes, not only its
// length), and a feed after it is refused rather than completing them.
TEST_P(Stream, FinishDropsTheCarriedBytes) {
  sanitizer s;
  std::string out;
  auto sink = [&out](std::string_view b) { out.append(b); };
  EXPECT_TRUE(s.feed("\xE2\x82", sink));
  EXPECT_TRUE(s.finish(sink));
  EXPECT_TRUE(s.finish(sink));
  EXPECT_FALSE(s.feed(std::string(64, '\xAC'), sink));
  EXPECT_EQ(hex(out), hex("\xEF\xBF\xBD"));
  EXPECT_EQ(s.replacements(), 1u);

  error_scanner scan;
  std::vector<result> errors;
  auto on_error = [&errors](const result& r) { errors.push_back(r); };
  EXPECT_TRUE(scan.feed("\xF0\x9F\x98", on_error));
  EXPECT_TRUE(scan.finish(on_error));
  EXPECT_TRUE(scan.finish(on_error));
  // (Appended: GCC 12 -Wrestrict misfires on a literal + std::string.)
  EXPECT_FALSE(scan.feed(std::string("\x80").append(63, 'a'), on_error));
  EXPECT_EQ(errors, (std::vector<result>{{error::incomplete, 0, 3}}));
}

TEST_P(Stream, ASinkThatSaysStopStopsTheSanitizer) {
  sanitizer s;
  int calls = 0;
  auto refuse = [&calls](std::string_view) {
    ++calls;
    return false;
  };
  EXPECT_FALSE(s.feed("abc", refuse));
  EXPECT_EQ(calls, 1);

  // finish() reports the refusal too when it has a replacement to write.
  sanitizer t;
  EXPECT_TRUE(t.feed("\xE2\x82", refuse));  // held back: nothing to write yet
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(t.finish(refuse));
  EXPECT_EQ(calls, 2);

  // The C API says so with a status.
  utf8guard_sanitizer c;
  utf8guard_sanitizer_init(&c);
  const utf8guard_sink c_refuse = [](void*, const char*, size_t) { return false; };
  EXPECT_EQ(utf8guard_sanitizer_feed(&c, "\xC0", 1, c_refuse, nullptr),
            UTF8GUARD_STATUS_SINK_FAILED);
}

TEST_P(Stream, ACallbackThatSaysStopStopsTheScanner) {
  error_scanner scan;
  std::vector<result> errors;
  auto first_only = [&errors](const result& r) {
    errors.push_back(r);
    return false;
  };
  EXPECT_FALSE(scan.feed("\x80\x80\x80", first_only));
  EXPECT_EQ(errors, (std::vector<result>{{error::unexpected_continuation, 0, 1}}));

  error_scanner tail;
  EXPECT_TRUE(tail.feed("ok\xF0", first_only));
  EXPECT_FALSE(tail.finish(first_only));
  EXPECT_EQ(errors.back(), (result{error::incomplete, 2, 1}));

  utf8guard_error_scanner c;
  utf8guard_error_scanner_init(&c);
  const utf8guard_error_callback c_stop = [](void*, utf8guard_result) { return false; };
  EXPECT_EQ(utf8guard_error_scanner_feed(&c, "\xFF", 1, c_stop, nullptr),
            UTF8GUARD_STATUS_SINK_FAILED);
}

// How often the engine runs the kernel is part of its speed contract
// (stream/engine.hpp): the subparts right behind an error are settled by the
// classifier, so a burst such as F4 90 80 80 (four subparts) costs no scan
// of its own - one scan reaches it, one goes on after it.
TEST_P(Stream, ABurstOfAdjacentSubpartsCostsNoScanOfItsOwn) {
  const std::string text(100, 'a');
  for (const std::string burst : {"\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80",
                                  "\x80\x80\x80\x80\x80\x80", "\xE2\x82\xF0\x9F\x98\xFF"}) {
    const std::string in = text + burst + text;
    SCOPED_TRACE(hex(burst));
    error_scanner scan;
    std::vector<result> errors;
    {
      const counted_scans counted;  // the forced kernel, counted
      ASSERT_TRUE(scan.feed(in, [&errors](const result& r) { errors.push_back(r); }));
      EXPECT_EQ(counted.scans(), 2u);
    }
    EXPECT_EQ(errors, oracle_all_errors(in));
  }
}

// A burst longer than any broken sequence (here 4096 stray continuations)
// is hostile input: it goes to the DFA windows, whose sanitized bytes reach
// the sink one window at a time, not one U+FFFD per call.
TEST_P(Stream, ALongBurstGoesToTheDfaWindows) {
  const std::string in = "ab" + std::string(4096, '\x80') + "cd";
  sanitizer s;
  std::string out;
  std::size_t calls = 0;
  ASSERT_TRUE(s.feed(in, [&](std::string_view bytes) {
    ++calls;
    out.append(bytes);
  }));
  ASSERT_TRUE(s.finish([&](std::string_view bytes) { out.append(bytes); }));
  EXPECT_EQ(hex(out), hex(reference::sanitize(in)));
  EXPECT_LT(calls, 64u);
}

// Errors everywhere send the engine to the DFA windows, which run no kernel
// scan: on random bytes, far fewer scans than one per error.
TEST_P(Stream, RandomBytesRunTheDfaNotAScanPerError) {
  input_maker maker(0x5EED0004);
  std::string in(1 << 16, '\0');
  for (char& c : in) c = static_cast<char>(maker.below(256));
  error_scanner scan;
  {
    const counted_scans counted;  // the forced kernel, counted
    ASSERT_TRUE(scan.feed(in, [](const result&) {}));
    EXPECT_LT(counted.scans(), in.size() / 256);
  }
  EXPECT_GT(scan.errors(), in.size() / 4);
}

// The C streaming API is the engine under the C++ classes; check it on its
// own over splits too, with a C sink.
TEST_P(Stream, TheCApiStreamsLikeTheCppOne) {
  input_maker maker(0x5EED0003);
  for (int i = 0; i < 200; ++i) {
    const std::string in = maker.error_dense(24);
    SCOPED_TRACE(hex(in));
    const std::size_t cut = maker.below(in.size() + 1);
    utf8guard_validator v;
    utf8guard_validator_init(&v);
    utf8guard_validator_feed(&v, in.data(), cut);
    utf8guard_validator_feed(&v, in.data() + cut, in.size() - cut);
    EXPECT_EQ(from_c(utf8guard_validator_finish(&v)), oracle_first_error(in));

    utf8guard_sanitizer s;
    utf8guard_sanitizer_init(&s);
    std::string out;
    const utf8guard_sink append = append_sink;
    EXPECT_EQ(utf8guard_sanitizer_feed(&s, in.data(), cut, append, &out), UTF8GUARD_STATUS_OK);
    EXPECT_EQ(utf8guard_sanitizer_feed(&s, in.data() + cut, in.size() - cut, append, &out),
              UTF8GUARD_STATUS_OK);
    EXPECT_EQ(utf8guard_sanitizer_finish(&s, append, &out), UTF8GUARD_STATUS_OK);
    EXPECT_EQ(hex(out), hex(reference::sanitize(in)));
    EXPECT_EQ(utf8guard_sanitizer_replacements(&s), reference::all_errors(in).size());

    utf8guard_error_scanner scan;
    utf8guard_error_scanner_init(&scan);
    std::vector<result> errors;
    const utf8guard_error_callback collect = collect_error;
    EXPECT_EQ(utf8guard_error_scanner_feed(&scan, in.data(), cut, collect, &errors),
              UTF8GUARD_STATUS_OK);
    EXPECT_EQ(
        utf8guard_error_scanner_feed(&scan, in.data() + cut, in.size() - cut, collect, &errors),
        UTF8GUARD_STATUS_OK);
    EXPECT_EQ(utf8guard_error_scanner_finish(&scan, collect, &errors), UTF8GUARD_STATUS_OK);
    EXPECT_EQ(errors, oracle_all_errors(in));
    EXPECT_EQ(utf8guard_error_scanner_errors(&scan), errors.size());
  }
}

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(Stream);

}  // namespace
}  // namespace utf8guard::testing
