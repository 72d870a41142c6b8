// dispatch.hpp - which kernel runs: the compiled list, the active kernel,
// and the ways to choose it (set_kernel, UTF8GUARD_KERNEL). See dispatch.cpp.
#ifndef UTF8GUARD_DISPATCH_HPP
#define UTF8GUARD_DISPATCH_HPP

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "kernels/cpu.hpp"
#include "kernels/kernel.hpp"

namespace utf8guard::detail {

// The compiled kernels, slowest first; kernel_list()[0] is always "scalar".
// Whether this CPU runs one: usable (kernels/cpu.hpp).
const kernel* const* kernel_list(std::size_t& count) noexcept;

// The active kernel, nullptr until first use.
extern std::atomic<const kernel*> g_active;

// resolve_active resolves the kernel on first use (thread-safe, lazy, no
// global constructor) and returns it.
const kernel& resolve_active() noexcept;

// active_kernel_ref is the active kernel: one load on every call after the
// first, inlined, because streams call it once per chunk.
inline const kernel& active_kernel_ref() noexcept {
  const kernel* k = g_active.load(std::memory_order_acquire);
  return k != nullptr ? *k : resolve_active();
}

// scan_open_active runs the active kernel's scan_open, inlined into the
// streaming engine.
inline open_scan scan_open_active(const std::uint8_t* p, std::size_t n,
                                  std::uint32_t prior) noexcept {
  return active_kernel_ref().scan_open(p, n, prior);
}

// vector_policy is the prefilter and the quiet-ASCII check compiled for the
// active kernel's instruction set, or two nullptrs (the scalar kernel).
struct vector_policy_fns {
  quiet_prefix_fn prefilter;
  quiet_ascii_fn quiet_ascii;
};
vector_policy_fns vector_policy() noexcept;

// vector_percent_decoder is the percent decoder compiled for the active
// kernel's instruction set, or nullptr where the scalar loop serves.
percent_decode_fn vector_percent_decoder() noexcept;

// vector_json_decoder is the JSON decoder compiled for the active kernel's
// instruction set, or nullptr where the scalar loop serves.
json_decode_fn vector_json_decoder() noexcept;

// find_kernel returns the compiled kernel with that name, or nullptr.
const kernel* find_kernel(const char* name, std::size_t len) noexcept;

// set_active_kernel switches every later call to a usable kernel ("best" is
// the fastest usable one); returns false, changing nothing, otherwise.
bool set_active_kernel(const char* name, std::size_t len) noexcept;

// kernel_env_error explains why UTF8GUARD_KERNEL was ignored, or is nullptr.
const char* kernel_env_error() noexcept;

// explain_kernel_request writes that explanation for a requested name: found
// is the compiled kernel of that name (which this CPU cannot run) or nullptr
// (no such kernel); fallback names the kernel used instead.
void explain_kernel_request(const char* name, const kernel* found, const char* fallback, char* out,
                            std::size_t cap) noexcept;

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_DISPATCH_HPP
