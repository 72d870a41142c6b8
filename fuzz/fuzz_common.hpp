// fuzz_common.hpp - what every fuzz target shares: a splitter for the fuzz
// data, the usable kernels, ICU as a second oracle, and the one way a target
// fails (the input in hex, each implementation's answer, then abort()). The
// helpers the tests share too (hex, describe, same, the kernel choice, ICU)
// come from tests/support.
//
// Every target is an LLVMFuzzerTestOneInput built three ways from one source:
// libFuzzer, AFL++ (through its libFuzzer-compatible driver) and the plain
// replay main (replay_main.cpp) that gcc builds and ctest runs. So nothing
// here may depend on a fuzzing engine: FuzzedDataProvider.h ships with clang
// only, which is why data_reader exists.
#ifndef UTF8GUARD_FUZZ_COMMON_HPP
#define UTF8GUARD_FUZZ_COMMON_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/validate.hpp"  // private: detail::kernel_list
#include "chunks.hpp"
#include "core/convert.hpp"  // private: detail::bytes
#include "hex.hpp"
#include "icu.hpp"
#include "kernel_choice.hpp"
#include "reference.hpp"
#include "results.hpp"
#include "utf8guard/utf8guard.hpp"

// ASan's manual poisoning where it is built in; nothing elsewhere.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UTF8GUARD_FUZZ_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define UTF8GUARD_FUZZ_ASAN 1
#endif
#ifdef UTF8GUARD_FUZZ_ASAN
#include <sanitizer/asan_interface.h>
#define UTF8GUARD_FUZZ_POISON(p, n) __asan_poison_memory_region((p), (n))
#define UTF8GUARD_FUZZ_UNPOISON(p, n) __asan_unpoison_memory_region((p), (n))
#else
#define UTF8GUARD_FUZZ_POISON(p, n) ((void)(p), (void)(n))
#define UTF8GUARD_FUZZ_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace fuzz {

using utf8guard::testing::code_point_name;
using utf8guard::testing::describe;
using utf8guard::testing::forced_kernel;
using utf8guard::testing::hex;
using utf8guard::testing::icu_error;
using utf8guard::testing::icu_first_error;
using utf8guard::testing::icu_sanitize;
using utf8guard::testing::icu_sanitized;
using utf8guard::testing::is_active;
using utf8guard::testing::same;

// usable_kernels is tests/support's list, asked of the library once per
// process: kernels() builds its answer in the heap, whose addresses the
// instrumented library compares (fixed_arena, below), and the list does not
// change while a process runs.
inline const std::vector<std::string>& usable_kernels() {
  static const std::vector<std::string> all = utf8guard::testing::usable_kernels();
  return all;
}

// data_reader splits the fuzz data the way libFuzzer's FuzzedDataProvider
// does: control values come off the end, payload bytes off the front, so a
// mutation of the payload rarely changes how it is split and the seed corpus
// (plain text files) works as is: their last bytes simply become the controls.
class data_reader {
 public:
  data_reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  // take_byte consumes one control byte from the end (0 when none is left).
  std::uint8_t take_byte() {
    if (size_ == 0) return 0;
    --size_;
    return data_[size_];
  }

  // take_u16 consumes up to two control bytes from the end, little-endian.
  std::uint16_t take_u16() {
    const unsigned lo = take_byte();
    const unsigned hi = take_byte();
    return static_cast<std::uint16_t>(lo | (hi << 8));
  }

