// emulated_avx512.hpp - the two AVX-512 kernels (avx512bw, avx512) compiled over
// portable intrinsics (emulated_avx512.cpp), for checking on any x86-64.
#ifndef UTF8GUARD_TESTS_KERNELS_EMULATED_AVX512_HPP
#define UTF8GUARD_TESTS_KERNELS_EMULATED_AVX512_HPP

#include <vector>

#include "kernels/kernel.hpp"

namespace utf8guard::testing {

// emulated_avx512_bodies lists avx512bw-emulated and avx512-emulated (VBMI).
std::vector<const detail::kernel*> emulated_avx512_bodies();

}  // namespace utf8guard::testing

#endif  // UTF8GUARD_TESTS_KERNELS_EMULATED_AVX512_HPP
