// policy_filter.hpp - a policy over the streaming engine's handlers.
//
// The engine (engine.hpp) hands a handler the input in order: valid runs,
// which are well-formed, and errors. policy_filter sits between the engine
// and the handler: it checks each valid run against the policy and splits it
// at each denied character, which reaches the handler as an error of kind
// disallowed, in input order, exactly where a maximal subpart would. So the
// validator stops there, the scanner reports it, and the sanitizer replaces
// it with one U+FFFD, without a line of policy code in any of them.
//
// A valid run may end inside a character only where the engine carried that
// character's first bytes across a chunk boundary; it hands them over, then
// the rest, in the same feed. The filter holds such a start back until the
// character is complete, so a violation is reported by the feed that
// completes it, and the bytes reach the handler only once judged.
//
// The filter declares none of the engine's shortcuts (kReplaces,
// kIgnoresValid, kTakesLists): every valid byte must pass through it.
#ifndef UTF8GUARD_STREAM_POLICY_FILTER_HPP
#define UTF8GUARD_STREAM_POLICY_FILTER_HPP

#include <cstddef>
#include <cstdint>

#include "stream/policy_scan.hpp"

namespace utf8guard::detail {

template <class Inner>
class policy_filter {
 public:
  // position is the absolute offset of the first byte the engine will hand
  // over in this feed (the carried bytes' offset, when there are some).
  policy_filter(Inner& inner, utf8guard_policy deny, std::size_t position) noexcept
      : inner_(inner), deny_(deny), pos_(position) {}

  bool valid(const std::uint8_t* p, std::size_t n) {
    std::size_t i = 0;
    if (pending_len_ != 0) {
      const std::size_t need = sequence_length(pending_[0]) - pending_len_;
      const std::size_t take = need < n ? need : n;
      for (std::size_t k = 0; k < take; ++k) pending_[pending_len_ + k] = p[k];
      pending_len_ += take;
      i = take;
      if (pending_len_ == sequence_length(pending_[0])) {
        const std::size_t len = pending_len_;
        pending_len_ = 0;
        if (!judge(pending_, len, pos_ - (len - take))) return false;
      }
    }
    // The run's last character may be cut: its start waits in pending_.
    const std::size_t end = i + complete_prefix(p + i, n - i);
    while (i < end) {
      const result r = find_violation(p + i, end - i, pos_ + i, deny_);
      if (r.ok()) {
        if (!inner_.valid(p + i, end - i)) return false;
        break;
      }
      const std::size_t at = r.offset - pos_;
      if (at != i && !inner_.valid(p + i, at - i)) return false;
      if (!inner_.error(r)) return false;
      i = at + r.length;
    }
    for (std::size_t k = end; k < n; ++k) pending_[pending_len_++] = p[k];
    pos_ += n;
    return true;
  }

  bool error(const result& r) {
    if (pending_len_ != 0) {  // not expected: a cut character ends before any error
      const std::size_t len = pending_len_;
      pending_len_ = 0;
      if (!inner_.valid(pending_, len)) return false;
    }
    pos_ = r.offset + r.length;
    return inner_.error(r);
  }

 private:
  // judge hands the complete character s[0..len), at absolute offset at, to
  // the handler: as a violation or as valid bytes.
  bool judge(const std::uint8_t* s, std::size_t len, std::size_t at) {
    const result r = violation_at(s, len, at, deny_);
    return r.ok() ? inner_.valid(s, len) : inner_.error(r);
  }

  // complete_prefix is the length of the longest prefix of the well-formed
  // run p[0..n) (whose first byte starts a character) that ends where a
  // character does: all of it unless its last lead, at most 3 bytes back,
  // needs more bytes than follow it.
  static std::size_t complete_prefix(const std::uint8_t* p, std::size_t n) noexcept {
    for (std::size_t k = 1; k <= 3 && k <= n; ++k) {
      const std::uint8_t b = p[n - k];
      if ((b & 0xC0) != 0x80) return sequence_length(b) > k ? n - k : n;
    }
    return n;
  }

  Inner& inner_;
  utf8guard_policy deny_;
  std::size_t pos_;  // absolute offset of the next byte handed over
  std::uint8_t pending_[4] = {};
  std::size_t pending_len_ = 0;
};

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_STREAM_POLICY_FILTER_HPP
