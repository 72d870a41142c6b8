// policy.cpp - the names of categories and profiles, and policies as text.
// The scan of bytes against a policy is stream/policy_scan.cpp.
#include "core/policy.hpp"

#include <cstring>

#include "core/convert.hpp"

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
  if (detail::bad_span(name)) return category::none;
  for (std::size_t k = 0; k < category_count; ++k) {
    if (name == kCategoryNames[k]) return static_cast<category>(1u << k);
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
