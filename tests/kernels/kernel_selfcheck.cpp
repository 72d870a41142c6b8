// kernel_selfcheck.cpp - every scan body against the reference oracle, as a
// plain program (no test framework), so that it also runs where GoogleTest is
// not installed: cross-compiled for AArch64 and run under qemu-aarch64 by
// .ci/neon.sh, and natively as a ctest of its own.
//
// It checks every input of 0..3 bytes, the block-boundary vectors of
// kernel_check.hpp, random and mutated text, guard pages on both sides, and
// that dispatch picked the best usable kernel. Exit status 0 means all passed.
//
// Built with UTF8GUARD_SELFCHECK_EMULATED_AVX512 (emulated_avx512_selfcheck),
// it checks the AVX-512 bodies compiled over portable intrinsics instead
// (emulated_avx512.cpp), on any x86-64, in every phase but the first.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "guard_page.hpp"
#include "kernel_check.hpp"
#include "reduced.hpp"
#if defined(UTF8GUARD_SELFCHECK_EMULATED_AVX512)
#include "emulated_avx512.hpp"
#endif

namespace {

constexpr std::size_t kReportLimit = 10;

struct tally {
  std::size_t inputs = 0;
  std::size_t failures = 0;
  void fail(const std::string& group, const std::string& why) {
    if (++failures <= kReportLimit) std::printf("FAIL %s: %s\n", group.c_str(), why.c_str());
  }
};

void check(tally& t, const std::vector<const kcheck::kernel*>& ks, const std::string& group,
           std::string_view in) {
  ++t.inputs;
  kcheck::check_all(ks, in, [&](const std::string& why) { t.fail(group, why); });
}

// Every input of 0..3 bytes: every lead, every second-byte range boundary,
// every truncated and incomplete prefix. The oracle runs once per input. The
// 16.8 M inputs are shared out by first byte among a few threads: under
// qemu-aarch64 this phase is most of the run.
void exhaustive(tally& t, const std::vector<const kcheck::kernel*>& ks) {
  check(t, ks, "empty", std::string_view());
  const unsigned threads = std::max(1u, std::min(4u, std::thread::hardware_concurrency()));
  std::vector<tally> parts(threads);
  std::vector<std::thread> pool;
  for (unsigned w = 0; w < threads; ++w) {
    pool.emplace_back([&ks, &parts, w, threads] {
      tally& mine = parts[w];
      char in[3];
      // Three bytes: every input, or every 7th under a sanitizer or qemu
      // (reduced.hpp).
      const std::uint32_t step = utf8guard::testing::reduced_step();
      for (unsigned first = w; first < 256; first += threads) {
        in[0] = static_cast<char>(first);
        for (std::size_t len = 1; len <= 3; ++len) {
          const std::uint32_t tails = 1u << (8 * (len - 1));
          for (std::uint32_t v = 0; v < tails; v += len == 3 ? step : 1) {
            for (std::size_t k = 1; k < len; ++k) in[k] = static_cast<char>(v >> (8 * (k - 1)));
            const std::string_view bytes(in, len);
            const reference::error want = reference::first_error(bytes);
            ++mine.inputs;
            for (const kcheck::kernel* k : ks) {
              const std::string why = kcheck::check_one(*k, bytes, want, false);
              if (!why.empty()) mine.fail("exhaustive", why);
            }
          }
        }
      }
    });
  }
  for (std::thread& th : pool) th.join();
  for (const tally& part : parts) {
    t.inputs += part.inputs;
    t.failures += part.failures;
  }
}

void random_inputs(tally& t, const std::vector<const kcheck::kernel*>& ks) {
  kcheck::generator gen(20261122);
  for (int i = 0; i < 3000; ++i) {
    const std::string valid = gen.valid(gen.below(i % 10 == 0 ? 4000 : 700));
    check(t, ks, "random valid", valid);
    check(t, ks, "mutated", gen.mutated(valid));
    check(t, ks, "random bytes", gen.random_bytes(gen.below(80)));
  }
}

void guard_pages(tally& t, const std::vector<const kcheck::kernel*>& ks) {
  using utf8guard::testing::guarded_buffer;
  for (guarded_buffer::side side : {guarded_buffer::at_end, guarded_buffer::at_start}) {
    for (kcheck::text kind : kcheck::kTexts) {
      for (std::size_t len = 0; len <= kcheck::kSpan; ++len) {
        std::string s = kcheck::background(kind, len);
        for (int variant = 0; variant < 2; ++variant) {
          if (variant == 1 && len > 0) s.back() = '\xF0';  // ends inside a sequence
          const guarded_buffer buf(s, side);
          check(t, ks, side == guarded_buffer::at_end ? "guard page at end" : "guard page at start",
                buf.view());
        }
      }
    }
  }
}

}  // namespace

