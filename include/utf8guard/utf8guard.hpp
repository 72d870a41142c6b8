// utf8guard.hpp - the C++ API of utf8guard: strict UTF-8 validation
// (RFC 3629, Unicode Table 3-7), exact error reports, and U+FFFD sanitizing.
//
// Everything here is C++17. Validation never allocates, never throws, never
// reads outside the given view and is safe from any number of threads. The
// streaming classes hold constant state (at most 3 carried bytes) and are used
// by one thread at a time. See docs/design.md for the error kinds and offsets.
//
// Caller bugs fail closed, as in utf8guard.h: a view whose data() is nullptr
// and whose size() is not 0 is never read and never valid. is_valid answers
// false, the functions returning a result return error::invalid_argument at
// offset 0 (for a stream, at its position) with length 0, the others say so
// below. A view of (nullptr, 0) is the empty input.
#ifndef UTF8GUARD_HPP
#define UTF8GUARD_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "utf8guard/utf8guard.h"

namespace utf8guard {

// error is the kind of an ill-formed sequence, decided by its first offending
// byte. The values equal the C API's utf8guard_error.
enum class error : std::uint8_t {
  none = UTF8GUARD_ERROR_NONE,
  unexpected_continuation = UTF8GUARD_ERROR_UNEXPECTED_CONTINUATION,
  overlong = UTF8GUARD_ERROR_OVERLONG,
  surrogate = UTF8GUARD_ERROR_SURROGATE,
  too_large = UTF8GUARD_ERROR_TOO_LARGE,
  invalid_byte = UTF8GUARD_ERROR_INVALID_BYTE,
  truncated = UTF8GUARD_ERROR_TRUNCATED,
  incomplete = UTF8GUARD_ERROR_INCOMPLETE,
  disallowed = UTF8GUARD_ERROR_DISALLOWED,              // well-formed, but denied by the policy
  invalid_argument = UTF8GUARD_ERROR_INVALID_ARGUMENT,  // a caller bug, not the input
};

// category is one set of scalar values a policy may deny (see utf8guard.h for
// each set). The categories are disjoint bits; the values equal the C API's.
enum class category : std::uint32_t {
  none = UTF8GUARD_CATEGORY_NONE,
  nul = UTF8GUARD_CATEGORY_NUL,
  control = UTF8GUARD_CATEGORY_CONTROL,
  newline = UTF8GUARD_CATEGORY_NEWLINE,
  c1 = UTF8GUARD_CATEGORY_C1,
  bidi = UTF8GUARD_CATEGORY_BIDI,
  noncharacter = UTF8GUARD_CATEGORY_NONCHARACTER,
  private_use = UTF8GUARD_CATEGORY_PRIVATE_USE,
  bom = UTF8GUARD_CATEGORY_BOM,
  replacement = UTF8GUARD_CATEGORY_REPLACEMENT,
  bad_escape = UTF8GUARD_CATEGORY_BAD_ESCAPE,
  double_encoding = UTF8GUARD_CATEGORY_DOUBLE_ENCODING,
};

// category_count is the number of categories: the bits 0..category_count-1.
inline constexpr std::size_t category_count = UTF8GUARD_CATEGORY_COUNT;

// policy is a set of denied categories. The default denies nothing (the
// "strict" profile: RFC 3629 alone); the named profiles are below.
class policy {
 public:
  constexpr policy() noexcept = default;
  constexpr policy(category c) noexcept : bits_(static_cast<std::uint32_t>(c)) {}  // NOLINT
  static constexpr policy from_bits(utf8guard_policy bits) noexcept {
    policy p;
    p.bits_ = bits;
    return p;
  }
  static constexpr policy strict() noexcept { return from_bits(UTF8GUARD_PROFILE_STRICT); }
  static constexpr policy source() noexcept { return from_bits(UTF8GUARD_PROFILE_SOURCE); }
  static constexpr policy field() noexcept { return from_bits(UTF8GUARD_PROFILE_FIELD); }
  static constexpr policy json() noexcept { return from_bits(UTF8GUARD_PROFILE_JSON); }
  static constexpr policy url() noexcept { return from_bits(UTF8GUARD_PROFILE_URL); }
  [[nodiscard]] constexpr bool denies(category c) const noexcept {
    return c != category::none &&
           (bits_ & static_cast<std::uint32_t>(c)) == static_cast<std::uint32_t>(c);
  }
  [[nodiscard]] constexpr bool empty() const noexcept { return bits_ == 0; }
  [[nodiscard]] constexpr utf8guard_policy bits() const noexcept { return bits_; }
  friend constexpr policy operator|(policy a, policy b) noexcept {
    return from_bits(a.bits_ | b.bits_);
  }
  constexpr policy& operator|=(policy other) noexcept {
    bits_ |= other.bits_;
    return *this;
  }
  friend constexpr bool operator==(policy a, policy b) noexcept { return a.bits_ == b.bits_; }
  friend constexpr bool operator!=(policy a, policy b) noexcept { return a.bits_ != b.bits_; }

