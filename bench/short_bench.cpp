// short_bench.cpp - utf8guard_short TEXT... [--benchmark_...]: the cost of
// one call on a short string (1-128 bytes: a header value, a JSON key, a URL
// segment), where a call's fixed costs outweigh its bytes.
//
// From each text (bench/texts.sh lists them) it cuts a pool per size class
// (short_pools.hpp), well-formed and with one error per string, and times,
// side by side (pair_timer.hpp), a walk over the pool calling one function
// per string against the same walk calling another, on the scalar and the
// best kernel:
//   pair_is_valid_icu_u8next  is_valid against ICU's U8_NEXT loop
//   pair_validate_is_valid    validate against is_valid
//   pair_sanitize_is_valid    sanitize_to against is_valid (well-formed pools)
//   pair_feed_validate        a validator's feed of each string, as the next
//                             chunk of one stream, against validate
//                             (well-formed pools)
//   pair_error_valid_is_valid is_valid on the error pool against is_valid on
//   pair_error_valid_validate the well-formed one (and validate likewise)
// Each reports ratio (the base's time over OP's) and op_ns, base_ns: the
// median time of one call on one string.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <utf8guard/utf8guard.hpp>

#include "competitors.hpp"
#include "inputs.hpp"
#include "pair_timer.hpp"
#include "short_pools.hpp"
#include "suite.hpp"

namespace bench {
namespace {

// A pool cut when a benchmark first needs it, so that what
// --benchmark_filter leaves out costs nothing.
class lazy_pool {
 public:
  lazy_pool(std::shared_ptr<input> text, size_class c, bool with_error)
      : text_(std::move(text)), class_(c), with_error_(with_error) {}
  std::string name() const { return pool_name(text_->name(), class_, with_error_); }
  const string_pool& get() {
    if (!pool_) pool_ = cut_pool(text_->name(), text_->bytes(), class_, with_error_);
    return *pool_;
  }

