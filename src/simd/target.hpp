// target.hpp - opening and closing a target-attribute region, the one way a
// kernel translation unit gets instructions beyond the baseline.
//
// The library is compiled for the baseline CPU (no -m flags). A kernel file
// includes its intrinsics and standard headers first, then opens a region:
// every function defined inside may use the named instruction sets, and no
// function outside it can pick them up by inlining (the failure mode of
// per-file -mavx2). GCC spells it push_options/target/pop_options;
// clang applies a target attribute to every function in the region.
#ifndef UTF8GUARD_SIMD_TARGET_HPP
#define UTF8GUARD_SIMD_TARGET_HPP

#define UTF8GUARD_STRINGIFY_(x) #x
#define UTF8GUARD_STRINGIFY(x) UTF8GUARD_STRINGIFY_(x)

#if defined(__clang__)
#define UTF8GUARD_TARGET_REGION(isa) \
  _Pragma(UTF8GUARD_STRINGIFY(       \
      clang attribute push(__attribute__((target(isa))), apply_to = function)))
#define UTF8GUARD_TARGET_REGION_END _Pragma("clang attribute pop")
#elif defined(__GNUC__)
#define UTF8GUARD_TARGET_REGION(isa) \
  _Pragma("GCC push_options") _Pragma(UTF8GUARD_STRINGIFY(GCC target(isa)))
#define UTF8GUARD_TARGET_REGION_END _Pragma("GCC pop_options")
#else
#error "utf8guard's SIMD kernels need GCC or clang"
#endif

// Every helper of the generic algorithm is forced inline into the kernel's
// scan function, so the whole hot loop is one function in one target region.
#define UTF8GUARD_SIMD_INLINE inline __attribute__((always_inline))

#endif  // UTF8GUARD_SIMD_TARGET_HPP