 private:
  utf8guard_policy bits_ = 0;
};

// to_string returns the stable name of a category ("nul", "bidi", ...),
// "none" for category::none, or "unknown" for a value that is not one bit.
UTF8GUARD_EXPORT std::string_view to_string(category c) noexcept;

// category_from_name returns the category of that name, or category::none.
[[nodiscard]] UTF8GUARD_EXPORT category category_from_name(std::string_view name) noexcept;

// profile_name returns the name of profile number index ("strict", "source",
// "field", "json", "url"), or an empty view past the last.
[[nodiscard]] UTF8GUARD_EXPORT std::string_view profile_name(std::size_t index) noexcept;

// profile_from_name stores the profile of that name in out and returns true,
// or returns false and leaves out alone.
[[nodiscard]] UTF8GUARD_EXPORT bool profile_from_name(std::string_view name, policy& out) noexcept;

// policy_parse_result is policy_parse's answer: ok and the policy, or where
// the text holds its first item that is no name (an empty item has length 0).
struct policy_parse_result {
  utf8guard::policy policy;
  bool ok = false;
  std::size_t error_offset = 0;
  std::size_t error_length = 0;
};

// policy_parse reads a policy written as the CLI's --profile and --deny spell
// it: profile and category names separated by commas, each optionally after
// '+' (add, the default) or '-' (remove), from left to right: "field,-newline",
// "nul,bidi". "" (and "strict") deny nothing. See utf8guard_policy_parse.
[[nodiscard]] UTF8GUARD_EXPORT policy_parse_result policy_parse(std::string_view text) noexcept;

// result is the first maximal subpart of an input, or the first character a
// policy denies: its kind, the index of its first byte, and its size in bytes
// (1..3 for a subpart, 1..4 for a character). A denied character (kind
// error::disallowed) alone has a category and a code point. For well-formed
// input kind is error::none and the other fields are 0. error::invalid_argument
// has length 0: the input was not read.
struct result {
  error kind = error::none;
  std::size_t offset = 0;
  std::size_t length = 0;
  utf8guard::category category = utf8guard::category::none;
  char32_t code_point = 0;
  [[nodiscard]] bool ok() const noexcept { return kind == error::none; }
  friend bool operator==(const result& a, const result& b) noexcept {
    return a.kind == b.kind && a.offset == b.offset && a.length == b.length &&
           a.category == b.category && a.code_point == b.code_point;
  }
  friend bool operator!=(const result& a, const result& b) noexcept { return !(a == b); }
};

// to_string returns the stable lowercase name of a kind, as in docs/design.md
// ("overlong", "too_large", "invalid_argument", ...), or "unknown" for a value
// outside the enum.
UTF8GUARD_EXPORT std::string_view to_string(error kind) noexcept;

// is_valid returns whether the bytes are well-formed UTF-8. The fastest path.
[[nodiscard]] UTF8GUARD_EXPORT bool is_valid(std::string_view bytes) noexcept;

// packed_result is validate's answer in two words, which a call returns in
// registers where a result would go through memory: the offset, and the kind
// in the low byte of kind_length with the length above it. validate_packed is
// the exported function the inline validate calls; call validate.
struct packed_result {
  std::size_t offset;
  std::size_t kind_length;
  [[nodiscard]] result unpacked() const noexcept {
    return {static_cast<error>(kind_length & 0xFF), offset, kind_length >> 8};
  }
};
[[nodiscard]] UTF8GUARD_EXPORT packed_result validate_packed(std::string_view bytes) noexcept;

// validate returns the first error of the bytes, or an ok() result. Inline,
// so that a short valid input costs what is_valid does: the library answers
// in two registers, and only the caller builds the result.
[[nodiscard]] inline result validate(std::string_view bytes) noexcept {
  return validate_packed(bytes).unpacked();
}

// With a policy, is_valid and validate also refuse, and report in input
// order, each character the policy denies (error::disallowed). An empty
// policy gives exactly the answers of the calls without one.
[[nodiscard]] UTF8GUARD_EXPORT bool is_valid(std::string_view bytes, policy p) noexcept;
[[nodiscard]] UTF8GUARD_EXPORT result validate(std::string_view bytes, policy p) noexcept;

// hint_kind names what typically produced an ill-formed subpart; the values
// equal the C API's utf8guard_hint_kind.
enum class hint_kind : std::uint8_t {
  none = UTF8GUARD_HINT_NONE,
  utf16_bom = UTF8GUARD_HINT_UTF16_BOM,
  modified_utf8_nul = UTF8GUARD_HINT_MODIFIED_UTF8_NUL,
  overlong_form = UTF8GUARD_HINT_OVERLONG_FORM,
  cesu8_pair = UTF8GUARD_HINT_CESU8_PAIR,
  surrogate_code_point = UTF8GUARD_HINT_SURROGATE_CODE_POINT,
  beyond_unicode = UTF8GUARD_HINT_BEYOND_UNICODE,
  windows1252 = UTF8GUARD_HINT_WINDOWS1252,
};

// hint is kind and, when has_value, the value the bytes were meant to carry
// (above U+10FFFF only for beyond_unicode).
struct hint {
  hint_kind kind = hint_kind::none;
  char32_t value = 0;
  bool has_value = false;
  friend bool operator==(const hint& a, const hint& b) noexcept {
    return a.kind == b.kind && a.value == b.value && a.has_value == b.has_value;
  }
  friend bool operator!=(const hint& a, const hint& b) noexcept { return !(a == b); }
};

// explain returns the hint for the ill-formed subpart at offset of input (the
// first rule that matches; kind none if none does, or offset >= size). A
// pure function of the bytes: it reads only the input and never allocates.
[[nodiscard]] UTF8GUARD_EXPORT hint explain(std::string_view input, std::size_t offset) noexcept;

// to_string returns the stable name of a hint kind ("cesu8_pair", ...).
UTF8GUARD_EXPORT std::string_view to_string(hint_kind kind) noexcept;

// describe returns the message for a result, the text the CLI prints after
// "PATH:LINE:COLUMN: ": "overlong at byte 166 (C0 AF 2E 2E)", "disallowed
// bidi U+202E at byte 6 (E2 80 AE 20)", and with describe_hint the hint of an
// ill-formed subpart: "surrogate at byte 1 (ED A0 BD ED) [cesu8_pair U+1F600]".
// bytes holds the input from offset base on (0: the whole input); a stream
// passes the bytes it kept around the error (utf8guard_describe says how
// many). The second form writes to out[0..cap), NUL-terminated, and returns
// the message's length as snprintf does (describe_max always suffices); it
// returns 0, writing nothing, for a (nullptr, n > 0) view or a null out with a
// cap above 0, where the first throws std::invalid_argument.
inline constexpr unsigned describe_hint = UTF8GUARD_DESCRIBE_HINT;
inline constexpr std::size_t describe_max = UTF8GUARD_DESCRIBE_MAX;
[[nodiscard]] UTF8GUARD_EXPORT std::string describe(std::string_view bytes, const result& r,
                                                    unsigned flags = 0, std::size_t base = 0);
UTF8GUARD_EXPORT std::size_t describe(std::string_view bytes, const result& r, char* out,
                                      std::size_t cap, unsigned flags = 0,
                                      std::size_t base = 0) noexcept;

// truncate_mode says what truncate does with ill-formed bytes: well_formed
// ends the prefix before the first ill-formed subpart, keep_ill_formed keeps
// subparts as units, as sanitize sees them (utf8guard_truncate).
enum class truncate_mode : int {
  well_formed = UTF8GUARD_TRUNCATE_WELL_FORMED,
  keep_ill_formed = UTF8GUARD_TRUNCATE_KEEP_ILL_FORMED,
};

// truncate returns the longest prefix of the bytes of at most max bytes that
// never splits a character (nor, with keep_ill_formed, a maximal subpart).
// An empty view for a (nullptr, n > 0) view.
[[nodiscard]] UTF8GUARD_EXPORT std::string_view truncate(
    std::string_view bytes, std::size_t max,
    truncate_mode mode = truncate_mode::well_formed) noexcept;

// validator checks input that arrives in chunks, in constant memory. feed()
// returns the first error so far; an error is reported by the feed() that
// delivers the byte making the input impossible. finish() also reports an
// "incomplete" sequence at the end, and returns the same result if called
// again. Offsets are absolute. After an error every call returns that error
// without reading its input. A feed() after finish(), or of a (nullptr, n > 0)
// view, is refused: error::invalid_argument at the stream's position (the
// bytes fed before it), kept like any other error.
class UTF8GUARD_EXPORT validator {
 public:
  validator() noexcept;
  // With a policy the validator also reports the first denied character, by
  // the feed() that completes it.
  explicit validator(policy p) noexcept;
  result feed(std::string_view chunk) noexcept;
  [[nodiscard]] result finish() noexcept;
  // reset starts a new input (under the same policy), at any time: in the
  // middle of one, after finish() or after an error.
  void reset() noexcept;
  // bytes_fed is the total size of all chunks fed so far.
  [[nodiscard]] std::size_t bytes_fed() const noexcept;

