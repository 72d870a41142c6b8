// position.hpp - line and column of a byte offset, tracked while a stream goes
// by, at a cost that stays small next to validation.
//
// LINE is 1 + the number of LF bytes before the offset. COLUMN counts, from
// 1, what lies between the last LF and the offset: code points for UTF-8
// input, bytes for percent-encoded input (check --percent, where an offset
// counts encoded bytes and a column counts them too).
//
// A code point is a well-formed sequence or a maximal subpart (what sanitize
// turns into one character). Every such unit begins with a byte outside
// 80..BF, except a maximal subpart that is a lone continuation byte
// (unexpected_continuation). So: code points = bytes outside 80..BF +
// unexpected_continuation errors, and the tracker counts bytes with plain
// loops the compiler vectorizes, while the error path adds the lone
// continuation bytes one by one.
#ifndef UTF8GUARD_CLI_POSITION_HPP
#define UTF8GUARD_CLI_POSITION_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace utf8guard::cli {

// count_bytes_if counts the bytes of p[0..n) for which pred holds. Byte-wide
// lane counters (at most 255 rounds before they are summed) let the compiler
// use one vector compare and one subtract per 16 or 32 bytes.
template <class Pred>
inline std::uint64_t count_bytes_if(const unsigned char* p, std::size_t n, Pred pred) noexcept {
  constexpr std::size_t kLanes = 32;
  constexpr std::size_t kMaxRounds = 255;
  std::uint64_t total = 0;
  while (n >= kLanes) {
    std::size_t rounds = n / kLanes;
    if (rounds > kMaxRounds) rounds = kMaxRounds;
    std::uint8_t lane[kLanes] = {};
    for (std::size_t r = 0; r < rounds; ++r, p += kLanes) {
      for (std::size_t k = 0; k < kLanes; ++k)
        lane[k] = static_cast<std::uint8_t>(lane[k] + (pred(p[k]) ? 1 : 0));
    }
    for (std::size_t k = 0; k < kLanes; ++k) total += lane[k];
    n -= rounds * kLanes;
  }
  for (; n != 0; --n, ++p) total += pred(*p) ? 1 : 0;
  return total;
}

// count_lf counts the LF bytes of p[0..n).
inline std::uint64_t count_lf(const unsigned char* p, std::size_t n) noexcept {
  return count_bytes_if(p, n, [](unsigned char b) { return b == '\n'; });
}

// count_starts counts the bytes of p[0..n) that are not continuation bytes
// (80..BF): in well-formed text, the number of code points.
inline std::uint64_t count_starts(const unsigned char* p, std::size_t n) noexcept {
  return count_bytes_if(p, n, [](unsigned char b) { return static_cast<signed char>(b) > -65; });
}

// column_unit is what COLUMN counts.
enum class column_unit { code_points, bytes };

// basic_position_tracker knows the line and column at offset position() of a
// stream that is fed to it in order.
template <column_unit Unit>
class basic_position_tracker {
 public:
  // advance accounts for the stream bytes [position(), position() + n), at p.
  void advance(const unsigned char* p, std::size_t n) noexcept {
    if (n == 0) return;
    const std::uint64_t lfs = count_lf(p, n);
    if (lfs == 0) {
      if constexpr (Unit == column_unit::code_points) units_ += count_starts(p, n);
    } else {
      lines_ += lfs;
      const auto* last = static_cast<const unsigned char*>(::memrchr(p, '\n', n));
      const std::size_t before = static_cast<std::size_t>(last + 1 - p);
      line_start_ = position_ + before;
      if constexpr (Unit == column_unit::code_points) units_ = count_starts(last + 1, n - before);
    }
    position_ += n;
  }

  // lone_continuation counts the maximal subpart at position(), a single
  // continuation byte that advance() does not see as a code point.
  void lone_continuation() noexcept {
    if constexpr (Unit == column_unit::code_points) ++units_;
  }

  [[nodiscard]] std::uint64_t position() const noexcept { return position_; }
  [[nodiscard]] std::uint64_t line() const noexcept { return lines_ + 1; }
  [[nodiscard]] std::uint64_t column() const noexcept {
    if constexpr (Unit == column_unit::code_points) {
      return units_ + 1;
    } else {
      return position_ - line_start_ + 1;
    }
  }

 private:
  std::uint64_t position_ = 0;
  std::uint64_t lines_ = 0;       // LF bytes before position_
  std::uint64_t line_start_ = 0;  // the offset after the last of them
  std::uint64_t units_ = 0;       // code points between the last LF and position_
};

using position_tracker = basic_position_tracker<column_unit::code_points>;
using byte_position_tracker = basic_position_tracker<column_unit::bytes>;

}  // namespace utf8guard::cli

#endif  // UTF8GUARD_CLI_POSITION_HPP
