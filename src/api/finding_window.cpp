// finding_window.cpp - the bytes a finding's message reads, kept as a stream
// goes by: utf8guard::finding_window and the C API's utf8guard_finding_window
// (utf8guard.h, "Finding windows"). One window for every streaming caller,
// so that the CLI, the nginx module and the Python and Node streams show one
// message for one finding, the message of the whole input.
//
// Before a finding the window keeps the last bytes fed (history); a mark
// starts the finding's window from them, and the chunks fed after it fill the
// window up to the form's describe window.
#include <cstring>

#include "core/convert.hpp"
#include "utf8guard/utf8guard.hpp"

namespace utf8guard {
namespace detail {
namespace {

using window_state = utf8guard_finding_window;

// The describe window of each form: what its describe and explain read
// (behind, ahead), and what describe reads without a hint (shown): the 4
// bytes it shows, which take 12 percent-encoded bytes, or 30 of JSON text
// (three escapes of 6 and an escaped pair of 12).
struct reach {
  unsigned char behind;
  unsigned char ahead;
  unsigned char shown;
};
constexpr reach kReach[] = {
    {UTF8GUARD_DESCRIBE_BEHIND, UTF8GUARD_DESCRIBE_AHEAD, 4},
    {UTF8GUARD_DESCRIBE_PERCENT_BEHIND, UTF8GUARD_DESCRIBE_PERCENT_AHEAD, 4 * 3},
    {UTF8GUARD_DESCRIBE_JSON_BEHIND, UTF8GUARD_DESCRIBE_JSON_AHEAD, 3 * 6 + 12},
};
constexpr unsigned kHistory = UTF8GUARD_FINDING_WINDOW_HISTORY;
constexpr unsigned kMax = UTF8GUARD_FINDING_WINDOW_MAX;

constexpr bool window_holds_every_form() {
  for (const reach& r : kReach) {
    if (unsigned{r.behind} + r.ahead > kMax || r.shown > r.ahead ||
        UTF8GUARD_FINDING_WINDOW_LATE + unsigned{r.behind} > kHistory) {
      return false;
    }
  }
  return true;
}
static_assert(window_holds_every_form(), "a form's describe window does not fit");

void start(window_state& w, form f, unsigned flags) noexcept {
  std::memset(&w, 0, sizeof w);
  auto k = static_cast<unsigned>(f);
  if (k >= sizeof kReach / sizeof kReach[0]) k = 0;
  const reach& r = kReach[k];
  w.priv_form = static_cast<unsigned char>(k);
  w.priv_behind = r.behind;
  w.priv_ahead = (flags & UTF8GUARD_DESCRIBE_HINT) != 0 ? r.ahead : r.shown;
}

// add appends the bytes of data[0..len), which start at input offset at,
// that fall in the finding's window.
void add(window_state& w, const unsigned char* data, std::size_t len, std::size_t at) noexcept {
  const std::size_t end = w.priv_base + w.priv_behind + w.priv_ahead;
  const std::size_t from = w.priv_base + w.priv_len;  // the next byte the window wants
  if (at + len <= from || from >= end) return;
  const std::size_t skip = from > at ? from - at : 0;
  std::size_t take = len - skip;
  if (take > end - from) take = end - from;
  std::memcpy(w.priv_bytes + w.priv_len, data + skip, take);
  w.priv_len = static_cast<unsigned char>(w.priv_len + take);
}

// remember keeps the last kHistory bytes fed.
void remember(window_state& w, const unsigned char* data, std::size_t len) noexcept {
  if (len >= kHistory) {
    std::memcpy(w.priv_history, data + len - kHistory, kHistory);
    w.priv_history_len = kHistory;
    return;
  }
  const std::size_t keep =
      w.priv_history_len + len > kHistory ? kHistory - len : w.priv_history_len;
  std::memmove(w.priv_history, w.priv_history + w.priv_history_len - keep, keep);
  std::memcpy(w.priv_history + keep, data, len);
  w.priv_history_len = static_cast<unsigned char>(keep + len);
}

bool mark(window_state& w, std::size_t offset) noexcept {
  if (w.priv_marked) return false;
  w.priv_marked = 1;
  w.priv_offset = offset;
  const std::size_t oldest = w.priv_fed - w.priv_history_len;
  w.priv_base = offset > w.priv_behind ? offset - w.priv_behind : 0;
  if (w.priv_base < oldest) w.priv_base = oldest;
  w.priv_len = 0;
  add(w, w.priv_history, w.priv_history_len, oldest);
  return true;
}

void feed(window_state& w, const unsigned char* data, std::size_t len) noexcept {
  if (len == 0) return;  // (nullptr, 0) too: memcpy must never see a null pointer
  if (w.priv_marked) {
    add(w, data, len, w.priv_fed);
  } else {
    remember(w, data, len);
  }
  w.priv_fed += len;
}

bool ready(const window_state& w) noexcept {
  return w.priv_marked &&
         (w.priv_ended || w.priv_base + w.priv_len >= w.priv_offset + w.priv_ahead);
}

// kept is how many of the window's bytes to hand to describe, which takes
// their end for the input's: all of them, but for a percent escape that end
// cuts while more may come (a '%' in the last two bytes, a hex digit after).
std::size_t kept(const window_state& w) noexcept {
  std::size_t n = w.priv_len;
  if (w.priv_form != UTF8GUARD_FORM_PERCENT || ready(w)) return n;
  const unsigned char* p = w.priv_bytes;
  const auto hex = [](unsigned char b) {
    return (b >= '0' && b <= '9') || ((b | 0x20) >= 'a' && (b | 0x20) <= 'f');
  };
  if (n >= 1 && p[n - 1] == '%') return n - 1;
  if (n >= 2 && p[n - 2] == '%' && hex(p[n - 1])) return n - 2;
  return n;
}

}  // namespace
}  // namespace detail

finding_window::finding_window(form f, unsigned flags) noexcept { detail::start(state_, f, flags); }

bool finding_window::mark(std::size_t offset) noexcept { return detail::mark(state_, offset); }

void finding_window::feed(std::string_view chunk) noexcept {
  detail::feed(state_, reinterpret_cast<const unsigned char*>(chunk.data()), chunk.size());
}

void finding_window::finish() noexcept { state_.priv_ended = 1; }

bool finding_window::marked() const noexcept { return state_.priv_marked != 0; }

bool finding_window::ready() const noexcept { return detail::ready(state_); }

std::string_view finding_window::bytes() const noexcept {
  return {reinterpret_cast<const char*>(state_.priv_bytes), detail::kept(state_)};
}

std::size_t finding_window::base() const noexcept { return state_.priv_base; }

}  // namespace utf8guard

