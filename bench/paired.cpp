// paired.cpp - ratios between two calls, each timed side by side in one
// benchmark: validate / is_valid, stream4k and stream64k / validate (every
// kernel), and is_valid / the read pass (the best kernel); and the cost of a
// policy: validate under the field profile / is_valid without one,
// sanitize_to under the field profile / sanitize_to without one (every
// kernel).
//
// Why side by side, and how: pair_timer.hpp.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <utf8guard/utf8guard.hpp>

#include "limits.hpp"
#include "pair_timer.hpp"
#include "suite.hpp"

namespace bench {
namespace {

using in_ptr = std::shared_ptr<input>;

// The calls a pair times: DoNotOptimize keeps each result, so that the
// compiler cannot drop a call.
auto is_valid_call(std::string_view b) {
  return [b] { benchmark::DoNotOptimize(utf8guard::is_valid(b)); };
}
auto validate_call(std::string_view b) {
  return [b] { benchmark::DoNotOptimize(utf8guard::validate(b)); };
}

auto field_call(std::string_view b) {
  return [b] { benchmark::DoNotOptimize(utf8guard::validate(b, utf8guard::policy::field())); };
}

// sanitize_to into one buffer per call site, under a policy or not.
template <bool Field>
auto sanitize_call(std::string_view b) {
  auto out = std::shared_ptr<char[]>(new char[utf8guard::sanitize_bound(b.size())]);
  return [b, out] {
    const std::size_t cap = utf8guard::sanitize_bound(b.size());
    benchmark::DoNotOptimize(
        Field ? utf8guard::sanitize_to(b, out.get(), cap, utf8guard::policy::field())
              : utf8guard::sanitize_to(b, out.get(), cap));
  };
}

// answers_agree checks, before anything is timed, that every call a pair
// may time gives the input's known answer with the kernel now forced.
bool answers_agree(const input& in) {
  const std::string_view b = in.bytes();
  const bool valid = in.first_error() == b.size();
  const utf8guard::result r = utf8guard::validate(b);
  utf8guard::validator v;
  return utf8guard::is_valid(b) == valid && r.ok() == valid &&
         (valid || r.offset == in.first_error()) && stream(v, b, 4096) == r &&
         stream(v, b, 65536) == r;
}

// field_text is the input with every character the field profile denies
// (line breaks in the texts; controls, C1, noncharacters, bidi controls and
// BOMs past byte 0 in the synthetic inputs too) made as many spaces as it has
// bytes: the same length and nearly the same mix, so that the pair times the
// cost of the check on text without violations. The input must be well-formed.
std::shared_ptr<const std::string> field_text(std::string_view b) {
  auto out = std::make_shared<std::string>(b);
  const utf8guard::policy field = utf8guard::policy::field();
  // One character at a time, after a space so that it is judged as it stands
  // mid-text (a BOM is denied everywhere but at byte 0): the walk stays
  // linear however many characters are denied.
  char one[5] = {' '};
  for (std::size_t at = 0, len = 1; at < out->size(); at += len) {
    const auto lead = static_cast<unsigned char>((*out)[at]);
    len = std::min<std::size_t>(lead < 0xC0   ? 1
                                : lead < 0xE0 ? 2
                                : lead < 0xF0 ? 3
                                              : 4,
                                out->size() - at);
    out->copy(one + 1, len, at);
    if (utf8guard::validate(std::string_view(one, len + 1), field).kind ==
        utf8guard::error::disallowed) {
      out->replace(at, len, len, ' ');
    }
  }
  return out;
}

// pair registers OP/K/INPUT, timing make_op(bytes) against make_base(bytes)
// with kernel k forced. The input's bytes are made when the benchmark runs,
// not here, so that what --benchmark_filter leaves out costs nothing. With
// on_field_text the bytes are field_text(input).
template <class MakeOp, class MakeBase>
void pair(const char* op, const in_ptr& in, const std::string& k, MakeOp make_op,
          MakeBase make_base, bool on_field_text = false) {
  auto* b = benchmark::RegisterBenchmark(
      bench_name(op, k, in->name()).c_str(),
      [in, k, make_op, make_base, on_field_text](benchmark::State& state) {
        if (!force_kernel(state, k)) return;
        if (!answers_agree(*in)) {
          return state.SkipWithError("a paired call: wrong answer");
        }
        if (!on_field_text) return bm_pair(state, make_op(in->bytes()), make_base(in->bytes()));
        const std::shared_ptr<const std::string> text = field_text(in->bytes());
        if (!utf8guard::validate(*text, utf8guard::policy::field()).ok()) {
          return state.SkipWithError("the field text still holds a denied character");
        }
        bm_pair(state, make_op(*text), make_base(*text));
      });
  // From memory a round is one call each way, a few milliseconds: 0.2 s
  // gives a repetition's median a dozen rounds or more.
  if (in->kind() == input_kind::memory) b->MinTime(0.2);
}

template <std::size_t Chunk>
auto stream_call(std::string_view b) {
  return [b, v = std::make_shared<utf8guard::validator>()] {
    benchmark::DoNotOptimize(stream(*v, b, Chunk));
  };
}

auto read_call(std::string_view b) {
  return [p = reinterpret_cast<const std::uint8_t*>(b.data()), n = b.size()] {
    benchmark::DoNotOptimize(read_pass(p, n));
  };
}

}  // namespace

void register_pairs(const input_list& inputs) {
  const std::vector<std::string> ks = usable_kernels();
  utf8guard::set_kernel("best");
  const std::string best(utf8guard::active_kernel());
  for (const in_ptr& in : inputs) {
    if (!in->times_validation()) continue;
    for (const std::string& k : ks) {
      pair("pair_validate_is_valid", in, k, validate_call, is_valid_call);
      pair("pair_stream4k_validate", in, k, stream_call<4096>, validate_call);
      pair("pair_stream64k_validate", in, k, stream_call<65536>, validate_call);
      pair("pair_field_is_valid", in, k, field_call, is_valid_call, true);
      pair("pair_sanitize_field_sanitize", in, k, sanitize_call<true>, sanitize_call<false>, true);
    }
    pair("pair_is_valid_read", in, best, is_valid_call, read_call);
  }
}

}  // namespace bench
