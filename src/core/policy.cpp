// policy.cpp - the exact check of well-formed bytes against a policy, and
// the names of categories and profiles.
#include "core/policy.hpp"

#include <cstring>

namespace utf8guard::detail {
namespace {

constexpr std::uint64_t kOnes = 0x0101010101010101ull;
constexpr std::uint64_t kHighs = 0x8080808080808080ull;
constexpr std::uint32_t kAsciiCategories =
    UTF8GUARD_CATEGORY_NUL | UTF8GUARD_CATEGORY_CONTROL | UTF8GUARD_CATEGORY_NEWLINE;

// quiet_word says whether none of the 8 bytes of w can start a violation:
// all are ASCII, and, when deny holds an ASCII category, none is below 0x20
// or 0x7F (the classic "has a byte less than n" word tricks).
inline bool quiet_word(std::uint64_t w, bool ascii_denied) noexcept {
  if ((w & kHighs) != 0) return false;
  if (!ascii_denied) return true;
  const std::uint64_t below_space = (w - 0x20 * kOnes) & ~w & kHighs;
  const std::uint64_t x = w ^ (0x7F * kOnes);
  const std::uint64_t del = (x - kOnes) & ~x & kHighs;
  return (below_space | del) == 0;
}

}  // namespace

result find_violation(const std::uint8_t* p, std::size_t n, std::size_t base,
                      utf8guard_policy deny) noexcept {
  const bool ascii_denied = (deny & kAsciiCategories) != 0;
  std::size_t i = 0;
  while (i < n) {
    // SAFETY: every read below is bounded by n (8 bytes only when i + 8 <= n).
    if (i + 8 <= n) {
      std::uint64_t w;
      std::memcpy(&w, p + i, 8);
      if (quiet_word(w, ascii_denied)) {
        i += 8;
        continue;
      }
    }
    const std::uint8_t b = p[i];
    const std::size_t len = sequence_length(b);
    if ((kLeadCategories.entry[b] & deny) != 0 && i + len <= n) {
      const result r = violation_at(p + i, len, base + i, deny);
      if (!r.ok()) return r;
    }
    i += len;
  }
  return {};
}

}  // namespace utf8guard::detail

namespace utf8guard {
namespace {

// The names are part of the contract (the CLI prints them): never rename one.
constexpr std::string_view kCategoryNames[category_count] = {
    "nul",         "control", "newline",     "c1",         "bidi",           "noncharacter",
    "private_use", "bom",     "replacement", "bad_escape", "double_encoding"};

struct named_profile {
  std::string_view name;
  utf8guard_policy bits;
};
constexpr named_profile kProfiles[] = {
    {"strict", UTF8GUARD_PROFILE_STRICT}, {"source", UTF8GUARD_PROFILE_SOURCE},
    {"field", UTF8GUARD_PROFILE_FIELD},   {"json", UTF8GUARD_PROFILE_JSON},
    {"url", UTF8GUARD_PROFILE_URL},
};

}  // namespace

std::string_view to_string(category c) noexcept {
  const auto bits = static_cast<std::uint32_t>(c);
  if (bits == 0) return "none";
  for (std::size_t k = 0; k < category_count; ++k) {
    if (bits == (1u << k)) return kCategoryNames[k];
  }
  return "unknown";
}

category category_from_name(std::string_view name) noexcept {
  for (std::size_t k = 0; k < category_count; ++k) {
    if (name == kCategoryNames[k]) return static_cast<category>(1u << k);
  }
  return category::none;
}

std::string_view profile_name(std::size_t index) noexcept {
  return index < std::size(kProfiles) ? kProfiles[index].name : std::string_view();
}

bool profile_from_name(std::string_view name, policy& out) noexcept {
  for (const named_profile& p : kProfiles) {
    if (name == p.name) {
      out = policy::from_bits(p.bits);
      return true;
    }
  }
  return false;
}

}  // namespace utf8guard

extern "C" {

const char* utf8guard_category_name(utf8guard_category c) {
  std::uint32_t bits;  // any int a C caller passes, read before it is compared
  static_assert(sizeof bits == sizeof c, "C enums are int-sized");
  std::memcpy(&bits, &c, sizeof bits);
  // to_string returns views of string literals, so data() is NUL-terminated.
  return utf8guard::to_string(static_cast<utf8guard::category>(bits)).data();
}

utf8guard_category utf8guard_category_from_name(const char* name, size_t len) {
  if (name == nullptr) return UTF8GUARD_CATEGORY_NONE;
  return static_cast<utf8guard_category>(
      utf8guard::category_from_name(std::string_view(name, len)));
}

const char* utf8guard_profile_name(size_t index) {
  const std::string_view name = utf8guard::profile_name(index);
  return name.empty() ? nullptr : name.data();
}

bool utf8guard_profile_from_name(const char* name, size_t len, utf8guard_policy* policy) {
  utf8guard::policy p;
  if (name == nullptr || !utf8guard::profile_from_name(std::string_view(name, len), p)) {
    return false;
  }
  *policy = p.bits();
  return true;
}

}  // extern "C"

// The profiles' constants in utf8guard.h, spelled out as the categories they
// hold (DESIGN's profile table).
static_assert(UTF8GUARD_PROFILE_SOURCE == (UTF8GUARD_CATEGORY_NUL | UTF8GUARD_CATEGORY_CONTROL |
                                           UTF8GUARD_CATEGORY_C1 | UTF8GUARD_CATEGORY_BIDI |
                                           UTF8GUARD_CATEGORY_BOM));
static_assert(UTF8GUARD_PROFILE_FIELD == (UTF8GUARD_PROFILE_SOURCE | UTF8GUARD_CATEGORY_NEWLINE |
                                          UTF8GUARD_CATEGORY_NONCHARACTER));
static_assert(UTF8GUARD_PROFILE_JSON == UTF8GUARD_CATEGORY_NONCHARACTER);
static_assert(UTF8GUARD_PROFILE_URL ==
              (UTF8GUARD_CATEGORY_NUL | UTF8GUARD_CATEGORY_CONTROL | UTF8GUARD_CATEGORY_NEWLINE |
               UTF8GUARD_CATEGORY_C1 | UTF8GUARD_CATEGORY_BIDI | UTF8GUARD_CATEGORY_BAD_ESCAPE |
               UTF8GUARD_CATEGORY_DOUBLE_ENCODING));
