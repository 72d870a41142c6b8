// arch.hpp - which kernels this target architecture compiles. Every kernel
// file is listed in CMake for every architecture and compiles to nothing
// where it does not apply, so the build never guesses from processor names.
#ifndef UTF8GUARD_KERNELS_ARCH_HPP
#define UTF8GUARD_KERNELS_ARCH_HPP

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define UTF8GUARD_X86_64 1
#endif
#if defined(__aarch64__) && defined(__ARM_NEON) && (defined(__GNUC__) || defined(__clang__))
#define UTF8GUARD_AARCH64 1
#endif

#endif  // UTF8GUARD_KERNELS_ARCH_HPP
