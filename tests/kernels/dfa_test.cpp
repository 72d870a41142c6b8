// dfa_test.cpp - the hostile-input DFA (src/core/dfa.hpp, dense.hpp)
// against the one classifier (table37.hpp's sequence_at) and the oracle:
// every transition, every input of 0..3 bytes, random windows; and the
// streaming engine switching between kernel scans and DFA windows.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/dense.hpp"
#include "core/dfa.hpp"
#include "core/table37.hpp"
#include "kernel_check.hpp"
#include "kernels.hpp"
#include "reduced.hpp"

namespace {

using utf8guard::result;
namespace detail = utf8guard::detail;
namespace dense = utf8guard::detail::dense;
namespace dfa = utf8guard::detail::dfa;

// What the walk must find, by table37 alone: the subparts up to the
// sequence left open at the end (if any), and where that sequence starts.
struct expected {
  std::vector<result> errors;
  std::size_t stop = 0;
};

expected by_table37(std::string_view in) {
  const auto* p = kcheck::bytes_of(in);
  expected e;
  std::size_t i = 0;
  while (i < in.size()) {
    const result r = detail::sequence_at(p, in.size(), i);
    if (r.kind == utf8guard::error::incomplete) break;
    if (!r.ok()) e.errors.push_back(r);
    i += r.length;
  }
  e.stop = i;
  return e;
}

// walk lists the subparts errors_in finds, and where it stopped.
std::size_t walk(std::string_view in, std::vector<result>& list) {
  static thread_local std::vector<dense::window_error> raw(dense::kMaxErrors);
  const dense::window_end w = dense::errors_in(kcheck::bytes_of(in), in.size(), raw.data());
  list.clear();
  for (std::size_t k = 0; k < w.count; ++k) {
    list.push_back({raw[k].kind(), raw[k].offset(), raw[k].length()});
  }
  EXPECT_EQ(w.replacements, list.size());
  return w.stop;
}

std::string walk_errors(std::string_view in) {
  static thread_local std::vector<result> list;
  const std::size_t stop = walk(in, list);
  const dense::window_end w{stop, list.size(), list.size()};
  const expected want = by_table37(in);
  std::string why;
  if (w.stop != want.stop)
    why += "stop " + std::to_string(w.stop) + " != " + std::to_string(want.stop) + "; ";
  if (w.count != want.errors.size()) {
    why += "count " + std::to_string(w.count) + " != " + std::to_string(want.errors.size()) + "; ";
  }
  for (std::size_t k = 0; k < w.count && k < want.errors.size(); ++k) {
    if (list[k] != want.errors[k]) {
      why += "error " + std::to_string(k) + ": " +
             kcheck::describe(utf8guard::to_string(list[k].kind), list[k].offset, list[k].length) +
             " != " +
             kcheck::describe(utf8guard::to_string(want.errors[k].kind), want.errors[k].offset,
                              want.errors[k].length) +
             "; ";
      break;
    }
  }
  if (why.empty()) {
    // The sanitized bytes of the window are those of its closed part.
    static thread_local std::string out;
    out.assign(dense::kMaxOutput, '\0');
    const dense::window_end r = dense::replace_in(kcheck::bytes_of(in), in.size(), out.data());
    out.resize(r.count);
    if (r.stop != w.stop || r.replacements != w.count ||
        out != reference::sanitize(in.substr(0, want.stop))) {
      why += "replace_in differs";
    }
  }
  return why.empty() ? why : why + " for " + kcheck::hex(in, 0, 8);
}

// Inputs that put the DFA in each state, so every (state, byte) pair is met.
const std::vector<std::string>& state_prefixes() {
  static const std::vector<std::string> all = {
      "",         "a",        "\xC3",         "\xE1\x80", "\xF1\x80\x80",
      "\xE0\xA0", "\xED\x80", "\xF0\x90\x80", "\xE1",     "\xF1\x80",
      "\xF0\x90", "\xF4\x80", "\xF1",         "\xE0",     "\xED",
      "\xF0",     "\xF4",     "\xC3\xA9"};
  return all;
}

TEST(Dfa, EveryStateIsReachedByTheTestPrefixes) {
  std::vector<bool> seen(dfa::kClassifyingStates, false);
  for (const std::string& prefix : state_prefixes()) {
    std::uint64_t s = dfa::kPosition[dfa::A];
    for (unsigned char c : prefix) s = dense::next_state(s, c);
    for (unsigned id = 0; id < dfa::kClassifyingStates; ++id) {
      if ((s & 63) == dfa::kPosition[id]) seen[id] = true;
    }
  }
  for (unsigned id = 0; id < dfa::kClassifyingStates; ++id) EXPECT_TRUE(seen[id]) << "state " << id;
}

TEST(Dfa, EveryTransitionAgreesWithSequenceAt) {
  std::size_t failures = 0;
  for (const std::string& prefix : state_prefixes()) {
    for (int b = 0; b < 256; ++b) {
      for (const char* after : {"", "a", "\x80", "\x80\x80", "\xBF\xBF\xBF"}) {
        const std::string in = prefix + static_cast<char>(b) + after;
        const std::string why = walk_errors(in);
        if (!why.empty() && ++failures <= 10) ADD_FAILURE() << why;
      }
    }
  }
  EXPECT_EQ(failures, 0u);
}

TEST(Dfa, TheRowsAndActionsAreTheTransitions) {
  // The yes/no rows (the scalar kernel's) are the classifying DFA without
  // the byte count, with every error sent to the sticky ERR state; the
  // classifying rows and the actions say what dfa::step says.
  for (unsigned id = 0; id < dfa::kClassifyingStates; ++id) {
    for (int b = 0; b < 256; ++b) {
      const dfa::transition t = dfa::step(id, static_cast<std::uint8_t>(b));
      const bool broke = t.first != utf8guard::error::none;
      const bool bad = t.second != utf8guard::error::none;
      const unsigned v =
          static_cast<unsigned>(dfa::kTables.valid[b] >> (dfa::valid_of(id) * dfa::kValidSpacing)) &
          63;
      EXPECT_EQ(v, (broke || bad ? unsigned{dfa::ERR} : dfa::valid_of(t.next)) * dfa::kValidSpacing)
          << id << " " << b;
      const std::uint64_t state = dfa::kPosition[id];
      EXPECT_EQ(dense::next_state(state, static_cast<std::uint8_t>(b)) & 63,
                dfa::kPosition[t.next]);
      EXPECT_EQ(dense::open_bytes(dfa::kPosition[t.next]), dfa::info(t.next).have);
      // A broken sequence started `have` bytes back: sanitize writes its
      // U+FFFD there, and its error word starts there.
      const int have = broke ? static_cast<int>(dfa::info(id).have) : 0;
      const dfa::action& a = dense::action_of(state, static_cast<std::uint8_t>(b));
      EXPECT_EQ(a.fffd_at, -have);
      EXPECT_EQ(a.advance, -have + (broke ? 3 : 0) + (bad ? 3 : 1));
      EXPECT_EQ(a.count, unsigned{broke} + unsigned{bad});
      EXPECT_EQ(a.broke, unsigned{broke});
      EXPECT_EQ(a.bad, unsigned{bad});
      EXPECT_EQ(a.broken, static_cast<int>(t.first) - 24 * have);
      EXPECT_EQ(a.second, static_cast<unsigned>(t.second));
      // The columns the walks read hold the same action.
      const dfa::action_columns& c = dfa::kTables.column;
      const unsigned k = dense::action_number(state, static_cast<std::uint8_t>(b));
      // sanitize's table: U+FFFD for the broken sequence, then the byte, or
      // U+FFFD for it if it is an error; the store's bytes after those are
      // not output (the cursor moves past them only when a later store
      // writes them again). Then the next state's row, and the moves.
      const std::size_t at_entry = id * dfa::kRow + static_cast<unsigned>(b);
      const std::uint64_t stored = dfa::kReplace.store[at_entry];
      const std::uint32_t move = dfa::kReplace.move[at_entry];
      const unsigned at = broke ? 3 : 0;
      const std::uint64_t byte = bad ? dfa::kFffd : static_cast<std::uint64_t>(b);
      const unsigned output = a.advance - a.fffd_at;
      ASSERT_LE(output, 6u);
      EXPECT_EQ(output, at + (bad ? 3 : 1));
      EXPECT_EQ(stored & ((std::uint64_t{1} << (8 * output)) - 1),
                (broke ? dfa::kFffd : 0) | byte << (8 * at));
      EXPECT_EQ(stored >> dfa::kNextRowAt, t.next * dfa::kRow);
      EXPECT_EQ(move & dfa::kMoveField, a.advance);
      EXPECT_EQ((move >> dfa::kMoveCountAt) & dfa::kMoveField, a.count);
      EXPECT_EQ(static_cast<std::int8_t>(move >> dfa::kMoveOffsetAt), a.fffd_at);
      EXPECT_EQ(dfa::kReplace.have[t.next], dfa::info(t.next).have);
      EXPECT_EQ(c.count[k], a.count);
      const std::uint64_t second = a.second + dfa::kLengthOne;
      EXPECT_EQ(c.words[k][0], broke ? static_cast<std::uint64_t>(a.broken) : second);
      EXPECT_EQ(c.words[k][1], second);
    }
  }
  const unsigned err = dfa::ERR * dfa::kValidSpacing;
  for (int b = 0; b < 256; ++b)
    EXPECT_EQ(static_cast<unsigned>(dfa::kTables.valid[b] >> err) & 63, err);
}

TEST(Dfa, TheStatesCountTheBytesOfTheSequence) {
  // Each prefix of a sequence puts the DFA in a state whose byte count is
  // the prefix's length; the boundary counts 0.
  for (const std::string& prefix : state_prefixes()) {
    std::uint64_t s = dfa::kPosition[dfa::A];
    for (unsigned char c : prefix) s = dense::next_state(s, c);
    const auto* p = kcheck::bytes_of(prefix);
    std::size_t i = 0;
    while (i < prefix.size()) {
      const result r = detail::sequence_at(p, prefix.size(), i);
      if (r.kind == utf8guard::error::incomplete) break;
      i += r.length;
    }
    EXPECT_EQ(dense::open_bytes(s), prefix.size() - i) << kcheck::hex(prefix, 0, 4);
  }
}

TEST(Dfa, EveryInputOfUpToThreeBytes) {
  std::size_t failures = 0;
  char in[3];
  for (std::size_t len = 0; len <= 3; ++len) {
    const std::uint32_t count = len == 0 ? 1 : 1u << (8 * len);
    // Three bytes: every input, or every 7th when reduced (reduced.hpp).
    const std::uint32_t step = len == 3 ? utf8guard::testing::reduced_step() : 1;
    for (std::uint32_t v = 0; v < count; v += step) {
      for (std::size_t k = 0; k < len; ++k) in[k] = static_cast<char>(v >> (8 * k));
      const std::string why = walk_errors(std::string_view(in, len));
      if (!why.empty() && ++failures <= 10) ADD_FAILURE() << why;
    }
  }
  EXPECT_EQ(failures, 0u);
}

TEST(Dfa, RandomWindowsAgreeWithTheOracle) {
  kcheck::generator gen(3);
  std::size_t failures = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::size_t len = gen.below(dense::kWindow + 1);
    std::string in = i % 3 == 0 ? gen.random_bytes(len) : gen.mutated(gen.valid(len));
    if (in.size() > dense::kWindow) in.resize(dense::kWindow);
    std::string why = walk_errors(in);
    // And against the oracle directly: the closed part's subparts.
    std::vector<result> list;
    const std::size_t stop = walk(in, list);
    // The oracle on the whole window, less the sequence left open at stop.
    auto want = reference::all_errors(in);
    if (!want.empty() && want.back().offset >= stop) want.pop_back();
    if (why.empty() && want.size() != list.size()) why = "oracle count differs";
    for (std::size_t k = 0; why.empty() && k < want.size(); ++k) {
      if (utf8guard::to_string(list[k].kind) != want[k].kind || list[k].offset != want[k].offset ||
          list[k].length != want[k].length) {
        why = "oracle differs at error " + std::to_string(k) + ": " +
              kcheck::describe(utf8guard::to_string(list[k].kind), list[k].offset, list[k].length) +
              " vs " + kcheck::describe(want[k].kind, want[k].offset, want[k].length) + " " +
              kcheck::hex(in, want[k].offset);
      }
    }
    if (!why.empty() && ++failures <= 10) ADD_FAILURE() << why;
  }
  EXPECT_EQ(failures, 0u);
}

