// percent_differential - percent-encoded input (docs/design.md 2.3) must be
// decided exactly as liburiparser's decoding followed by the policy oracle
// (tests/reference/policy_reference.cpp), on every usable kernel, one-shot
// and split:
//   - percent_decode equals uriparser's uriUnescapeInPlaceExA ('+' kept,
//     line breaks untouched);
//   - validate_percent_encoded (on a misaligned copy too) and
//     is_valid_percent_encoded equal the oracle's first error or violation
//     over the decoded bytes, its offsets mapped back to the encoded input,
//     with bad_escape and double_encoding among them when the policy denies
//     them;
//   - the input cut at split points drawn from the data, fed to a
//     percent_validator and a percent_scanner: each error arrives no earlier
//     than the first byte of the unit that decides it and no later than the
//     byte that completes that unit (an escape's second digit; for a bad
//     escape, the byte that is not a hex digit; only finish() for what the
//     end decides), finish() gives the first error and the scanner every one.
//
// The mapping between encoded and decoded offsets is written here from the
// contract, not taken from the library: a walk over the units (%XX with two
// hex digits is one decoded byte from three encoded ones; every other byte,
// a bad escape's '%' too, is itself). The walk's bytes must equal
// uriparser's, which checks the walk.
//
// uriparser reads a NUL-terminated string, so a raw NUL would end its input:
// the runs between raw NULs are decoded one by one and joined with NUL (a
// NUL is never part of an escape, so the runs decode independently). Apart
// from that, its decoding is the contract's: "%X" followed by a non-digit is
// copied as it is, which is the contract's bad '%' followed by a raw X.
//
// The engine decodes into windows of 4,096 bytes (src/stream/percent_engine.hpp),
// more than the engines' max_len of encoded input can fill. So with the low
// bit of a control byte set, the payload comes after 4,032..4,159 escapes
// ("%41", from the byte's other bits): the first window then ends anywhere in
// the payload's first 64 decoded bytes, or just before it.
//
// Data layout (data_reader): last two bytes = the policy's category bits,
// then a count and that many 16-bit split values, then the padding byte;
// the rest is the payload.
#include <uriparser/Uri.h>

#include <cstdlib>

#include "fuzz_common.hpp"
#include "policy_common.hpp"
#include "policy_reference.hpp"

