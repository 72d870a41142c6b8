// api_test.cpp - the rest of the public surface, C++ and C: decode/encode,
// sanitize_to and its bound, (NULL, 0) for every C entry point, the names of
// kinds and statuses, the version. The kernel list and set_kernel are tested
// with dispatch, in tests/kernels/dispatch_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <regex>
#include <string>
#include <vector>

#include "hex.hpp"
#include "kernels.hpp"
#include "results.hpp"
#include "sinks.hpp"

namespace utf8guard::testing {
namespace {

using namespace std::string_view_literals;

// ---- Names ---------------------------------------------------------------------

TEST(Names, EveryKindHasItsDesignName) {
  for (const auto& [name, kind] : kKindNames) {
    EXPECT_EQ(to_string(kind), name);
    EXPECT_STREQ(utf8guard_error_name(static_cast<utf8guard_error>(kind)), name.data());
    // The C and C++ enums share their numbering.
    EXPECT_EQ(static_cast<int>(static_cast<utf8guard_error>(kind)), static_cast<int>(kind));
  }
}

// A caller bug's kind is not an input error (so not in the design's table),
// but it has a stable name and number too.
TEST(Names, TheCallerBugKindHasItsName) {
  EXPECT_EQ(to_string(error::invalid_argument), "invalid_argument");
  EXPECT_STREQ(utf8guard_error_name(UTF8GUARD_ERROR_INVALID_ARGUMENT), "invalid_argument");
  EXPECT_EQ(static_cast<int>(error::invalid_argument), UTF8GUARD_ERROR_INVALID_ARGUMENT);
}

// Out-of-range values of the C enums are checked in c_api_test.c: in C they are
// ordinary ints, while in C++ a value outside an enum without a fixed
// underlying type is undefined behaviour. utf8guard::error has a fixed type.
TEST(Names, AValueOutsideTheEnumIsUnknown) {
  for (int value : {10, 100, 255}) {
    EXPECT_EQ(to_string(static_cast<error>(value)), "unknown") << value;
  }
}

TEST(Names, EveryStatusHasAName) {
  EXPECT_STREQ(utf8guard_status_name(UTF8GUARD_STATUS_OK), "ok");
  EXPECT_STREQ(utf8guard_status_name(UTF8GUARD_STATUS_BUFFER_TOO_SMALL), "buffer_too_small");
  EXPECT_STREQ(utf8guard_status_name(UTF8GUARD_STATUS_OVERFLOW), "overflow");
  EXPECT_STREQ(utf8guard_status_name(UTF8GUARD_STATUS_ILL_FORMED), "ill_formed");
  EXPECT_STREQ(utf8guard_status_name(UTF8GUARD_STATUS_SINK_FAILED), "sink_failed");
  EXPECT_STREQ(utf8guard_status_name(UTF8GUARD_STATUS_INVALID_ARGUMENT), "invalid_argument");
}

// ---- Version -------------------------------------------------------------------

TEST(Version, IsTheProjectVersion) {
  // UTF8GUARD_TEST_PROJECT_VERSION is CMake's PROJECT_VERSION, passed to this
  // test alone: a library built from another version fails here.
  EXPECT_EQ(version(), UTF8GUARD_TEST_PROJECT_VERSION);
  EXPECT_STREQ(utf8guard_version(), UTF8GUARD_TEST_PROJECT_VERSION);
  EXPECT_EQ(std::to_string(UTF8GUARD_VERSION_MAJOR) + "." +
                std::to_string(UTF8GUARD_VERSION_MINOR) + "." +
                std::to_string(UTF8GUARD_VERSION_PATCH),
            UTF8GUARD_TEST_PROJECT_VERSION);
  EXPECT_TRUE(std::regex_match(std::string(version()), std::regex("[0-9]+\\.[0-9]+\\.[0-9]+")));
}

// ---- Encode and decode (no kernel involved) ------------------------------------

TEST(Codec, DecodeOneReadsOneSequenceOfEachLength) {
  struct {
    std::string_view bytes;
    char32_t value;
    std::size_t length;
  } const cases[] = {
      {"\x00"sv, 0x0, 1},
      {"\x7Fz"sv, 0x7F, 1},
      {"\xC2\x80"sv, 0x80, 2},
      {"\xDF\xBF\x80"sv, 0x7FF, 2},
      {"\xE0\xA0\x80"sv, 0x800, 3},
      {"\xED\x9F\xBF"sv, 0xD7FF, 3},
      {"\xEE\x80\x80"sv, 0xE000, 3},
      {"\xEF\xBF\xBF"sv, 0xFFFF, 3},
      {"\xF0\x90\x80\x80"sv, 0x10000, 4},
      {"\xF4\x8F\xBF\xBF"sv, 0x10FFFF, 4},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(hex(c.bytes));
    const decoded d = decode_one(c.bytes);
    EXPECT_EQ(d.kind, error::none);
    EXPECT_EQ(d.value, c.value);
    EXPECT_EQ(d.length, c.length);
    std::uint32_t cp = 0xDEAD;
    const utf8guard_result r = utf8guard_decode_one(c.bytes.data(), c.bytes.size(), &cp);
    EXPECT_EQ(from_c(r), (result{error::none, 0, c.length}));
    EXPECT_EQ(cp, c.value);
  }
}

TEST(Codec, DecodeOneReportsTheErrorAtTheStart) {
  EXPECT_EQ(decode_one("").kind, error::incomplete);
  EXPECT_EQ(decode_one("").length, 0u);
  const decoded d = decode_one("\xE0\x80\x80");
  EXPECT_EQ(d.kind, error::overlong);
  EXPECT_EQ(d.length, 1u);
  EXPECT_EQ(decode_one("\xF0\x9F\x98").kind, error::incomplete);
  EXPECT_EQ(decode_one("\xF0\x9F\x98").length, 3u);
  std::uint32_t cp = 0xDEAD;
  EXPECT_EQ(from_c(utf8guard_decode_one("\xED\xA0\x80", 3, &cp)), (result{error::surrogate, 0, 1}));
  EXPECT_EQ(cp, 0xDEADu) << "left unchanged on error";
  EXPECT_EQ(from_c(utf8guard_decode_one(nullptr, 0, &cp)), (result{error::incomplete, 0, 0}));
  EXPECT_EQ(cp, 0xDEADu);
}

TEST(Codec, DecodeStopsAtTheFirstErrorKeepingWhatCameBefore) {
  std::u32string out = U"x";
  EXPECT_EQ(decode("a\xC3\xA9\xF0\x9F\x98\x80", out), result{});
  EXPECT_EQ(out, U"xa\u00E9\U0001F600");  // appended
  out.clear();
  EXPECT_EQ(decode("ab\xC0\xAF", out), (result{error::overlong, 2, 1}));
  EXPECT_EQ(out, U"ab");
  out.clear();
  EXPECT_EQ(decode("", out), result{});
  EXPECT_TRUE(out.empty());
}

TEST(Codec, CDecodeReportsCountErrorAndRoom) {
  std::uint32_t out[8] = {};
  std::size_t count = 99;
  utf8guard_result err{};
  EXPECT_EQ(utf8guard_decode("a\xE2\x82\xAC", 4, out, 8, &count, &err), UTF8GUARD_STATUS_OK);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(out[0], 0x61u);
  EXPECT_EQ(out[1], 0x20ACu);
  EXPECT_EQ(from_c(err), result{});

  EXPECT_EQ(utf8guard_decode("ab\xF4\x90\x80\x80", 6, out, 8, &count, &err),
            UTF8GUARD_STATUS_ILL_FORMED);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(from_c(err), (result{error::too_large, 2, 1}));

  // The input's size in code points always suffices; less may not.
  EXPECT_EQ(utf8guard_decode("abcd", 4, out, 3, &count, nullptr),
            UTF8GUARD_STATUS_BUFFER_TOO_SMALL);
  EXPECT_EQ(count, 4u);  // the size needed
  EXPECT_EQ(utf8guard_decode("abcd", 4, out, 4, nullptr, nullptr), UTF8GUARD_STATUS_OK);
  EXPECT_EQ(utf8guard_decode(nullptr, 0, nullptr, 0, &count, &err), UTF8GUARD_STATUS_OK);
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(from_c(err), result{});
}

TEST(Codec, EncodeOneWritesTheShortestFormOrNothing) {
  struct {
    char32_t cp;
    std::string_view bytes;
  } const cases[] = {
      {0x0, "\x00"sv},
      {0x7F, "\x7F"sv},
      {0x80, "\xC2\x80"sv},
      {0x7FF, "\xDF\xBF"sv},
      {0x800, "\xE0\xA0\x80"sv},
      {0xD7FF, "\xED\x9F\xBF"sv},
      {0xE000, "\xEE\x80\x80"sv},
      {0xFFFF, "\xEF\xBF\xBF"sv},
      {0x10000, "\xF0\x90\x80\x80"sv},
      {0x10FFFF, "\xF4\x8F\xBF\xBF"sv},
  };
  for (const auto& c : cases) {
    char out[4];
    ASSERT_EQ(encode_one(c.cp, out), c.bytes.size())
        << std::hex << static_cast<std::uint32_t>(c.cp);
    EXPECT_EQ(hex({out, c.bytes.size()}), hex(c.bytes));
    char c_out[4];
    ASSERT_EQ(utf8guard_encode_one(c.cp, c_out), c.bytes.size());
    EXPECT_EQ(hex({c_out, c.bytes.size()}), hex(c.bytes));
  }
  for (char32_t bad : {0xD800u, 0xDBFFu, 0xDC00u, 0xDFFFu, 0x110000u, 0x7FFFFFFFu, 0xFFFFFFFFu}) {
    char out[4];
    EXPECT_EQ(encode_one(bad, out), 0u) << std::hex << static_cast<std::uint32_t>(bad);
    EXPECT_EQ(utf8guard_encode_one(bad, out), 0u) << std::hex << static_cast<std::uint32_t>(bad);
  }
}

TEST(Codec, EncodeStopsAtTheFirstValueThatIsNotAScalarValue) {
  std::string out = ">";
  EXPECT_TRUE(encode(U"a\u00E9\U0001F600", out));
  EXPECT_EQ(hex(out), hex(">a\xC3\xA9\xF0\x9F\x98\x80"));
  out.clear();
  const char32_t with_surrogate[] = {U'a', 0xD800, U'b'};
  EXPECT_FALSE(encode({with_surrogate, 3}, out));
  EXPECT_EQ(out, "a");
  out.clear();
  EXPECT_TRUE(encode(U"", out));
  EXPECT_TRUE(out.empty());
}

TEST(Codec, CEncodeReportsBytesBadIndexAndRoom) {
  const std::uint32_t cps[] = {0x41, 0x10FFFF, 0x20AC};
  char out[16];
  std::size_t written = 99, bad = 99;
  EXPECT_EQ(utf8guard_encode(cps, 3, out, sizeof out, &written, &bad), UTF8GUARD_STATUS_OK);
  EXPECT_EQ(hex({out, written}), hex("A\xF4\x8F\xBF\xBF\xE2\x82\xAC"));
  // 4 * count always suffices; one byte less than needed does not.
  EXPECT_EQ(utf8guard_encode(cps, 3, out, 7, &written, nullptr), UTF8GUARD_STATUS_BUFFER_TOO_SMALL);
  EXPECT_EQ(written, 8u);  // the size needed
  EXPECT_EQ(utf8guard_encode(cps, 3, out, 8, nullptr, nullptr), UTF8GUARD_STATUS_OK);
  const std::uint32_t with_bad[] = {0x41, 0x42, 0x110000};
  EXPECT_EQ(utf8guard_encode(with_bad, 3, out, sizeof out, &written, &bad),
            UTF8GUARD_STATUS_ILL_FORMED);
  EXPECT_EQ(bad, 2u);
  EXPECT_EQ(utf8guard_encode(nullptr, 0, nullptr, 0, &written, &bad), UTF8GUARD_STATUS_OK);
  EXPECT_EQ(written, 0u);
}

// ---- sanitize_bound ------------------------------------------------------------

TEST(SanitizeBound, IsThreeBytesPerInputByteUntilItOverflows) {
  EXPECT_EQ(sanitize_bound(0), 0u);
  EXPECT_EQ(sanitize_bound(1), 3u);
  EXPECT_EQ(sanitize_bound(SIZE_MAX / 3), SIZE_MAX / 3 * 3);
  EXPECT_EQ(sanitize_bound(SIZE_MAX / 3 + 1), SIZE_MAX);
  EXPECT_EQ(sanitize_bound(SIZE_MAX), SIZE_MAX);

  std::size_t bound = 7;
  EXPECT_EQ(utf8guard_sanitize_bound(0, &bound), UTF8GUARD_STATUS_OK);
  EXPECT_EQ(bound, 0u);
  EXPECT_EQ(utf8guard_sanitize_bound(SIZE_MAX / 3, &bound), UTF8GUARD_STATUS_OK);
  EXPECT_EQ(bound, SIZE_MAX / 3 * 3);
  EXPECT_EQ(utf8guard_sanitize_bound(SIZE_MAX / 3 + 1, &bound), UTF8GUARD_STATUS_OVERFLOW);
  EXPECT_EQ(utf8guard_sanitize_bound(SIZE_MAX, &bound), UTF8GUARD_STATUS_OVERFLOW);
}

// ---- On every kernel -----------------------------------------------------------

class Api : public EveryKernel {};

// sanitize_to and utf8guard_sanitize refuse every capacity below the output's
// size and never write past the capacity they are given.
TEST_P(Api, SanitizeToRefusesTooSmallABufferWithoutOverflowingIt) {
  for (std::string_view in :
       {"a\xC0\"b"sv, "\x80\x80\x80"sv, "plain ascii"sv, "\xE2\x82"sv, "\xF0\x9F\x98\x80!"sv}) {
    SCOPED_TRACE(hex(in));
    const std::string want = reference::sanitize(in);
    for (std::size_t cap = 0; cap <= want.size(); ++cap) {
      std::string buffer(cap + 16, '#');  // 16 canary bytes after the capacity
      const std::size_t written = sanitize_to(in, buffer.data(), cap);
      std::size_t c_written = 0;
      std::string c_buffer(cap + 16, '#');
      const utf8guard_status status =
          utf8guard_sanitize(in.data(), in.size(), c_buffer.data(), cap, &c_written, nullptr);
      if (cap < want.size()) {  // too small: the size needed, as snprintf
        EXPECT_EQ(written, want.size()) << "capacity " << cap;
        EXPECT_EQ(status, UTF8GUARD_STATUS_BUFFER_TOO_SMALL) << "capacity " << cap;
        EXPECT_EQ(c_written, want.size()) << "capacity " << cap;
      } else {
        EXPECT_EQ(written, want.size());
        EXPECT_EQ(buffer.substr(0, want.size()), want);
        EXPECT_EQ(status, UTF8GUARD_STATUS_OK);
        EXPECT_EQ(c_written, want.size());
        EXPECT_EQ(c_buffer.substr(0, want.size()), want);
      }
      EXPECT_EQ(buffer.substr(cap), std::string(16, '#')) << "wrote past capacity " << cap;
      EXPECT_EQ(c_buffer.substr(cap), std::string(16, '#')) << "wrote past capacity " << cap;
    }
  }
}

// Short inputs of ASCII are answered by a word test before any kernel or
// the engine runs (core/short_input.hpp): one byte that is not ASCII, anywhere
// in ASCII inputs of every length up to 40, reaches every one-shot call.
TEST_P(Api, OneByteThatIsNotAsciiAnywhereInShortAsciiReachesEveryCall) {
  for (std::size_t n = 1; n <= 40; ++n) {
    std::string ascii(n, ' ');
    for (std::size_t i = 0; i < n; ++i) ascii[i] = static_cast<char>('!' + i % 90);
    for (std::size_t pos = 0; pos < n; ++pos) {
      for (char bad : {'\x80', '\xC3', '\xFF'}) {
        std::string in = ascii;
        in[pos] = bad;
        SCOPED_TRACE(hex(in));
        const reference::error want = reference::first_error(in);
        const result r = validate(in);
        EXPECT_EQ(to_string(r.kind), want.kind);
        EXPECT_EQ(r.offset, want.offset);
        EXPECT_EQ(r.length, want.length);
        EXPECT_FALSE(is_valid(in));
        EXPECT_FALSE(utf8guard_is_valid(in.data(), in.size()));
        const std::string sanitized = reference::sanitize(in);
        EXPECT_EQ(sanitize(in), sanitized);
        std::string out(sanitize_bound(n), '#');
        ASSERT_EQ(sanitize_to(in, out.data(), out.size()), sanitized.size());
        EXPECT_EQ(out.substr(0, sanitized.size()), sanitized);
      }
    }
    EXPECT_TRUE(is_valid(ascii));
    EXPECT_EQ(sanitize(ascii), ascii);
  }
}

// (NULL, 0) is the empty input for every C entry point that takes one.
TEST_P(Api, NullAndZeroIsTheEmptyInputEverywhere) {
  EXPECT_TRUE(utf8guard_is_valid(nullptr, 0));
  EXPECT_EQ(from_c(utf8guard_validate(nullptr, 0)), result{});

  utf8guard_validator v;
  utf8guard_validator_init(&v);
  EXPECT_EQ(from_c(utf8guard_validator_feed(&v, nullptr, 0)), result{});
  EXPECT_EQ(from_c(utf8guard_validator_finish(&v)), result{});

  std::size_t written = 9, replacements = 9;
  EXPECT_EQ(utf8guard_sanitize(nullptr, 0, nullptr, 0, &written, &replacements),
            UTF8GUARD_STATUS_OK);
  EXPECT_EQ(written, 0u);
  EXPECT_EQ(replacements, 0u);

  int sink_calls = 0;
  const utf8guard_sink count_calls = [](void* ctx, const char*, size_t) {
    ++*static_cast<int*>(ctx);
    return true;
  };
  utf8guard_sanitizer s;
  utf8guard_sanitizer_init(&s);
  EXPECT_EQ(utf8guard_sanitizer_feed(&s, nullptr, 0, count_calls, &sink_calls),
            UTF8GUARD_STATUS_OK);
  EXPECT_EQ(utf8guard_sanitizer_finish(&s, count_calls, &sink_calls), UTF8GUARD_STATUS_OK);
  EXPECT_EQ(utf8guard_sanitizer_replacements(&s), 0u);
  EXPECT_EQ(sink_calls, 0);

  std::size_t error_calls = 0;
  utf8guard_error_scanner scan;
  utf8guard_error_scanner_init(&scan);
  EXPECT_EQ(utf8guard_error_scanner_feed(&scan, nullptr, 0, count_error, &error_calls),
            UTF8GUARD_STATUS_OK);
  EXPECT_EQ(utf8guard_error_scanner_finish(&scan, count_error, &error_calls), UTF8GUARD_STATUS_OK);
  EXPECT_EQ(utf8guard_error_scanner_errors(&scan), 0u);
  EXPECT_EQ(error_calls, 0u);

  std::uint32_t cp = 7;
  EXPECT_EQ(from_c(utf8guard_decode_one(nullptr, 0, &cp)), (result{error::incomplete, 0, 0}));
  std::size_t count = 9;
  EXPECT_EQ(utf8guard_decode(nullptr, 0, nullptr, 0, &count, nullptr), UTF8GUARD_STATUS_OK);
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(utf8guard_encode(nullptr, 0, nullptr, 0, &written, nullptr), UTF8GUARD_STATUS_OK);
  EXPECT_EQ(written, 0u);

  // The C++ API takes empty views, null data included.
  EXPECT_TRUE(is_valid({}));
  EXPECT_EQ(validate({}), result{});
  EXPECT_EQ(sanitize({}), "");
  EXPECT_EQ(sanitize_to({}, nullptr, 0), 0u);
}

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(Api);

}  // namespace
}  // namespace utf8guard::testing
