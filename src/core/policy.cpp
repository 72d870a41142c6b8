// policy.cpp - the names of categories and profiles, and policies as text;
// and the compile-time checks of core/categories.hpp's table and of the
// vector prefilter's classes against it. The scan of bytes against a policy
// is stream/policy_scan.cpp.
#include "core/policy.hpp"

#include <cstring>

#include "core/convert.hpp"
#include "core/table37.hpp"

namespace utf8guard {
namespace {

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
  for (const detail::category_row& r : detail::kCategories) {
    if (bits == static_cast<std::uint32_t>(r.id)) return r.name;
  }
  return "unknown";
}

category category_from_name(std::string_view name) noexcept {
  if (detail::bad_span(name)) return category::none;
  for (const detail::category_row& r : detail::kCategories) {
    if (name == r.name) return r.id;
  }
  return category::none;
}

std::string_view profile_name(std::size_t index) noexcept {
  return index < std::size(kProfiles) ? kProfiles[index].name : std::string_view();
}

bool profile_from_name(std::string_view name, policy& out) noexcept {
  if (detail::bad_span(name)) return false;
  for (const named_profile& p : kProfiles) {
    if (name == p.name) {
      out = policy::from_bits(p.bits);
      return true;
    }
  }
  return false;
}

policy_parse_result policy_parse(std::string_view text) noexcept {
  policy_parse_result out;
  if (detail::bad_span(text)) return out;
  utf8guard_policy bits = 0;
  std::size_t start = 0;
  while (!text.empty()) {
    const std::size_t comma = text.find(',', start);
    const std::size_t end = comma == std::string_view::npos ? text.size() : comma;
    std::string_view item = text.substr(start, end - start);
    const bool remove = !item.empty() && item.front() == '-';
    if (!item.empty() && (item.front() == '-' || item.front() == '+')) item.remove_prefix(1);
    policy named;
    const category c = category_from_name(item);
    if (c != category::none) {
      named = c;
    } else if (!profile_from_name(item, named)) {
      out.error_offset = start;
      out.error_length = end - start;
      return out;
    }
    bits = remove ? bits & ~named.bits() : bits | named.bits();
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  out.policy = policy::from_bits(bits);
  out.ok = true;
  return out;
}

namespace detail {
namespace {

// --- core/categories.hpp's table --------------------------------------------

// The names are distinct, the ranges are sorted scalar values, and no value
// is in two categories (docs/design.md: the categories are disjoint).
constexpr bool rows_well_formed() {
  for (std::size_t k = 0; k < category_count; ++k) {
    for (std::size_t j = 0; j < k; ++j) {
      if (kCategories[j].name == kCategories[k].name) return false;
    }
  }
  for (std::size_t k = 0; k < kValueIndex.size(); ++k) {
    const value_entry& e = kValueIndex[k];
    if (e.first > e.last || e.last > 0x10FFFF || (e.first <= 0xDFFF && e.last >= 0xD800)) {
      return false;
    }
    if (k > 0 && kValueIndex[k - 1].last >= e.first) return false;
  }
  return true;
}
static_assert(rows_well_formed(), "kCategories: a name twice, a bad range, or two rows overlap");

// Every value of every category matches one of its patterns, and is
// flagged by the vector prefilter's classes under a policy that denies it.
constexpr bool every_row_covered() {
  for (const category_row& r : kCategories) {
    const prefilter_tables t(static_cast<utf8guard_policy>(r.id));
    const bool by_patterns = every_value(r, [&r](const std::uint8_t* s, std::size_t) {
      for (std::size_t p = 0; p < kPatternCount; ++p) {
        if ((r.patterns & (1u << p)) != 0 && kPatterns[p].matches(s[0], s[1], s[2])) return true;
      }
      return false;
    });
    const bool by_classes = every_value(
        r, [&t](const std::uint8_t* s, std::size_t len) { return vector_flags_at(t, s, len); });
    if (!by_patterns || !by_classes) return false;
  }
  return true;
}
static_assert(every_row_covered(),
              "a category's patterns, or the vector prefilter's classes (kPrefilterHigh/Low, "
              "kSecondHigh/Low), miss some of its values");

// The lead classes flag no lead that starts no category's characters: the
// vector prefilter stops only where a category may be.
constexpr bool prefilter_classes_exact() {
  for (int b = 0; b < 256; ++b) {
    const auto byte = static_cast<std::uint8_t>(b);
    const std::uint8_t cls = kPrefilterHigh[b >> 4] & kPrefilterLow[b & 15];
    if (cls != 0 && !is_continuation(byte) && lead_categories(byte) == 0) return false;
  }
  return true;
}
static_assert(prefilter_classes_exact(), "kPrefilterHigh/kPrefilterLow flag a lead of nothing");

}  // namespace
}  // namespace detail
}  // namespace utf8guard

// The profiles' constants in utf8guard.h, spelled out as the categories they
// hold (docs/design.md's profile table).
static_assert(UTF8GUARD_PROFILE_SOURCE ==
              (UTF8GUARD_CATEGORY_NUL | UTF8GUARD_CATEGORY_CONTROL | UTF8GUARD_CATEGORY_C1 |
               UTF8GUARD_CATEGORY_BIDI | UTF8GUARD_CATEGORY_BOM));
static_assert(UTF8GUARD_PROFILE_FIELD == (UTF8GUARD_PROFILE_SOURCE | UTF8GUARD_CATEGORY_NEWLINE |
                                          UTF8GUARD_CATEGORY_NONCHARACTER));
static_assert(UTF8GUARD_PROFILE_JSON == UTF8GUARD_CATEGORY_NONCHARACTER);
static_assert(UTF8GUARD_PROFILE_URL ==
              (UTF8GUARD_CATEGORY_NUL | UTF8GUARD_CATEGORY_CONTROL | UTF8GUARD_CATEGORY_NEWLINE |
               UTF8GUARD_CATEGORY_C1 | UTF8GUARD_CATEGORY_BIDI | UTF8GUARD_CATEGORY_BAD_ESCAPE |
               UTF8GUARD_CATEGORY_DOUBLE_ENCODING));