 private:
  utf8guard_validator state_;
};

namespace detail {
// context passes a callable, const or not, through a C-style void* context;
// the callback casts it back to its exact (possibly const) type.
template <class F>
void* context(F& f) noexcept {
  return const_cast<void*>(static_cast<const void*>(&f));
}
// unless_null is the trampoline for callable f, or nullptr when f is a null
// function pointer, so that the library refuses the call instead of calling
// through it.
template <class F, class Fn>
Fn unless_null(const F& f, Fn trampoline) noexcept {
  if constexpr (std::is_pointer_v<F>) {
    if (f == nullptr) return nullptr;
  }
  return trampoline;
}
// go_on calls f(x) and says whether to go on: what f returns if that is
// bool, else true.
template <class F, class T>
bool go_on(F& f, const T& x) {
  if constexpr (std::is_same_v<decltype(f(x)), bool>) {
    return f(x);
  } else {
    f(x);
    return true;
  }
}
// reporting_stream is the feed/finish pair of the streaming classes that
// hand what they find to a callable (sanitizer, error_scanner,
// percent_scanner): each passes the library its trampoline for the
// callable's type, Stream::call<F>, and the callable as a void* context.
template <class Stream>
class reporting_stream {
 public:
  template <class F>
  bool feed(std::string_view chunk, F&& f) {
    return static_cast<Stream*>(this)->feed_raw(chunk, trampoline(f), context(f));
  }
  template <class F>
  bool finish(F&& f) {
    return static_cast<Stream*>(this)->finish_raw(trampoline(f), context(f));
  }

