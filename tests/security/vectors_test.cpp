// vectors_test.cpp - replays security/vectors/vectors.tsv, the real attacks
// on UTF-8 decoders, through every entry point on every usable kernel.
//
// Each row is checked
//  - behind an ASCII prefix of 0..63 bytes (the offsets shift with it) and
//    with and without an ASCII tail that pads the input to 192 bytes, so the
//    attack sits at every position of a 64-byte vector, in a SIMD kernel's
//    tail path and in its main loop;
//  - one-shot (validate, is_valid, sanitize, sanitize_to, decode, the C API),
//    streaming over every 1- and 2-cut split of the attack bytes and in
//    1-byte chunks (validator, sanitizer, error_scanner, and their C API);
//  - with the input's last byte against a PROT_NONE page and, separately, its
//    first byte right after one.
// Sanitize must never swallow the ASCII byte after a broken lead (the quote in
// C0 22 stays a quote): asserted for every error followed by ASCII.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "attack_vectors.hpp"
#include "guard_page.hpp"
#include "hex.hpp"
#include "kernels.hpp"
#include "reference.hpp"
#include "sinks.hpp"
#include "utf8guard/utf8guard.h"
#include "utf8guard/utf8guard.hpp"

namespace utf8guard::testing {
namespace {

using utf8guard::security::ascii_run;
using utf8guard::security::attack_vector;
using utf8guard::security::same_bytes;

constexpr std::size_t kMaxPrefix = 63;
constexpr std::size_t kPaddedSize = 192;  // three 64-byte vectors
constexpr char kFffd[] = "\xEF\xBF\xBD";

const std::vector<attack_vector>& manifest() {
  static const std::vector<attack_vector> rows =
      utf8guard::security::load_manifest(UTF8GUARD_VECTORS_TSV);
  return rows;
}

// One placement of a row: prefix + attack + tail, and what every entry point
// must answer for it.
struct placed {
  std::string input;
  std::string kind;  // docs/design.md name
  std::size_t offset = 0;
  std::size_t length = 0;
  std::string sanitized;
  std::size_t attack_begin = 0;  // the row's bytes are input[attack_begin, attack_end)
  std::size_t attack_end = 0;
  bool padded = false;
  std::vector<reference::error> all_errors;
  std::u32string code_points;  // before the first error
  std::string label;
};

// place shifts the row's verdict by the prefix. An ASCII tail changes only an
// "incomplete" verdict: the sequence is then cut by a byte, so it becomes
// "truncated" with the same offset and length, and sanitizes the same way.
placed place(const attack_vector& v, std::size_t prefix, bool padded) {
  placed p;
  const std::string head = ascii_run(prefix);
  std::string tail;
  if (padded && head.size() + v.bytes.size() < kPaddedSize)
    tail = ascii_run(kPaddedSize - head.size() - v.bytes.size());
  p.input = head + v.bytes + tail;
  p.kind = (v.kind == "incomplete" && !tail.empty()) ? "truncated" : v.kind;
  p.offset = v.kind == "none" ? 0 : v.offset + prefix;
  p.length = v.length;
  p.sanitized = head + v.sanitized + tail;
  p.attack_begin = prefix;
  p.attack_end = prefix + v.bytes.size();
  p.padded = !tail.empty();
  p.all_errors = reference::all_errors(p.input);
  p.code_points = reference::decode(p.input);
  p.label = v.id + " (line " + std::to_string(v.line) + ") prefix " + std::to_string(prefix) +
            (tail.empty() ? "" : " padded");
  return p;
}

template <class F>
void for_each_placement(F&& f) {
  for (const attack_vector& v : manifest()) {
    for (std::size_t prefix = 0; prefix <= kMaxPrefix; ++prefix) {
      for (bool padded : {false, true}) f(place(v, prefix, padded));
    }
  }
}

// deciding_byte is the index of the byte that makes the input impossible: the
// streaming validator must report the error in the feed() that delivers it,
// not before (docs/design.md, utf8guard.h). A lone bad byte decides itself; a
// range error (E0 80, ED A0, F0 8F, F4 90) is decided by its second byte; a
// truncated sequence by the byte that cuts it. None and incomplete: never
// before finish().
std::size_t deciding_byte(const placed& p) {
  if (p.kind == "none" || p.kind == "incomplete") return p.input.size();
  if (p.kind == "truncated") return p.offset + p.length;
  const auto lead = static_cast<unsigned char>(p.input[p.offset]);
  const bool range_lead = lead == 0xE0 || lead == 0xED || lead == 0xF0 || lead == 0xF4;
  return range_lead ? p.offset + 1 : p.offset;
}

::testing::AssertionResult same(const utf8guard::result& r, const placed& p) {
  if (utf8guard::to_string(r.kind) == p.kind && r.offset == p.offset && r.length == p.length)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << p.label << ": got " << utf8guard::to_string(r.kind) << " " << r.offset << " "
         << r.length << ", want " << p.kind << " " << p.offset << " " << p.length << " for ["
         << hex(p.input) << "]";
}

::testing::AssertionResult same(const utf8guard_result& r, const placed& p) {
  if (utf8guard_error_name(r.kind) == p.kind && r.offset == p.offset && r.length == p.length)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << p.label << ": C API got " << utf8guard_error_name(r.kind) << " " << r.offset << " "
         << r.length << ", want " << p.kind << " " << p.offset << " " << p.length;
}

::testing::AssertionResult same_errors(const std::vector<utf8guard::result>& got, const placed& p) {
  bool equal = got.size() == p.all_errors.size();
  for (std::size_t i = 0; equal && i < got.size(); ++i) {
    equal = utf8guard::to_string(got[i].kind) == p.all_errors[i].kind &&
            got[i].offset == p.all_errors[i].offset && got[i].length == p.all_errors[i].length;
  }
  if (equal) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << p.label << ": error_scanner reported " << got.size()
                                       << " errors, the oracle " << p.all_errors.size();
}

// assert_no_ascii_swallowed: every ASCII byte of the input is in the output,
// in order, and no other ASCII byte is (U+FFFD and copied sequences hold
// none); and each maximal subpart followed by an ASCII byte x becomes exactly
// EF BF BD x. A subpart of length L grows the output by 3 - L bytes.
void assert_no_ascii_swallowed(const placed& p, const std::string& out) {
  std::string in_ascii, out_ascii;
  for (char c : p.input)
    if (static_cast<unsigned char>(c) < 0x80) in_ascii.push_back(c);
  for (char c : out)
    if (static_cast<unsigned char>(c) < 0x80) out_ascii.push_back(c);
  ASSERT_TRUE(same_bytes(out_ascii, in_ascii)) << p.label << ": ASCII bytes changed";
  std::size_t growth = 0;
  for (const reference::error& e : p.all_errors) {
    growth += 3 - e.length;
    const std::size_t next = e.offset + e.length;
    if (next >= p.input.size() || static_cast<unsigned char>(p.input[next]) >= 0x80) continue;
    const std::size_t at = next + growth;  // where input[next] lands in the output
    ASSERT_GE(at, 3u) << p.label;
    ASSERT_LT(at, out.size()) << p.label;
    EXPECT_TRUE(same_bytes(out.substr(at - 3, 4), std::string(kFffd) + p.input[next]))
        << p.label << ": the ASCII byte after the subpart at " << e.offset
        << " must follow its U+FFFD unchanged";
  }
}

// One-shot entry points on a view that may sit against a guard page.
void check_one_shot(std::string_view in, const placed& p) {
  EXPECT_TRUE(same(utf8guard::validate(in), p));
  EXPECT_EQ(utf8guard::is_valid(in), p.kind == "none") << p.label;
  EXPECT_TRUE(same(utf8guard_validate(in.data(), in.size()), p));
  EXPECT_EQ(utf8guard_is_valid(in.data(), in.size()), p.kind == "none") << p.label;

  const std::string out = utf8guard::sanitize(in);
  EXPECT_TRUE(same_bytes(out, p.sanitized)) << p.label;
  assert_no_ascii_swallowed(p, out);

  // Exactly the needed capacity succeeds; one byte less is refused.
  std::string buf(p.sanitized.size() + 1, '\0');
  EXPECT_EQ(utf8guard::sanitize_to(in, buf.data(), p.sanitized.size()), p.sanitized.size())
      << p.label;
  EXPECT_TRUE(same_bytes(buf.substr(0, p.sanitized.size()), p.sanitized)) << p.label;
  if (!p.sanitized.empty()) {
    EXPECT_EQ(utf8guard::sanitize_to(in, buf.data(), p.sanitized.size() - 1), p.sanitized.size())
        << p.label;
  }
  std::size_t written = 0, replacements = 0;
  EXPECT_EQ(utf8guard_sanitize(in.data(), in.size(), buf.data(), p.sanitized.size(), &written,
                               &replacements),
            UTF8GUARD_STATUS_OK)
      << p.label;
  EXPECT_EQ(written, p.sanitized.size()) << p.label;
  EXPECT_EQ(replacements, p.all_errors.size()) << p.label;
  EXPECT_TRUE(same_bytes(buf.substr(0, written), p.sanitized)) << p.label;

  // decode stops at the first error, which is validate()'s.
  std::u32string cps;
  EXPECT_TRUE(same(utf8guard::decode(in, cps), p));
  EXPECT_TRUE(cps == p.code_points) << p.label;
  std::vector<std::uint32_t> cbuf(in.size() + 1);
  std::size_t count = 0;
  utf8guard_result first{};
  const utf8guard_status st =
      utf8guard_decode(in.data(), in.size(), cbuf.data(), cbuf.size(), &count, &first);
  EXPECT_EQ(st, p.kind == "none" ? UTF8GUARD_STATUS_OK : UTF8GUARD_STATUS_ILL_FORMED) << p.label;
  EXPECT_TRUE(same(first, p));
  EXPECT_EQ(count, p.code_points.size()) << p.label;
}

// The stream engine on the whole view at once (it must not read past it either).
void check_whole_stream(std::string_view in, const placed& p) {
  utf8guard::validator v;
  const utf8guard::result fed = v.feed(in);
  if (p.kind == "incomplete") {
    EXPECT_TRUE(fed.ok()) << p.label << ": incomplete is reported only by finish()";
  } else {
    EXPECT_TRUE(same(fed, p));
  }
  EXPECT_TRUE(same(v.finish(), p));

  std::string out;
  utf8guard::sanitizer s;
  EXPECT_TRUE(s.feed(in, [&out](std::string_view b) { out.append(b); }));
  EXPECT_TRUE(s.finish([&out](std::string_view b) { out.append(b); }));
  EXPECT_TRUE(same_bytes(out, p.sanitized)) << p.label;

  std::vector<utf8guard::result> errors;
  utf8guard::error_scanner scan;
  auto collect = [&errors](const utf8guard::result& r) { errors.push_back(r); };
  EXPECT_TRUE(scan.feed(in, collect));
  EXPECT_TRUE(scan.finish(collect));
  EXPECT_TRUE(same_errors(errors, p));
}

// check_chunks feeds the input split at cuts (sorted, may repeat: empty
// chunks) through every streaming object, C++ and C.
void check_chunks(const placed& p, const std::vector<std::size_t>& cuts) {
  const std::string_view in = p.input;
  const std::size_t decide = deciding_byte(p);
  // Built only when an assertion fails (gtest evaluates << operands lazily).
  auto where = [&p, &cuts] {
    std::string w = p.label + ", chunks cut at";
    for (std::size_t c : cuts) w.append(" ").append(std::to_string(c));
    return w;
  };

  utf8guard::validator v;
  utf8guard_validator cv;
  utf8guard_validator_init(&cv);
  utf8guard::sanitizer s;
  utf8guard_sanitizer cs;
  utf8guard_sanitizer_init(&cs);
  utf8guard::error_scanner scan;
  utf8guard_error_scanner cscan;
  utf8guard_error_scanner_init(&cscan);
  std::string out, cout;
  std::vector<utf8guard::result> errors, cerrors;
  auto append = [&out](std::string_view b) { out.append(b); };
  auto collect = [&errors](const utf8guard::result& r) { errors.push_back(r); };

  std::size_t begin = 0;
  for (std::size_t k = 0; k <= cuts.size(); ++k) {
    const std::size_t end = k < cuts.size() ? cuts[k] : in.size();
    const std::string_view chunk = in.substr(begin, end - begin);
    const utf8guard::result r = v.feed(chunk);
    const utf8guard_result cr = utf8guard_validator_feed(&cv, chunk.data(), chunk.size());
    if (end > decide) {  // this feed (or an earlier one) delivered the deciding byte
      ASSERT_TRUE(same(r, p)) << where();
      ASSERT_TRUE(same(cr, p)) << where();
    } else {
      ASSERT_TRUE(r.ok()) << where() << ": error reported before its deciding byte " << decide
                          << " arrived: " << utf8guard::to_string(r.kind) << " at " << r.offset;
      ASSERT_EQ(cr.kind, UTF8GUARD_ERROR_NONE) << where();
    }
    ASSERT_TRUE(s.feed(chunk, append)) << where();
    ASSERT_EQ(utf8guard_sanitizer_feed(&cs, chunk.data(), chunk.size(), append_sink, &cout),
              UTF8GUARD_STATUS_OK)
        << where();
    ASSERT_TRUE(scan.feed(chunk, collect)) << where();
    ASSERT_EQ(
        utf8guard_error_scanner_feed(&cscan, chunk.data(), chunk.size(), collect_error, &cerrors),
        UTF8GUARD_STATUS_OK)
        << where();
    begin = end;
  }
  ASSERT_TRUE(same(v.finish(), p)) << where();
  ASSERT_TRUE(same(utf8guard_validator_finish(&cv), p)) << where();
  ASSERT_EQ(v.bytes_fed(), in.size()) << where();
  ASSERT_TRUE(s.finish(append)) << where();
  ASSERT_EQ(utf8guard_sanitizer_finish(&cs, append_sink, &cout), UTF8GUARD_STATUS_OK) << where();
  ASSERT_TRUE(same_bytes(out, p.sanitized)) << where();
  ASSERT_TRUE(same_bytes(cout, p.sanitized)) << where();
  ASSERT_EQ(s.replacements(), p.all_errors.size()) << where();
  ASSERT_EQ(utf8guard_sanitizer_replacements(&cs), p.all_errors.size()) << where();
  ASSERT_TRUE(scan.finish(collect)) << where();
  ASSERT_EQ(utf8guard_error_scanner_finish(&cscan, collect_error, &cerrors), UTF8GUARD_STATUS_OK)
      << where();
  ASSERT_TRUE(same_errors(errors, p)) << where();
  ASSERT_TRUE(same_errors(cerrors, p)) << where();
  assert_no_ascii_swallowed(p, out);
}

// ---- The manifest itself ---------------------------------------------------

// The hand-worked rows must agree with the oracle (tests/reference), which
// shares no code with the library; check_vectors.py checks them against
// Python's codec as well.
TEST(AttackVectorManifest, AgreesWithReferenceOracle) {
  ASSERT_GE(manifest().size(), 50u);
  for (const attack_vector& v : manifest()) {
    const reference::error e = reference::first_error(v.bytes);
    EXPECT_EQ(e.kind, v.kind) << v.id;
    EXPECT_EQ(e.offset, v.offset) << v.id;
    EXPECT_EQ(e.length, v.length) << v.id;
    EXPECT_TRUE(same_bytes(reference::sanitize(v.bytes), v.sanitized)) << v.id;
  }
}

TEST(AttackVectorManifest, CoversEveryKind) {
  std::set<std::string> kinds;
  for (const attack_vector& v : manifest()) kinds.insert(v.kind);
  for (const char* k : {"none", "unexpected_continuation", "overlong", "surrogate", "too_large",
                        "invalid_byte", "truncated", "incomplete"}) {
    EXPECT_EQ(kinds.count(k), 1u) << "no vector of kind " << k;
  }
}

// ---- Every row, every kernel ----------------------------------------------

class AttackVectors : public utf8guard::testing::EveryKernel {};

TEST_P(AttackVectors, OneShotAtEveryOffset) {
  std::size_t placements = 0;
  for_each_placement([&](const placed& p) {
    check_one_shot(p.input, p);
    ++placements;
  });
  RecordProperty("placements", static_cast<int>(placements));
}

TEST_P(AttackVectors, StreamingEverySplit) {
  std::size_t splits = 0;
  for_each_placement([&](const placed& p) {
    // Cuts inside the attack and at both its edges. Equal cuts make an empty
    // chunk; a cut at the end of an unpadded input an empty last chunk.
    const std::size_t lo = p.attack_begin, hi = p.attack_end, n = p.input.size();
    for (std::size_t c1 = lo; c1 <= hi; ++c1) {
      check_chunks(p, {c1});
      ++splits;
      for (std::size_t c2 = c1; c2 <= hi; ++c2) {
        check_chunks(p, {c1, c2});
        ++splits;
      }
    }
    if (p.padded) return;  // 1-byte chunks: the unpadded placement says it all
    std::vector<std::size_t> every_byte;
    for (std::size_t c = 1; c < n; ++c) every_byte.push_back(c);
    check_chunks(p, every_byte);
    ++splits;
  });
  RecordProperty("splits", static_cast<int>(splits));
}

TEST_P(AttackVectors, GuardPageBothSides) {
  for_each_placement([&](const placed& p) {
    for (auto side : {guarded_buffer::at_end, guarded_buffer::at_start}) {
      const guarded_buffer g(p.input, side);
      SCOPED_TRACE(side == guarded_buffer::at_end ? "last byte before a PROT_NONE page"
                                                  : "first byte after a PROT_NONE page");
      check_one_shot(g.view(), p);
      check_whole_stream(g.view(), p);
      // The last chunk of a 1-byte stream is the byte against the guard.
      utf8guard::validator v;
      for (std::size_t i = 0; i < g.size(); ++i) v.feed(g.view().substr(i, 1));
      EXPECT_TRUE(same(v.finish(), p));
    }
  });
}

// The quote-swallowing family exhaustively: every byte that cannot start a
// sequence, and every valid prefix that an ASCII byte cuts short, must become
// one U+FFFD followed by that ASCII byte unchanged - one-shot and with the
// chunk boundary between them.
TEST_P(AttackVectors, AsciiAfterBrokenLeadSurvives) {
  std::vector<std::string> broken;
  for (int b = 0x80; b <= 0xFF; ++b) broken.emplace_back(1, static_cast<char>(b));
  // Valid proper prefixes of 2, 3 and 4-byte sequences (the oracle says
  // "incomplete" over their whole length), second and third bytes drawn from
  // the edges of every Table 3-7 range.
  const unsigned char edges[] = {0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF};
  for (int lead = 0xC2; lead <= 0xF4; ++lead) {
    for (unsigned char b1 : edges) {
      for (int third = -1; third < 6; ++third) {
        std::string s{static_cast<char>(lead), static_cast<char>(b1)};
        if (third >= 0) s.push_back(static_cast<char>(edges[third]));
        const reference::error e = reference::first_error(s);
        if (e.kind == "incomplete" && e.offset == 0 && e.length == s.size()) broken.push_back(s);
      }
    }
  }
  std::size_t checked = 0;
  for (const std::string& b : broken) {
    for (int x = 0; x < 0x80; ++x) {
      const std::string in = b + static_cast<char>(x) + "x";
      const std::string want = std::string(kFffd) + static_cast<char>(x) + "x";
      ASSERT_TRUE(same_bytes(utf8guard::sanitize(in), want)) << "input " << hex(in);
      const utf8guard::result r = utf8guard::validate(in);
      ASSERT_EQ(r.offset, 0u) << hex(in);
      ASSERT_EQ(r.length, reference::first_error(in).length) << hex(in);
      for (std::size_t cut = 1; cut <= b.size(); ++cut) {
        std::string out;
        utf8guard::sanitizer s;
        auto append = [&out](std::string_view c) { out.append(c); };
        s.feed(std::string_view(in).substr(0, cut), append);
        s.feed(std::string_view(in).substr(cut), append);
        s.finish(append);
        ASSERT_TRUE(same_bytes(out, want)) << "input " << hex(in) << " cut at " << cut;
      }
      ++checked;
    }
  }
  EXPECT_GT(broken.size(), 128u + 51u);  // the 128 bytes, the 51 leads, and longer prefixes
  RecordProperty("inputs", static_cast<int>(checked));
}

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(AttackVectors);

}  // namespace
}  // namespace utf8guard::testing
