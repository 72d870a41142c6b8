// kernel.hpp - one instruction set's descriptor: the functions of
// core/scan.hpp's interface compiled for it, and the helpers compiled beside
// them.
#ifndef UTF8GUARD_KERNELS_KERNEL_HPP
#define UTF8GUARD_KERNELS_KERNEL_HPP

#include <cstddef>
#include <cstdint>

#include "core/json.hpp"
#include "core/percent.hpp"
#include "core/policy.hpp"
#include "core/scan.hpp"

namespace utf8guard::detail {

// kernel is one instruction set's descriptor: everything the library runs
// that is compiled for it comes from the kernel's one file (src/kernels/
// <isa>.cpp), where this is filled in.
struct kernel {
  const char* name;
  // target names the instruction sets the file's target region is compiled
  // for, as the region spells them ("avx2,bmi,bmi2,popcnt"; "" for the
  // baseline): the kernel is usable where the CPU and OS support each
  // (kernels/cpu.hpp), and a message says which it needs.
  const char* target;
  scan_fn scan;
  open_scan_fn scan_open;
  scan_fn scan_no_percent;
  scan_fn scan_no_backslash;
  valid_fn valid;
  validate_fn validate;
  // short_dfa: is_valid and validate answer inputs of up to this many bytes
  // (one word) with core/short_input.hpp's short_scan instead of calling
  // the kernel; 0 where the kernel's own short path is faster from the first
  // byte.
  std::size_t short_dfa = kShortDfa;
  // short_copy: sanitize_to's short path (above); kernels without masked
  // stores take core/short_input.hpp's checked_copy.
  short_copy_fn short_copy = nullptr;
  // The policy's vector prefilter and its pass over quiet ASCII
  // (generic/policy_prefilter.hpp), and the vector percent and JSON
  // decoders (generic/percent_decode.hpp, generic/json_decode.hpp), compiled
  // for the same set; nullptr where the scalar loops serve.
  quiet_prefix_fn policy_prefilter = nullptr;
  quiet_ascii_fn quiet_ascii = nullptr;
  percent_decode_fn percent_decode = nullptr;
  json_decode_fn json_decode = nullptr;
};

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_KERNELS_KERNEL_HPP
