// policy_scan.cpp - the scan of well-formed bytes against a policy: the
// pass over quiet ASCII and the prefilter, on the active kernel's vector code
// where it has one (kernels/dispatch.hpp), else the scalar loops below.
#include "stream/policy_scan.hpp"

#include "core/short_input.hpp"
#include "core/table37.hpp"
#include "kernels/dispatch.hpp"

namespace utf8guard::detail {
namespace {

// The prefilter: which bytes of a block may start a violation of the policy.
// Each test is a flag (0 or 1) for a byte, and mask says whether the policy
// denies a category that starts with such a byte, so the loop below is
// branch-free byte arithmetic the compiler turns into vector code for the
// baseline target. As in the vector prefilter, most leads count only with
// the byte after them that a denied character has, so that Arabic letters
// (D8), no-break spaces (C2 A0), quotes (E2 80 9C), CJK punctuation (EF BC)
// and emoji (F0 9F) are not candidates. A byte it flags may still be a false
// alarm (E2 80 starts quotes as well as bidi controls); kLeadCategories and
// violation_at decide exactly.
struct prefilter {
  std::uint8_t control;      // 00..1F but TAB, and 7F: nul, control, newline
  std::uint8_t c2;           // C2 80..9F: c1, NEL
  std::uint8_t d8;           // D8 9C: ALM
  std::uint8_t e2;           // E2 80..81: bidi controls, LS, PS
  std::uint8_t ef;           // EF B7, BB, BF: noncharacters, BOM, U+FFFD
  std::uint8_t f0_f4;        // F0..F4 then 8F/9F/AF/BF then BF: noncharacters
  std::uint8_t private_use;  // EE, EF, F3, F4 alone
  explicit prefilter(utf8guard_policy deny) noexcept
      : control(flag(deny, kLeadCategories.entry[0x00] | kLeadCategories.entry[0x01] |
                               kLeadCategories.entry[0x0A])),
        c2(flag(deny, kLeadCategories.entry[0xC2])),
        d8(flag(deny, kLeadCategories.entry[0xD8])),
        e2(flag(deny, kLeadCategories.entry[0xE2])),
        ef(flag(deny, UTF8GUARD_CATEGORY_NONCHARACTER | UTF8GUARD_CATEGORY_BOM |
                          UTF8GUARD_CATEGORY_REPLACEMENT)),
        f0_f4(flag(deny, UTF8GUARD_CATEGORY_NONCHARACTER)),
        private_use(flag(deny, UTF8GUARD_CATEGORY_PRIVATE_USE)) {}
  static std::uint8_t flag(utf8guard_policy deny, std::uint32_t categories) noexcept {
    return (deny & categories) != 0 ? 1 : 0;
  }
};
// Every lead's categories are in the tests above: those of C2, D8 and E2 in
// their own, EE..F4's in ef, f0_f4 and private_use.
static_assert((kLeadCategories.entry[0xEE] | kLeadCategories.entry[0xEF] |
               kLeadCategories.entry[0xF0] | kLeadCategories.entry[0xF3] |
               kLeadCategories.entry[0xF4]) ==
              (UTF8GUARD_CATEGORY_NONCHARACTER | UTF8GUARD_CATEGORY_BOM |
               UTF8GUARD_CATEGORY_REPLACEMENT | UTF8GUARD_CATEGORY_PRIVATE_USE));

constexpr std::size_t kBlock = 64;
// A vector prefilter stops at most this many bytes before the lead of the
// character it flagged (generic/policy_prefilter.hpp's kBackUp, plus one).
constexpr std::size_t kFlaggedSpan = 3;

// The vector prefilter's classes cover every lead that starts some
// category's characters: by its own class (all but F0..F4), by the
// noncharacter pair class (the noncharacters of F0..F4), or as F3 and F4
// (private use); and they flag no other lead or ASCII byte.
constexpr bool prefilter_classes_cover() {
  for (int b = 0; b < 256; ++b) {
    const auto byte = static_cast<std::uint8_t>(b);
    const std::uint8_t cls = kPrefilterHigh[b >> 4] & kPrefilterLow[b & 15];
    const std::uint32_t cats = lead_categories(byte);
    if (b >= 0xF0 && b <= 0xF4) {
      const std::uint32_t left = cats & ~std::uint32_t{UTF8GUARD_CATEGORY_NONCHARACTER};
      if (cls != 0 || left != ((b >= 0xF3) ? kKeepF3F4 : 0)) return false;
    } else if (!is_continuation(byte) && (cls != 0) != (cats != 0)) {
      return false;
    }
  }
  return true;
}
static_assert(prefilter_classes_cover(), "kPrefilterHigh/kPrefilterLow miss or add a lead");

// quiet_block says whether no character that starts in p[0..kBlock) can be
// a violation, from its first three bytes: it reads p[0..kBlock + 2)
// (SAFETY: the caller checked that they are inside the input). The input is
// well-formed, so the byte after a lead is a continuation.
constexpr std::size_t kBlockAfter = 2;
inline bool quiet_block(const std::uint8_t* p, const prefilter& m) noexcept {
  std::uint8_t hits = 0;
  for (std::size_t k = 0; k < kBlock; ++k) {
    const std::uint8_t b = p[k], b1 = p[k + 1], b2 = p[k + 2];
    const auto control = static_cast<std::uint8_t>(((b < 0x20) & (b != 0x09)) | (b == 0x7F));
    const auto c2 = static_cast<std::uint8_t>((b == 0xC2) & (b1 < 0xA0));
    const auto d8 = static_cast<std::uint8_t>((b == 0xD8) & (b1 == 0x9C));
    const auto e2 = static_cast<std::uint8_t>((b == 0xE2) & ((b1 & 0xFE) == 0x80));
    const auto ef =
        static_cast<std::uint8_t>((b == 0xEF) & ((b1 == 0xB7) | (b1 == 0xBB) | (b1 == 0xBF)));
    const auto f0_f4 = static_cast<std::uint8_t>((static_cast<std::uint8_t>(b - 0xF0) < 5) &
                                                 ((b1 & 0x0F) == 0x0F) & (b2 == 0xBF));
    const auto private_use = static_cast<std::uint8_t>((static_cast<std::uint8_t>(b - 0xEE) < 2) |
                                                       (b == 0xF3) | (b == 0xF4));
    hits |=
        static_cast<std::uint8_t>((control & m.control) | (c2 & m.c2) | (d8 & m.d8) | (e2 & m.e2) |
                                  (ef & m.ef) | (f0_f4 & m.f0_f4) | (private_use & m.private_use));
  }
  return hits == 0;
}

// Every ASCII byte's category is one of kAsciiCategories: kQuietAscii's
// three bits say all a policy says of ASCII.
constexpr bool ascii_categories_covered() {
  for (char32_t b = 0; b < 0x80; ++b) {
    if ((category_of(b, false) & ~kAsciiCategories) != 0) return false;
  }
  return true;
}
static_assert(ascii_categories_covered(), "an ASCII byte holds a category kQuietAscii ignores");

// quiet_ascii_scalar is the vector quiet_ascii's loop for the scalar kernel:
// a block's minimum and maximum (branch-free, which compilers vectorize
// where the target has vectors), then the bytes left one by one.
std::size_t quiet_ascii_scalar(const std::uint8_t* p, std::size_t n, ascii_range r) noexcept {
  constexpr std::size_t kAsciiBlock = 1024;  // one test and branch per block
  std::size_t i = 0;
  // SAFETY: a whole block is read only when i + kAsciiBlock <= n.
  for (; n - i >= kAsciiBlock; i += kAsciiBlock) {
    std::uint8_t mn = 0xFF, mx = 0;
    for (std::size_t k = 0; k < kAsciiBlock; ++k) {
      mn = p[i + k] < mn ? p[i + k] : mn;
      mx = p[i + k] > mx ? p[i + k] : mx;
    }
    if (mn < r.lo || mx > r.hi) break;
  }
  while (i < n && p[i] >= r.lo && p[i] <= r.hi) ++i;
  return i;
}

// The longest input quiet_ascii_prefix reads a word at a time.
constexpr std::size_t kQuietWordsMax = 64;

}  // namespace

std::size_t quiet_ascii_prefix(const std::uint8_t* p, std::size_t n,
                               utf8guard_policy deny) noexcept {
  const ascii_range r = kQuietAscii.range[quiet_ascii_index(deny)];
  // A short input (a header value, a cookie) a word at a time: no call
  // through the kernel, no partial register.
  if (n <= kQuietWordsMax) return quiet_ascii_words(p, n, r.lo, r.hi);
  const quiet_ascii_fn vector = vector_policy().quiet_ascii;
  return vector != nullptr ? vector(p, n, r) : quiet_ascii_scalar(p, n, r);
}

result find_violation(const std::uint8_t* p, std::size_t n, std::size_t base, utf8guard_policy deny,
                      bool quiet_checked) noexcept {
  // Every byte that is not a continuation byte starts a character of the
  // well-formed input, and continuation bytes have no categories, so each
  // byte is judged on its own: no walk from character to character.
  // A run of ASCII the policy allows whole (a stream's valid run of text)
  // costs one pass of minima and maxima, not the prefilter's lookups nor
  // their setup.
  std::size_t i = quiet_checked ? 0 : quiet_ascii_prefix(p, n, deny);
  if (i == n) return {};
  const prefilter m(deny);
  quiet_prefix_fn vector = vector_policy().prefilter;
  const prefilter_tables tables(deny);
  while (i < n) {
    std::size_t end = n;
    if (vector != nullptr) {
      const quiet_run q = vector(p + i, n - i, tables);
      if (!q.flagged) return {};  // it read to the end
      // The flagged byte's character starts within kFlaggedSpan bytes:
      // judge those, and go on with the vector prefilter after them.
      i += q.length;
      end = n - i > kFlaggedSpan ? i + kFlaggedSpan : n;
    } else if (n - i >= kBlock + kBlockAfter) {
      // SAFETY: a block and the bytes after it are read only when
      // i + kBlock + kBlockAfter <= n.
      if (quiet_block(p + i, m)) {
        i += kBlock;
        continue;
      }
      end = i + kBlock;
    }
    for (; i < end; ++i) {
      const std::uint8_t b = p[i];
      if ((kLeadCategories.entry[b] & deny) == 0) continue;
      const std::size_t len = sequence_length(b);
      if (len > n - i) break;  // cut at the end: not a character of this input
      const result r = violation_at(p + i, len, base + i, deny);
      if (!r.ok()) return r;
    }
    i = end;
  }
  return {};
}

}  // namespace utf8guard::detail
