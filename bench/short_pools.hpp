// short_pools.hpp - pools of short strings cut from a text, for the
// per-call cost of validating headers, JSON keys and URL segments
// (utf8guard_short, short_bench.cpp).
#ifndef UTF8GUARD_BENCH_SHORT_POOLS_HPP
#define UTF8GUARD_BENCH_SHORT_POOLS_HPP

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace bench {

// A size class: strings of lo..hi bytes.
struct size_class {
  std::size_t lo;
  std::size_t hi;
};
inline constexpr size_class kShortClasses[] = {{1, 8}, {9, 16}, {17, 32}, {33, 64}, {65, 128}};

// A pool: kPoolStrings strings, each cut at a position of its own and all
// back to back in one buffer (as the fields of a request are), each a view
// into it. Contents repeat where a text holds few strings of the class
// (Chinese lipsum has about 2,300 distinct strings of 1-8 bytes); the
// benchmarks report how many differ. 65,536 and not fewer: a walk over the
// pool is repeated, and a branch predictor learns a branching validator's
// path through a walk of 16,384 strings well enough (ICU's loop on strings
// of 1-8 bytes, a classifier's on the error pools) to hide the
// mispredictions that random lengths and contents cost it in real use.
inline constexpr std::size_t kPoolStrings = 65536;
struct string_pool {
  std::string name;      // TEXT_LO-HIB, and _err for the error variant
  bool valid;            // every string well-formed (or every one ill-formed)
  std::size_t distinct;  // how many contents differ
  std::string arena;
  std::vector<std::string_view> strings;
};

// pool_name is the name of the pool cut_pool makes.
std::string pool_name(const std::string& text_name, size_class c, bool with_error);

// cut_pool cuts kPoolStrings strings from text (well-formed UTF-8):
// each from a random character boundary, of a length drawn uniformly from
// the class and then shortened to the character boundary at or before it
// (a draw that leaves fewer than lo bytes is drawn again). With errors, each
// string then gets one byte, at a random position, replaced by a byte that
// makes it ill-formed there. The same seed gives the same pool everywhere.
// Throws std::runtime_error when the text is ill-formed or too short.
string_pool cut_pool(const std::string& text_name, std::string_view text, size_class c,
                     bool with_error);

}  // namespace bench

#endif  // UTF8GUARD_BENCH_SHORT_POOLS_HPP
