// forms.hpp - the byte forms the fuzzing helpers make and read: any value in
// the RFC 2279 bit pattern of 1 to 6 bytes (overlong, surrogate or above
// U+10FFFF as asked), and the reverse, the reading a lax decoder gives to a
// sequence that strict UTF-8 refuses. The mutator writes these forms; the
// oracle reads them to tell a tolerated difference from a real one.
#ifndef UTF8GUARD_FUZZING_FORMS_HPP
#define UTF8GUARD_FUZZING_FORMS_HPP

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace utf8guard::fuzzing {

// kMaxForm is the longest form: an RFC 2279 6-byte sequence.
inline constexpr std::size_t kMaxForm = 6;

// encode_as writes value in exactly length (1..6) bytes of the RFC 2279
// pattern (lead 0xxxxxxx, 110xxxxx, ..., 1111110x, then 10xxxxxx each) and
// returns length, or 0 when the value needs more bits than length carries.
// A length longer than the shortest gives an overlong form.
std::size_t encode_as(std::uint32_t value, std::size_t length, std::uint8_t* out) noexcept;

// shortest_length is the number of bytes of value's shortest RFC 2279 form.
std::size_t shortest_length(std::uint32_t value) noexcept;

// lax_kind names what a lax decoder reads in a sequence strict UTF-8 refuses.
enum class lax_kind : std::uint8_t {
  none,               // not a complete RFC 2279 sequence: no decoder reads a value
  overlong,           // 2..4 bytes, a value with a shorter form
  modified_utf8_nul,  // C0 80
  surrogate,          // 3 bytes, U+D800..U+DFFF
  cesu8_pair,         // 6 bytes: a high surrogate, then a low one
  above_10ffff,       // 4 bytes, U+110000..U+1FFFFF
  five_six_byte,      // the RFC 2279 5- and 6-byte forms
};

// lax_form is a lax reading: its kind, the bytes it spans and the value.
struct lax_form {
  lax_kind kind = lax_kind::none;
  std::size_t length = 0;
  std::uint32_t value = 0;
};

// read_lax reads the sequence at the start of bytes the way a decoder that
// checks only the bit pattern does. It returns kind none for a well-formed
// sequence too: only the strict refusals have a lax reading.
lax_form read_lax(std::string_view bytes) noexcept;

// to_string names a lax kind for reports ("overlong", "cesu8_pair", ...).
std::string_view to_string(lax_kind kind) noexcept;

}  // namespace utf8guard::fuzzing

#endif  // UTF8GUARD_FUZZING_FORMS_HPP