namespace {

constexpr const char* kTarget = "percent_differential";
constexpr std::size_t kAtFinish = SIZE_MAX;

std::string uriparser_decode(std::string_view in) {
  std::string out;
  std::size_t from = 0;
  for (;;) {
    const std::size_t nul = in.find('\0', from);
    const std::size_t to = nul == std::string_view::npos ? in.size() : nul;
    std::string run(in.substr(from, to - from));
    // SAFETY: run.data() is NUL-terminated (C++11), and decoding only shrinks.
    const char* end = uriUnescapeInPlaceExA(run.data(), URI_FALSE, URI_BR_DONT_TOUCH);
    out.append(run.data(), static_cast<std::size_t>(end - run.data()));
    if (to == in.size()) return out;
    out.push_back('\0');
    from = to + 1;
  }
}

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

int hex_value(char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; }

// unit is where one decoded byte comes from: encoded bytes [at, at + width),
// and the encoded byte whose arrival decides what the unit is (kAtFinish when
// only the end of the input does: a '%' or "%X" at the end).
struct unit {
  std::size_t at;
  std::size_t width;
  std::size_t decided;
  bool bad_escape;
};

struct walk {
  std::string decoded;
  std::vector<unit> units;  // one per decoded byte
};

walk walk_units(std::string_view in) {
  walk w;
  for (std::size_t i = 0; i < in.size();) {
    if (in[i] != '%') {
      w.units.push_back({i, 1, i, false});
      w.decoded.push_back(in[i++]);
      continue;
    }
    const bool d1 = i + 1 < in.size() && is_hex(in[i + 1]);
    const bool d2 = d1 && i + 2 < in.size() && is_hex(in[i + 2]);
    if (d2) {
      w.units.push_back({i, 3, i + 2, false});
      w.decoded.push_back(static_cast<char>(hex_value(in[i + 1]) * 16 + hex_value(in[i + 2])));
      i += 3;
      continue;
    }
    // A bad escape: the first byte after '%' that is not a hex digit decides it.
    const std::size_t decided = !d1 ? i + 1 : i + 2;
    w.units.push_back({i, 1, decided < in.size() ? decided : kAtFinish, true});
    w.decoded.push_back('%');
    ++i;
  }
  return w;
}

// expected is one error the library must report, with the window of encoded
// bytes whose arrival may report it in a stream: [first, last].
struct expected {
  utf8guard::percent_result r;
  std::string_view kind;
  std::string_view category;
  std::size_t first;
  std::size_t last;
};

// all_expected maps the oracle's errors over the decoded bytes onto the
// units and adds the two percent-only categories, in input order.
std::vector<expected> all_expected(const walk& w, utf8guard::policy p) {
  const reference::denied deny = fuzz::denied_names(p);
  std::vector<expected> out;
  const auto add = [&](std::string_view kind, std::string_view cat, char32_t cp, std::size_t d,
                       std::size_t len, std::size_t decisive) {
    expected e;
    e.r.offset = w.units[d].at;
    e.r.length = w.units[d + len - 1].at + w.units[d + len - 1].width - e.r.offset;
    e.r.code_point = cp;
    e.r.decoded_offset = d;
    e.r.decoded_length = len;
    e.kind = kind;
    e.category = cat;
    const bool at_end = decisive == SIZE_MAX || w.units[decisive].decided == kAtFinish;
    e.first = at_end ? kAtFinish : w.units[decisive].at;
    e.last = at_end ? kAtFinish : w.units[decisive].decided;
    out.push_back(e);
  };
  for (const reference::error& e : reference::all_errors(w.decoded, deny)) {
    const utf8guard::result as_result = utf8guard::testing::from_reference(e);
    const std::size_t decisive = e.kind == "disallowed" ? e.offset + e.length - 1
                                                        : fuzz::decisive_byte(as_result, w.decoded);
    add(e.kind, e.category, e.code_point, e.offset, e.length, decisive);
  }
  const bool bad = deny.count("bad_escape") != 0;
  const bool twice = deny.count("double_encoding") != 0;
  for (std::size_t d = 0; d < w.units.size(); ++d) {
    if (bad && w.units[d].bad_escape) add("disallowed", "bad_escape", U'%', d, 1, d);
    if (twice && w.units[d].width == 3 && w.decoded[d] == '%' && d + 2 < w.decoded.size() &&
        is_hex(w.decoded[d + 1]) && is_hex(w.decoded[d + 2])) {
      add("disallowed", "double_encoding", U'%', d, 1, d + 2);
    }
  }
  // Each decoded byte belongs to at most one error: order by decoded offset.
  std::stable_sort(out.begin(), out.end(), [](const expected& a, const expected& b) {
    return a.r.decoded_offset < b.r.decoded_offset;
  });
  return out;
}

bool same(const utf8guard::percent_result& r, const expected& e) {
  if (utf8guard::to_string(r.kind) != e.kind || r.offset != e.r.offset || r.length != e.r.length ||
      r.decoded_offset != e.r.decoded_offset || r.decoded_length != e.r.decoded_length) {
    return false;
  }
  if (r.kind != utf8guard::error::disallowed) return true;
  return utf8guard::to_string(r.category) == e.category && r.code_point == e.r.code_point;
}

// A clean input's answer is the empty result.
bool same_first(const utf8guard::percent_result& r, const std::vector<expected>& all) {
  return all.empty() ? r == utf8guard::percent_result{} : same(r, all.front());
}

std::string code_point(char32_t cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(cp));
  return buf;
}

std::string describe(const utf8guard::percent_result& r) {
  if (r.kind == utf8guard::error::none) return "none";
  std::string s = fuzz::describe(r);
  if (r.kind == utf8guard::error::disallowed) {
    s.append(" ")
        .append(utf8guard::to_string(r.category))
        .append(" ")
        .append(code_point(r.code_point));
  }
  return s + " decoded@" + std::to_string(r.decoded_offset) + "+" +
         std::to_string(r.decoded_length);
}

std::string describe(const expected& e) {
  std::string s = fuzz::describe(e.kind, e.r.offset, e.r.length);
  if (e.kind == "disallowed") {
    s.append(" ").append(e.category).append(" ").append(code_point(e.r.code_point));
  }
  s += " decoded@" + std::to_string(e.r.decoded_offset) + "+" + std::to_string(e.r.decoded_length);
  if (e.first == kAtFinish) return s + " (finish)";
  return s + " (bytes " + std::to_string(e.first) + ".." + std::to_string(e.last) + ")";
}

std::string describe_all(const std::vector<expected>& all) {
  std::string s;
  for (const expected& e : all) s += describe(e) + "; ";
  return s;
}

std::string describe_all(const std::vector<utf8guard::percent_result>& all) {
  std::string s;
  for (const utf8guard::percent_result& r : all) s += describe(r) + "; ";
  return s;
}

std::string sizes_of(const std::vector<std::string_view>& chunks) {
  std::string s;
  for (const std::string_view c : chunks) s += std::to_string(c.size()) + ",";
  return s;
}

// reported_by counts the errors a stream must have reported once it has been
// fed `fed` bytes (at least) and may have reported (at most).
std::pair<std::size_t, std::size_t> reported_by(const std::vector<expected>& all, std::size_t fed) {
  std::size_t must = 0;
  std::size_t may = 0;
  for (const expected& e : all) {
    if (e.first != kAtFinish && e.first < fed) ++may;
    if (e.last != kAtFinish && e.last < fed) ++must;
  }
  return {must, may};
}

