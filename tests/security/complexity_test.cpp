// complexity_test.cpp - hostile input costs linear time and validation no
// memory.
//
// An attacker picks the bytes, so the worst case is the case: a stream engine
// that rescans the rest of its input after every error is quadratic on
// "C0 41 C0 41 ...", and one that allocates per error grows with the input.
// Time is measured as the calling thread's CPU time (not wall time, so other
// processes on the machine do not count) at n and 4n bytes; linear work gives
// a ratio near 4, quadratic work near 16. The bound, 8, leaves room for cache
// effects and timer noise while still failing anything quadratic.
//
// Allocation is counted by replacing the global operator new for this binary:
// docs/design.md says validation never allocates; streaming with a non-allocating
// sink or callback must not either.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "cpu_time.hpp"
#include "kernels.hpp"
#include "utf8guard/utf8guard.h"
#include "utf8guard/utf8guard.hpp"

namespace {
std::atomic<std::size_t> g_allocations{0};
}  // namespace

// The replacement pair allocates with malloc and frees with free; g++ 12
// sees free() on "a pointer from operator new" and warns, wrongly here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t n, std::align_val_t align) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  const auto a = static_cast<std::size_t>(align);
  if (void* p = std::aligned_alloc(a, (n + a - 1) / a * a)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace {

using utf8guard::testing::thread_cpu_seconds;

constexpr std::size_t kSmall = std::size_t{1} << 18;  // 256 KiB, and 4x that
constexpr double kMaxRatio = 8.0;
constexpr double kMinJudged = 2e-3;  // seconds

// Inputs chosen to maximize work per byte: an error at every byte, or every
// other byte, or sequences cut just before they complete, or an unfinished
// sequence carried across every chunk boundary.
struct pattern {
  const char* name;
  std::string unit;
};
const std::vector<pattern>& patterns() {
  static const std::vector<pattern> p = {
      {"stray continuations", "\x80"},
      {"overlong before ASCII", std::string("\xC0\x41", 2)},
      {"cut 3-byte sequences", "\xE2\x82\x41"},
      {"cut 4-byte sequences", "\xF0\x9F\x98\x41"},
      {"surrogates", "\xED\xA0\x80"},
      {"invalid bytes", "\xFF\xFE"},
      {"valid, then one error at the end", "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"},
  };
  return p;
}

std::string repeat(const std::string& unit, std::size_t n) {
  std::string s;
  s.reserve(n + unit.size());
  while (s.size() < n) s += unit;
  s.resize(n);
  if (unit[0] == 'a') s.back() = '\xC0';  // the benign pattern: one error, last
  return s;
}

// The least CPU time of three runs of f on in: the least is the run least
// disturbed by interrupts and cache misses from elsewhere.
template <class F>
double cost(const std::string& in, F&& f) {
  double best = 1e9;
  for (int rep = 0; rep < 3; ++rep) {
    const double t0 = thread_cpu_seconds();
    f(in);
    best = std::min(best, thread_cpu_seconds() - t0);
  }
  return best;
}

struct entry_point {
  const char* name;
  void (*run)(const std::string&);
};

// Each entry point does all its work and keeps the result alive, so the
// optimizer cannot drop it.
std::size_t g_sink = 0;
const std::vector<entry_point>& entry_points() {
  static const std::vector<entry_point> e = {
      {"is_valid", [](const std::string& s) { g_sink += utf8guard::is_valid(s); }},
      {"validate", [](const std::string& s) { g_sink += utf8guard::validate(s).offset; }},
      {"sanitize", [](const std::string& s) { g_sink += utf8guard::sanitize(s).size(); }},
      {"error_scanner",
       [](const std::string& s) {
         std::size_t n = 0;
         utf8guard::error_scanner scan;
         scan.feed(s, [&n](const utf8guard::result&) { ++n; });
         scan.finish([&n](const utf8guard::result&) { ++n; });
         g_sink += n;
       }},
      {"sanitizer, 4 KiB chunks",
       [](const std::string& s) {
         std::size_t n = 0;
         utf8guard::sanitizer san;
         for (std::size_t at = 0; at < s.size(); at += 4096)
           san.feed(std::string_view(s).substr(at, 4096),
                    [&n](std::string_view b) { n += b.size(); });
         san.finish([&n](std::string_view b) { n += b.size(); });
         g_sink += n;
       }},
      {"validator, 3-byte chunks",
       [](const std::string& s) {
         utf8guard::validator v;
         for (std::size_t at = 0; at < s.size(); at += 3) v.feed(std::string_view(s).substr(at, 3));
         g_sink += v.finish().offset;
       }},
      {"decode",
       [](const std::string& s) {
         std::u32string out;
         g_sink += utf8guard::decode(s, out).offset + out.size();
       }},
  };
  return e;
}

class Pathological : public utf8guard::testing::EveryKernel {};

// The least ratio of up to three paired measurements: a pair can be disturbed
// (another process sharing the core's caches, a frequency step between the two
// sizes), and a disturbed pair reads too high, never too low. Quadratic work
// reads near 16 every time, so retrying cannot hide it.
template <class F>
double growth(const std::string& small, const std::string& large, F&& f, double& t_small,
              double& t_large) {
  double best = 1e9;
  for (int attempt = 0; attempt < 3 && best >= kMaxRatio; ++attempt) {
    t_small = cost(small, f);
    t_large = cost(large, f);
    // Below kMinJudged the timer's noise dominates, and quadratic work on
    // a megabyte would take far longer than that anyway.
    if (t_large < kMinJudged) return 0;
    best = std::min(best, t_large / std::max(t_small, 1e-6));
  }
  return best;
}

TEST_P(Pathological, TimeGrowsLinearlyWithHostileInput) {
  for (const pattern& pat : patterns()) {
    const std::string small = repeat(pat.unit, kSmall);
    const std::string large = repeat(pat.unit, 4 * kSmall);
    for (const entry_point& e : entry_points()) {
      double t_small = 0;
      double t_large = 0;
      const double ratio = growth(small, large, e.run, t_small, t_large);
      EXPECT_LT(ratio, kMaxRatio) << e.name << " on " << pat.name << ": " << t_small * 1e3
                                  << " ms for " << kSmall << " bytes, " << t_large * 1e3
                                  << " ms for 4x that";
    }
  }
}

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(Pathological);

// Validation and streaming with a non-allocating sink allocate nothing, on
// any input, so memory cannot grow with what an attacker sends.
TEST(Allocation, ValidationAndStreamingNeverAllocate) {
  std::vector<std::string> inputs;
  for (const pattern& pat : patterns()) inputs.push_back(repeat(pat.unit, 100000));
  char out[4096];
  for (const utf8guard::kernel_info& k : utf8guard::kernels()) {
    if (!k.usable) continue;
    const utf8guard::testing::forced_kernel forced{std::string(k.name)};
    ASSERT_TRUE(forced.ok());
    for (const std::string& in : inputs) {
      const std::size_t before = g_allocations.load();
      std::size_t sink = utf8guard::is_valid(in);
      sink += utf8guard::validate(in).offset;
      sink += utf8guard_validate(in.data(), in.size()).offset;
      utf8guard::validator v;
      for (std::size_t at = 0; at < in.size(); at += 7) v.feed(std::string_view(in).substr(at, 7));
      sink += v.finish().offset;
      utf8guard::error_scanner scan;
      scan.feed(in, [&sink](const utf8guard::result& r) { sink += r.offset; });
      scan.finish([&sink](const utf8guard::result& r) { sink += r.offset; });
      utf8guard::sanitizer san;
      san.feed(in, [&sink](std::string_view b) { sink += b.size(); });
      san.finish([&sink](std::string_view b) { sink += b.size(); });
      sink += utf8guard::sanitize_to(std::string_view(in).substr(0, 1000), out, sizeof out);
      std::uint32_t cp = 0;
      sink += utf8guard_decode_one(in.data(), in.size(), &cp).length;
      EXPECT_EQ(g_allocations.load(), before)
          << "kernel " << k.name << ": allocated on [" << in.substr(0, 8) << "...]";
      // The counter sees the library's allocations: sanitize() returns a
      // std::string, so it must allocate.
      sink += utf8guard::sanitize(in).size();
      EXPECT_GT(g_allocations.load(), before) << "the allocation counter is not counting";
      g_sink += sink;
    }
  }
}

}  // namespace