 private:
  template <class F>
  static auto trampoline(F& f) noexcept {
    return unless_null(f, &Stream::template call<F>);
  }
};
// The trampolines' types. sink_fn is utf8guard_sink's: a sanitizer writes
// through a C API sink as it is.
using sink_fn = bool (*)(void* ctx, const char* data, std::size_t len);
using batch_fn = std::size_t (*)(void* ctx, const result* errors, std::size_t count);
}  // namespace detail

// sanitize_bound is the largest output sanitizing n bytes can produce
// (3 * n); it returns SIZE_MAX if that overflows.
[[nodiscard]] UTF8GUARD_EXPORT std::size_t sanitize_bound(std::size_t n) noexcept;

// sanitize returns the bytes with every maximal subpart replaced by U+FFFD
// and every well-formed byte unchanged (Python's decode('utf-8','replace')).
// It throws std::invalid_argument for a (nullptr, n > 0) view: an empty
// string would drop the n bytes without a word.
[[nodiscard]] UTF8GUARD_EXPORT std::string sanitize(std::string_view bytes);

// sanitize_to writes the sanitized bytes to out[0..capacity) and returns
// their size. As snprintf does, it returns the size the whole output needs
// when that is more than capacity (writing nothing meaningful then), so a
// capacity of 0 asks the size; a capacity of sanitize_bound(bytes.size())
// always suffices. It returns SIZE_MAX, writing nothing, for a
// (nullptr, n > 0) view or a null out with a capacity above 0.
UTF8GUARD_EXPORT std::size_t sanitize_to(std::string_view bytes, char* out,
                                         std::size_t capacity) noexcept;

// With a policy, sanitize and sanitize_to also replace each character the
// policy denies with one U+FFFD; sanitize_bound still suffices.
[[nodiscard]] UTF8GUARD_EXPORT std::string sanitize(std::string_view bytes, policy p);
UTF8GUARD_EXPORT std::size_t sanitize_to(std::string_view bytes, char* out, std::size_t capacity,
                                         policy p) noexcept;

// sanitizer sanitizes a stream in constant memory. Output goes to a sink: any
// callable taking std::string_view and returning void, or bool (false stops
// the stream; feed/finish then return false). Bytes of an unfinished sequence
// are held back until the next feed(); finish() replaces them. Its life is
// that of utf8guard.h's streaming objects: once feed or finish has returned
// false, every later call returns false and calls nothing; a feed() after
// finish(), a (nullptr, n > 0) chunk or a null function pointer as the sink
// is refused (false) the same way; a second finish() after a successful one
// returns true and writes nothing; reset() starts a new stream at any time.
class UTF8GUARD_EXPORT sanitizer : public detail::reporting_stream<sanitizer> {
 public:
  sanitizer() noexcept;
  // With a policy each denied character also becomes one U+FFFD.
  explicit sanitizer(policy p) noexcept;
  // feed(chunk, sink) and finish(sink), from reporting_stream.
  void reset() noexcept;
  // replacements is the number of U+FFFD written so far.
  [[nodiscard]] std::size_t replacements() const noexcept;

