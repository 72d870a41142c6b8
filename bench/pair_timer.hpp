// pair_timer.hpp - two calls timed side by side, in alternating blocks: the
// instrument of every pair_ benchmark (paired.cpp, short_bench.cpp).
//
// Why: on a shared machine a benchmark's repetitions spread widely, so a
// ratio read off two medians measured seconds apart means little. bm_pair alternates the two calls
// in blocks of at least 50 us each (so that reading the clock costs under 0.1 % of a block), flips
// which runs first every round, and reports the median over rounds of time(base) / time(op): the
// speed of op as a fraction of base's. A burst of load lands in a round or two, which the median
// drops; a slow drift hits both halves of a round alike.
#ifndef UTF8GUARD_BENCH_PAIR_TIMER_HPP
#define UTF8GUARD_BENCH_PAIR_TIMER_HPP

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <vector>

namespace bench {

template <class Call>
double time_block(Call& call, std::size_t calls) {
  using clock_type = std::chrono::steady_clock;
  const auto start = clock_type::now();
  for (std::size_t i = 0; i < calls; ++i) call();
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

// bm_pair reports counters["ratio"] = speed of op / speed of base, and the
// rounds' spread (interquartile range over median) as "ratio_iqr". With
// units > 0 (the strings one call walks, say), it also reports the median
// time of one unit of each side in ns: "op_ns" and "base_ns".
template <class Op, class Base>
void bm_pair(benchmark::State& state, Op op, Base base, std::size_t units = 0) {
  op();
  base();  // warm both: caches, branch history, the kernel choice
  constexpr double kMinBlockSeconds = 50e-6;
  const double one = std::max(time_block(op, 1), 1e-9);
  const auto calls = static_cast<std::size_t>(std::max(1.0, kMinBlockSeconds / one));
  std::vector<double> ratios, t_ops, t_bases;
  ratios.reserve(static_cast<std::size_t>(state.max_iterations));
  bool op_first = true;
  for (auto _ : state) {
    double t_op;
    double t_base;
    if (op_first) {
      t_op = time_block(op, calls);
      t_base = time_block(base, calls);
    } else {
      t_base = time_block(base, calls);
      t_op = time_block(op, calls);
    }
    op_first = !op_first;
    ratios.push_back(t_base / t_op);
    t_ops.push_back(t_op);
    t_bases.push_back(t_base);
  }
  if (ratios.empty()) return;
  const auto at = [](std::vector<double>& v, double q) {
    std::sort(v.begin(), v.end());
    return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))];
  };
  const double median = at(ratios, 0.5);
  state.counters["ratio"] = median;
  state.counters["ratio_iqr"] = (at(ratios, 0.75) - at(ratios, 0.25)) / median;
  state.counters["calls_per_block"] = static_cast<double>(calls);
  if (units > 0) {
    const double per_unit = 1e9 / static_cast<double>(calls * units);
    state.counters["op_ns"] = at(t_ops, 0.5) * per_unit;
    state.counters["base_ns"] = at(t_bases, 0.5) * per_unit;
  }
}

}  // namespace bench

#endif  // UTF8GUARD_BENCH_PAIR_TIMER_HPP
