// emulated_avx512.cpp - the AVX-512 kernel's own source (src/simd/avx512.hpp
// under src/generic/utf8_lookup.hpp), compiled over SIMDe's portable
// AVX-512 intrinsics, so that both of its bodies (BW, and BW + VBMI) are
// checked against the oracle on CPUs without AVX-512, where the library's
// own AVX-512 bodies cannot run and no test of them would.
//
// What this proves: the algorithm at the 64-byte width, with the AVX-512
// wrapper's choices (group size, shifted lead flags, no aligned blocks), and
// the wrapper's use of each intrinsic, taken at the meaning Intel documents.
// What it cannot: the compiler's AVX-512 code generation, which only the
// library's own bodies on AVX-512 hardware exercise (kernel_selfcheck and
// kernels_test run them wherever the CPU has it).
//
// Built for the baseline CPU, like the library: SIMDe carries out each
// intrinsic with SSE2 or plain C, so the program runs on any x86-64.
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/carry.hpp"
#include "core/short_input.hpp"
#include "core/table37.hpp"
#include "emulated_avx512.hpp"
#include "kernels/kernel.hpp"
#include "simd/compact_table.hpp"
#include "simd/target.hpp"

// The intrinsics the wrapper uses that SIMDe 0.7.4 (Debian 12) lacks (the
// VBMI2 compress and the VBMI merging permute, used by the percent decoder,
// are only compiled here), and
// the two BMI ones (not in SIMDe), each written from the pseudo-code of the
// Intel Intrinsics Guide. They take the intrinsics' names by macro, as
// SIMDe's aliases do.
namespace emulated_x86 {

struct bytes64 {
  std::uint8_t b[64];
};
inline bytes64 to_bytes(simde__m512i v) {
  bytes64 out;
  std::memcpy(out.b, &v, 64);
  return out;
}
inline simde__m512i from_bytes(const bytes64& in) {
  simde__m512i v;
  std::memcpy(&v, in.b, 64);
  return v;
}

// Byte j is loaded only where mask bit j is set, else 0; masked-off bytes
// are never read (the instruction suppresses their faults), which the guard
// page checks rely on.
inline simde__m512i maskz_loadu_epi8(std::uint64_t k, const void* mem) {
  bytes64 out{};
  const auto* p = static_cast<const std::uint8_t*>(mem);
  for (unsigned j = 0; j < 64; ++j) {
    if ((k >> j) & 1) out.b[j] = p[j];
  }
  return from_bytes(out);
}

// Byte j is written to memory only where mask bit j is set; the others are
// never touched (the guard page checks of the output rely on it).
inline void mask_storeu_epi8(void* mem, std::uint64_t k, simde__m512i v) {
  const bytes64 in = to_bytes(v);
  auto* p = static_cast<std::uint8_t*>(mem);
  for (unsigned j = 0; j < 64; ++j) {
    if ((k >> j) & 1) p[j] = in.b[j];
  }
}

// The 128-byte concatenation a:b (a the upper half) shifted right by
// imm8[2:0] quadwords; the low 64 bytes.
inline simde__m512i alignr_epi64(simde__m512i a, simde__m512i b, int imm8) {
  const bytes64 lo = to_bytes(b), hi = to_bytes(a);
  const unsigned shift = 8 * (static_cast<unsigned>(imm8) & 7);
  bytes64 out;
  for (unsigned j = 0; j < 64; ++j) {
    const unsigned from = j + shift;
    out.b[j] = from < 64 ? lo.b[from] : hi.b[from - 64];
  }
  return from_bytes(out);
}

// In each 128-bit lane, the 32-byte concatenation a:b (a the upper half)
// shifted right by imm8 bytes; the low 16 bytes (zeros past the end).
inline simde__m512i alignr_epi8(simde__m512i a, simde__m512i b, int imm8) {
  const bytes64 lo = to_bytes(b), hi = to_bytes(a);
  const unsigned shift = static_cast<unsigned>(imm8) & 255;
  bytes64 out;
  for (unsigned lane = 0; lane < 64; lane += 16) {
    for (unsigned j = 0; j < 16; ++j) {
      const unsigned from = j + shift;
      out.b[lane + j] = from < 16 ? lo.b[lane + from] : from < 32 ? hi.b[lane + from - 16] : 0;
    }
  }
  return from_bytes(out);
}

// The bytes of a whose bit is set in k, in order, from byte 0 up; zeros above
// (VBMI2).
inline simde__m512i maskz_compress_epi8(std::uint64_t k, simde__m512i a) {
  const bytes64 in = to_bytes(a);
  bytes64 out{};
  unsigned m = 0;
  for (unsigned j = 0; j < 64; ++j) {
    if ((k >> j) & 1) out.b[m++] = in.b[j];
  }
  return from_bytes(out);
}

// Where mask bit j is set, byte idx[j] & 127 of the 128-byte table a:b (a
// the lower half); elsewhere idx[j] itself (VBMI).
inline simde__m512i mask2_permutex2var_epi8(simde__m512i a, simde__m512i idx, std::uint64_t k,
                                            simde__m512i b) {
  const bytes64 lo = to_bytes(a), ix = to_bytes(idx), hi = to_bytes(b);
  bytes64 out;
  for (unsigned j = 0; j < 64; ++j) {
    const unsigned at = ix.b[j] & 63;
    out.b[j] = ((k >> j) & 1) == 0 ? ix.b[j] : (ix.b[j] & 64) != 0 ? hi.b[at] : lo.b[at];
  }
  return from_bytes(out);
}

// a with bits index[7:0] and up cleared (all of a for an index of 64 or more).
inline std::uint64_t bzhi_u64(std::uint64_t a, unsigned index) {
  const unsigned n = index & 255;
  return n >= 64 ? a : a & ((std::uint64_t{1} << n) - 1);
}

// The number of trailing zero bits; 64 for 0.
inline std::uint64_t tzcnt_u64(std::uint64_t a) {
  return a == 0 ? 64 : static_cast<std::uint64_t>(__builtin_ctzll(a));
}

}  // namespace emulated_x86

