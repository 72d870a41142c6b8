// hints_test.cpp - explain() against the oracle's hint rules
// (tests/reference/policy_reference.cpp, written from the rules' intent: form
// lengths and values, not byte ranges): hand-written vectors, every input of
// up to 3 bytes at every offset, and every 4- to 6-byte input the rules'
// ranges name, each at every offset and inside guarding bytes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

#include "hex.hpp"
#include "policy_reference.hpp"
#include "reduced.hpp"
#include "results.hpp"

namespace utf8guard::testing {
namespace {

// The hint names of docs/design.md's table, by hand.
constexpr std::pair<std::string_view, hint_kind> kHintNames[] = {
    {"", hint_kind::none},
    {"utf16_bom", hint_kind::utf16_bom},
    {"modified_utf8_nul", hint_kind::modified_utf8_nul},
    {"overlong_form", hint_kind::overlong_form},
    {"cesu8_pair", hint_kind::cesu8_pair},
    {"surrogate_code_point", hint_kind::surrogate_code_point},
    {"beyond_unicode", hint_kind::beyond_unicode},
    {"windows1252", hint_kind::windows1252},
};

hint from_reference(const reference::hint& h) {
  for (const auto& [name, kind] : kHintNames) {
    if (name == h.name) return {kind, h.value, h.has_value};
  }
  return {static_cast<hint_kind>(0xFF), 0, false};
}

void PrintHint(const hint& h, std::ostream* os) {
  *os << to_string(h.kind) << " " << std::hex << static_cast<unsigned>(h.value) << std::dec
      << (h.has_value ? "" : " (no value)");
}

}  // namespace

inline void PrintTo(const hint& h, std::ostream* os) { PrintHint(h, os); }

namespace {

TEST(Hints, NamesAsTheContractSpellsThem) {
  for (const auto& [name, kind] : kHintNames) {
    if (kind == hint_kind::none) continue;
    EXPECT_EQ(to_string(kind), name);
    EXPECT_STREQ(utf8guard_hint_name(static_cast<utf8guard_hint_kind>(kind)), name.data());
  }
  EXPECT_EQ(to_string(hint_kind::none), "none");
}

TEST(Hints, HandWrittenVectors) {
  struct vec {
    std::string in;
    std::size_t offset;
    hint want;
  };
  const std::vector<vec> vectors = {
      {"\xFE\xFFh\0", 0, {hint_kind::utf16_bom, 0, false}},
      {"\xFF\xFEh\0", 0, {hint_kind::utf16_bom, 0, false}},
      {"x\xFF\xFE", 1, {}},  // not at offset 0: no neighbour is ASCII on both sides
      {std::string("a\xC0\x80z"), 1, {hint_kind::modified_utf8_nul, 0, true}},
      {"..\xC0\xAF..", 2, {hint_kind::overlong_form, 0x2F, true}},
      {"\xE0\x80\xAF", 0, {hint_kind::overlong_form, 0x2F, true}},
      {"\xF0\x80\x80\xAF", 0, {hint_kind::overlong_form, 0x2F, true}},
      {"a\xED\xA0\xBD\xED\xB8\x80"
       "b",
       1,
       {hint_kind::cesu8_pair, 0x1F600, true}},
      {"a\xED\xA0\xBD\xED\xB8\x80"
       "b",
       4,
       {hint_kind::cesu8_pair, 0x1F600, true}},
      {"a\xED\xA0\xBD"
       "b",
       1,
       {hint_kind::surrogate_code_point, 0xD83D, true}},
      {"\xED\xB8\x80", 0, {hint_kind::surrogate_code_point, 0xDE00, true}},
      {"\xF4\x90\x80\x80", 0, {hint_kind::beyond_unicode, 0x110000, true}},
      {"\xF7\xBF\xBF\xBF", 0, {hint_kind::beyond_unicode, 0x1FFFFF, true}},
      {"\xFB\xBF\xBF\xBF\xBF", 0, {hint_kind::beyond_unicode, 0x3FFFFFF, true}},
      {"\xFD\xBF\xBF\xBF\xBF\xBF", 0, {hint_kind::beyond_unicode, 0x7FFFFFFF, true}},
      {"caf\xE9!", 3, {hint_kind::windows1252, 0xE9, true}},
      {"\x80", 0, {hint_kind::windows1252, 0x20AC, true}},
      {"a\x81"
       "b",
       1,
       {hint_kind::windows1252, 0x81, true}},
      {"\x93quoted\x94", 0, {hint_kind::windows1252, 0x201C, true}},
      {"\xE9\xE9", 0, {}},
      {"ok", 0, {}},
      {"ok", 2, {}},
      {"ok", 99, {}},
  };
  for (const vec& v : vectors) {
    EXPECT_EQ(explain(v.in, v.offset), v.want) << hex(v.in) << " @" << v.offset;
    EXPECT_EQ(from_reference(reference::explain(v.in, v.offset)), v.want)
        << "oracle: " << hex(v.in) << " @" << v.offset;
    const utf8guard_hint c = utf8guard_explain(v.in.data(), v.in.size(), v.offset);
    EXPECT_EQ((hint{static_cast<hint_kind>(c.kind), c.value, c.has_value}), v.want);
  }
  EXPECT_EQ(utf8guard_explain(nullptr, 0, 0).kind, UTF8GUARD_HINT_NONE);
}

// edge_buffers holds one writable page between PROT_NONE pages, reused for
// millions of inputs: each input is placed against the page after it, then
// against the page before it, so a read outside the input faults.
class edge_buffers {
 public:
  edge_buffers() : page_(static_cast<std::size_t>(sysconf(_SC_PAGESIZE))) {
    void* m = mmap(nullptr, 3 * page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) std::abort();
    map_ = static_cast<char*>(m);
    if (mprotect(map_, page_, PROT_NONE) != 0 ||
        mprotect(map_ + 2 * page_, page_, PROT_NONE) != 0) {
      std::abort();
    }
  }
  ~edge_buffers() { munmap(map_, 3 * page_); }
  edge_buffers(const edge_buffers&) = delete;
  edge_buffers& operator=(const edge_buffers&) = delete;
  std::string_view at_end(std::string_view in) {
    char* p = map_ + 2 * page_ - in.size();
    if (!in.empty()) std::memcpy(p, in.data(), in.size());
    return {p, in.size()};
  }
  std::string_view at_start(std::string_view in) {
    char* p = map_ + page_;
    if (!in.empty()) std::memcpy(p, in.data(), in.size());
    return {p, in.size()};
  }

