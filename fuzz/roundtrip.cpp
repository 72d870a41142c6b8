// roundtrip - decoding and encoding against the oracle, both ways:
//   - bytes -> code points: decode() of well-formed input gives the oracle's
//     code points and encode() gives the input back; on ill-formed input
//     decode() stops at validate()'s error with the code points before it,
//     and decode_one() walked over the input meets every maximal subpart the
//     oracle lists, with its kind and length;
//   - code points -> bytes: the same fuzz data read as code points (aimed at
//     the edges of Table 3-7 rows, surrogates and U+10FFFF) encode to the
//     oracle's bytes, decode back to themselves, and encode() stops at the
//     first value that is not a scalar value.
#include <iterator>

#include "fuzz_common.hpp"

namespace {

constexpr const char* kTarget = "roundtrip";

std::string code_points_text(std::u32string_view cps) {
  std::string s;
  for (const char32_t cp : cps) s.append(s.empty() ? "" : " ").append(fuzz::code_point_name(cp));
  return s;
}

void bytes_to_code_points(std::string_view input) {
  const utf8guard::result first = utf8guard::validate(input);
  std::u32string cps;
  const utf8guard::result r = utf8guard::decode(input, cps);
  const std::u32string expected = reference::decode(input);
  std::string again;
  const bool encoded = utf8guard::encode(cps, again);
  // Before the first error the input is well-formed: it must come back whole.
  const std::string_view valid_part = input.substr(0, first.ok() ? input.size() : first.offset);
  if (r != first || cps != expected || !encoded || again != valid_part) {
    fuzz::fail(kTarget, "decode/encode of the input is not the identity", input,
               {{"decode", fuzz::describe(r) + " " + code_points_text(cps)},
                {"validate", fuzz::describe(first)},
                {"reference decode", code_points_text(expected)},
                {"encode(decode)", fuzz::hex(again)}});
  }

  // decode_one walks the input: well-formed sequences decode to the oracle's
  // code points in order; at every error it reports the oracle's subpart.
  const std::vector<reference::error> errors = reference::all_errors(input);
  std::size_t next_error = 0;
  std::size_t next_cp = 0;
  std::u32string walked;
  for (std::size_t i = 0; i < input.size();) {
    const utf8guard::decoded d = utf8guard::decode_one(input.substr(i));
    const bool error_here = next_error < errors.size() && errors[next_error].offset == i;
    bool right;
    if (error_here) {
      const reference::error& e = errors[next_error++];
      right = utf8guard::to_string(d.kind) == e.kind && d.length == e.length;
    } else {
      char bytes[4];
      const std::size_t n =
          d.kind == utf8guard::error::none ? utf8guard::encode_one(d.value, bytes) : 0;
      right =
          d.kind == utf8guard::error::none && n == d.length && input.compare(i, n, bytes, n) == 0;
      // Past the first error the oracle has no code points; the bytes check stands.
      if (right && next_cp < expected.size()) right = expected[next_cp++] == d.value;
    }
    if (!right || d.length == 0) {
      fuzz::fail(kTarget, "decode_one disagrees with the oracle", input,
                 {{"at byte", std::to_string(i)},
                  {"decode_one", std::string(utf8guard::to_string(d.kind)) + " length " +
                                     std::to_string(d.length) + " value " +
                                     code_points_text({&d.value, 1})},
                  {"oracle error here", error_here ? "yes" : "no"}});
    }
    i += d.length;
  }
  const utf8guard::decoded empty = utf8guard::decode_one({});
  if (next_error != errors.size() || empty.kind != utf8guard::error::incomplete ||
      empty.length != 0) {
    fuzz::fail(kTarget, "decode_one missed an error, or mishandled the empty input", input,
               {{"errors met", std::to_string(next_error)},
                {"oracle errors", std::to_string(errors.size())}});
  }
}

// Code points worth aiming at: both sides of every Table 3-7 row edge, the
// surrogates, and the top of the code space.
constexpr char32_t kEdges[] = {0x0,     0x7F,    0x80,    0x7FF,    0x800,    0xFFF,
                               0x1000,  0xCFFF,  0xD000,  0xD7FF,   0xD800,   0xDBFF,
                               0xDC00,  0xDFFF,  0xE000,  0xFFFD,   0xFFFF,   0x10000,
                               0x3FFFF, 0x40000, 0xFFFFF, 0x100000, 0x10FFFF, 0x110000};

// code_point_of maps 4 fuzz bytes to a code point: the low 2 bits of the
// first byte choose a raw 32-bit value, a value in 0..U+10FFFF, or an edge
// moved by a small signed delta.
char32_t code_point_of(const std::uint8_t* b) {
  const std::uint32_t v =
      b[0] | (std::uint32_t{b[1]} << 8) | (std::uint32_t{b[2]} << 16) | (std::uint32_t{b[3]} << 24);
  switch (b[0] & 3) {
    case 0: return v;
    case 1:
    case 2: return (v >> 2) % 0x110000;
    default: {
      const char32_t edge = kEdges[b[1] % std::size(kEdges)];
      const int delta = static_cast<int>(b[2] % 9) - 4;
      return static_cast<char32_t>(static_cast<std::int64_t>(edge) + delta);
    }
  }
}

void code_points_to_bytes(const std::uint8_t* data, std::size_t size) {
  std::u32string cps;
  for (std::size_t i = 0; i + 4 <= size; i += 4) cps.push_back(code_point_of(data + i));
  std::string expected;
  std::size_t first_bad = cps.size();
  for (std::size_t k = 0; k < cps.size(); ++k) {
    char bytes[4];
    const std::size_t n = utf8guard::encode_one(cps[k], bytes);
    const std::string want = reference::encode(cps[k]);
    const utf8guard::decoded back = utf8guard::decode_one(std::string_view(bytes, n));
    const bool right = std::string_view(bytes, n) == want &&
                       (n == 0 || (back.kind == utf8guard::error::none && back.value == cps[k] &&
                                   back.length == n));
    if (!right) {
      fuzz::fail(kTarget, "encode_one/decode_one disagree with the oracle",
                 fuzz::as_view(data, size),
                 {{"code point", code_points_text({&cps[k], 1})},
                  {"encode_one", fuzz::hex({bytes, n})},
                  {"reference encode", fuzz::hex(want)},
                  {"decode_one back", code_points_text({&back.value, 1})}});
    }
    if (n == 0 && first_bad == cps.size()) first_bad = k;
    if (first_bad == cps.size()) expected += want;
  }
  std::string out;
  const bool all_scalar = utf8guard::encode(cps, out);
  std::u32string back;
  const utf8guard::result r = utf8guard::decode(out, back);
  if (all_scalar != (first_bad == cps.size()) || out != expected || !r.ok() ||
      back != std::u32string_view(cps).substr(0, first_bad)) {
    fuzz::fail(kTarget, "encode/decode of code points is not the identity",
               fuzz::as_view(data, size),
               {{"code points", code_points_text(cps)},
                {"encode", fuzz::hex(out)},
                {"expected", fuzz::hex(expected)},
                {"decode back", code_points_text(back)}});
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  bytes_to_code_points(fuzz::as_view(data, size));
  code_points_to_bytes(data, size);
  return 0;
}