extern "C" {

void utf8guard_finding_window_init(utf8guard_finding_window* w, utf8guard_form f, unsigned flags) {
  if (w == nullptr) return;
  // A C caller may pass any int: read it as one (core/convert.hpp, c_int).
  const int k = utf8guard::detail::c_int(f);
  const bool known = k == UTF8GUARD_FORM_PERCENT || k == UTF8GUARD_FORM_JSON;
  utf8guard::detail::start(*w, known ? static_cast<utf8guard::form>(k) : utf8guard::form::raw,
                           flags);
}

bool utf8guard_finding_window_mark(utf8guard_finding_window* w, size_t offset) {
  return w != nullptr && utf8guard::detail::mark(*w, offset);
}

void utf8guard_finding_window_feed(utf8guard_finding_window* w, const char* data, size_t len) {
  if (w != nullptr && (data != nullptr || len == 0)) {
    utf8guard::detail::feed(*w, reinterpret_cast<const unsigned char*>(data), len);
  }
}

void utf8guard_finding_window_finish(utf8guard_finding_window* w) {
  if (w != nullptr) w->priv_ended = 1;
}

bool utf8guard_finding_window_marked(const utf8guard_finding_window* w) {
  return w != nullptr && w->priv_marked != 0;
}

bool utf8guard_finding_window_ready(const utf8guard_finding_window* w) {
  return w != nullptr && utf8guard::detail::ready(*w);
}

const char* utf8guard_finding_window_bytes(const utf8guard_finding_window* w, size_t* len,
                                           size_t* base) {
  const bool some = w != nullptr && w->priv_marked;
  if (len != nullptr) *len = some ? utf8guard::detail::kept(*w) : 0;
  if (base != nullptr) *base = some ? w->priv_base : 0;
  return some ? reinterpret_cast<const char*>(w->priv_bytes) : "";
}

}  // extern "C"