 private:
  friend class detail::reporting_stream<sanitizer>;
  template <class Sink>
  static bool call(void* ctx, const char* data, std::size_t len) {
    return detail::go_on(*static_cast<Sink*>(ctx), std::string_view(data, len));
  }
  bool feed_raw(std::string_view chunk, detail::sink_fn sink, void* ctx);
  bool finish_raw(detail::sink_fn sink, void* ctx);
  utf8guard_sanitizer state_;
};

// error_scanner reports every maximal subpart of a stream, in order (the
// ones sanitize replaces), with absolute offsets, in constant memory. The
// callback takes a result and returns void, or bool (false stops; feed and
// finish then return false). finish() reports an unfinished sequence. Misuse
// and reset() as for sanitizer (a null function pointer as the callback is
// refused).
class UTF8GUARD_EXPORT error_scanner : public detail::reporting_stream<error_scanner> {
 public:
  error_scanner() noexcept;
  // With a policy each denied character is also reported, in input order.
  explicit error_scanner(policy p) noexcept;
  // feed(chunk, on_error) and finish(on_error), from reporting_stream.
  void reset() noexcept;
  // errors is the number of errors reported so far.
  [[nodiscard]] std::size_t errors() const noexcept;

 private:
  friend class detail::reporting_stream<error_scanner>;
  // The library hands errors over in batches, and this loop calls the
  // callback on each: one call across the library boundary per batch, not
  // per error, which matters on input dense with errors. It returns count,
  // or the index of the error for which the callback said stop.
  template <class OnError>
  static std::size_t call(void* ctx, const result* errors, std::size_t count) {
    auto& f = *static_cast<OnError*>(ctx);
    for (std::size_t i = 0; i < count; ++i) {
      if (!detail::go_on(f, errors[i])) return i;
    }
    return count;
  }
  bool feed_raw(std::string_view chunk, detail::batch_fn cb, void* ctx);
  bool finish_raw(detail::batch_fn cb, void* ctx);
  utf8guard_error_scanner state_;
};

// Encoded input (docs/design.md 2.3, "JSON text"): the functions of an
// encoded form, <form>::<verb>, check the decoded bytes without building
// them. An encoded_result's offset and length count encoded bytes (the first
// byte of an escape, or the raw byte, that carries the first decoded byte);
// decoded_offset and decoded_length place the same bytes in the decoded
// stream.
struct encoded_result : result {
  std::size_t decoded_offset = 0;
  std::size_t decoded_length = 0;
  friend bool operator==(const encoded_result& a, const encoded_result& b) noexcept {
    return static_cast<const result&>(a) == static_cast<const result&>(b) &&
           a.decoded_offset == b.decoded_offset && a.decoded_length == b.decoded_length;
  }
  friend bool operator!=(const encoded_result& a, const encoded_result& b) noexcept {
    return !(a == b);
  }
};
using percent_result = encoded_result;  // the older name

namespace detail {
// The trampoline of an encoded form's scanner.
using encoded_fn = bool (*)(void* ctx, const encoded_result& r);
}  // namespace detail

// Percent-encoded input (docs/design.md 2.3): %XX (two hex digits, either
// case) is the byte XX, every other byte is itself (%C0 alone is 3 encoded
// bytes long). The categories bad_escape (a '%' without two hex digits:
// length 1, and when allowed a literal '%') and double_encoding (a %25
// followed by two decoded hex digits: length 3) belong to encoded input, with
// code point U+0025 here.
namespace percent {

// is_valid says whether the decoded bytes are well-formed and hold nothing
// the policy denies; validate returns the first error. A (nullptr, n > 0)
// view is false / error::invalid_argument.
[[nodiscard]] UTF8GUARD_EXPORT bool is_valid(std::string_view bytes, policy p = {}) noexcept;
[[nodiscard]] UTF8GUARD_EXPORT encoded_result validate(std::string_view bytes,
                                                       policy p = {}) noexcept;

// decode returns the decoded bytes (a bad escape's '%' as it is). It throws
// std::invalid_argument for a (nullptr, n > 0) view.
[[nodiscard]] UTF8GUARD_EXPORT std::string decode(std::string_view bytes);

// describe and explain for a result of percent-encoded input: bytes holds
// the encoded input from encoded offset base on, and the library decodes
// what it shows and what the hint reads (utf8guard_percent_describe).
[[nodiscard]] UTF8GUARD_EXPORT std::string describe(std::string_view bytes, const encoded_result& r,
                                                    unsigned flags = 0, std::size_t base = 0);
UTF8GUARD_EXPORT std::size_t describe(std::string_view bytes, const encoded_result& r, char* out,
                                      std::size_t cap, unsigned flags = 0,
                                      std::size_t base = 0) noexcept;
[[nodiscard]] UTF8GUARD_EXPORT hint explain(std::string_view bytes, const encoded_result& r,
                                            std::size_t base = 0) noexcept;

// validator is utf8guard::validator for percent-encoded input: an escape may
// be cut between chunks (%C | 3%A9), offsets are absolute, and an error is
// reported by the feed() that delivers the byte deciding it. Its life and
// misuse are utf8guard::validator's.
class UTF8GUARD_EXPORT validator {
 public:
  explicit validator(policy p = {}) noexcept;
  encoded_result feed(std::string_view chunk) noexcept;
  [[nodiscard]] encoded_result finish() noexcept;
  void reset() noexcept;
  [[nodiscard]] std::size_t bytes_fed() const noexcept;

