// embedding_test.cpp - each invalid vector of vectors.hpp placed at every
// offset 0..130 inside ASCII text and inside text of 2-, 3- and 4-byte
// characters, on every kernel. The error must move by exactly the prefix's
// size with its kind and length unchanged, and sanitizing must replace the
// vector's subparts and nothing else. 130 bytes cross the block boundaries of
// every SIMD width (16, 32, 64) at every alignment, twice for 64.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hex.hpp"
#include "kernels.hpp"
#include "results.hpp"
#include "vectors.hpp"

namespace utf8guard::testing {
namespace {

constexpr std::size_t kMaxOffset = 130;

// A context: well-formed characters of one width, cycled to fill the text.
struct context {
  std::string_view name;
  std::size_t width;
  std::vector<std::string_view> characters;
};

const std::vector<context>& contexts() {
  static const std::vector<context> all = {
      {"ascii", 1, {"a", "Z", "\x7F", "0"}},
      {"2-byte", 2, {"\xC3\xA9", "\xD0\xB6", "\xC2\x80", "\xDF\xBF"}},
      {"3-byte",
       3,
       {"\xE2\x82\xAC", "\xE4\xB8\xAD", "\xE0\xA0\x80", "\xEF\xBF\xBD", "\xED\x9F\xBF"}},
      {"4-byte",
       4,
       {"\xF0\x9F\x98\x80", "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF", "\xF3\xA0\x80\x81"}},
  };
  return all;
}

// text returns exactly `size` well-formed bytes: a few ASCII letters to make
// up the remainder, then whole characters of the context.
std::string text(const context& c, std::size_t size) {
  std::string out(size % c.width, 'x');
  for (std::size_t i = 0; out.size() < size; ++i) out += c.characters[i % c.characters.size()];
  return out;
}

class Embedding : public EveryKernel {};

TEST_P(Embedding, ErrorsShiftByThePrefixAndNothingElseChanges) {
  std::size_t checked = 0;
  for (const context& c : contexts()) {
    for (const test_vector& v : kVectors) {
      if (v.kind == error::none) continue;
      // A vector that ends inside a sequence is "incomplete" only at the end
      // of the input: text after it would make it "truncated". Such vectors
      // go last; the others get 70 bytes of text after them.
      const std::vector<reference::error> own = reference::all_errors(v.bytes);
      const bool open_end = !own.empty() && own.back().kind == "incomplete";
      const std::string suffix = open_end ? std::string() : text(c, 70);
      for (std::size_t offset = 0; offset <= kMaxOffset; ++offset) {
        const std::string prefix = text(c, offset);
        const std::string in = prefix + std::string(v.bytes) + suffix;
        SCOPED_TRACE(std::string(c.name) + " text, at " + std::to_string(offset) + ": " +
                     hex(v.bytes));
        const result want{v.kind, offset + v.offset, v.length};
        ASSERT_EQ(validate(in), want);
        ASSERT_FALSE(is_valid(in));
        ASSERT_EQ(from_c(utf8guard_validate(in.data(), in.size())), want);
        // Well-formed text around the vector passes through unchanged.
        const std::string sanitized = sanitize(in);
        ASSERT_EQ(hex(sanitized), hex(prefix + reference::sanitize(v.bytes) + suffix));
        ASSERT_EQ(hex(sanitized), hex(reference::sanitize(in)));
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 4 * (kMaxOffset + 1) * 50) << "fewer invalid vectors than expected";
}

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(Embedding);

}  // namespace
}  // namespace utf8guard::testing