void check_streams(std::string_view input, const std::vector<std::string_view>& chunks,
                   utf8guard::policy p, const std::vector<expected>& all,
                   const std::string& kernel) {
  utf8guard::percent_validator v(p);
  utf8guard::percent_scanner scan(p);
  std::vector<utf8guard::percent_result> events;
  const auto on_error = [&events](const utf8guard::percent_result& e) { events.push_back(e); };
  const auto fail = [&](const char* what, const std::string& when,
                        const utf8guard::percent_result& last) {
    fuzz::fail(kTarget, what, input,
               {{"kernel", kernel},
                {"policy", std::to_string(p.bits())},
                {"chunk sizes", sizes_of(chunks)},
                {"when", when},
                {"validator", describe(last)},
                {"scanner", describe_all(events)},
                {"expected", describe_all(all)}});
  };
  std::size_t fed = 0;
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    const utf8guard::percent_result r = v.feed(chunks[k]);
    const bool went_on = scan.feed(chunks[k], on_error);
    fed += chunks[k].size();
    const auto [must, may] = reported_by(all, fed);
    const std::string when =
        "after feed #" + std::to_string(k) + " (" + std::to_string(fed) + " bytes)";
    // The validator holds the first error once it must, nothing before it may.
    const bool first_ok =
        r.kind == utf8guard::error::none ? must == 0 : may > 0 && same(r, all.front());
    if (!first_ok) fail("percent_validator::feed: wrong error or wrong time", when, r);
    bool prefix = went_on && events.size() >= must && events.size() <= may;
    for (std::size_t i = 0; prefix && i < events.size(); ++i) prefix = same(events[i], all[i]);
    if (!prefix) fail("percent_scanner::feed: wrong errors or wrong time", when, r);
  }
  const utf8guard::percent_result last = v.finish();
  const bool went_on = scan.finish(on_error);
  bool agree = went_on && same_first(last, all) && v.bytes_fed() == input.size() &&
               events.size() == all.size() && scan.errors() == all.size();
  for (std::size_t i = 0; agree && i < all.size(); ++i) agree = same(events[i], all[i]);
  if (!agree) fail("percent streams at finish differ from the expected errors", "finish", last);

  // reset() starts over: the whole input in one chunk gives the same answer.
  v.reset();
  v.feed(input);
  const utf8guard::percent_result again = v.finish();
  if (again != last) fail("percent_validator after reset() differs", "after reset", again);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::require_ucd(kTarget);
  fuzz::data_reader reader(data, size);
  const utf8guard::policy p = fuzz::take_policy(reader);
  const std::vector<std::uint16_t> raw = fuzz::take_splits(reader);
  const unsigned pad = reader.take_byte();
  std::string padded;
  std::string_view input = reader.rest();
  if ((pad & 1) != 0) {
    for (unsigned k = 4032 + (pad >> 1) % 128; k > 0; --k) padded += "%41";
    padded += input;
    input = padded;
  }
  const std::vector<std::string_view> chunks = fuzz::chunks_of(input, raw);

  const std::string decoded = uriparser_decode(input);
  const walk w = walk_units(input);
  if (w.decoded != decoded) {
    fuzz::fail(kTarget, "the target's unit walk and uriparser decode differently", input,
               {{"walk", fuzz::hex(w.decoded)}, {"uriparser", fuzz::hex(decoded)}});
  }
  const std::vector<expected> all = all_expected(w, p);
  const fuzz::misaligned_copy shifted(input, 1 + input.size() % 63);

  for (const std::string& name : fuzz::usable_kernels()) {
    const fuzz::forced_kernel forced(name);
    const std::string ours = utf8guard::percent_decode(shifted.view);
    const utf8guard::percent_result r = utf8guard::validate_percent_encoded(input, p);
    const utf8guard::percent_result r2 = utf8guard::validate_percent_encoded(shifted.view, p);
    const bool valid = utf8guard::is_valid_percent_encoded(shifted.view, p);
    if (!forced.ok() || ours != decoded || !same_first(r, all) || r2 != r || valid != all.empty()) {
      fuzz::fail(kTarget, "one-shot percent answers differ from uriparser + the oracle", input,
                 {{"kernel", name},
                  {"policy", std::to_string(p.bits())},
                  {"percent_decode", fuzz::hex(ours)},
                  {"uriparser", fuzz::hex(decoded)},
                  {"validate_percent_encoded", describe(r)},
                  {"... (unaligned)", describe(r2)},
                  {"is_valid_percent_encoded", valid ? "true" : "false"},
                  {"expected", describe_all(all)}});
    }
    check_streams(input, chunks, p, all, name);
  }
  return 0;
}