 private:
  utf8guard_percent_stream state_;
};

// scanner is error_scanner for percent-encoded input: it reports every
// error, in order. The callback takes an encoded_result and returns void, or
// bool (false stops). Its life and misuse are error_scanner's.
class UTF8GUARD_EXPORT scanner : public detail::reporting_stream<scanner> {
 public:
  explicit scanner(policy p = {}) noexcept;
  // feed(chunk, on_error) and finish(on_error), from reporting_stream.
  void reset() noexcept;
  [[nodiscard]] std::size_t errors() const noexcept;

 private:
  friend class detail::reporting_stream<scanner>;
  template <class OnError>
  static bool call(void* ctx, const encoded_result& r) {
    return detail::go_on(*static_cast<OnError*>(ctx), r);
  }
  bool feed_raw(std::string_view chunk, detail::encoded_fn cb, void* ctx);
  bool finish_raw(detail::encoded_fn cb, void* ctx);
  utf8guard_percent_stream state_;
};

}  // namespace percent

// JSON text (docs/design.md, "JSON text"; utf8guard.h says what its units
// and findings are): escapes decoded, the decoded characters held to the
// rules of raw bytes, a lone surrogate escape refused under every policy.
namespace json {

// is_valid says whether the text holds no ill-formed subpart, no lone
// surrogate escape and nothing the policy denies; validate returns the first
// finding. A (nullptr, n > 0) view is false / error::invalid_argument.
[[nodiscard]] UTF8GUARD_EXPORT bool is_valid(std::string_view bytes, policy p = {}) noexcept;
[[nodiscard]] UTF8GUARD_EXPORT encoded_result validate(std::string_view bytes,
                                                       policy p = {}) noexcept;

// sanitize returns the text with every finding replaced, as JSON text: a
// raw one by U+FFFD, one at an escape by \ufffd (utf8guard_json_sanitize).
// It throws std::invalid_argument for a (nullptr, n > 0) view.
[[nodiscard]] UTF8GUARD_EXPORT std::string sanitize(std::string_view bytes, policy p = {});

// describe and explain for a result of JSON text: bytes holds the text from
// encoded offset base on (utf8guard_json_describe).
[[nodiscard]] UTF8GUARD_EXPORT std::string describe(std::string_view bytes, const encoded_result& r,
                                                    unsigned flags = 0, std::size_t base = 0);
UTF8GUARD_EXPORT std::size_t describe(std::string_view bytes, const encoded_result& r, char* out,
                                      std::size_t cap, unsigned flags = 0,
                                      std::size_t base = 0) noexcept;
[[nodiscard]] UTF8GUARD_EXPORT hint explain(std::string_view bytes, const encoded_result& r,
                                            std::size_t base = 0) noexcept;

// truncate is utf8guard::truncate for JSON text: it never cuts inside an
// escape or an escaped pair either (utf8guard_json_truncate).
[[nodiscard]] UTF8GUARD_EXPORT std::string_view truncate(
    std::string_view bytes, std::size_t max,
    truncate_mode mode = truncate_mode::well_formed) noexcept;

// validator is utf8guard::validator for JSON text: an escape may be cut
// between chunks, offsets are absolute, and a finding is reported by the
// feed() that delivers the byte deciding it. Its life and misuse are
// utf8guard::validator's.
class UTF8GUARD_EXPORT validator {
 public:
  explicit validator(policy p = {}) noexcept;
  encoded_result feed(std::string_view chunk) noexcept;
  [[nodiscard]] encoded_result finish() noexcept;
  void reset() noexcept;
  [[nodiscard]] std::size_t bytes_fed() const noexcept;

