// inputs.hpp - the inputs the conformance tests compare utf8guard on:
//   - every row of the security vectors (security/vectors/vectors.tsv);
//   - every input of 1 and 2 bytes;
//   - every input of 3 and 4 bytes made of the edge bytes of Table 3-7's byte
//     classes (each class's lowest and highest byte: 7F/80, 8F/90, 9F/A0,
//     C1/C2, E0, ED, F4/F5, ...), where every rule of the table changes;
//   - seeded random inputs dense in errors and mutated valid text, up to
//     about a thousand bytes, so every SIMD kernel meets errors at every
//     place in its blocks and in its tail.
#ifndef UTF8GUARD_TESTS_CONFORMANCE_INPUTS_HPP
#define UTF8GUARD_TESTS_CONFORMANCE_INPUTS_HPP

#include <set>
#include <string>
#include <vector>

#include "attack_vectors.hpp"
#include "random_inputs.hpp"

namespace utf8guard::conformance {

// edge_bytes are the lowest and highest byte of every class, sorted.
inline std::vector<char> edge_bytes() {
  std::set<std::uint8_t> edges;
  for (const testing::byte_class& c : testing::kByteClasses) {
    edges.insert(c.lo);
    edges.insert(c.hi);
  }
  return {edges.begin(), edges.end()};
}

// append_all appends every string of n bytes drawn from alphabet.
inline void append_all(const std::vector<char>& alphabet, std::size_t n,
                       std::vector<std::string>& out) {
  std::vector<std::size_t> digit(n, 0);
  std::string s(n, alphabet[0]);
  for (;;) {
    out.push_back(s);
    std::size_t i = 0;
    while (i < n && ++digit[i] == alphabet.size()) {
      digit[i] = 0;
      s[i] = alphabet[0];
      ++i;
    }
    if (i == n) return;
    s[i] = alphabet[digit[i]];
  }
}

// inputs returns the whole set, in a fixed order (the random part is seeded).
inline std::vector<std::string> inputs(const std::string& vectors_tsv) {
  std::vector<std::string> out;
  for (const security::attack_vector& v : security::load_manifest(vectors_tsv)) {
    out.push_back(v.bytes);
  }
  std::vector<char> every_byte(256);
  for (int b = 0; b < 256; ++b) every_byte[b] = static_cast<char>(b);
  append_all(every_byte, 1, out);
  append_all(every_byte, 2, out);
  const std::vector<char> edges = edge_bytes();
  append_all(edges, 3, out);
  append_all(edges, 4, out);
  testing::input_maker maker(0xC0FFEE);
  for (int i = 0; i < 4000; ++i) out.push_back(maker.error_dense(24));
  for (int i = 0; i < 4000; ++i) {
    std::string text;
    const std::size_t chars = maker.below(300);
    for (std::size_t c = 0; c < chars; ++c) text += maker.character();
    out.push_back(maker.mutate(std::move(text), maker.error_dense(4)));
  }
  return out;
}

}  // namespace utf8guard::conformance

#endif  // UTF8GUARD_TESTS_CONFORMANCE_INPUTS_HPP
