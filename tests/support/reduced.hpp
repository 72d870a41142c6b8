// reduced.hpp - how much of an exhaustive space a test walks. The sanitizer
// jobs (.ci/sanitizers.sh) set UTF8GUARD_TESTS_REDUCED=1: they look for
// memory errors, undefined behaviour and races, which the same code paths
// show on a sample, and under a sanitizer every input costs several times
// its plain cost. scripts/test.sh walks every input.
#ifndef UTF8GUARD_TESTS_SUPPORT_REDUCED_HPP
#define UTF8GUARD_TESTS_SUPPORT_REDUCED_HPP

#include <cstdlib>
#include <cstring>

namespace utf8guard::testing {

// reduced_step is the step of a walk over an exhaustive space: 1, or 7 when
// reduced. Seven is prime to 256, so a stepped walk over inputs numbered
// byte by byte still gives every byte value at every position.
inline unsigned reduced_step() {
  static const unsigned step = [] {
    const char* v = std::getenv("UTF8GUARD_TESTS_REDUCED");
    return v != nullptr && std::strcmp(v, "1") == 0 ? 7u : 1u;
  }();
  return step;
}

}  // namespace utf8guard::testing

#endif  // UTF8GUARD_TESTS_SUPPORT_REDUCED_HPP
