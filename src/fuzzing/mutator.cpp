// mutator.cpp - the UTF-8-aware mutator (fuzz.h, utf8guard_fuzz_mutate).
//
// One call applies one mutation, chosen by a generator seeded with the seed
// alone, so a seed and an input always give the same output. The choice is
// weighted towards what finds decoder bugs: six calls in ten inject a hostile
// form (security/vectors/vectors.tsv lists the attacks they come from), three
// edit whole characters, one goes to the engine's own byte mutations so that
// nothing libFuzzer or AFL++ would reach is lost.
#include <cstring>

#include "forms.hpp"
#include "utf8guard/fuzz.hpp"

namespace utf8guard::fuzzing {
namespace {

// rng is splitmix64: tiny, fast, and good enough to pick mutations.
class rng {
 public:
  explicit rng(unsigned seed) noexcept : state_(0x9E3779B97F4A7C15u * (seed + 1u)) {}
  std::uint64_t next() noexcept {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
  }
  // below returns a value in [0, n); n > 0.
  std::size_t below(std::size_t n) noexcept { return static_cast<std::size_t>(next() % n); }
  template <class T, std::size_t N>
  const T& pick(const T (&items)[N]) noexcept {
    return items[below(N)];
  }

 private:
  std::uint64_t state_;
};

// The ASCII delimiters whose disguised forms bypass filters: path separators
// and dots (traversal), quotes and angle brackets (injection), '%' (a second
// decode) and NUL (C strings).
constexpr std::uint8_t kDelimiters[] = {'/', '.', '\\', '"', '\'', '<', '>', '%', 0};

// kBidi are the Bidi_Control characters (Trojan Source, CVE-2021-42574).
constexpr std::uint32_t kBidi[] = {0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C,
                                   0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069};

// kBoundaries are the ends of each row of Unicode Table 3-7 and the values
// just outside them, the edges a decoder's range checks get wrong.
constexpr std::uint32_t kBoundaries[] = {0x00,    0x7F,    0x80,    0x7FF,   0x800,    0xFFF,
                                         0x1000,  0xCFFF,  0xD000,  0xD7FF,  0xE000,   0xFFFF,
                                         0x10000, 0x3FFFF, 0x40000, 0xFFFFF, 0x100000, 0x10FFFF};

// A truncation keeps 1..n-1 bytes of a multi-byte character drawn from these
// (one per Table 3-7 row), then puts a delimiter.
constexpr std::uint32_t kMultiByte[] = {0xE9,   0x7FF,   0x800,   0x20AC,  0xD7FF,
                                        0xE000, 0x10000, 0x1F600, 0x10FFFF};

bool is_continuation(std::uint8_t b) noexcept { return (b & 0xC0) == 0x80; }

std::string_view view(const std::uint8_t* p, std::size_t n) noexcept {
  // SAFETY: p[0..n) is the caller's buffer.
  return {reinterpret_cast<const char*>(p), n};
}

// buffer is the input being mutated, data[0..size) of capacity max_size.
struct buffer {
  std::uint8_t* data;
  std::size_t size;
  std::size_t max_size;

