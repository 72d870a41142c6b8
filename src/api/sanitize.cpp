// sanitize.cpp - one-shot sanitizing into a caller buffer or a std::string.
// It runs the same engine and the same replacing_handler as the streaming
// sanitizer (stream/engine.hpp), fed the whole input at once, so the two produce the
// same bytes by construction.
//
// The direction between the APIs: C++ implements, C wraps (see stream.cpp).
// The C form that writes to a caller's buffer runs sanitize_into, as
// sanitize_to() does.
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "api/validate.hpp"
#include "core/convert.hpp"
#include "core/short_input.hpp"
#include "stream/engine.hpp"
#include "stream/policy_filter.hpp"
#include "stream/policy_scan.hpp"

namespace utf8guard::detail {
namespace {

// Writes into out[0..capacity); refuses (false) a write that would overflow.
struct bounded_buffer {
  char* out;
  std::size_t capacity;
  std::size_t* written;
  bool operator()(const char* p, std::size_t n) const noexcept {
    if (n > capacity - *written) return false;
    std::memcpy(out + *written, p, n);  // SAFETY: n <= capacity - written, checked above
    *written += n;
    return true;
  }
};

// run_engine runs the whole input through the engine; false if the handler
// stopped it. position is in's offset in the caller's input (the engine
// reports offsets from it).
template <class Handler>
bool run_engine(std::string_view in, Handler& h, std::size_t position = 0) {
  utf8guard_sanitizer state{};  // a new input (its count of replacements is unused)
  state.priv_position = position;
  const stream_cursor<utf8guard_sanitizer> s{state};
  return stream_feed(s, bytes(in.data()), in.size(), h) && stream_finish(s, h);
}
// run_whole is run_engine, but a short input that is well-formed, the common
// case of a header value or a key, goes to the handler as it is, without the
// engine's setup, which would cost several times the copy: one scan says so
// first, as is_valid's (a short input with an error pays for that scan and
// then the engine's). kShortCopy (kernels/kernel.hpp) is the longest input
// taken so.
template <class Handler>
bool run_whole(std::string_view in, Handler& h, std::size_t position = 0) {
  if (in.size() <= kShortCopy && is_valid(in)) return h.valid(bytes(in.data()), in.size());
  return run_engine(in, h, position);
}

// run_whole_policy is run_whole with the policy's check between the engine
// and the handler (stream/policy_filter.hpp); an empty policy costs nothing.
// A prefix of ASCII that the policy allows whole (quiet_ascii_prefix) goes
// to the handler as it is, found by one pass; the rest, which starts at a
// character boundary, is run as if it started the input, at offsets from q.
template <class Handler>
bool run_whole_policy(std::string_view in, Handler& h, utf8guard_policy deny) {
  if (deny == 0) return run_whole(in, h);
  const std::size_t q = quiet_ascii_prefix(bytes(in.data()), in.size(), deny);
  if (!h.valid(bytes(in.data()), q)) return false;
  if (q == in.size()) return true;
  policy_filter<Handler> f(h, deny, q);
  return run_whole(in.substr(q), f, q);
}

// sanitize_into is the one-shot core: the sanitized input in out[0..cap), or
// false when it does not fit. Sanitizing never shrinks its input, so a buffer
// smaller than the input is refused before any work.
// ShortChecked: the caller found the input too long or ill-formed for the
// short copy already (sanitize_to), so the engine runs at once.
template <bool ShortChecked = false>
bool sanitize_into(std::string_view in, char* out, std::size_t cap, std::size_t& written,
                   std::size_t& replacements, utf8guard_policy deny = 0) noexcept {
  written = 0;
  replacements = 0;
  if (cap < in.size()) return false;
  replacing_handler h{bounded_buffer{out, cap, &written}, replacements};
  if constexpr (ShortChecked) return run_engine(in, h);
  return run_whole_policy(in, h, deny);
}

// sanitized_size is the size of the sanitized input, and its count of
// replacements, without writing it: what a buffer too small needed.
std::size_t sanitized_size(std::string_view in, std::size_t& replacements,
                           utf8guard_policy deny) noexcept {
  std::size_t size = 0;
  replacements = 0;
  replacing_handler h{[&size](const char*, std::size_t n) {
                        size += n;
                        return true;
                      },
                      replacements};
  run_whole_policy(in, h, deny);
  return size;
}

std::size_t sanitized_size(std::string_view in, utf8guard_policy deny) noexcept {
  std::size_t replacements;
  return sanitized_size(in, replacements, deny);
}

// bad_buffers is a caller bug in a one-shot sanitize's arguments (the
// conventions of utf8guard.h): a lost input or a lost output.
bool bad_buffers(std::string_view in, const char* out, std::size_t cap) noexcept {
  return bad_span(in) || bad_span(out, cap);
}

std::string sanitize_string(std::string_view bytes, utf8guard_policy deny) {
  if (bad_span(bytes)) {
    throw std::invalid_argument("utf8guard::sanitize: a null view of non-zero size");
  }
  std::string out;
  out.reserve(bytes.size());
  std::size_t replacements = 0;
  replacing_handler h{[&out](const char* p, std::size_t n) {
                        out.append(p, n);
                        return true;
                      },
                      replacements};
  run_whole_policy(bytes, h, deny);
  return out;
}

// c_sanitize is the C API's one-shot sanitize: refused, writing nothing, on
// a caller bug; else sanitize_into's answer as a status.
utf8guard_status c_sanitize(const char* data, size_t len, char* out, size_t cap, size_t* written,
                            size_t* replacements, utf8guard_policy deny) noexcept {
  std::size_t w = 0, r = 0;
  const bool refused = bad_buffers(c_bytes(data, len), out, cap);
  const bool fits = !refused && sanitize_into(c_bytes(data, len), out, cap, w, r, deny);
  if (!refused && !fits) w = sanitized_size(c_bytes(data, len), r, deny);
  if (written != nullptr) *written = w;
  if (replacements != nullptr) *replacements = r;
  if (refused) return UTF8GUARD_STATUS_INVALID_ARGUMENT;
  return fits ? UTF8GUARD_STATUS_OK : UTF8GUARD_STATUS_BUFFER_TOO_SMALL;
}

}  // namespace

// sanitize_rest is sanitize_to past its short path, which found the input
// ill-formed or too long for it (the kernels' short_copy jumps here: its
// rest). Out of line, so that the short path needs no frame, and without
// run_whole's short check, made already. Like snprintf it returns the size
// needed when capacity is too small.
__attribute__((noinline)) std::size_t sanitize_rest(const std::uint8_t* p, std::size_t n, char* out,
                                                    std::size_t capacity) noexcept {
  std::size_t written, replacements;
  const std::string_view bytes(reinterpret_cast<const char*>(p), n);
  return sanitize_into<true>(bytes, out, capacity, written, replacements)
             ? written
             : sanitized_size(bytes, 0);
}

// sanitize_to_first is sanitize_to's short path through active_kernel_ref,
// which resolves the kernel on first use. Out of line, as is_valid_active.
__attribute__((noinline)) std::size_t sanitize_to_first(const std::uint8_t* p, std::size_t n,
                                                        char* out, std::size_t capacity) noexcept {
  return active_kernel_ref().short_copy(p, n, out, capacity, &sanitize_rest);
}

}  // namespace utf8guard::detail