#define _mm512_maskz_loadu_epi8(k, p) emulated_x86::maskz_loadu_epi8((k), (p))
#define _mm512_mask_storeu_epi8(mem, k, v) emulated_x86::mask_storeu_epi8((mem), (k), (v))
#define _mm512_alignr_epi64(a, b, imm8) emulated_x86::alignr_epi64((a), (b), (imm8))
#define _mm512_alignr_epi8(a, b, imm8) emulated_x86::alignr_epi8((a), (b), (imm8))
// SIMDe may map these two already (versions differ); the bodies use ours.
#undef _mm512_maskz_compress_epi8
#undef _mm512_mask2_permutex2var_epi8
#define _mm512_maskz_compress_epi8(k, a) emulated_x86::maskz_compress_epi8((k), (a))
#define _mm512_mask2_permutex2var_epi8(a, idx, k, b) \
  emulated_x86::mask2_permutex2var_epi8((a), (idx), (k), (b))
#define _bzhi_u64(a, index) emulated_x86::bzhi_u64((a), (index))
#define _tzcnt_u64(a) emulated_x86::tzcnt_u64(a)
// kept() only has to hand its register back unchanged (avx512.hpp).
#define UTF8GUARD_AVX512_KEEP(x) asm("" : "+m"(x))

// The bodies, as src/kernels/avx512bw.cpp and avx512vbmi.cpp build them (the wrapper brings its
// group size).
namespace utf8guard::detail::emulated_avx512bw {
constexpr bool kVbmi = false;
constexpr bool kVbmi2 = false;
#include "simd/avx512.hpp"  // the wrapper: struct simd8
// The algorithm, written against simd8:
#include "generic/utf8_lookup.hpp"
}  // namespace utf8guard::detail::emulated_avx512bw

namespace utf8guard::detail::emulated_avx512vbmi {
constexpr bool kVbmi = true;
constexpr bool kVbmi2 = false;
#include "simd/avx512.hpp"  // the wrapper: struct simd8
// The algorithm, written against simd8:
#include "generic/utf8_lookup.hpp"
}  // namespace utf8guard::detail::emulated_avx512vbmi

namespace utf8guard::testing {
namespace {

using detail::kernel;

// A kernel as the library lists its own, named after the library's kernel
// of the same source with "-emulated" appended, usable anywhere.
constexpr kernel emulated(const char* name, detail::scan_fn scan, detail::open_scan_fn scan_open,
                          detail::valid_fn valid, detail::validate_fn validate,
                          detail::short_copy_fn short_copy) {
  // SIMDe's portable intrinsics: the baseline's instructions only.
  return {name, "", scan, scan_open, nullptr, nullptr, valid, validate, 0, short_copy};
}
const kernel kBw = emulated(
    "avx512bw-emulated", &detail::emulated_avx512bw::lookup::scan,
    &detail::emulated_avx512bw::lookup::scan_open, &detail::emulated_avx512bw::lookup::valid,
    &detail::emulated_avx512bw::lookup::validate, &detail::emulated_avx512bw::lookup::short_copy<>);
const kernel kVbmi = emulated("avx512-emulated", &detail::emulated_avx512vbmi::lookup::scan,
                              &detail::emulated_avx512vbmi::lookup::scan_open,
                              &detail::emulated_avx512vbmi::lookup::valid,
                              &detail::emulated_avx512vbmi::lookup::validate,
                              &detail::emulated_avx512vbmi::lookup::short_copy<>);

}  // namespace

std::vector<const detail::kernel*> emulated_avx512_bodies() { return {&kBw, &kVbmi}; }

}  // namespace utf8guard::testing