// replace_in walks a window's halves side by side, the second from a byte
// that no earlier sequence can take (dense::unit_start). Windows of every
// length, of bytes that open, continue, break and end sequences, put every
// kind of byte and every open sequence at that split; and unit_start finds
// such a byte within four bytes.
TEST(Dfa, ReplaceInSplitsWhereNoSequenceGoesOn) {
  static const unsigned char kBytes[] = {0x41, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0,
                                         0xC2, 0xE0, 0xE1, 0xED, 0xF0, 0xF1, 0xF4, 0xF5};
  kcheck::generator gen(17);
  std::size_t failures = 0;
  for (int i = 0; i < 60000; ++i) {
    const std::size_t len =
        i < 6000 ? static_cast<std::size_t>(i % 40) : gen.below(dense::kWindow + 1);
    // Half the windows run only continuation bytes from some point on, so
    // that the split comes after three of them, or at the end.
    const std::size_t tails_from = i % 2 == 0 ? gen.below(len + 1) : len;
    std::string in(len, '\0');
    for (std::size_t k = 0; k < len; ++k) {
      in[k] = static_cast<char>(k >= tails_from ? 0x80 + gen.below(64) : kBytes[gen.below(16)]);
    }
    std::string why = walk_errors(in);
    if (len >= 6) {
      const auto* p = kcheck::bytes_of(in);
      const std::size_t m = dense::unit_start(p, len, len / 2);
      // A byte that is no continuation starts over; any other must find
      // the DFA at the boundary after the bytes before it.
      std::uint64_t s = dfa::kPosition[dfa::A];
      for (std::size_t k = 0; k < m; ++k) s = dense::next_state(s, p[k]);
      if (m < len && detail::is_continuation(p[m]) && dense::open_bytes(s) != 0)
        why += "unit_start " + std::to_string(m) + " is inside a sequence; ";
      if (m > len / 2 + 3 && m != len) why += "unit_start " + std::to_string(m) + " is too far; ";
    }
    if (!why.empty() && ++failures <= 10) ADD_FAILURE() << why << " len " << len;
  }
  EXPECT_EQ(failures, 0u);
}

