// kernel_ab_sides.hpp - both sides of one kernel body, for kernel_ab.cpp.
//
// No include guard on purpose: included once per body, inside the body's
// namespace and target region, after kKernelId (read by a base that still
// has run counters), kVbmi and kVbmi2 for AVX-512, and
// the wrapper's two paths are defined:
//   #define UTF8GUARD_AB_BASE_WRAPPER "base/simd/<isa>.hpp"
//   #define UTF8GUARD_AB_WORK_WRAPPER "work/simd/<isa>.hpp"
// base/ and work/ are the two versions' src/ folders (bench/CMakeLists.txt).
namespace work {
#include UTF8GUARD_AB_WORK_WRAPPER  // the wrapper
// The algorithm and the percent decoder, written against it:
#include "work/generic/percent_decode.hpp"
#include "work/generic/utf8_lookup.hpp"
}  // namespace work
// A base from before the wrappers held their group size (53217e8 and
// earlier) reads kGroupRegs from here: the working tree's.
constexpr std::size_t kGroupRegs = work::simd8::group_regs;
namespace base {
#include UTF8GUARD_AB_BASE_WRAPPER
#include "base/generic/percent_decode.hpp"
#include "base/generic/utf8_lookup.hpp"
}  // namespace base
#undef UTF8GUARD_AB_BASE_WRAPPER
#undef UTF8GUARD_AB_WORK_WRAPPER