int main() {
#if defined(UTF8GUARD_SELFCHECK_EMULATED_AVX512)
  const auto ks = utf8guard::testing::emulated_avx512_bodies();
  constexpr bool kLibraryBodies = false;
#else
  const auto ks = kcheck::bodies();
  constexpr bool kLibraryBodies = true;
#endif
  std::printf("bodies:");
  for (const kcheck::kernel* k : ks) {
    std::printf(" %s", k->name);
  }
  std::printf("; active kernel: %s\n", std::string(utf8guard::active_kernel()).c_str());

  tally t;
  // The best usable kernel is the last listed one, and dispatch chose it.
  std::size_t count = 0;
  const kcheck::kernel* const* all = utf8guard::detail::kernel_list(count);
  const kcheck::kernel* best = all[0];
  for (std::size_t i = 0; i < count; ++i) {
    if (utf8guard::detail::usable(*all[i])) best = all[i];
  }
  if (kLibraryBodies && std::getenv("UTF8GUARD_KERNEL") == nullptr &&
      utf8guard::active_kernel() != best->name) {
    t.fail("dispatch", "active kernel is not the best usable one");
  }

  struct phase {
    const char* name;
    void (*run)(tally&, const std::vector<const kcheck::kernel*>&);
  };
  const phase phases[] = {
      {"every input of 0..3 bytes", &exhaustive},
      {"every length 0..4 widths + 64",
       [](tally& tt, const std::vector<const kcheck::kernel*>& kk) {
         kcheck::each_length(
             [&](const std::string& g, std::string_view in) { check(tt, kk, g, in); });
       }},
      {"every error kind at every position",
       [](tally& tt, const std::vector<const kcheck::kernel*>& kk) {
         kcheck::each_error_position(
             [&](const std::string& g, std::string_view in) { check(tt, kk, g, in); });
       }},
      {"sequences carried across every position",
       [](tally& tt, const std::vector<const kcheck::kernel*>& kk) {
         kcheck::each_carry(
             [&](const std::string& g, std::string_view in) { check(tt, kk, g, in); });
       }},
      {"errors around the blocks of long ASCII runs",
       [](tally& tt, const std::vector<const kcheck::kernel*>& kk) {
         kcheck::each_ascii_block(
             [&](const std::string& g, std::string_view in) { check(tt, kk, g, in); });
       }},
      {"random and mutated", &random_inputs},
      {"guard pages", &guard_pages},
  };
  for (const phase& ph : phases) {
    // Inputs of 0..3 bytes reach only the first lanes of a 64-byte register,
    // through the generic code that the real SSE4.2 and AVX2 bodies run on
    // them too: the emulated bodies take the phases that put every byte at
    // every lane (the inputs of 3 bytes would take 95 s here, emulated).
    if (!kLibraryBodies && ph.run == &exhaustive) continue;
    const auto start = std::chrono::steady_clock::now();
    const std::size_t before = t.inputs;
    ph.run(t, ks);
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%-42s %9zu inputs  %6.1f s\n", ph.name, t.inputs - before, s);
  }
  std::printf("%s: %zu inputs on %zu bodies, %zu failures\n", t.failures ? "FAILED" : "PASSED",
              t.inputs, ks.size(), t.failures);
  return t.failures == 0 ? 0 : 1;
}
