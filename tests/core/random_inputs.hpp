// random_inputs.hpp - the byte classes of Table 3-7 and a seeded maker of
// inputs dense in errors and in valid multibyte text, shared by the
// streaming, embedding, property and ICU tests.
//
// Uniform random bytes are a poor test input: a lead byte is followed by the
// continuation it needs only by chance, so the interesting boundaries (E0 A0,
// ED 9F, F4 8F, ...) are rare. The maker picks a byte class first, then a
// byte in it, and mixes in whole characters, cut characters and ASCII runs
// long enough to cross any SIMD block.
#ifndef UTF8GUARD_TESTS_CORE_RANDOM_INPUTS_HPP
#define UTF8GUARD_TESTS_CORE_RANDOM_INPUTS_HPP

#include <cstdint>
#include <iterator>
#include <random>
#include <string>
#include <string_view>

#include "reference.hpp"

namespace utf8guard::testing {

// A byte class: the bytes that play one role in Table 3-7.
struct byte_class {
  std::uint8_t lo, hi;
  std::string_view name;
};

inline constexpr byte_class kByteClasses[] = {
    {0x00, 0x7F, "ascii"},
    {0x80, 0x8F, "continuation 80..8F"},  // the only second bytes after F4
    {0x90, 0x9F, "continuation 90..9F"},  // allowed after ED, not after F4
    {0xA0, 0xBF, "continuation A0..BF"},  // allowed after E0, not after ED
    {0xC0, 0xC1, "lead C0..C1 (overlong)"},
    {0xC2, 0xDF, "lead C2..DF"},
    {0xE0, 0xE0, "lead E0"},
    {0xE1, 0xEC, "lead E1..EC"},
    {0xED, 0xED, "lead ED"},
    {0xEE, 0xEF, "lead EE..EF"},
    {0xF0, 0xF0, "lead F0"},
    {0xF1, 0xF3, "lead F1..F3"},
    {0xF4, 0xF4, "lead F4"},
    {0xF5, 0xFF, "F5..FF (never in UTF-8)"},
};
inline constexpr std::size_t kByteClassCount = std::size(kByteClasses);

// class_of is the index in kByteClasses of the class holding b.
inline std::size_t class_of(std::uint8_t b) {
  for (std::size_t i = 0; i < kByteClassCount; ++i) {
    if (b >= kByteClasses[i].lo && b <= kByteClasses[i].hi) return i;
  }
  return kByteClassCount;  // unreachable: the classes cover 00..FF
}

// Scalar values at the edges of Table 3-7's rows, and other favourites.
inline constexpr char32_t kEdgeScalars[] = {
    0x0,    0x7F,   0x80,   0x7FF,  0x800,   0xFFF,   0x1000,  0xCFFF,  0xD000,   0xD7FF,
    0xE000, 0xFEFF, 0xFFFD, 0xFFFF, 0x10000, 0x3FFFF, 0x40000, 0xFFFFF, 0x100000, 0x10FFFF,
};

// input_maker draws inputs from a fixed seed, so a failure reproduces.
class input_maker {
 public:
  explicit input_maker(std::uint64_t seed) : rng_(seed) {}

  // below returns a uniform value in [0, n).
  std::size_t below(std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_);
  }

  // class_byte picks a byte class uniformly, then one of its edge bytes
  // (8F/90, 9F/A0, C1/C2, ...) or, half the time, any byte in it.
  char class_byte() {
    const byte_class& c = kByteClasses[below(kByteClassCount)];
    switch (below(4)) {
      case 0: return static_cast<char>(c.lo);
      case 1: return static_cast<char>(c.hi);
      default: return static_cast<char>(c.lo + below(c.hi - c.lo + 1u));
    }
  }

  // scalar picks an encoded length (1..4) uniformly, then a scalar value of
  // that length; one time in eight, an edge of a Table 3-7 row.
  char32_t scalar() {
    if (below(8) == 0) return kEdgeScalars[below(std::size(kEdgeScalars))];
    switch (below(4)) {
      case 0: return static_cast<char32_t>(below(0x80));
      case 1: return static_cast<char32_t>(0x80 + below(0x800 - 0x80));
      case 2: {
        // U+0800..U+FFFF without the 2048 surrogates.
        const char32_t v = static_cast<char32_t>(0x800 + below(0x10000 - 0x800 - 0x800));
        return v < 0xD800 ? v : v + 0x800;
      }
      default: return static_cast<char32_t>(0x10000 + below(0x110000 - 0x10000));
    }
  }

  // character is one well-formed character, encoded by the oracle.
  std::string character() { return reference::encode(scalar()); }

  // error_dense returns up to `pieces` pieces: whole characters, characters
  // cut short, single bytes of any class, and ASCII runs of 0..80 bytes.
  std::string error_dense(std::size_t pieces) {
    std::string out;
    const std::size_t n = below(pieces + 1);
    for (std::size_t i = 0; i < n; ++i) {
      switch (below(6)) {
        case 0:
        case 1: out += character(); break;
        case 2: {
          // A multibyte character keeps 1..size-1 bytes; ASCII cannot be cut.
          const std::string c = character();
          out += c.size() == 1 ? c : c.substr(0, 1 + below(c.size() - 1));
          break;
        }
        case 3:
        case 4: out += class_byte(); break;
        default: out.append(below(81), static_cast<char>('a' + below(26))); break;
      }
    }
    return out;
  }

  // mutate applies 1..3 random edits to text: a bit flip, a byte replaced by
  // one of any class, a lead or continuation byte inserted, a byte deleted, a
  // truncation, or a splice of a random slice of `other` (cut anywhere, so
  // usually in the middle of a character).
  std::string mutate(std::string text, std::string_view other) {
    const std::size_t edits = 1 + below(3);
    for (std::size_t e = 0; e < edits; ++e) {
      const std::size_t at = below(text.size() + 1);
      switch (below(6)) {
        case 0:
          if (at < text.size()) text[at] = static_cast<char>(text[at] ^ (1 << below(8)));
          break;
        case 1:
          if (at < text.size()) text[at] = class_byte();
          break;
        case 2: {
          // 80..BF or C0..FF: the bytes that make or break sequences.
          const char b = static_cast<char>(below(2) == 0 ? 0x80 + below(0x40) : 0xC0 + below(0x40));
          text.insert(at, 1, b);
          break;
        }
        case 3:
          if (at < text.size()) text.erase(at, 1);
          break;
        case 4: text.resize(at); break;
        default: {
          const std::size_t from = below(other.size() + 1);
          const std::size_t len = below(other.size() - from + 1);
          text.replace(at, below(text.size() - at + 1), other.substr(from, len));
          break;
        }
      }
    }
    return text;
  }

 private:
  std::mt19937_64 rng_;
};

}  // namespace utf8guard::testing

#endif  // UTF8GUARD_TESTS_CORE_RANDOM_INPUTS_HPP
