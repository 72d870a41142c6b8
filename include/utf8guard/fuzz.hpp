// fuzz.hpp - the C++ API of utf8guard's fuzzing helpers (library
// utf8guard_fuzz, CMake target utf8guard::fuzz): the UTF-8-aware mutator and
// the differential oracle of fuzz.h, in namespace utf8guard::fuzz.
#ifndef UTF8GUARD_FUZZ_HPP
#define UTF8GUARD_FUZZ_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "utf8guard/fuzz.h"
#include "utf8guard/utf8guard.hpp"

namespace utf8guard::fuzz {

// mutate applies one mutation to data[0..size) in place and returns the new
// size (<= max_size); see utf8guard_fuzz_mutate_ex for fallback and what.
UTF8GUARD_FUZZ_EXPORT std::size_t mutate(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                         unsigned seed, utf8guard_fuzz_fallback fallback = nullptr,
                                         const char** what = nullptr) noexcept;

// hex renders bytes as uppercase pairs separated by spaces ("C0 AF"), the
// form of the oracle's reports and of security/vectors/vectors.tsv, so that a
// finding pastes into a test.
UTF8GUARD_FUZZ_EXPORT std::string hex(std::string_view bytes);

// tolerate holds the flags of fuzz.h, as a C++ enum that combines with |.
enum tolerate : unsigned {
  strict = 0,
  accepts_overlong = UTF8GUARD_FUZZ_ACCEPTS_OVERLONG,
  accepts_modified_utf8_nul = UTF8GUARD_FUZZ_ACCEPTS_MODIFIED_UTF8_NUL,
  accepts_surrogates = UTF8GUARD_FUZZ_ACCEPTS_SURROGATES,
  accepts_cesu8_pairs = UTF8GUARD_FUZZ_ACCEPTS_CESU8_PAIRS,
  accepts_above_10ffff = UTF8GUARD_FUZZ_ACCEPTS_ABOVE_10FFFF,
  accepts_5_6_byte = UTF8GUARD_FUZZ_ACCEPTS_5_6_BYTE,
  rejects_nul = UTF8GUARD_FUZZ_REJECTS_NUL,
  rejects_noncharacters = UTF8GUARD_FUZZ_REJECTS_NONCHARACTERS,
};
constexpr tolerate operator|(tolerate a, tolerate b) noexcept {
  return static_cast<tolerate>(static_cast<unsigned>(a) | static_cast<unsigned>(b));
}

// verdict is what the decoder under test said: valid, or not valid with the
// offset of its first error when it tells one.
struct verdict {
  bool valid = true;
  std::optional<std::size_t> offset;
  static verdict accepted() noexcept { return {true, std::nullopt}; }
  static verdict rejected(std::optional<std::size_t> at = std::nullopt) noexcept {
    return {false, at};
  }
};

// oracle compares one decoder's verdicts with utf8guard's, forgiving the
// differences it was told to tolerate.
class UTF8GUARD_FUZZ_EXPORT oracle {
 public:
  explicit oracle(std::string decoder, unsigned tolerated = tolerate::strict)
      : decoder_(std::move(decoder)), tolerated_(tolerated) {}

  // agrees returns whether the decoder's verdict on the input is allowed.
  [[nodiscard]] bool agrees(std::string_view input, verdict other) const noexcept;

  // report returns the disagreement report, or "" when the verdicts agree.
  [[nodiscard]] std::string report(std::string_view input, verdict other) const;

  // check prints the report to stderr and calls abort() when they disagree.
  void check(std::string_view input, verdict other) const;

  [[nodiscard]] const std::string& decoder() const noexcept { return decoder_; }
  [[nodiscard]] unsigned tolerated() const noexcept { return tolerated_; }

 private:
  std::string decoder_;
  unsigned tolerated_;
};

}  // namespace utf8guard::fuzz

#endif  // UTF8GUARD_FUZZ_HPP