  // rest returns every byte not yet consumed, as the payload.
  std::string_view rest() const {
    // SAFETY: data_[0..size_) is the unconsumed part of the engine's buffer.
    return {reinterpret_cast<const char*>(data_), size_};
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
};

// as_view turns the engine's buffer into bytes the library takes.
inline std::string_view as_view(const std::uint8_t* data, std::size_t size) {
  // SAFETY: data[0..size) is the engine's buffer; (nullptr, 0) is the empty view.
  return {reinterpret_cast<const char*>(data), size};
}

// answer is one implementation's verdict, already rendered for the report.
using answer = std::pair<std::string, std::string>;

// fail reports a disagreement and aborts, which every engine records as a
// crash and the replay main as a failed test. It prints the whole input: a
// reproducer must be exact, and the engines keep inputs small (max_len).
[[noreturn]] inline void fail(const char* target, const char* what, std::string_view input,
                              const std::vector<answer>& answers) {
  std::fprintf(stderr, "\n==== utf8guard fuzz target %s: %s\n", target, what);
  std::fprintf(stderr, "input (%zu bytes): %s\n", input.size(), hex(input).c_str());
  for (const answer& a : answers) {
    std::fprintf(stderr, "  %-28s %s\n", a.first.c_str(), a.second.c_str());
  }
  std::fflush(stderr);
  std::abort();
}

// A fixed place for the copies the library reads. Under value profiling
// (-use_value_profile=1) an instrumented comparison is a feature per bit
// count of its operands' difference, and the library compares pointers (a
// null check, a pointer against the end of its buffer): in a fresh heap
// allocation, or in the engine's buffer, those bits change from run to run,
// so the same input gave other features each time it ran, the engine kept
// copies of inputs for them and spent its time on their bookkeeping. A copy
// placed in this static arena has the same address every time the same input
// runs. What lies outside a copy is poisoned under ASan, so a read past its
// end is caught as in a heap allocation of the copy's size (and one before
// its start, but for the bytes of its first 8-byte granule: ASan poisons no
// less). Copies are taken and given back in stack order (scoped objects);
// one that does not fit goes to the heap.
class fixed_arena {
 public:
  static constexpr std::size_t kSize = std::size_t{1} << 18;
  static constexpr std::size_t kAlign = 64;

  // take returns room for size bytes at an offset of shift from a 64-byte
  // boundary, the bytes around it poisoned; nullptr when it does not fit.
  static char* take(std::size_t size, std::size_t shift) {
    fixed_arena& a = get();
    const std::size_t at = (a.top_ + kAlign - 1) / kAlign * kAlign + shift % kAlign;
    if (at > kSize || size > kSize - at) return nullptr;
    a.tops_.push_back(a.top_);
    a.top_ = at + size;
    UTF8GUARD_FUZZ_UNPOISON(a.bytes_ + at, size);
    return a.bytes_ + at;
  }
  // give_back returns the room last taken, poisoned again.
  static void give_back() {
    fixed_arena& a = get();
    a.top_ = a.tops_.back();
    a.tops_.pop_back();
    UTF8GUARD_FUZZ_POISON(a.bytes_ + a.top_, kSize - a.top_);
  }

