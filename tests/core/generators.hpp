// generators.hpp - RapidCheck generators for UTF-8 tests whose values do not
// depend on RapidCheck's size parameter.
//
// RapidCheck's integer generators scale their range with the size, which
// starts at 0: gen::arbitrary<char>() and gen::inRange(0, 256) almost never
// produce bytes >= 0x80 in the first runs of a property, exactly where UTF-8
// bugs live. These generators draw straight from the Random they are given,
// so every run covers every byte class of Table 3-7; only the number of
// pieces in a string grows with the size. properties_test.cpp checks the
// distributions they produce.
#ifndef UTF8GUARD_TESTS_CORE_GENERATORS_HPP
#define UTF8GUARD_TESTS_CORE_GENERATORS_HPP

#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "chunks.hpp"
#include "random_inputs.hpp"
#include "reference.hpp"

namespace utf8guard::testing::gen {

inline bool is_scalar_value(char32_t v) { return v <= 0x10FFFF && (v < 0xD800 || v > 0xDFFF); }

// uniform is a value in [0, n) from a copy of random.
inline std::uint64_t uniform(rc::Random& random, std::uint64_t n) { return random.next() % n; }

// byte: a byte class of Table 3-7 chosen uniformly, then one of its two edge
// bytes (half the time: 8F/90, 9F/A0, C1/C2, ...) or any byte in it. Shrinks
// towards 'a'.
inline rc::Gen<char> byte() {
  return rc::Gen<char>([](const rc::Random& seed, int) {
    rc::Random r(seed);
    const byte_class& c = kByteClasses[uniform(r, kByteClassCount)];
    const std::uint64_t pick = uniform(r, 4);
    const char b = static_cast<char>(pick == 0   ? c.lo
                                     : pick == 1 ? c.hi
                                                 : c.lo + uniform(r, c.hi - c.lo + 1u));
    return rc::shrinkable::shrinkRecur(b, [](char x) { return rc::shrink::towards(x, 'a'); });
  });
}

// scalar: an encoded length 1..4 chosen uniformly, then a scalar value of
// that length; one time in eight an edge of a Table 3-7 row. Shrinks towards
// U+0000 through scalar values only.
inline rc::Gen<char32_t> scalar() {
  return rc::Gen<char32_t>([](const rc::Random& seed, int) {
    rc::Random r(seed);
    char32_t v;
    if (uniform(r, 8) == 0) {
      v = kEdgeScalars[uniform(r, std::size(kEdgeScalars))];
    } else {
      switch (uniform(r, 4)) {
        case 0: v = static_cast<char32_t>(uniform(r, 0x80)); break;
        case 1: v = static_cast<char32_t>(0x80 + uniform(r, 0x800 - 0x80)); break;
        case 2:
          v = static_cast<char32_t>(0x800 + uniform(r, 0x10000 - 0x800 - 0x800));
          if (v >= 0xD800) v += 0x800;  // skip the surrogates
          break;
        default: v = static_cast<char32_t>(0x10000 + uniform(r, 0x110000 - 0x10000)); break;
      }
    }
    return rc::shrinkable::shrinkRecur(v, [](char32_t x) {
      return rc::seq::filter(rc::shrink::towards(x, char32_t{0}), is_scalar_value);
    });
  });
}

// Values where the validity of a 1..4-byte bit pattern changes: the first
// value of each encoded length, the surrogates, the end of Unicode, the end
// of the F4 lead, and the first values that change a lead or second byte.
inline constexpr std::uint32_t kBitPatternEdges[] = {
    0x0,     0x80,     0x800,    0x1000,   0xD000,   0xD800,   0xE000,   0x10000,
    0x40000, 0x100000, 0x110000, 0x111000, 0x140000, 0x180000, 0x1C0000, 0x1FFFFF,
};

// code_value: any 21-bit value (what a 4-byte bit pattern can carry), half
// the time within 256 of an edge in kBitPatternEdges.
inline rc::Gen<std::uint32_t> code_value() {
  return rc::Gen<std::uint32_t>([](const rc::Random& seed, int) {
    rc::Random r(seed);
    std::uint32_t v = static_cast<std::uint32_t>(uniform(r, 0x200000));
    if (uniform(r, 2) == 0) {
      const std::uint32_t edge = kBitPatternEdges[uniform(r, std::size(kBitPatternEdges))];
      const auto delta = static_cast<std::int64_t>(uniform(r, 513)) - 256;
      v = static_cast<std::uint32_t>(std::clamp<std::int64_t>(edge + delta, 0, 0x1FFFFF));
    }
    return rc::shrinkable::shrinkRecur(
        v, [](std::uint32_t x) { return rc::shrink::towards(x, std::uint32_t{0}); });
  });
}

// index: a value in [0, n], uniform whatever the size.
inline rc::Gen<std::size_t> index(std::size_t n) {
  return rc::Gen<std::size_t>([n](const rc::Random& seed, int) {
    rc::Random r(seed);
    const std::size_t i = static_cast<std::size_t>(uniform(r, n + 1));
    return rc::shrinkable::shrinkRecur(
        i, [](std::size_t x) { return rc::shrink::towards(x, std::size_t{0}); });
  });
}

// piece: one part of a byte string - a byte of any class, a well-formed
// character, a character cut short, or an ASCII run of 0..80 bytes (long
// enough to cross SIMD blocks).
inline rc::Gen<std::string> piece() {
  return rc::gen::oneOf(
      rc::gen::map(byte(), [](char b) { return std::string(1, b); }),
      rc::gen::map(scalar(), reference::encode),
      rc::gen::map(rc::gen::pair(scalar(), index(3)),
                   [](const std::pair<char32_t, std::size_t>& p) {
                     const std::string c = reference::encode(p.first);
                     return c.size() == 1 ? c : c.substr(0, 1 + p.second % (c.size() - 1));
                   }),
      rc::gen::map(index(80), [](std::size_t n) { return std::string(n, 'q'); }));
}

inline std::string joined(const std::vector<std::string>& pieces) {
  std::string out;
  for (const std::string& p : pieces) out += p;
  return out;
}

// bytes: any byte string, dense in errors and in multibyte characters.
inline rc::Gen<std::string> bytes() {
  return rc::gen::map(rc::gen::container<std::vector<std::string>>(piece()), joined);
}

// scalars: a list of scalar values.
inline rc::Gen<std::vector<char32_t>> scalars() {
  return rc::gen::container<std::vector<char32_t>>(scalar());
}

// valid: well-formed UTF-8, encoded by the oracle (not by the library).
inline rc::Gen<std::string> valid() {
  return rc::gen::map(scalars(), [](const std::vector<char32_t>& cps) {
    std::string out;
    for (char32_t cp : cps) out += reference::encode(cp);
    return out;
  });
}

// cuts: ascending cut positions in [0, n], chunk sizes 0..8 (empty chunks too).
inline rc::Gen<std::vector<std::size_t>> cuts(std::size_t n) {
  return rc::gen::map(rc::gen::container<std::vector<std::size_t>>(index(8)),
                      [n](const std::vector<std::size_t>& steps) {
                        std::vector<std::size_t> out;
                        std::size_t at = 0;
                        for (std::size_t step : steps) {
                          at += step;
                          if (at > n) break;
                          out.push_back(at);
                        }
                        return out;
                      });
}

// chunks_of cuts an input at the positions cuts() draws (chunks.hpp).
using utf8guard::testing::chunks_of;

}  // namespace utf8guard::testing::gen

#endif  // UTF8GUARD_TESTS_CORE_GENERATORS_HPP
