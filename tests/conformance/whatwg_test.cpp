// whatwg_test.cpp - sanitize() and validate() agree with the WHATWG Encoding
// Standard's UTF-8 decoder, as Node's TextDecoder implements it, on every
// kernel: sanitize's output is the non-fatal decode encoded back to UTF-8,
// and validate's first error has the offset and length the decoder gives it
// (textdecoder.js says how it finds them). Node runs once, over every input;
// then every kernel is compared with its answers.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "hex.hpp"
#include "inputs.hpp"
#include "kernels.hpp"
#include "utf8guard/utf8guard.hpp"

namespace utf8guard::conformance {
namespace {

struct decoder_answer {
  std::string sanitized;
  int status = 0;  // 0 valid, 1 error, 2 the input ends inside a sequence
  std::size_t offset = 0;
  std::size_t length = 0;
};

void put_u32(std::string& out, std::size_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

std::size_t get_u32(const std::string& in, std::size_t& pos) {
  if (pos + 4 > in.size()) throw std::runtime_error("textdecoder.js: short output");
  std::size_t v = 0;
  for (int i = 0; i < 4; ++i) v |= std::size_t{static_cast<std::uint8_t>(in[pos + i])} << (8 * i);
  pos += 4;
  return v;
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// run_node writes the inputs, runs textdecoder.js over them, and reads one
// answer per input.
std::vector<decoder_answer> run_node(const std::vector<std::string>& in) {
  const std::string dir = ::testing::TempDir();
  const std::string in_path = dir + "utf8guard_whatwg_in.bin";
  const std::string out_path = dir + "utf8guard_whatwg_out.bin";
  {
    std::string blob;
    for (const std::string& s : in) {
      put_u32(blob, s.size());
      blob += s;
    }
    std::ofstream f(in_path, std::ios::binary);
    f << blob;
    if (!f) throw std::runtime_error("cannot write " + in_path);
  }
  const std::string cmd = quoted(UTF8GUARD_NODE) + " " + quoted(UTF8GUARD_TEXTDECODER_JS) + " " +
                          quoted(in_path) + " " + quoted(out_path);
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("failed: " + cmd);
  std::ifstream f(out_path, std::ios::binary);
  const std::string blob{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  std::remove(in_path.c_str());
  std::remove(out_path.c_str());
  std::vector<decoder_answer> out;
  std::size_t pos = 0;
  while (pos < blob.size()) {
    decoder_answer a;
    const std::size_t n = get_u32(blob, pos);
    if (pos + n + 1 > blob.size()) throw std::runtime_error("textdecoder.js: short output");
    a.sanitized = blob.substr(pos, n);
    pos += n;
    a.status = static_cast<std::uint8_t>(blob[pos++]);
    a.offset = get_u32(blob, pos);
    a.length = get_u32(blob, pos);
    out.push_back(std::move(a));
  }
  if (out.size() != in.size()) throw std::runtime_error("textdecoder.js: one answer per input");
  return out;
}

struct corpus {
  std::vector<std::string> inputs;
  std::vector<decoder_answer> answers;
};

const corpus& node_corpus() {
  static const corpus c = [] {
    corpus made;
    made.inputs = inputs(UTF8GUARD_VECTORS_TSV);
    made.answers = run_node(made.inputs);
    return made;
  }();
  return c;
}

void skip_without_node() {
  if (std::string_view(UTF8GUARD_NODE).empty()) {
    GTEST_SKIP() << "node was not found when CMake ran (scripts/install-deps.sh installs nodejs)";
  }
}

class TextDecoder : public testing::EveryKernel {
 protected:
  void SetUp() override {
    skip_without_node();
    if (IsSkipped()) return;
    EveryKernel::SetUp();
  }
  void TearDown() override {
    if (!IsSkipped()) EveryKernel::TearDown();
  }
};

TEST_P(TextDecoder, SanitizeIsTheReplacingDecode) {
  const corpus& c = node_corpus();
  std::size_t failures = 0;
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    const std::string got = sanitize(c.inputs[i]);
    EXPECT_TRUE(security::same_bytes(got, c.answers[i].sanitized))
        << "input [" << testing::hex(c.inputs[i]) << "]";
    if (got != c.answers[i].sanitized && ++failures == 20) FAIL() << "stopping after 20";
  }
}

TEST_P(TextDecoder, FirstErrorIsTheFatalDecodersError) {
  const corpus& c = node_corpus();
  std::size_t failures = 0;
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    const result got = validate(c.inputs[i]);
    const decoder_answer& want = c.answers[i];
    const int status = got.ok() ? 0 : got.kind == error::incomplete ? 2 : 1;
    const bool same =
        status == want.status && got.offset == want.offset && got.length == want.length;
    EXPECT_TRUE(same) << "input [" << testing::hex(c.inputs[i]) << "]: utf8guard "
                      << to_string(got.kind) << " at " << got.offset << " length " << got.length
                      << "; TextDecoder status " << want.status << " at " << want.offset
                      << " length " << want.length;
    if (!same && ++failures == 20) FAIL() << "stopping after 20";
  }
}

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(TextDecoder);

// The driver finds what it should on inputs worked out by hand from the
// Encoding Standard, so a broken driver cannot pass a broken library.
TEST(TextDecoderDriver, KnownAnswers) {
  skip_without_node();
  if (IsSkipped()) return;
  using namespace std::string_literals;
  const std::vector<std::string> in = {"a\xE2\x82\xAC"s, "\xEF\xBB\xBFx"s, "ab\xC0\xAF"s,
                                       "\xE0\xA0\"q"s,   "x\xF0\x9F\x92"s, "\xEF\xBF\xBD\x80"s};
  const std::vector<decoder_answer> a = run_node(in);
  const std::string fffd = "\xEF\xBF\xBD";
  EXPECT_EQ(a[0].sanitized, in[0]);
  EXPECT_EQ(a[0].status, 0);
  EXPECT_EQ(a[1].sanitized, in[1]) << "a leading BOM is data";
  EXPECT_EQ(a[2].sanitized, "ab" + fffd + fffd);
  EXPECT_EQ((std::vector<std::size_t>{std::size_t(a[2].status), a[2].offset, a[2].length}),
            (std::vector<std::size_t>{1, 2, 1}));
  EXPECT_EQ(a[3].sanitized, fffd + "\"q");
  EXPECT_EQ((std::vector<std::size_t>{std::size_t(a[3].status), a[3].offset, a[3].length}),
            (std::vector<std::size_t>{1, 0, 2}));
  EXPECT_EQ(a[4].sanitized, "x" + fffd);
  EXPECT_EQ((std::vector<std::size_t>{std::size_t(a[4].status), a[4].offset, a[4].length}),
            (std::vector<std::size_t>{2, 1, 3}));
  // A literal U+FFFD in the input is a character, not an error.
  EXPECT_EQ((std::vector<std::size_t>{std::size_t(a[5].status), a[5].offset, a[5].length}),
            (std::vector<std::size_t>{1, 3, 1}));
}

}  // namespace
}  // namespace utf8guard::conformance