  // boundary snaps a byte position back onto the start of its character: at
  // most 3 continuation bytes back, as a decoder resynchronizes.
  std::size_t boundary(std::size_t pos) const noexcept {
    for (int k = 0; k < 3 && pos > 0 && pos < size && is_continuation(data[pos]); ++k) --pos;
    return pos;
  }
  // unit_length is the size of the character at pos: a well-formed sequence
  // or a maximal subpart (at least 1 byte; 0 at the end).
  std::size_t unit_length(std::size_t pos) const noexcept {
    if (pos >= size) return 0;
    const decoded d = decode_one(view(data + pos, size - pos));
    return d.length == 0 ? 1 : d.length;
  }
  // replace puts form[0..n) in place of data[pos..pos+old); false when the
  // result would not fit in max_size (the buffer is then unchanged).
  bool replace(std::size_t pos, std::size_t old, const std::uint8_t* form, std::size_t n) noexcept {
    if (size - old + n > max_size) return false;
    std::memmove(data + pos + n, data + pos + old, size - pos - old);
    if (n != 0) std::memcpy(data + pos, form, n);
    size = size - old + n;
    return true;
  }
};

// form is a short byte string under construction.
struct form {
  std::uint8_t bytes[2 * kMaxForm] = {};
  std::size_t size = 0;
  void put(std::uint32_t value, std::size_t length) noexcept {
    size += encode_as(value, length, bytes + size);
  }
  void put(std::uint32_t value) noexcept { put(value, shortest_length(value)); }
};

// Each hostile family writes one form of its kind.
using family_fn = void (*)(rng&, form&);

void overlong_delimiter(rng& r, form& f) {
  f.put(r.pick(kDelimiters), 2 + r.below(3));  // 2, 3 or 4 bytes
}
void modified_utf8_nul(rng&, form& f) { f.put(0, 2); }
void cesu8_pair(rng& r, form& f) {
  const std::uint32_t v = 0x10000 + static_cast<std::uint32_t>(r.below(0x100000));
  f.put(0xD800 + ((v - 0x10000) >> 10), 3);
  f.put(0xDC00 + ((v - 0x10000) & 0x3FF), 3);
}
void lone_surrogate(rng& r, form& f) {
  constexpr std::uint32_t kEdges[] = {0xD800, 0xDBFF, 0xDC00, 0xDFFF};
  f.put(r.below(2) ? r.pick(kEdges) : 0xD800 + static_cast<std::uint32_t>(r.below(0x800)), 3);
}
void truncated_before_delimiter(rng& r, form& f) {
  const std::uint32_t v = r.pick(kMultiByte);
  const std::size_t len = shortest_length(v);
  f.put(v, len);
  f.size -= 1 + r.below(len - 1);  // keep 1..len-1 bytes
  f.bytes[f.size++] = r.pick(kDelimiters);
}
void invalid_byte(rng& r, form& f) {
  f.bytes[f.size++] = static_cast<std::uint8_t>(0xF5 + r.below(11));  // F5..FF
  // Half the time with continuations, as if it led a 4-byte sequence.
  if (r.below(2)) {
    for (int k = 0; k < 3; ++k) f.bytes[f.size++] = static_cast<std::uint8_t>(0x80 + r.below(64));
  }
}
void above_10ffff(rng& r, form& f) {
  constexpr std::uint32_t kEdges[] = {0x110000, 0x13FFFF, 0x140000, 0x1FFFFF};
  f.put(r.below(2) ? r.pick(kEdges) : 0x110000 + static_cast<std::uint32_t>(r.below(0xF0000)), 4);
}
void five_six_byte(rng& r, form& f) {
  const std::size_t len = 5 + r.below(2);
  switch (r.below(3)) {
    case 0: f.put(r.pick(kDelimiters), len); break;                // overlong delimiter
    case 1: f.put(len == 5 ? 0x3FFFFFF : 0x7FFFFFFF, len); break;  // the largest
    default: f.put(0x200000 + static_cast<std::uint32_t>(r.below(0x3E00000)), len);
  }
}
void noncharacter(rng& r, form& f) {
  const std::size_t k = r.below(66);  // U+FDD0..U+FDEF, then U+nFFFE/U+nFFFF
  f.put(k < 32 ? 0xFDD0 + static_cast<std::uint32_t>(k)
               : (static_cast<std::uint32_t>(k - 32) / 2) << 16 | (0xFFFE + (k & 1)));
}
void bidi_control(rng& r, form& f) { f.put(r.pick(kBidi)); }
void c1_control(rng& r, form& f) { f.put(0x80 + static_cast<std::uint32_t>(r.below(32))); }
void bom(rng&, form& f) { f.put(0xFEFF); }
void table37_boundary(rng& r, form& f) {
  // Half the time the value itself, half the time one step outside its second
  // byte's range as Table 3-7 draws it (E0 9F, ED A0, F0 8F, F4 90).
  constexpr std::uint8_t kOutside[][2] = {{0xE0, 0x9F}, {0xED, 0xA0}, {0xF0, 0x8F},
                                          {0xF4, 0x90}, {0xC1, 0xBF}, {0xC2, 0xC0}};
  if (r.below(2)) {
    f.put(r.pick(kBoundaries));
    return;
  }
  const auto& o = r.pick(kOutside);
  const std::size_t len = o[0] >= 0xF0 ? 4 : o[0] >= 0xE0 ? 3 : 2;
  f.bytes[f.size++] = o[0];
  f.bytes[f.size++] = o[1];
  while (f.size < len) f.bytes[f.size++] = 0x80;
}

struct family {
  const char* name;
  family_fn make;
  unsigned weight;
};

// Overlong delimiters weigh most: they are the largest group of real attacks
// (IIS, Tomcat, Java, PHP in the vectors) and the forms with most variants.
constexpr family kFamilies[] = {
    {"overlong_delimiter", overlong_delimiter, 4},
    {"modified_utf8_nul", modified_utf8_nul, 1},
    {"cesu8_pair", cesu8_pair, 1},
    {"lone_surrogate", lone_surrogate, 1},
    {"truncated_before_delimiter", truncated_before_delimiter, 2},
    {"invalid_byte", invalid_byte, 1},
    {"above_10ffff", above_10ffff, 1},
    {"five_six_byte", five_six_byte, 1},
    {"noncharacter", noncharacter, 1},
    {"bidi_control", bidi_control, 1},
    {"c1_control", c1_control, 1},
    {"bom_mid_text", bom, 1},
    {"table37_boundary", table37_boundary, 2},
};

const family& pick_family(rng& r) noexcept {
  unsigned total = 0;
  for (const family& f : kFamilies) total += f.weight;
  auto ticket = static_cast<unsigned>(r.below(total));
  for (const family& f : kFamilies) {
    if (ticket < f.weight) return f;
    ticket -= f.weight;
  }
  return kFamilies[0];
}

// inject puts a hostile form at a character boundary, inserted before the
// character there or in its place; a BOM goes past byte 0 (there it is a
// signature, not an attack).
const char* inject(buffer& b, rng& r) {
  const family& fam = pick_family(r);
  form f;
  fam.make(r, f);
  std::size_t pos = b.boundary(r.below(b.size + 1));
  if (fam.make == bom && pos == 0 && b.size != 0) pos = b.unit_length(0);
  const std::size_t old = r.below(2) ? b.unit_length(pos) : 0;
  if (!b.replace(pos, old, f.bytes, f.size)) return nullptr;
  return fam.name;
}

// random_code_point draws a value to insert: mostly ASCII delimiters and
// Table 3-7 edges, otherwise any scalar value of a random length.
std::uint32_t random_code_point(rng& r) noexcept {
  switch (r.below(4)) {
    case 0: return r.pick(kDelimiters);
    case 1: return r.pick(kBoundaries);
    case 2: return static_cast<std::uint32_t>(0x20 + r.below(0x5F));
    default: {
      std::uint32_t v = static_cast<std::uint32_t>(r.below(0x110000));
      return v >= 0xD800 && v <= 0xDFFF ? v - 0x800 : v;
    }
  }
}

// edit applies one code-point edit at character boundaries.
const char* edit(buffer& b, rng& r) {
  const std::size_t pos = b.boundary(r.below(b.size + 1));
  const std::size_t len = b.unit_length(pos);
  switch (r.below(5)) {
    case 0: {
      form f;
      f.put(random_code_point(r));
      return b.replace(pos, 0, f.bytes, f.size) ? "insert_code_point" : nullptr;
    }
    case 1:
      if (len == 0) return nullptr;
      return b.replace(pos, len, nullptr, 0) ? "delete_character" : nullptr;
    case 2: {
      if (len == 0) return nullptr;
      std::uint8_t copy[4];
      std::memcpy(copy, b.data + pos, len);
      return b.replace(pos, 0, copy, len) ? "duplicate_character" : nullptr;
    }
    case 3: {
      // Swap with the next character: both stay whole, their order changes.
      const std::size_t next = pos + len;
      const std::size_t len2 = b.unit_length(next);
      if (len == 0 || len2 == 0) return nullptr;
      std::uint8_t first[4];
      std::memcpy(first, b.data + pos, len);
      std::memmove(b.data + pos, b.data + next, len2);
      std::memcpy(b.data + pos + len2, first, len);
      return "swap_characters";
    }
    default: {
      // Re-encode a well-formed character in more bytes than it needs.
      if (len == 0) return nullptr;
      const decoded d = decode_one(view(b.data + pos, b.size - pos));
      if (d.kind != error::none || d.length >= 4) return nullptr;
      form f;
      f.put(d.value, d.length + 1 + r.below(4 - d.length));
      return b.replace(pos, len, f.bytes, f.size) ? "reencode_overlong" : nullptr;
    }
  }
}

// byte_edit is the mutator's own byte-level step, for callers with no engine
// fallback: set, insert or erase one byte anywhere (not at boundaries).
const char* byte_edit(buffer& b, rng& r) {
  const std::size_t pos = r.below(b.size + 1);
  const auto value = static_cast<std::uint8_t>(r.next());
  switch (r.below(3)) {
    case 0:
      if (pos == b.size) return nullptr;
      b.data[pos] = value;
      return "byte_set";
    case 1: return b.replace(pos, 0, &value, 1) ? "byte_insert" : nullptr;
    default:
      if (pos == b.size) return nullptr;
      return b.replace(pos, 1, nullptr, 0) ? "byte_erase" : nullptr;
  }
}

}  // namespace
}  // namespace utf8guard::fuzzing

namespace utf8guard::fuzz {

std::size_t mutate(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned seed,
                   utf8guard_fuzz_fallback fallback, const char** what) noexcept {
  using namespace utf8guard::fuzzing;
  if (data == nullptr) size = max_size = 0;
  if (size > max_size) size = max_size;
  buffer b{data, size, max_size};
  rng r(seed);
  const char* done = nullptr;
  // A mutation that cannot apply (no room, nothing to delete) draws again; a
  // few draws always find one that can, except with no room at all.
  for (int attempt = 0; attempt < 8 && done == nullptr; ++attempt) {
    const std::size_t roll = r.below(10);
    if (roll < 6) {
      done = inject(b, r);
    } else if (roll < 9) {
      done = edit(b, r);
    } else if (fallback != nullptr) {
      b.size = fallback(b.data, b.size, b.max_size);
      done = "engine";
    } else {
      done = byte_edit(b, r);
    }
  }
  if (what != nullptr) *what = done != nullptr ? done : "none";
  return b.size;
}

}  // namespace utf8guard::fuzz
