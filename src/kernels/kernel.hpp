// kernel.hpp - the one interface every validation kernel implements.
//
// "SIMD says yes/no; scalar says where and why": a kernel only scans. It
// returns a position pos such that p[0..pos) is a valid prefix (well-formed but
// for at most one unfinished sequence at its end), and returns n only when all
// of p[0..n) is well-formed. When pos < n, the first error, if any, starts
// within 3 bytes before pos or after it: the driver in validate.cpp steps back
// to a sequence boundary and lets the Table 3-7 classifier (scalar/table37.hpp)
// decide kind, offset and length. So every kernel reports identical errors.
//
// A kernel also has scan_open(p, n, prior), for streams: p[0..n) continues
// the unfinished sequence in prior (scalar/prior.hpp; 0 for none), and a
// chunk that ends inside a sequence is normal, not an error. It returns
// {n, open, tail} when prior + p[0..n - open) is well-formed and the last
// open bytes (0..3; all in p when n >= 3) are an unfinished but valid
// sequence, tail being those bytes as a prior word (0 when open is 0; byte 0
// may hold kAsciiHint when open is 0 and the chunk ends in ASCII), and
// otherwise {pos, 0, 0} with pos as scan would return it (0..2 when the
// sequence from prior breaks). With tail a stream carries the open bytes
// without reading the chunk's end again. A prior of kAsciiHint carries
// nothing, as 0 does; it only says the chunk likely starts with ASCII.
#ifndef UTF8GUARD_KERNELS_KERNEL_HPP
#define UTF8GUARD_KERNELS_KERNEL_HPP

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "utf8guard/utf8guard.hpp"

namespace utf8guard::detail {

using scan_fn = std::size_t (*)(const std::uint8_t* p, std::size_t n) noexcept;

struct open_scan {
  std::size_t pos;
  std::uint32_t open;
  std::uint32_t tail;
};
using open_scan_fn = open_scan (*)(const std::uint8_t* p, std::size_t n,
                                   std::uint32_t prior) noexcept;

// Every kernel has a fixed id, an index into the per-thread run counters.
enum kernel_id : unsigned { kScalar = 0, kSse42, kAvx2, kAvx512, kNeon, kKernelIds };

struct kernel {
  const char* name;
  kernel_id id;
  // usable says whether this CPU and OS can run the kernel (cpuid + xgetbv).
  bool (*usable)() noexcept;
  scan_fn scan;
  // needs names what usable() checks, for the message when it says no.
  const char* needs;
  open_scan_fn scan_open = nullptr;
  // A kernel with several bodies (avx512: with and without VBMI) has select,
  // which returns the body this CPU runs best; dispatch makes that body the
  // active kernel, so no call pays for the choice. Bodies share the kernel's
  // name and id, and say which they are in variant.
  const kernel* (*select)() noexcept = nullptr;
  const char* variant = "";
};

// The compiled kernels, slowest first; kernel_list()[0] is always "scalar".
const kernel* const* kernel_list(std::size_t& count) noexcept;

// Every compiled scan body, for tests: the kernels, except that a kernel with
// several bodies (avx512 with and without VBMI) is listed once per body.
const kernel* const* kernel_bodies(std::size_t& count) noexcept;

// The active kernel (a body), nullptr until first use; see dispatch.cpp.
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

// validate_with is the one driver: kernel scan, then the scalar classifier.
result validate_with(const kernel& k, const std::uint8_t* p, std::size_t n) noexcept;

inline result validate_active(const std::uint8_t* p, std::size_t n) noexcept {
  return validate_with(active_kernel_ref(), p, n);
}

// is_valid_active answers yes/no only: no classification on the error path.
bool is_valid_active(const std::uint8_t* p, std::size_t n) noexcept;

// The per-thread run counters behind kernel_runs (one add per scan; the
// initial-exec model makes it a plain %fs-relative add, also in the shared
// library). __thread, not thread_local: an extern thread_local may have a
// dynamic initializer in another file, so g++ tested for one (a load and a
// branch) before every add.
extern __thread std::size_t t_runs[kKernelIds] __attribute__((tls_model("initial-exec")));

// count_run is the first statement of every kernel entry point (scan and
// scan_open), so the counter's address is a constant. Counted by the caller,
// at t_runs[k.id], the add's address waited for the load of the active
// kernel, and that cost 4 KiB feeds of ASCII from an unaligned buffer about
// 3 ns a call (AVX-512 on our Zen 5; HACKING.md has the figures).
template <kernel_id Id>
inline void count_run() noexcept {
  ++t_runs[Id];
}

// scan_open_active runs the active kernel's scan_open (see above), inlined
// into the streaming engine.
inline open_scan scan_open_active(const std::uint8_t* p, std::size_t n,
                                  std::uint32_t prior) noexcept {
  return active_kernel_ref().scan_open(p, n, prior);
}

// kernel_runs counts, for the calling thread, the scans kernel k has run. It
// lets tests prove that a forced kernel really ran (one add per call; the
// counters are thread-local, so threads never share a cache line).
std::size_t kernel_runs(const kernel& k) noexcept;

// SAFETY: converting a (char*, len) pair; callers allow (nullptr, 0), which no
// kernel dereferences because every read is bounded by n.
inline const std::uint8_t* bytes(const char* p) noexcept {
  return reinterpret_cast<const std::uint8_t*>(p);
}

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_KERNELS_KERNEL_HPP