 private:
  utf8guard_json_stream state_;
};

// scanner is error_scanner for JSON text: every finding, in order; the
// callback takes an encoded_result and returns void, or bool (false stops).
// Its life and misuse are error_scanner's.
class UTF8GUARD_EXPORT scanner : public detail::reporting_stream<scanner> {
 public:
  explicit scanner(policy p = {}) noexcept;
  // feed(chunk, on_error) and finish(on_error), from reporting_stream.
  void reset() noexcept;
  [[nodiscard]] std::size_t errors() const noexcept;

 private:
  friend class detail::reporting_stream<scanner>;
  template <class OnError>
  static bool call(void* ctx, const encoded_result& r) {
    return detail::go_on(*static_cast<OnError*>(ctx), r);
  }
  bool feed_raw(std::string_view chunk, detail::encoded_fn cb, void* ctx);
  bool finish_raw(detail::encoded_fn cb, void* ctx);
  utf8guard_json_stream state_;
};

}  // namespace json

// The older names of the percent form, kept for one release.
[[deprecated("use percent::is_valid")]] UTF8GUARD_EXPORT bool is_valid_percent_encoded(
    std::string_view bytes, policy p = {}) noexcept;
[[deprecated("use percent::validate")]] UTF8GUARD_EXPORT encoded_result
validate_percent_encoded(std::string_view bytes, policy p = {}) noexcept;
[[deprecated("use percent::decode")]] UTF8GUARD_EXPORT std::string percent_decode(
    std::string_view bytes);
[[deprecated("use percent::describe")]] UTF8GUARD_EXPORT std::string describe(
    std::string_view bytes, const encoded_result& r, unsigned flags = 0, std::size_t base = 0);
[[deprecated("use percent::describe")]] UTF8GUARD_EXPORT std::size_t describe(
    std::string_view bytes, const encoded_result& r, char* out, std::size_t cap, unsigned flags = 0,
    std::size_t base = 0) noexcept;
[[deprecated("use percent::explain")]] UTF8GUARD_EXPORT hint explain(std::string_view bytes,
                                                                     const encoded_result& r,
                                                                     std::size_t base = 0) noexcept;
using percent_validator [[deprecated("use percent::validator")]] = percent::validator;
using percent_scanner [[deprecated("use percent::scanner")]] = percent::scanner;

// form is what a stream's bytes are: the text itself, or its percent-encoded
// or JSON form (the functions of namespaces percent and json).
enum class form : unsigned char {
  raw = UTF8GUARD_FORM_RAW,
  percent = UTF8GUARD_FORM_PERCENT,
  json = UTF8GUARD_FORM_JSON
};

// finding_window keeps the bytes the message of one finding of a stream
// reads, described with flags (describe_hint or 0), so that describe and
// explain over bytes() give the whole input's message however it was cut
// (utf8guard_finding_window says how): feed() every chunk; mark() a finding
// before feeding the chunk whose check reported it; finish() at the end; the
// message is final once ready(). A caller with several findings copies the
// stream's window for each.
class UTF8GUARD_EXPORT finding_window {
 public:
  explicit finding_window(form f = form::raw, unsigned flags = describe_hint) noexcept;
  // mark returns false, changing nothing, when a finding is marked already.
  bool mark(std::size_t offset) noexcept;
  void feed(std::string_view chunk) noexcept;
  void finish() noexcept;
  [[nodiscard]] bool marked() const noexcept;
  [[nodiscard]] bool ready() const noexcept;
  // bytes is the window, which starts at input offset base().
  [[nodiscard]] std::string_view bytes() const noexcept;
  [[nodiscard]] std::size_t base() const noexcept;

