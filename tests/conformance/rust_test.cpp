// rust_test.cpp - validate() agrees with Rust's str::from_utf8 on every
// kernel: the first error's offset is Utf8Error::valid_up_to(), its length is
// error_len(), and error_len() is None exactly when utf8guard says incomplete
// (its length is then the rest of the input). Rust's answer comes from its
// own algorithm (rust_oracle.hpp), not from utf8guard's reference oracle.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hex.hpp"
#include "inputs.hpp"
#include "kernels.hpp"
#include "rust_oracle.hpp"
#include "utf8guard/utf8guard.hpp"

namespace utf8guard::conformance {
namespace {

// agrees says where validate() and Rust's from_utf8 disagree on one input.
::testing::AssertionResult agrees(std::string_view in) {
  const result got = validate(in);
  const std::optional<rust_utf8_error> rust = rust_from_utf8(in);
  auto fail = [&]() {
    auto f = ::testing::AssertionFailure();
    f << "input [" << testing::hex(in) << "]: utf8guard " << to_string(got.kind) << " at "
      << got.offset << " length " << got.length << "; Rust ";
    if (!rust) return f << "Ok";
    f << "valid_up_to " << rust->valid_up_to << " error_len ";
    return rust->error_len ? f << *rust->error_len : f << "None";
  };
  if (!rust) return got.ok() ? ::testing::AssertionSuccess() : fail();
  if (got.ok() || got.offset != rust->valid_up_to) return fail();
  if (!rust->error_len) {
    return got.kind == error::incomplete && got.length == in.size() - got.offset
               ? ::testing::AssertionSuccess()
               : fail();
  }
  return got.kind != error::incomplete && got.length == *rust->error_len
             ? ::testing::AssertionSuccess()
             : fail();
}

const std::vector<std::string>& shared_inputs() {
  static const std::vector<std::string> all = inputs(UTF8GUARD_VECTORS_TSV);
  return all;
}

class RustFromUtf8 : public testing::EveryKernel {};

TEST_P(RustFromUtf8, FirstErrorIsValidUpToAndErrorLen) {
  std::size_t failures = 0;
  for (const std::string& in : shared_inputs()) {
    const auto r = agrees(in);
    EXPECT_TRUE(r);
    if (!r && ++failures == 20) FAIL() << "stopping after 20 disagreements";
  }
}

// Every input of 3 bytes, not only the edge bytes: 2^24 inputs without a
// heap allocation each.
TEST_P(RustFromUtf8, EveryThreeByteInput) {
  char in[3];
  std::size_t failures = 0;
  for (std::uint32_t v = 0; v < (1u << 24); ++v) {
    in[0] = static_cast<char>(v >> 16);
    in[1] = static_cast<char>(v >> 8);
    in[2] = static_cast<char>(v);
    const auto r = agrees(std::string_view(in, 3));
    EXPECT_TRUE(r);
    if (!r && ++failures == 20) FAIL() << "stopping after 20 disagreements";
  }
}

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(RustFromUtf8);

// The port itself, on answers worked out by hand from Rust's rule, so a broken
// port cannot agree with a broken library by accident.
TEST(RustOracle, KnownAnswers) {
  using namespace std::string_view_literals;
  EXPECT_FALSE(rust_from_utf8("a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x92\x96"sv));
  // A lead byte at the end: more bytes could complete it, so error_len is None.
  auto cut = rust_from_utf8("spark\xC3"sv);
  ASSERT_TRUE(cut);
  EXPECT_EQ(cut->valid_up_to, 5u);
  EXPECT_FALSE(cut->error_len);
  struct row {
    std::string_view in;
    std::size_t valid_up_to, error_len;
  };
  for (const row& r :
       {row{"\x80"sv, 0, 1}, row{"ab\xC0\x80"sv, 2, 1}, row{"\xE0\x80\x80"sv, 0, 1},
        row{"\xED\xA0\x80"sv, 0, 1}, row{"\xF4\x90\x80\x80"sv, 0, 1}, row{"\xE2\x82x"sv, 0, 2},
        row{"\xF0\x9F\x92x"sv, 0, 3}, row{"\xF5"sv, 0, 1}}) {
    const auto e = rust_from_utf8(r.in);
    ASSERT_TRUE(e) << testing::hex(r.in);
    EXPECT_EQ(e->valid_up_to, r.valid_up_to) << testing::hex(r.in);
    EXPECT_EQ(e->error_len, std::optional<std::size_t>(r.error_len)) << testing::hex(r.in);
  }
}

}  // namespace
}  // namespace utf8guard::conformance