 private:
  std::size_t page_;
  char* map_;
};

// check_every_offset compares explain and the oracle at every offset of in
// (and one past it), the input against each guard page in turn.
void check_every_offset(std::string_view in, edge_buffers& buf) {
  for (std::size_t off = 0; off <= in.size(); ++off) {
    const hint want = from_reference(reference::explain(in, off));
    const hint got = explain(buf.at_end(in), off);
    const hint got2 = explain(buf.at_start(in), off);
    if (got != want || got2 != want) {
      ADD_FAILURE() << hex(in) << " @" << off << ": got " << ::testing::PrintToString(got)
                    << ", want " << ::testing::PrintToString(want);
      return;
    }
  }
}

TEST(Hints, EveryInputOfUpTo3Bytes) {
  edge_buffers buf;
  std::string in;
  check_every_offset(in, buf);
  for (unsigned len = 1; len <= 3; ++len) {
    in.assign(len, '\0');
    // Three bytes: every input, or every 7th when reduced (reduced.hpp).
    const std::uint32_t step = len == 3 ? utf8guard::testing::reduced_step() : 1;
    for (std::uint32_t v = 0; v < (1u << (8 * len)); v += step) {
      for (unsigned k = 0; k < len; ++k) in[k] = static_cast<char>(v >> (8 * k));
      check_every_offset(in, buf);
      if (HasFailure()) return;
    }
  }
}

// Every 4- to 6-byte input whose bytes are drawn from the values at the
// edges of the rules' ranges (each range's ends and their neighbours), and
// every input of the two CESU-8 halves' exact ranges.
TEST(Hints, EveryFourToSixByteInputInTheRulesRanges) {
  const std::vector<std::uint8_t> edges = {0x00, 0x2F, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xAF,
                                           0xB0, 0xBF, 0xC0, 0xC1, 0xC2, 0xE0, 0xED, 0xF0, 0xF4,
                                           0xF5, 0xF7, 0xF8, 0xFB, 0xFC, 0xFD, 0xFE, 0xFF};
  edge_buffers buf;
  std::string in;
  for (unsigned len = 4; len <= 5; ++len) {
    std::vector<std::size_t> idx(len, 0);
    in.assign(len, '\0');
    for (;;) {
      for (unsigned k = 0; k < len; ++k) in[k] = static_cast<char>(edges[idx[k]]);
      check_every_offset(in, buf);
      if (HasFailure()) return;
      unsigned k = 0;
      while (k < len && ++idx[k] == edges.size()) idx[k++] = 0;
      if (k == len) break;
    }
  }
  // 6 bytes: a lead of a 5- or 6-byte form, or ED, then the edges of 80..BF
  // and the bytes right outside it.
  const std::vector<std::uint8_t> leads = {0xED, 0xF8, 0xFB, 0xFC, 0xFD};
  const std::vector<std::uint8_t> tails = {0x7F, 0x80, 0x8F, 0x90, 0xAF, 0xB0, 0xBF, 0xC0, 0xED};
  in.assign(6, '\0');
  for (const std::uint8_t lead : leads) {
    std::vector<std::size_t> idx(5, 0);
    for (;;) {
      in[0] = static_cast<char>(lead);
      for (unsigned k = 0; k < 5; ++k) in[k + 1] = static_cast<char>(tails[idx[k]]);
      check_every_offset(in, buf);
      if (HasFailure()) return;
      unsigned k = 0;
      while (k < 5 && ++idx[k] == tails.size()) idx[k++] = 0;
      if (k == 5) break;
    }
  }
  // The CESU-8 pair, exhaustively: ED A0..BF 80..BF ED A0..BF 80..BF.
  in = "\xED\x80\x80\xED\x80\x80";
  for (unsigned a = 0xA0; a <= 0xBF; ++a) {
    for (unsigned b = 0x80; b <= 0xBF; ++b) {
      for (unsigned c = 0xA0; c <= 0xBF; ++c) {
        for (unsigned d = 0x80; d <= 0xBF; d += (d < 0x82 || d > 0xBD) ? 1 : 0x1D) {
          in[1] = static_cast<char>(a);
          in[2] = static_cast<char>(b);
          in[4] = static_cast<char>(c);
          in[5] = static_cast<char>(d);
          check_every_offset(in, buf);
          if (HasFailure()) return;
        }
      }
    }
  }
}

}  // namespace
}  // namespace utf8guard::testing
