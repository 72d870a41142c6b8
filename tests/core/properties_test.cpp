// properties_test.cpp - RapidCheck properties of UTF-8 and of the library,
// each checked on every kernel, and a check that the generators behind them
// really cover every byte class.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <array>
#include <sstream>
#include <string>
#include <vector>

#include "check_property.hpp"
#include "generators.hpp"
#include "hex.hpp"
#include "kernels.hpp"
#include "results.hpp"

namespace utf8guard::testing {
namespace {

bool is_continuation(char b) { return (static_cast<unsigned char>(b) & 0xC0) == 0x80; }

// form writes v with the bit pattern of an L-byte sequence (L = 1..6: 0xxxxxxx,
// 110xxxxx 10xxxxxx, ..., 1111110x and five continuations) whether or not
// that is its shortest form. It is a third encoder, independent of both the
// library and the oracle, used to build overlong and out-of-range forms.
std::string form(std::uint32_t v, int L) {
  if (L == 1) return std::string(1, static_cast<char>(v));
  std::string out(static_cast<std::size_t>(L), '\0');
  for (int k = L - 1; k > 0; --k, v >>= 6) out[k] = static_cast<char>(0x80 | (v & 0x3F));
  const unsigned lead_mark = (0xFF00u >> L) & 0xFF;  // L ones, then a zero
  out[0] = static_cast<char>(lead_mark | v);
  return out;
}

// Payload bits of an L-byte form: 7, 11, 16, 21, 26, 31.
constexpr int kPayloadBits[7] = {0, 7, 11, 16, 21, 26, 31};

// unsigned_less compares byte strings as unsigned bytes, as UTF-8 order does.
int unsigned_compare(std::string_view a, std::string_view b) {
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    const auto x = static_cast<unsigned char>(a[i]), y = static_cast<unsigned char>(b[i]);
    if (x != y) return x < y ? -1 : 1;
  }
  return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

std::string encoded(const std::vector<char32_t>& cps) {
  std::string out;
  for (char32_t cp : cps) out += reference::encode(cp);
  return out;
}

class Properties : public EveryKernel {};

TEST_P(Properties, DecodeInvertsEncodeOnScalarValues) {
  check_property([] {
    const std::vector<char32_t> cps = *gen::scalars();
    std::string bytes;
    RC_ASSERT(encode(std::u32string_view(cps.data(), cps.size()), bytes));
    RC_ASSERT(hex(bytes) == hex(encoded(cps)));  // the oracle's encoding
    RC_ASSERT(is_valid(bytes));
    std::u32string back;
    RC_ASSERT(decode(bytes, back).ok());
    RC_ASSERT(back == std::u32string(cps.begin(), cps.end()));
    for (char32_t cp : cps) {
      char one[4];
      const std::size_t n = encode_one(cp, one);
      RC_ASSERT(n == reference::encode(cp).size());
      const decoded d = decode_one({one, n});
      RC_ASSERT(d.kind == error::none);
      RC_ASSERT(d.value == cp);
      RC_ASSERT(d.length == n);
    }
  });
}

TEST_P(Properties, EncodeInvertsDecodeOnValidBytes) {
  check_property([] {
    const std::string bytes = *gen::valid();
    RC_ASSERT(validate(bytes).ok());
    std::u32string cps;
    RC_ASSERT(decode(bytes, cps).ok());
    RC_ASSERT(cps == reference::decode(bytes));
    std::string back;
    RC_ASSERT(encode(cps, back));
    RC_ASSERT(hex(back) == hex(bytes));
  });
}

// Uniqueness: of all the bit patterns that carry a value (1- to 6-byte forms),
// exactly one is accepted, the shortest, and only if the value is a scalar
// value; every other form is rejected at its first byte for the reason
// docs/design.md gives.
TEST_P(Properties, OnlyTheShortestFormOfAScalarValueIsAccepted) {
  check_property([] {
    // Any 21-bit value: scalar values, surrogates and 110000..1FFFFF alike.
    const std::uint32_t v = *gen::code_value();
    int accepted = 0;
    for (int L = 1; L <= 6; ++L) {
      if (v >> kPayloadBits[L] != 0) continue;  // does not fit in L bytes
      const std::string f = form(v, L);
      const result r = validate(f);
      RC_ASSERT(is_valid(f) == r.ok());
      if (r.ok()) {
        ++accepted;
        RC_ASSERT(hex(f) == hex(reference::encode(v)));
        const decoded d = decode_one(f);
        RC_ASSERT(d.value == v);
        RC_ASSERT(d.length == f.size());
        continue;
      }
      RC_ASSERT(r.offset == 0u);
      RC_ASSERT(r.length == 1u);
      const bool shorter_form_exists = L > 1 && v >> kPayloadBits[L - 1] == 0;
      if (L >= 5) {
        RC_ASSERT(r.kind == error::invalid_byte);  // F8..FD never occur
      } else if (shorter_form_exists) {
        RC_ASSERT(r.kind == error::overlong);
      } else if (v >= 0xD800 && v <= 0xDFFF) {
        RC_ASSERT(r.kind == error::surrogate);
      } else {
        RC_ASSERT(v > 0x10FFFFu);
        // F4 90..BF is too large; F5..F7 never occur in UTF-8.
        RC_ASSERT(r.kind == (v < 0x140000 ? error::too_large : error::invalid_byte));
      }
    }
    RC_ASSERT(accepted == (gen::is_scalar_value(v) ? 1 : 0));
  });
}

TEST_P(Properties, ByteOrderIsCodePointOrder) {
  check_property([] {
    const std::vector<char32_t> a = *gen::scalars();
    const std::vector<char32_t> b = *gen::scalars();
    std::string ea, eb;
    RC_ASSERT(encode(std::u32string_view(a.data(), a.size()), ea));
    RC_ASSERT(encode(std::u32string_view(b.data(), b.size()), eb));
    RC_ASSERT(is_valid(ea) && is_valid(eb));
    const int by_code_point = std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end())
                                  ? -1
                                  : (a == b ? 0 : 1);
    RC_ASSERT(unsigned_compare(ea, eb) == by_code_point);
  });
}

// Self-synchronization: from any byte of well-formed text, the next character
// boundary is at most 3 bytes ahead and recognizable on its own, and garbage
// before well-formed text never swallows any of it.
TEST_P(Properties, TextResynchronizesAfterAnyCutAndAnyGarbage) {
  check_property([] {
    const std::string text = *gen::valid();
    const std::size_t i = *gen::index(text.size());
    const std::string_view rest = std::string_view(text).substr(i);
    std::size_t k = 0;  // continuation bytes before the next boundary
    while (k < rest.size() && is_continuation(rest[k])) ++k;
    RC_ASSERT(k <= 3u);
    RC_ASSERT(validate(rest).ok() == (k == 0));
    if (k != 0) RC_ASSERT(validate(rest) == (result{error::unexpected_continuation, 0, 1}));
    std::string want;
    for (std::size_t j = 0; j < k; ++j) want += "\xEF\xBF\xBD";
    RC_ASSERT(hex(sanitize(rest)) == hex(want + std::string(rest.substr(k))));

    const std::string garbage = *gen::bytes();
    RC_ASSERT(hex(sanitize(garbage + text)) == hex(sanitize(garbage) + text));
    error_scanner scan;
    bool inside_garbage = true;
    auto on_error = [&](const result& r) {
      inside_garbage = inside_garbage && r.offset + r.length <= garbage.size();
    };
    scan.feed(garbage + text, on_error);
    scan.finish(on_error);
    RC_ASSERT(inside_garbage);
  });
}

TEST_P(Properties, ConcatenatedValidStringsAreValid) {
  check_property([] {
    const std::string a = *gen::valid();
    const std::string b = *gen::valid();
    RC_ASSERT(is_valid(a + b));
    RC_ASSERT(validate(a + b).ok());
  });
}

TEST_P(Properties, SanitizedOutputIsValidAndSanitizingAgainChangesNothing) {
  check_property([] {
    const std::string in = *gen::bytes();
    const std::string once = sanitize(in);
    RC_ASSERT(hex(once) == hex(reference::sanitize(in)));
    RC_ASSERT(is_valid(once));
    RC_ASSERT(validate(once).ok());
    RC_ASSERT(hex(sanitize(once)) == hex(once));
  });
}

TEST_P(Properties, SanitizeIsTheIdentityOnValidInput) {
  check_property([] {
    const std::string in = *gen::valid();
    RC_ASSERT(hex(sanitize(in)) == hex(in));
    std::string out(sanitize_bound(in.size()), '\0');
    RC_ASSERT(sanitize_to(in, out.data(), out.size()) == in.size());
    RC_ASSERT(out.compare(0, in.size(), in) == 0);
  });
}

TEST_P(Properties, SplittingTheInputChangesNoAnswer) {
  check_property([] {
    const std::string in = *gen::bytes();
    const std::vector<std::size_t> cuts = *gen::cuts(in.size());
    validator v;
    sanitizer s;
    error_scanner scan;
    std::string out;
    std::vector<result> errors;
    auto sink = [&out](std::string_view b) { out.append(b); };
    auto on_error = [&errors](const result& r) { errors.push_back(r); };
    for (const std::string_view chunk : gen::chunks_of(in, cuts)) {
      v.feed(chunk);
      RC_ASSERT(s.feed(chunk, sink));
      RC_ASSERT(scan.feed(chunk, on_error));
    }
    RC_ASSERT(v.finish() == validate(in));
    RC_ASSERT(s.finish(sink));
    RC_ASSERT(hex(out) == hex(sanitize(in)));
    RC_ASSERT(scan.finish(on_error));
    RC_ASSERT(errors == oracle_all_errors(in));
  });
}

TEST_P(Properties, AgreesWithTheOracleOnAnyBytes) {
  check_property([] {
    const std::string in = *gen::bytes();
    const result want = oracle_first_error(in);
    RC_ASSERT(validate(in) == want);
    RC_ASSERT(is_valid(in) == want.ok());
  });
}

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(Properties);

// ---- The generators themselves ---------------------------------------------

// sample draws n values of a generator at one size.
template <class T>
std::vector<T> sample(const rc::Gen<T>& g, int size, int n, std::uint64_t seed) {
  std::vector<T> out;
  rc::Random random(seed);
  for (int i = 0; i < n; ++i) out.push_back(g(random.split(), size).value());
  return out;
}

constexpr int kSizes[] = {0, 1, 2, 5, 10, 50, 100};

TEST(Generators, BytesCoverEveryClassAtEverySize) {
  for (int size : kSizes) {
    SCOPED_TRACE("size " + std::to_string(size));
    constexpr int kDraws = 14000;  // 1000 per class if uniform
    std::array<int, kByteClassCount> per_class{};
    int high = 0;
    for (char b : sample(gen::byte(), size, kDraws, 1 + size)) {
      ++per_class[class_of(static_cast<std::uint8_t>(b))];
      high += static_cast<unsigned char>(b) >= 0x80;
    }
    for (std::size_t c = 0; c < kByteClassCount; ++c) {
      EXPECT_GE(per_class[c], 600) << kByteClasses[c].name;
    }
    EXPECT_GE(high, kDraws / 2);
  }
}

TEST(Generators, BytesReachAll256Values) {
  // The rarest byte (one of 128 in the ASCII class) comes about once in 3600
  // draws: 200000 draws leave no value out by chance.
  std::array<int, 256> seen{};
  for (char b : sample(gen::byte(), 0, 200000, 7)) ++seen[static_cast<unsigned char>(b)];
  for (int v = 0; v < 256; ++v) EXPECT_GT(seen[v], 0) << "byte " << v << " never drawn";
}

TEST(Generators, ByteStringsHoldHighBytesAndEveryClassEvenWhenSmall) {
  for (int size : {1, 2, 5, 10}) {
    SCOPED_TRACE("size " + std::to_string(size));
    std::array<int, kByteClassCount> per_class{};
    int strings_with_high = 0, nonempty = 0;
    for (const std::string& s : sample(gen::bytes(), size, 2000, 100 + size)) {
      bool has_high = false;
      for (char b : s) {
        ++per_class[class_of(static_cast<std::uint8_t>(b))];
        has_high = has_high || static_cast<unsigned char>(b) >= 0x80;
      }
      nonempty += !s.empty();
      strings_with_high += has_high;
    }
    for (std::size_t c = 0; c < kByteClassCount; ++c) {
      EXPECT_GT(per_class[c], 0) << kByteClasses[c].name;
    }
    // Most non-empty strings hold a byte >= 0x80 (a piece is ASCII-only about
    // one time in three).
    EXPECT_GE(strings_with_high * 2, nonempty);
  }
}

TEST(Generators, ScalarsCoverEveryEncodedLengthAndEdge) {
  for (int size : kSizes) {
    SCOPED_TRACE("size " + std::to_string(size));
    constexpr int kDraws = 8000;
    std::array<int, 5> per_length{};
    int edges = 0, above_surrogates = 0;
    for (char32_t v : sample(gen::scalar(), size, kDraws, 200 + size)) {
      ASSERT_TRUE(gen::is_scalar_value(v)) << std::hex << static_cast<std::uint32_t>(v);
      ++per_length[reference::encode(v).size()];
      edges += std::count(std::begin(kEdgeScalars), std::end(kEdgeScalars), v) > 0;
      above_surrogates += v >= 0xE000 && v <= 0xFFFF;
    }
    for (int len = 1; len <= 4; ++len) EXPECT_GE(per_length[len], kDraws / 6) << len << " bytes";
    EXPECT_GE(edges, kDraws / 16);
    EXPECT_GT(above_surrogates, 0);
  }
}

}  // namespace
}  // namespace utf8guard::testing
