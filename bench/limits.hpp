// limits.hpp - what no validator can beat: reading the bytes once, and
// copying them. Every result in the report is also shown as a ratio to the
// read pass over the same bytes.
#ifndef UTF8GUARD_BENCH_LIMITS_HPP
#define UTF8GUARD_BENCH_LIMITS_HPP

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace bench {

// read_pass loads every byte of [p, p+n) once with the widest vectors this
// CPU runs (AVX-512, else AVX2, else 64-bit words) and ORs them together; the
// result (how many blocks hold a set bit, plus the OR of the tail) depends on
// every bit, so the compiler cannot skip a load.
std::uint64_t read_pass(const std::uint8_t* p, std::size_t n) noexcept;

// read_pass_isa names the vector width read_pass uses here: "avx512",
// "avx2" or "scalar64".
std::string_view read_pass_isa() noexcept;

}  // namespace bench

#endif  // UTF8GUARD_BENCH_LIMITS_HPP
