// policy_scan.cpp - the scan of well-formed bytes against a policy: the
// pass over quiet ASCII and the prefilter, on the active kernel's vector code
// where it has one (kernels/dispatch.hpp), else the scalar loops below.
#include "stream/policy_scan.hpp"

#include <utility>

#include "core/json.hpp"
#include "core/short_input.hpp"
#include "kernels/dispatch.hpp"

namespace utf8guard::detail {
namespace {

// The prefilter: which bytes of a block may start a violation of the policy.
// scalar_test(p, ...) is 0 or 1: whether the byte b, followed by b1 and b2,
// matches core/categories.hpp's pattern p (checked below), and the policy's
// mask says whether it denies a category that lists p; so the loop below is
// branch-free byte arithmetic the compiler turns into vector code for the
// baseline target. As in the vector prefilter, most leads count only with
// the byte after them that a denied character has, so that Arabic letters
// (D8), no-break spaces (C2 A0), quotes (E2 80 9C), CJK punctuation (EF BC)
// and emoji (F0 9F) are not candidates. A byte it flags may still be a false
// alarm (E2 80 starts quotes as well as bidi controls); kLeadCategories and
// violation_at decide exactly.
// Case p tests kPatterns[p]: kAsciiControls, kC2C1, kD89C, kE280,
// kEfSpecials, kPlaneEnds, kPrivateLeads.
constexpr std::uint8_t scalar_test(std::size_t p, std::uint8_t b, std::uint8_t b1,
                                   std::uint8_t b2) noexcept {
  switch (p) {  // p: the index of its pattern_bit
    case 0: return static_cast<std::uint8_t>(((b < 0x20) & (b != 0x09)) | (b == 0x7F));
    case 1: return static_cast<std::uint8_t>((b == 0xC2) & (b1 < 0xA0));
    case 2: return static_cast<std::uint8_t>((b == 0xD8) & (b1 == 0x9C));
    case 3: return static_cast<std::uint8_t>((b == 0xE2) & ((b1 & 0xFE) == 0x80));
    case 4:
      return static_cast<std::uint8_t>((b == 0xEF) & ((b1 == 0xB7) | (b1 == 0xBB) | (b1 == 0xBF)));
    case 5:
      return static_cast<std::uint8_t>((static_cast<std::uint8_t>(b - 0xF0) < 5) &
                                       ((b1 & 0x0F) == 0x0F) & (b2 == 0xBF));
    case 6:
      return static_cast<std::uint8_t>((static_cast<std::uint8_t>(b - 0xEE) < 2) | (b == 0xF3) |
                                       (b == 0xF4));
    default: return 0;
  }
}

// scalar_test(p) is kPatterns[p], byte for byte, for every byte followed by
// continuation bytes (a byte after a lead in well-formed input is one): all
// 64 of them after a lead, and the bytes the patterns tell apart as third.
// Each pattern is a constant of its own (kScalarTestIsThePattern<P>), so
// that each evaluation stays within the compilers' limits on its steps.
constexpr bool scalar_test_is_the_pattern(std::size_t p) {
  constexpr std::uint8_t kThird[] = {0x80, 0xBF, 0xBE};
  for (int b = 0; b < 256; ++b) {
    const auto x = static_cast<std::uint8_t>(b);
    const bool lead = b >= 0xC2 && b <= 0xF4;
    for (int b1 = 0x80; b1 < 0xC0; b1 += lead ? 1 : 0x3F) {
      for (std::size_t k = 0; k < (lead ? 3u : 2u); ++k) {
        const auto y = static_cast<std::uint8_t>(b1);
        const std::uint8_t b2 = kThird[k];
        if ((scalar_test(p, x, y, b2) != 0) != kPatterns[p].matches(x, y, b2)) return false;
      }
    }
  }
  return true;
}
template <std::size_t P>
inline constexpr bool kScalarTestIsThePattern = scalar_test_is_the_pattern(P);
template <std::size_t... P>
constexpr bool scalar_tests_are_the_patterns(std::index_sequence<P...>) {
  return (kScalarTestIsThePattern<P> && ...);
}
static_assert(scalar_tests_are_the_patterns(std::make_index_sequence<kPatternCount>{}),
              "scalar_test and kPatterns disagree");

// kPatternCategories[p] is the categories that list pattern p.
struct pattern_categories {
  std::uint32_t bits[kPatternCount] = {};
  constexpr pattern_categories() {
    for (const category_row& r : kCategories) {
      for (std::size_t p = 0; p < kPatternCount; ++p) {
        if ((r.patterns & (1u << p)) != 0) bits[p] |= static_cast<std::uint32_t>(r.id);
      }
    }
  }
};
inline constexpr pattern_categories kPatternCategories{};

// prefilter is a policy's mask: each member is 1 if the policy denies a
// category that lists that pattern (named as in kPatterns).
struct prefilter {
  std::uint8_t ascii_controls, c2_c1, d8_9c, e2_80, ef_specials, plane_ends, private_leads;
  constexpr explicit prefilter(utf8guard_policy deny) noexcept
      : ascii_controls(on(deny, 0)),
        c2_c1(on(deny, 1)),
        d8_9c(on(deny, 2)),
        e2_80(on(deny, 3)),
        ef_specials(on(deny, 4)),
        plane_ends(on(deny, 5)),
        private_leads(on(deny, 6)) {}
  static constexpr std::uint8_t on(utf8guard_policy deny, std::size_t p) noexcept {
    return (deny & kPatternCategories.bits[p]) != 0 ? 1 : 0;
  }
};

// scalar_hits is nonzero if a pattern the mask m keeps matches b, b1, b2.
constexpr std::uint8_t scalar_hits(std::uint8_t b, std::uint8_t b1, std::uint8_t b2,
                                   const prefilter& m) noexcept {
  return static_cast<std::uint8_t>(
      (scalar_test(0, b, b1, b2) & m.ascii_controls) | (scalar_test(1, b, b1, b2) & m.c2_c1) |
      (scalar_test(2, b, b1, b2) & m.d8_9c) | (scalar_test(3, b, b1, b2) & m.e2_80) |
      (scalar_test(4, b, b1, b2) & m.ef_specials) | (scalar_test(5, b, b1, b2) & m.plane_ends) |
      (scalar_test(6, b, b1, b2) & m.private_leads));
}

constexpr std::size_t kBlock = 64;
// A vector prefilter stops at most this many bytes before the lead of the
// character it flagged (generic/policy_prefilter.hpp's kBackUp, plus one).
constexpr std::size_t kFlaggedSpan = 3;

// Under a policy that denies one category, the tests flag the first byte of
// each of its values.
constexpr bool every_row_flagged() {
  for (const category_row& r : kCategories) {
    const prefilter m(static_cast<utf8guard_policy>(r.id));
    if (!every_value(r, [&m](const std::uint8_t* s, std::size_t) {
          return scalar_hits(s[0], s[1], s[2], m) != 0;
        })) {
      return false;
    }
  }
  return true;
}
static_assert(every_row_flagged(), "the scalar prefilter misses a category's values");

// quiet_block says whether no character that starts in p[0..kBlock) can be
// a violation, from its first three bytes: it reads p[0..kBlock + 2)
// (SAFETY: the caller checked that they are inside the input). The input is
// well-formed, so the byte after a lead is a continuation.
constexpr std::size_t kBlockAfter = 2;
inline bool quiet_block(const std::uint8_t* p, const prefilter& m) noexcept {
  std::uint8_t hits = 0;
  for (std::size_t k = 0; k < kBlock; ++k) hits |= scalar_hits(p[k], p[k + 1], p[k + 2], m);
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
// a block's minimum and maximum, and the minimum of its bytes xor the stop
// byte (0 where one is; branch-free, which compilers vectorize where the
// target has vectors), then the bytes left one by one.
std::size_t quiet_ascii_scalar(const std::uint8_t* p, std::size_t n, ascii_range r,
                               std::uint8_t stop) noexcept {
  constexpr std::size_t kAsciiBlock = 1024;  // one test and branch per block
  std::size_t i = 0;
  // SAFETY: a whole block is read only when i + kAsciiBlock <= n.
  for (; n - i >= kAsciiBlock; i += kAsciiBlock) {
    std::uint8_t mn = 0xFF, mx = 0, mk = 0xFF;
    for (std::size_t k = 0; k < kAsciiBlock; ++k) {
      const std::uint8_t b = p[i + k];
      const auto key = static_cast<std::uint8_t>(b ^ stop);
      mn = b < mn ? b : mn;
      mx = b > mx ? b : mx;
      mk = key < mk ? key : mk;
    }
    if (mn < r.lo || mx > r.hi || (stop != 0 && mk == 0)) break;
  }
  while (i < n && p[i] >= r.lo && p[i] <= r.hi && (stop == 0 || p[i] != stop)) ++i;
  return i;
}

// The longest input quiet_ascii_prefix reads a word at a time.
constexpr std::size_t kQuietWordsMax = 64;

// quiet_ascii_run is quiet_ascii_prefix with its range and vector pass
// chosen by the caller.
std::size_t quiet_ascii_run(const std::uint8_t* p, std::size_t n, ascii_range r,
                            quiet_ascii_fn vector, std::uint8_t stop) noexcept {
  // A short input (a header value, a cookie) a word at a time: no call
  // through the kernel, no partial register.
  if (n <= kQuietWordsMax) return quiet_ascii_words(p, n, r.lo, r.hi, stop);
  return vector != nullptr ? vector(p, n, r, stop) : quiet_ascii_scalar(p, n, r, stop);
}

}  // namespace

std::size_t quiet_ascii_prefix(const std::uint8_t* p, std::size_t n, utf8guard_policy deny,
                               std::uint8_t stop) noexcept {
  return quiet_ascii_run(p, n, kQuietAscii.range[quiet_ascii_index(deny)],
                         vector_policy().quiet_ascii, stop);
}

quiet_json quiet_json_prefix(const std::uint8_t* p, std::size_t n, utf8guard_policy deny) noexcept {
  const ascii_range r = kQuietAscii.range[quiet_ascii_index(deny)];
  const quiet_ascii_fn vector = vector_policy().quiet_ascii;
  // Escapes denser than one per 64 bytes, after the first few, are left to
  // the caller, whose decoder reads them by the block.
  constexpr std::size_t kFewEscapes = 8;
  constexpr std::size_t kSparse = 64;
  quiet_json q{quiet_ascii_run(p, n, r, vector, '\\'), false};
  std::size_t escapes = 0;
  while (q.end < n && p[q.end] == '\\') {
    if (++escapes > kFewEscapes && escapes * kSparse > q.end) break;
    const json_unit u = json_unit_at(p + q.end, n - q.end, true);
    if (u.kind == json_unit_kind::lone) break;
    if (u.kind == json_unit_kind::bad) {
      // The literal backslash, in no category; the byte after it is raw.
      if ((deny & UTF8GUARD_CATEGORY_BAD_ESCAPE) != 0) break;
    } else if ((u.value < r.lo || u.value > r.hi) &&  // in the range: allowed whole
               (category_of(u.value, q.end == 0) & deny) != 0) {
      break;
    }
    q.end += u.width;
    q.escaped = true;
    q.end += quiet_ascii_run(p + q.end, n - q.end, r, vector, '\\');
  }
  return q;
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