// The streaming engine switches between kernel scans and DFA windows: dense
// and sparse stretches of errors, fed in chunks of every awkward size, on
// every kernel, must give the oracle's sanitized bytes and error list.
class DenseStreaming : public ::testing::TestWithParam<std::string> {};

std::string mixed_density(kcheck::generator& gen) {
  std::string s;
  while (s.size() < 6000) {
    switch (gen.below(4)) {
      case 0: s += gen.random_bytes(gen.below(700)); break;
      case 1: s += gen.valid(gen.below(900)); break;
      case 2: s += gen.mutated(gen.valid(gen.below(300))); break;
      default: {
        std::string t = gen.valid(gen.below(400));
        for (std::size_t k = 0; k < t.size(); k += 1 + gen.below(40))
          t[k] = static_cast<char>(0x80 + gen.below(128));
        s += t;
      }
    }
  }
  return s;
}

TEST_P(DenseStreaming, SanitizeAndEveryErrorMatchTheOracleForEveryChunking) {
  ASSERT_TRUE(utf8guard::set_kernel(GetParam()));
  kcheck::generator gen(11);
  for (int round = 0; round < 40; ++round) {
    const std::string in = mixed_density(gen);
    const std::string want = reference::sanitize(in);
    const auto want_errors = reference::all_errors(in);
    EXPECT_EQ(utf8guard::sanitize(in), want);
    for (std::size_t chunk : {std::size_t{1}, std::size_t{3}, std::size_t{255}, std::size_t{257},
                              std::size_t{4096}, 1 + gen.below(1000)}) {
      utf8guard::sanitizer s;
      std::string out;
      utf8guard::error_scanner sc;
      std::vector<result> errors;
      for (std::size_t off = 0; off < in.size(); off += chunk) {
        const std::string_view part = std::string_view(in).substr(off, chunk);
        s.feed(part, [&](std::string_view b) { out += b; });
        sc.feed(part, [&](const result& r) { errors.push_back(r); });
      }
      s.finish([&](std::string_view b) { out += b; });
      sc.finish([&](const result& r) { errors.push_back(r); });
      ASSERT_EQ(out, want) << "chunk " << chunk;
      EXPECT_EQ(s.replacements(), want_errors.size());
      ASSERT_EQ(errors.size(), want_errors.size()) << "chunk " << chunk;
      for (std::size_t k = 0; k < errors.size(); ++k) {
        ASSERT_EQ(utf8guard::to_string(errors[k].kind), want_errors[k].kind) << k;
        ASSERT_EQ(errors[k].offset, want_errors[k].offset) << k;
        ASSERT_EQ(errors[k].length, want_errors[k].length) << k;
      }
    }
  }
  utf8guard::set_kernel("best");
}

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(DenseStreaming);

}  // namespace
