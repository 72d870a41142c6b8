// inputs.hpp - the bytes every benchmark runs on: deterministic synthetic
// texts generated in-process, and files named on the command line.
//
// The generators use their own PRNG (splitmix64) and no <random>
// distributions, whose output differs between standard libraries: the g++ and
// the clang build must time exactly the same bytes.
#ifndef UTF8GUARD_BENCH_INPUTS_HPP
#define UTF8GUARD_BENCH_INPUTS_HPP

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bench {

// splitmix64 (Steele, Lea, Flood 2014): tiny, fast, and the same everywhere;
// every generator of the benchmarks draws from it.
class prng {
 public:
  explicit prng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // below(n) is in [0, n); the modulo bias (< 2^-40 here) does not matter.
  std::uint64_t below(std::uint64_t n) { return (next() >> 11) % n; }

 private:
  std::uint64_t state_;
};

// Where an input lives decides which benchmarks run on it and how the report
// groups it.
enum class input_kind {
  cached,  // fits L2 (synthetic 256 KiB, or a file from the command line)
  memory,  // much larger than L3: the bytes stream from DRAM
  small,   // a pool of short strings (8..1024 bytes), timed per call
};

// input is one named byte string, generated on first use so that inputs a
// --benchmark_filter excludes cost nothing.
class input {
 public:
  // for_validation says whether validators should be timed on it: true for
  // well-formed inputs, false for ones with errors from the start (they are
  // for sanitize and the error scanner); unset means "look at the bytes".
  // shift places the bytes that many bytes past a 64-byte boundary (the
  // widest register); unset, they are where the allocator put a std::string.
  input(std::string name, input_kind kind, std::function<std::string()> make,
        std::optional<bool> for_validation = std::nullopt,
        std::optional<std::size_t> shift = std::nullopt);

  const std::string& name() const { return name_; }
  input_kind kind() const { return kind_; }
  std::string_view bytes() const;
  // first_error is the offset of the first ill-formed byte, or size() when
  // the input is well-formed (computed once, with utf8guard::validate).
  std::size_t first_error() const;
  // chars counts the bytes that start a character (all but 10xxxxxx): the
  // "items" of a benchmark.
  std::size_t chars() const;
  // times_validation: see the constructor; unset, it is true when the first
  // error lies in the last 10 % of the input, so a validator reads (nearly)
  // all of it and its throughput means something.
  bool times_validation() const;

 private:
  void realize() const;
  std::string name_;
  input_kind kind_;
  std::function<std::string()> make_;
  std::optional<bool> for_validation_;
  std::optional<std::size_t> shift_;
  mutable std::shared_ptr<const std::string> storage_;  // holds bytes_
  mutable std::string_view bytes_;
  mutable std::size_t first_error_ = 0;
  mutable std::size_t chars_ = 0;
};

// A small-input pool: many distinct strings of one size, so that a loop over
// them does not replay one branch history (headers and JSON keys differ).
struct small_pool {
  std::string name;  // e.g. "mixed_64B"
  std::size_t size;
  std::vector<std::string> strings;
};

// Generators. Every character's scalar value is uniform within its length's
// range (surrogates excluded); sizes are exact, padded with ASCII at the end.
std::string make_ascii(std::size_t n, std::uint64_t seed);  // printable, LF every 80 bytes
std::string make_fixed_length(std::size_t n, int char_len, std::uint64_t seed);  // 1..4 bytes
std::string make_mixed(std::size_t n, std::uint64_t seed);  // each length 1..4 equally likely
// make_with_errors is make_mixed with an ill-formed sequence roughly every
// 1/rate bytes, cycling through every error kind of docs/design.md.
std::string make_with_errors(std::size_t n, double rate, std::uint64_t seed);
std::string make_random_bytes(std::size_t n, std::uint64_t seed);
// make_bursts is nothing but broken sequences back to back, chosen at random
// (C2, E1 80, F1 80 80, FF, C0 80): subparts of 1-3 bytes in an order no
// branch predictor can learn, the worst case for a classifier that branches.
std::string make_bursts(std::size_t n, std::uint64_t seed);

// make_requests is a stand-in for the request lines of requests_1MiB.txt
// (below) with their shape: "METHOD /SCRIPT/SEGMENT...[?KEY=VALUE&...]
// HTTP/1.1" a line, whole lines up to n bytes, every word drawn from one of
// the lipsum texts' scripts and every byte of a non-ASCII word escaped as %XX
// (upper case), words in a value joined with '+'.
std::string make_requests(std::size_t n, std::uint64_t seed);

// requests_input is $UTF8GUARD_BENCH_DATA/urls/requests_1MiB.txt (request
// lines, most of their bytes in escapes; the percent-encoded benchmarks time
// it) when that file exists, else make_requests' stand-in of the same size,
// named "requests-Generated_1MiB", with a notice on stderr. It is not one of
// the synthetic inputs: only the benchmarks of percent-encoded input use it.
std::shared_ptr<input> requests_input();

// targets_of is the target of each "METHOD TARGET ..." line.
std::vector<std::string_view> targets_of(std::string_view lines);
// form_of_requests is a 10 MiB form body of the request lines' queries ("a=b"
// for a target without one) joined by '&', as bench/nginx/requests.lua builds
// it: most bytes in escapes. form_of_text is the text's lines form-encoded
// (application/x-www-form-urlencoded: ' ' as '+', bytes other than ASCII
// letters, digits and -._~ as %XX), each the value of a field "text", joined
// to 10 MiB the same way. Neither ends inside an escape.
std::string form_of_requests(std::string_view lines);
std::string form_of_text(std::string_view text);

// The synthetic inputs of the suite, in report order.
std::vector<std::shared_ptr<input>> synthetic_inputs();

// file_input loads a file (throws std::runtime_error if it cannot). Its name
// is the file's base name without ".utf8.txt", ".txt" or ".bin"; shift as for
// input's constructor.
std::shared_ptr<input> file_input(const std::string& path,
                                  std::optional<std::size_t> shift = std::nullopt);
std::string input_name_from_path(std::string_view path);

// small_pools builds the pools for sizes 8, 16, 64, 256, 1024 (ASCII and mixed).
std::vector<small_pool> small_pools();

}  // namespace bench

#endif  // UTF8GUARD_BENCH_INPUTS_HPP