namespace utf8guard {

std::size_t sanitize_bound(std::size_t n) noexcept {
  // Each input byte becomes at most one U+FFFD (3 bytes): a run of lone
  // continuation bytes is the worst case.
  return n > SIZE_MAX / 3 ? SIZE_MAX : 3 * n;
}

std::size_t sanitize_to(std::string_view bytes, char* out, std::size_t capacity) noexcept {
  if (detail::bad_buffers(bytes, out, capacity)) return SIZE_MAX;
  const std::size_t n = bytes.size();
  // A short well-formed input, the common case of a header value or a key,
  // is copied as it is: the engine's setup would cost several times the copy.
  // The kernel checks and copies (an AVX-512 kernel from the same registers).
  const std::uint8_t* p = detail::bytes(bytes.data());
  if (n <= detail::kShortCopy && n <= capacity) {
    const detail::kernel* k = detail::g_active.load(std::memory_order_acquire);
    if (k == nullptr) return detail::sanitize_to_first(p, n, out, capacity);
    return k->short_copy(p, n, out, capacity, &detail::sanitize_rest);
  }
  return detail::sanitize_rest(p, n, out, capacity);
}

std::string sanitize(std::string_view bytes) { return detail::sanitize_string(bytes, 0); }

std::size_t sanitize_to(std::string_view bytes, char* out, std::size_t capacity,
                        policy p) noexcept {
  if (detail::bad_buffers(bytes, out, capacity)) return SIZE_MAX;
  std::size_t written, replacements;
  return detail::sanitize_into(bytes, out, capacity, written, replacements, p.bits())
             ? written
             : detail::sanitized_size(bytes, p.bits());
}

std::string sanitize(std::string_view bytes, policy p) {
  return detail::sanitize_string(bytes, p.bits());
}

}  // namespace utf8guard

extern "C" {

utf8guard_status utf8guard_sanitize_bound(size_t len, size_t* bound) {
  if (bound == nullptr) return UTF8GUARD_STATUS_INVALID_ARGUMENT;
  // sanitize_bound's SIZE_MAX is a valid bound for len == SIZE_MAX / 3.
  if (len > SIZE_MAX / 3) return UTF8GUARD_STATUS_OVERFLOW;
  *bound = utf8guard::sanitize_bound(len);
  return UTF8GUARD_STATUS_OK;
}

utf8guard_status utf8guard_sanitize(const char* data, size_t len, char* out, size_t cap,
                                    size_t* written, size_t* replacements) {
  return utf8guard::detail::c_sanitize(data, len, out, cap, written, replacements, 0);
}

utf8guard_status utf8guard_sanitize_policy(const char* data, size_t len, char* out, size_t cap,
                                           size_t* written, size_t* replacements,
                                           utf8guard_policy policy) {
  return utf8guard::detail::c_sanitize(data, len, out, cap, written, replacements, policy);
}

}  // extern "C"