 private:
  std::shared_ptr<input> text_;
  size_class class_;
  bool with_error_;
  std::optional<string_pool> pool_;
};

bool (*icu_u8next())(std::string_view) noexcept {
  std::size_t count = 0;
  const validator_impl* all = validators(count);
  for (std::size_t i = 0; i < count; ++i) {
    if (std::strcmp(all[i].name, "icu_u8next") == 0) return all[i].is_valid;
  }
  return nullptr;
}

// keep is DoNotOptimize for one call's answer, so that the compiler cannot
// drop a call. A result is kept as a caller that branches on it keeps it:
// ok(), in a register, like is_valid's bool. The library computes every
// field regardless (out of line); DoNotOptimize of the whole struct would
// also time a 32-byte store on every call, which the pairs would count as
// validate's cost over is_valid's.
template <class T>
void keep(const T& answer) {
  benchmark::DoNotOptimize(answer);
}
void keep(const utf8guard::result& r) { benchmark::DoNotOptimize(r.ok()); }

// One walk over the pool, one call per string, each answer kept.
template <class F>
auto over(const string_pool& p, F f) {
  return [&p, f] {
    for (const std::string_view s : p.strings) keep(f(s));
  };
}

auto is_valid_fn() {
  return [](std::string_view s) { return utf8guard::is_valid(s); };
}
auto validate_fn() {
  return [](std::string_view s) { return utf8guard::validate(s); };
}
auto icu_fn() {
  return [f = icu_u8next()](std::string_view s) { return f(s); };
}
// sanitize_to into one buffer that fits the largest string of any class.
auto sanitize_fn() {
  const std::size_t cap = utf8guard::sanitize_bound(kShortClasses[std::size(kShortClasses) - 1].hi);
  return [out = std::shared_ptr<char[]>(new char[cap]), cap](std::string_view s) {
    return utf8guard::sanitize_to(s, out.get(), cap);
  };
}

// answers_agree checks every call a pair may time, with the kernel now
// forced, against the pool's known answer: all well-formed (and sanitized
// unchanged), or all ill-formed.
bool answers_agree(const string_pool& p) {
  auto icu = icu_fn();
  std::string out(utf8guard::sanitize_bound(kShortClasses[std::size(kShortClasses) - 1].hi), '\0');
  for (const std::string_view s : p.strings) {
    if (utf8guard::is_valid(s) != p.valid || utf8guard::validate(s).ok() != p.valid ||
        icu(s) != p.valid) {
      return false;
    }
    if (p.valid &&
        std::string_view(out.data(), utf8guard::sanitize_to(s, out.data(), out.size())) != s) {
      return false;
    }
  }
  return true;
}

template <class MakeOp, class MakeBase>
void pair(const char* op, const std::shared_ptr<lazy_pool>& pool, const std::string& k,
          MakeOp make_op, MakeBase make_base) {
  const auto run = [pool, k, make_op, make_base](benchmark::State& state) {
    if (!force_kernel(state, k)) return;
    const string_pool& p = pool->get();
    if (!answers_agree(p)) return state.SkipWithError("a paired call: wrong answer");
    bm_pair(state, over(p, make_op()), over(p, make_base()), p.strings.size());
    state.counters["distinct"] = static_cast<double>(p.distinct);
  };
  benchmark::RegisterBenchmark(bench_name(op, k, pool->name()).c_str(), run);
}

// pair_error_valid times one function on the error pool against the same
// function on the well-formed pool of the same text and class: the cost of
// an error, at the size of the strings it hides in.
template <class MakeFn>
void pair_error_valid(const char* op, const std::shared_ptr<lazy_pool>& errors,
                      const std::shared_ptr<lazy_pool>& valid, const std::string& k,
                      MakeFn make_fn) {
  const auto run = [errors, valid, k, make_fn](benchmark::State& state) {
    if (!force_kernel(state, k)) return;
    const string_pool& e = errors->get();
    const string_pool& v = valid->get();
    if (!answers_agree(e) || !answers_agree(v)) {
      return state.SkipWithError("a paired call: wrong answer");
    }
    bm_pair(state, over(e, make_fn()), over(v, make_fn()), e.strings.size());
  };
  benchmark::RegisterBenchmark(bench_name(op, k, errors->name()).c_str(), run);
}

// feed_fn feeds each string to one validator as the next chunk of a stream
// (the pool's strings are well-formed and cut where characters end, so the
// stream stays well-formed): the per-chunk cost of a streaming caller.
auto feed_fn() {
  return [v = std::make_shared<utf8guard::validator>()](std::string_view s) { return v->feed(s); };
}

void register_short(const std::vector<std::shared_ptr<input>>& texts) {
  utf8guard::set_kernel("best");
  std::vector<std::string> ks{"scalar"};
  if (utf8guard::active_kernel() != "scalar") ks.emplace_back(utf8guard::active_kernel());
  for (const auto& text : texts) {
    for (const size_class c : kShortClasses) {
      const auto valid = std::make_shared<lazy_pool>(text, c, false);
      const auto errors = std::make_shared<lazy_pool>(text, c, true);
      for (const auto& pool : {valid, errors}) {
        for (const std::string& k : ks) {
          pair("pair_is_valid_icu_u8next", pool, k, is_valid_fn, icu_fn);
          pair("pair_validate_is_valid", pool, k, validate_fn, is_valid_fn);
          if (pool == valid) {
            pair("pair_sanitize_is_valid", pool, k, sanitize_fn, is_valid_fn);
            pair("pair_feed_validate", pool, k, feed_fn, validate_fn);
          } else {
            pair_error_valid("pair_error_valid_is_valid", errors, valid, k, is_valid_fn);
            pair_error_valid("pair_error_valid_validate", errors, valid, k, validate_fn);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
  std::vector<char*> args{argv[0]};
  std::vector<std::shared_ptr<bench::input>> texts;
  try {
    for (int i = 1; i < argc; ++i) {
      if (std::strncmp(argv[i], "--", 2) == 0) {
        args.push_back(argv[i]);
      } else {
        texts.push_back(bench::file_input(argv[i]));
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "utf8guard_short: %s\n", e.what());
    return 2;
  }
  if (texts.empty()) {
    std::fprintf(stderr,
                 "usage: utf8guard_short TEXT... [--benchmark_...] "
                 "(the texts: $(bench/texts.sh))\n");
    return 2;
  }
  int bench_argc = static_cast<int>(args.size());
  args.push_back(nullptr);
  benchmark::Initialize(&bench_argc, args.data());
  if (benchmark::ReportUnrecognizedArguments(bench_argc, args.data())) return 1;
  benchmark::AddCustomContext("utf8guard_version", std::string(utf8guard::version()));
  bench::register_short(texts);
  try {
    benchmark::RunSpecifiedBenchmarks();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "utf8guard_short: %s\n", e.what());
    return 2;
  }
  benchmark::Shutdown();
  return 0;
}
