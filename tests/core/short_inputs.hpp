// short_inputs.hpp - checking inputs of at most 4 bytes against the oracle
// without touching the heap: the exhaustive tests run this 2^24 and 2^32
// times per kernel, so an allocation per input would dominate their cost.
#ifndef UTF8GUARD_TESTS_CORE_SHORT_INPUTS_HPP
#define UTF8GUARD_TESTS_CORE_SHORT_INPUTS_HPP

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "hex.hpp"
#include "reference.hpp"
#include "results.hpp"
#include "utf8guard/utf8guard.hpp"

namespace utf8guard::testing {

inline constexpr std::size_t kMaxShort = 4;
// Each input byte becomes at most one U+FFFD.
inline constexpr std::size_t kMaxSanitized = 3 * kMaxShort;

// expectation is everything the oracle says about one short input, packed in
// 16 bytes so a block of 65536 of them stays in the L2 cache while every
// kernel is checked against it.
struct expectation {
  std::uint8_t kind;  // utf8guard::error value of the first error, or none
  std::uint8_t offset;
  std::uint8_t length;
  std::uint8_t out_len;  // size of the sanitized form
  char out[kMaxSanitized];
};

// join writes to e the expectation of in, from the oracle's first error in it
// and the expectation of what follows that error (`rest`, the expectation of
// in.substr(first.offset + first.length); ignored when first is ok). This is
// sound because the oracle decides a maximal subpart from the bytes at and
// after its start only: after a subpart the next sequence must start, so the
// oracle's view of the rest of the input is its view of that suffix. (e is an
// out-parameter so the 2^32-input loop builds it in place, without a copy.)
inline void join(std::string_view in, const reference::error& first, const expectation& rest,
                 expectation& e) {
  e.kind = static_cast<std::uint8_t>(kind_named(first.kind));
  e.offset = static_cast<std::uint8_t>(first.offset);
  e.length = static_cast<std::uint8_t>(first.length);
  if (first.ok()) {
    std::memcpy(e.out, in.data(), in.size());
    e.out_len = static_cast<std::uint8_t>(in.size());
    return;
  }
  std::memcpy(e.out, in.data(), first.offset);
  std::memcpy(e.out + first.offset, "\xEF\xBF\xBD", 3);
  std::memcpy(e.out + first.offset + 3, rest.out, rest.out_len);
  e.out_len = static_cast<std::uint8_t>(first.offset + 3 + rest.out_len);
}

// oracle_expectation computes the oracle's verdict and sanitized form of in
// (at most kMaxShort bytes). The sanitized bytes are assembled from
// first_error() on successive suffixes rather than reference::sanitize(),
// which allocates.
inline expectation oracle_expectation(std::string_view in) {
  const reference::error first = reference::first_error(in);
  expectation e{};
  join(in, first,
       first.ok() ? expectation{} : oracle_expectation(in.substr(first.offset + first.length)), e);
  return e;
}

// short_mismatch checks validate, is_valid and (with sanitize) sanitize_to on
// the active kernel against e; it returns nullptr when all agree, or the name
// of the first call that does not.
inline const char* short_mismatch(std::string_view in, const expectation& e, bool sanitize = true) {
  const result r = validate(in);
  if (r.kind != static_cast<error>(e.kind) || r.offset != e.offset || r.length != e.length) {
    return "validate";
  }
  if (is_valid(in) != (e.kind == static_cast<std::uint8_t>(error::none))) return "is_valid";
  if (!sanitize) return nullptr;
  char out[kMaxSanitized];
  // The documented bound, exactly: sanitize_to must never need more.
  const std::size_t written = sanitize_to(in, out, sanitize_bound(in.size()));
  if (written != e.out_len) return "sanitize_to";
  // A byte loop: at most 12 bytes, where a call to memcmp costs more.
  for (std::size_t k = 0; k < written; ++k) {
    if (out[k] != e.out[k]) return "sanitize_to";
  }
  return nullptr;
}

// describe_mismatch spells out both sides, for the failure message (this path
// may allocate: it runs only on failure).
inline std::string describe_mismatch(std::string_view in, const expectation& e) {
  const result r = validate(in);
  const result want{static_cast<error>(e.kind), e.offset, e.length};
  std::string msg = "input " + hex(in) + " on kernel " + std::string(active_kernel());
  msg += "\n  validate: " + describe(r) + ", oracle " + describe(want);
  msg += std::string("\n  is_valid: ") + (is_valid(in) ? "true" : "false");
  char out[kMaxSanitized];
  const std::size_t written = sanitize_to(in, out, sanitize_bound(in.size()));
  msg +=
      "\n  sanitize_to: " + (written == SIZE_MAX ? std::string("refused") : hex({out, written})) +
      ", oracle " + hex({e.out, e.out_len});
  return msg;
}

}  // namespace utf8guard::testing

#endif  // UTF8GUARD_TESTS_CORE_SHORT_INPUTS_HPP