 private:
  utf8guard_finding_window state_;
};

// decoded is one decoded sequence: on success kind is error::none, value the
// scalar value and length the bytes used (1..4).
struct decoded {
  char32_t value = 0;
  std::size_t length = 0;
  error kind = error::none;
};

// decode_one decodes the sequence at the start of the bytes. An empty input
// is error::incomplete with length 0, a (nullptr, n > 0) view
// error::invalid_argument with length 0.
[[nodiscard]] UTF8GUARD_EXPORT decoded decode_one(std::string_view bytes) noexcept;

// decode appends the code points of the bytes to out and returns ok(), or
// stops at the first error and returns it (out then holds the code points
// before the error). A (nullptr, n > 0) view is error::invalid_argument at
// offset 0, with nothing appended.
UTF8GUARD_EXPORT result decode(std::string_view bytes, std::u32string& out);

// encode_one writes the shortest UTF-8 form of a scalar value to out[0..4)
// and returns its length, or 0 for a surrogate, a value above U+10FFFF or a
// null out.
[[nodiscard]] UTF8GUARD_EXPORT std::size_t encode_one(char32_t code_point, char* out) noexcept;

// encode appends the UTF-8 form of the code points to out and returns true,
// or stops at the first value that is not a scalar value and returns false.
// A (nullptr, n > 0) view returns false, with nothing appended.
UTF8GUARD_EXPORT bool encode(std::u32string_view code_points, std::string& out);

// kernel_info names one compiled validation kernel and whether this CPU runs it.
struct kernel_info {
  std::string_view name;
  bool usable = false;
};

// kernels lists the compiled kernels, slowest first.
UTF8GUARD_EXPORT std::vector<kernel_info> kernels();

// active_kernel names the kernel in use ("scalar", "sse42", "avx2", "avx512bw",
// "avx512", "neon"); the first call resolves it (UTF8GUARD_KERNEL may force one).
UTF8GUARD_EXPORT std::string_view active_kernel() noexcept;

// set_kernel makes every later call use the named kernel ("best" picks the
// fastest usable one). Returns false, changing nothing, if it is not compiled
// in or not usable here, or for a (nullptr, n > 0) view. Meant for tests,
// fuzzing and benchmarks.
UTF8GUARD_EXPORT bool set_kernel(std::string_view name) noexcept;

// version is the library's semantic version, e.g. "1.0.0".
UTF8GUARD_EXPORT std::string_view version() noexcept;

}  // namespace utf8guard

#endif  // UTF8GUARD_HPP
