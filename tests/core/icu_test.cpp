// icu_test.cpp - differential test against ICU on every kernel: on 2^20
// random and mutated inputs, validity, the first error's offset and length
// (ICU's U8_NEXT) and the sanitized bytes (u_strFromUTF8WithSub with U+FFFD,
// back to UTF-8) equal ICU's. Since ICU 60 both U8_NEXT and the conversion
// replace maximal subparts (Unicode 3.9), the rule docs/design.md fixes, so any
// difference is a bug on one side.
#include <gtest/gtest.h>
#include <unicode/utf8.h>

#include <array>
#include <string>
#include <vector>

#include "hex.hpp"
#include "icu.hpp"
#include "kernels.hpp"
#include "random_inputs.hpp"
#include "reduced.hpp"
#include "results.hpp"

namespace utf8guard::testing {
namespace {

constexpr std::size_t kInputs = std::size_t{1} << 20;

// Well-formed text in many scripts: the seeds of the mutated inputs.
const std::vector<std::string>& seeds() {
  using namespace std::string_view_literals;
  static const std::vector<std::string> all = {
      "The quick brown fox jumps over the lazy dog. 0123456789 !\"#$%&'()*+,-./",
      "Voix ambiguë d'un cœur qui, au zéphyr, préfère les jattes de kiwis. Ça va?",
      "Γαζέες καὶ μυρτιὲς δὲν θὰ βρῶ πιὰ στὸ χρυσαφὶ ξέφωτο",
      "Съешь же ещё этих мягких французских булок, да выпей чаю.",
      "نص حكيم له سر قاطع وذو شأن عظيم مكتوب على ثوب أخضر ومغلف بجلد أزرق",
      "דג סקרן שט בים מאוכזב ולפתע מצא חברה",
      "ऋषियों को सताने वाले दुष्ट राक्षसों के राजा रावण का सर्वनाश करने वाले",
      "我能吞下玻璃而不伤身体。天地玄黄，宇宙洪荒。日月盈昃，辰宿列张。",
      "いろはにほへと ちりぬるを わかよたれそ つねならむ イロハニホヘト",
      "다람쥐 헌 쳇바퀴에 타고파. 키스의 고유조건은 입술끼리 만나야 하고",
      "ᚠᛇᚻ᛫ᛒᛦᚦ᛫ᚠᚱᚩᚠᚢᚱ᛫ᚠᛁᚱᚪ᛫ᚷᛖᚻᚹᛦᛚᚳᚢᛗ ሰማይ አይታረስ ንጉሥ አይከሰስ",
      "😀😃😄😁 🏳️‍🌈 👩‍👩‍👧‍👦 🇫🇷🇯🇵 "
      "𝕬𝖑𝖕𝖍𝖆 "
      "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 "
      "𠜎𠜱𠝹𠱓 "
      "\U0010FFFD\U000E0001",
      "\xEF\xBB\xBF"
      "BOM first, then U+FFFD \xEF\xBF\xBD and U+FEFF \xEF\xBB\xBF inside",
      "∀x∈ℝ: ⌈x⌉ − ⌊x⌋ ≤ 1 ⇒ ∑ᵢ aᵢ ≅ ∫₀^∞ f(t) dt ☃ ♥ ✓ ★",
      std::string("nul\0inside\x7F and \xC2\x80\xDF\xBF\xE0\xA0\x80\xED\x9F\xBF\xEE\x80\x80"
                  "\xF0\x90\x80\x80\xF4\x8F\xBF\xBF edges"sv),
  };
  return all;
}

// What ICU says about one input.
struct icu_verdict {
  bool valid = true;
  std::size_t offset = 0, length = 0;  // the first error
  std::size_t errors = 0;
};

icu_verdict icu_scan(std::string_view in) {
  icu_verdict v;
  const auto* s = reinterpret_cast<const std::uint8_t*>(in.data());
  const auto n = static_cast<std::int32_t>(in.size());
  for (std::int32_t i = 0; i < n;) {
    const std::int32_t start = i;
    UChar32 c;
    U8_NEXT(s, i, n, c);
    if (c >= 0) continue;
    if (v.valid) {
      v.valid = false;
      v.offset = static_cast<std::size_t>(start);
      v.length = static_cast<std::size_t>(i - start);
    }
    ++v.errors;
  }
  return v;
}

// next_input: one uniform-random string in eight, one error-dense string in
// eight, and otherwise a mutated window of a seed text (the window itself
// may start or end inside a character).
std::string next_input(input_maker& maker) {
  switch (maker.below(8)) {
    case 0: {
      std::string s(maker.below(33), '\0');
      for (char& b : s) b = static_cast<char>(maker.below(256));
      return s;
    }
    case 1: return maker.error_dense(12);
    default: {
      const std::string& text = seeds()[maker.below(seeds().size())];
      const std::string& other = seeds()[maker.below(seeds().size())];
      const std::size_t from = maker.below(text.size());
      const std::string window = text.substr(from, 1 + maker.below(128));
      return maker.mutate(window, other);
    }
  }
}

class Icu : public EveryKernel {};

TEST_P(Icu, AgreesWithIcuOnAMillionRandomAndMutatedInputs) {
  constexpr int kReportLimit = 10;
  input_maker maker(0x1C0DE);
  std::size_t failures = 0, valid = 0;
  std::array<std::size_t, 8> kinds{};
  std::string out;
  // A million inputs, or a seventh of them when reduced (reduced.hpp).
  const std::size_t inputs = kInputs / reduced_step();
  for (std::size_t n = 0; n < inputs; ++n) {
    const std::string in = next_input(maker);
    const icu_verdict icu = icu_scan(in);
    const result r = validate(in);
    const icu_sanitized icu_conversion = icu_sanitize(in);
    const std::string& icu_out = icu_conversion.bytes;
    const std::size_t icu_subs = icu_conversion.replacements;
    out.assign(sanitize_bound(in.size()), '\0');
    std::size_t written = 0, replacements = 0;
    const utf8guard_status status =
        utf8guard_sanitize(in.data(), in.size(), out.data(), out.size(), &written, &replacements);
    out.resize(written);
    const bool agree = status == UTF8GUARD_STATUS_OK && is_valid(in) == icu.valid &&
                       r.ok() == icu.valid && r.offset == icu.offset && r.length == icu.length &&
                       out == icu_out && replacements == icu.errors && icu_subs == icu.errors;
    valid += icu.valid;
    ++kinds[static_cast<std::size_t>(r.kind) & 7];
    if (!agree && ++failures <= kReportLimit) {
      ADD_FAILURE() << "input " << hex(in) << "\n  utf8guard: " << to_string(r.kind) << "@"
                    << r.offset << "+" << r.length << ", sanitized " << hex(out) << " ("
                    << replacements
                    << " replacements)\n  ICU: " << (icu.valid ? "valid" : "invalid") << "@"
                    << icu.offset << "+" << icu.length << ", sanitized " << hex(icu_out) << " ("
                    << icu.errors << " errors, " << icu_subs << " substitutions)";
    }
  }
  EXPECT_EQ(failures, 0u) << "of " << inputs << " inputs";
  // The inputs must stay a mix: plenty of valid ones, plenty of invalid ones,
  // and every kind of error among them.
  EXPECT_GE(valid, inputs / 10);
  EXPECT_LE(valid, inputs - inputs / 10);
  for (const auto& [name, kind] : kKindNames) {
    EXPECT_GE(kinds[static_cast<std::size_t>(kind)], inputs / 1000) << name;
  }
}

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(Icu);

}  // namespace
}  // namespace utf8guard::testing
