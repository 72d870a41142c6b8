// attack_vectors.hpp - what the security tests share: the attack-vector
// manifest (security/vectors/vectors.tsv, read by vectors_manifest.hpp) and
// byte-string helpers.
#ifndef UTF8GUARD_TESTS_SECURITY_ATTACK_VECTORS_HPP
#define UTF8GUARD_TESTS_SECURITY_ATTACK_VECTORS_HPP

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "hex.hpp"
#include "vectors_manifest.hpp"

namespace utf8guard::security {

using utf8guard::testing::hex;

// same_bytes compares byte strings and, only when they differ, shows both in
// hex (gtest builds a failure message only on failure: the hot loops stay cheap).
inline ::testing::AssertionResult same_bytes(std::string_view got, std::string_view want) {
  if (got == want) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got [" << hex(got) << "], want [" << hex(want) << "]";
}

// ascii_run is n printable ASCII bytes that cycle, so a shifted or dropped
// byte changes the text.
inline std::string ascii_run(std::size_t n) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>('A' + i % 26);
  return s;
}

}  // namespace utf8guard::security

#endif  // UTF8GUARD_TESTS_SECURITY_ATTACK_VECTORS_HPP
