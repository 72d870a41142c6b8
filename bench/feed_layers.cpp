// feed_layers.cpp - utf8guard_feed_layers: where the time of a 4 KiB stream
// feed goes, layer by layer, for every kernel this CPU runs.
//
// For each body and input (ASCII and mixed 1-4-byte text, 256 KiB: in L2):
//   oneshot/K/IN   the body's scan over the whole input (the reference)
//   kernel4k/K/IN  its scan_open called on 4 KiB chunks, the tail of one
//                  chunk the prior of the next: the kernel's own cost per call
//   engine4k/K/IN  the streaming engine's stream_feed (src/stream/engine.hpp) inlined
//                  into this loop: the engine's work without a call layer
//   feed4k/K/IN    the public validator::feed: what a caller pays
// Each chunked time over the oneshot time is the cost a 4 KiB stream adds
// to a one-shot scan. Diagnostic: it uses the library's internals (src/), so it is
// built only with the static library.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <utf8guard/utf8guard.hpp>

#include "inputs.hpp"
#include "kernels/dispatch.hpp"
#include "stream/engine.hpp"

namespace {

using namespace utf8guard::detail;

constexpr std::size_t kChunk = 4096;

const std::uint8_t* bytes_of(std::string_view s) { return bytes(s.data()); }

// Every layer runs the body as the active kernel, as the library would.
void activate(const kernel& body) { g_active.store(&body, std::memory_order_release); }

void count(benchmark::State& state, std::string_view in) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
}

void bm_oneshot(benchmark::State& state, const kernel* body, std::string_view in) {
  activate(*body);
  if (body->scan(bytes_of(in), in.size()) != in.size()) {
    return state.SkipWithError("scan: an error in valid input");
  }
  for (auto _ : state) {
    std::size_t pos = body->scan(bytes_of(in), in.size());
    benchmark::DoNotOptimize(pos);
  }
  count(state, in);
}

// each_chunk calls f(chunk, length) on every 4 KiB chunk of in, in order,
// until f returns false; it says whether every call returned true.
template <class F>
bool each_chunk(std::string_view in, F f) {
  const std::uint8_t* p = bytes_of(in);
  for (std::size_t off = 0; off < in.size(); off += kChunk) {
    if (!f(p + off, in.size() - off < kChunk ? in.size() - off : kChunk)) return false;
  }
  return true;
}

void bm_kernel(benchmark::State& state, const kernel* body, std::string_view in) {
  activate(*body);
  for (auto _ : state) {
    std::uint32_t prior = 0;
    const bool clean = each_chunk(in, [&](const std::uint8_t* p, std::size_t n) {
      const open_scan r = body->scan_open(p, n, prior);
      prior = r.tail;
      return r.pos == n;
    });
    if (!clean) return state.SkipWithError("scan_open: an error in valid input");
    benchmark::DoNotOptimize(prior);
  }
  count(state, in);
}

void bm_engine(benchmark::State& state, const kernel* body, std::string_view in) {
  activate(*body);
  utf8guard_validator v{};
  for (auto _ : state) {
    v = utf8guard_validator{};
    first_error_handler h{v.priv_error};  // the validator's own handler
    const bool clean = each_chunk(in, [&](const std::uint8_t* p, std::size_t n) {
      return stream_feed(stream_cursor<utf8guard_validator>{v}, p, n, h);
    });
    if (!clean) return state.SkipWithError("stream_feed: an error in valid input");
    benchmark::DoNotOptimize(v);
  }
  count(state, in);
}

void bm_feed(benchmark::State& state, const kernel* body, std::string_view in) {
  activate(*body);
  utf8guard::validator v;
  const auto stream = [&] {
    v.reset();
    each_chunk(in, [&](const std::uint8_t* p, std::size_t n) {
      v.feed(std::string_view(reinterpret_cast<const char*>(p), n));
      return true;
    });
    return v.finish();
  };
  if (!stream().ok()) return state.SkipWithError("validator: an error in valid input");
  for (auto _ : state) {
    utf8guard::result r = stream();
    benchmark::DoNotOptimize(r);
  }
  count(state, in);
}

}  // namespace

int main(int argc, char** argv) {
  // utf8guard_bench's inputs of those names, the same bytes.
  std::vector<std::pair<std::string, std::string_view>> inputs;
  static const auto synthetic = bench::synthetic_inputs();
  for (const auto& in : synthetic) {
    if (in->name() == "ascii_256K" || in->name() == "mixed_256K") {
      inputs.emplace_back(in->name(), in->bytes());
    }
  }
  using layer_fn = void (*)(benchmark::State&, const kernel*, std::string_view);
  const std::pair<const char*, layer_fn> layers[] = {{"oneshot", bm_oneshot},
                                                     {"kernel4k", bm_kernel},
                                                     {"engine4k", bm_engine},
                                                     {"feed4k", bm_feed}};
  std::size_t count = 0;
  const kernel* const* bodies = kernel_list(count);
  for (std::size_t b = 0; b < count; ++b) {
    const kernel* body = bodies[b];
    if (!utf8guard::detail::usable(*body)) continue;
    const std::string name = body->name;
    for (const auto& [in_name, in] : inputs) {
      for (const auto& [layer, fn] : layers) {
        benchmark::RegisterBenchmark((std::string(layer) + "/" + name + "/" + in_name).c_str(), fn,
                                     body, in);
      }
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