 private:
  fixed_arena() { UTF8GUARD_FUZZ_POISON(bytes_, kSize); }
  static fixed_arena& get() {
    static fixed_arena a;
    return a;
  }
  alignas(4096) char bytes_[kSize];
  std::size_t top_ = 0;
  std::vector<std::size_t> tops_;
};

// misaligned_copy places the input shift bytes past a 64-byte boundary (odd
// shifts: SIMD kernels then see it unaligned; 0: aligned), at the same
// address each time the same input runs (fixed_arena), with a read past its
// end caught by ASan, as in the engine's own exact-size buffer.
struct misaligned_copy {
  std::unique_ptr<char[]> storage;  // only when the arena has no room
  std::string_view view;
  explicit misaligned_copy(std::string_view in, std::size_t shift) {
    char* start = fixed_arena::take(in.size(), shift);
    if (start == nullptr) {
      storage.reset(new char[in.size() + shift]);
      start = storage.get() + shift;
    }
    if (!in.empty()) std::memcpy(start, in.data(), in.size());
    view = std::string_view(start, in.size());
  }
  ~misaligned_copy() {
    if (!storage) fixed_arena::give_back();
  }
  misaligned_copy(const misaligned_copy&) = delete;
  misaligned_copy& operator=(const misaligned_copy&) = delete;
};

// decisive_byte is the index of the byte whose arrival makes the input
// impossible, for a streaming validator's "reported by the feed() that
// delivers the byte" rule: the lone byte itself, the second byte that leaves
// E0/ED/F0/F4's range, or the byte that cuts a valid prefix. "incomplete"
// has none (only finish() reports it), so it returns SIZE_MAX.
inline std::size_t decisive_byte(const utf8guard::result& r, std::string_view in) {
  using utf8guard::error;
  switch (r.kind) {
    case error::truncated: return r.offset + r.length;
    case error::overlong:
    case error::surrogate:
    case error::too_large: {
      const auto lead = static_cast<unsigned char>(in[r.offset]);
      return lead >= 0xE0 ? r.offset + 1 : r.offset;  // C0/C1 are wrong on their own
    }
    case error::incomplete:
    case error::none: return SIZE_MAX;
    default: return r.offset;
  }
}

// input_hash is FNV-1a over the whole fuzz data.
inline std::uint64_t input_hash(const std::uint8_t* data, std::size_t size) {
  std::uint64_t h = 0xcbf29ce484222325u;
  for (std::size_t k = 0; k < size; ++k) h = (h ^ data[k]) * 0x100000001b3u;
  return h;
}

// sampled is what one input runs on out of `all` (kernels, bodies), for the
// targets that would be slow trying each on every input (fuzz/README.md).
// Under a fuzzing engine: the one element the input's hash picks, so that
// the same input always runs on the same one (on a machine with the same
// list) and a finding reproduces, while a campaign meets every one. In the
// replay main (UTF8GUARD_FUZZ_REPLAY: ctest's corpus and vectors replay),
// all of them.
template <class T>
std::vector<T> sampled(std::vector<T> all, const std::uint8_t* data, std::size_t size) {
#ifdef UTF8GUARD_FUZZ_REPLAY
  (void)data;
  (void)size;
  return all;
#else
  if (all.empty()) return all;
  return {all[input_hash(data, size) % all.size()]};
#endif
}

// spread_sample says which of the n items of one input (the findings of a
// target that checks each at some cost) that input checks, for the targets
// whose items can number in the thousands. Under a fuzzing engine: every
// item when there are at most `budget`; else the first and last budget / 8
// (the ends of the input, where windows are cut short) and one item in
// every `stride` between them, at a phase drawn from the input's hash (salt
// picks other bits for another list), about `budget` in all. The same input
// always checks the same items, so a finding reproduces, and a campaign
// meets every position. In the replay main, every item.
class spread_sample {
 public:
  spread_sample(std::size_t n, std::size_t budget, const std::uint8_t* data, std::size_t size,
                unsigned salt = 0)
      : n_(n) {
#ifdef UTF8GUARD_FUZZ_REPLAY
    (void)budget;
    (void)data;
    (void)size;
    (void)salt;
#else
    if (n <= budget || budget < 16) return;
    edge_ = budget / 8;
    const std::size_t middle = n - 2 * edge_;
    const std::size_t slots = budget - 2 * edge_;
    stride_ = (middle + slots - 1) / slots;
    phase_ = static_cast<std::size_t>((input_hash(data, size) >> (salt % 48)) % stride_);
#endif
  }
  bool operator()(std::size_t k) const {
    return stride_ == 1 || k < edge_ || k + edge_ >= n_ || (k - edge_) % stride_ == phase_;
  }

 private:
  std::size_t n_;
  std::size_t edge_ = 0;
  std::size_t stride_ = 1;
  std::size_t phase_ = 0;
};

// kernels_to_try is the usable kernels one input runs on (sampled).
inline std::vector<std::string> kernels_to_try(const std::uint8_t* data, std::size_t size) {
  return sampled(usable_kernels(), data, size);
}

// take_splits draws up to 16 raw chunk boundaries from the control bytes.
// They are mapped onto the payload only once its size is known (chunks_of).
inline std::vector<std::uint16_t> take_splits(data_reader& reader) {
  std::vector<std::uint16_t> raw;
  const unsigned count = reader.take_byte() % 17u;
  for (unsigned k = 0; k < count; ++k) raw.push_back(reader.take_u16());
  return raw;
}

// chunks_of cuts the payload at the raw split values (taken modulo n + 1),
// sorted; repeats are kept, so empty chunks are fed too.
inline std::vector<std::string_view> chunks_of(std::string_view in,
                                               const std::vector<std::uint16_t>& raw) {
  std::vector<std::size_t> cuts;
  cuts.reserve(raw.size());
  for (std::uint16_t v : raw) cuts.push_back(v % (in.size() + 1));
  std::sort(cuts.begin(), cuts.end());
  return utf8guard::testing::chunks_of(in, cuts);
}

}  // namespace fuzz

#endif  // UTF8GUARD_FUZZ_COMMON_HPP
