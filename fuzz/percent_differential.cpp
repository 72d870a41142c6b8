// percent_differential - percent-encoded input (docs/design.md 2.3) must be
// decided exactly as liburiparser decodes it and the percent oracle
// (tests/reference/percent_reference.hpp: the policy oracle over the decoded
// bytes, its offsets mapped back to the encoded units) judges it, on the
// kernels fuzz::kernels_to_try picks (one per input when fuzzing, every one in
// the replay), one-shot and split:
//   - percent_decode equals uriparser's uriUnescapeInPlaceExA ('+' kept,
//     line breaks untouched), and so does the oracle's decoding;
//   - percent::validate (on a misaligned copy too) and
//     percent::is_valid equal the oracle's first error or violation,
//     bad_escape and double_encoding among them when the policy denies them;
//   - the input cut at split points drawn from the data, fed to a
//     percent::validator and a percent::scanner: each error arrives no earlier
//     than the first byte of the unit that decides it and no later than the
//     byte that completes that unit (an escape's second digit; for a bad
//     escape, the byte that is not a hex digit; only finish() for what the
//     end decides), finish() gives the first error and the scanner every one.
//
// uriparser reads a NUL-terminated string, so a raw NUL would end its input:
// the runs between raw NULs are decoded one by one and joined with NUL (a
// NUL is never part of an escape, so the runs decode independently). Apart
// from that, its decoding is the contract's: "%X" followed by a non-digit is
// copied as it is, which is the contract's bad '%' followed by a raw X.
//
// The engine decodes a long input in windows of 16,384 encoded bytes
// (src/stream/percent_engine.hpp), more than the engines' max_len can fill.
// So when a control byte is 1 modulo 64, the payload comes after
// 5,440..5,564 escapes ("%41", their number drawn from the data's hash):
// the first window then ends in the payload's first 64 bytes, or just before
// it. One input in 64 is padded: a padded input costs several unpadded ones.
//
// Data layout: fuzz::encoded_input (encoded_input.hpp).
#include <uriparser/Uri.h>

#include <cstdlib>

#include "encoded_input.hpp"
#include "fuzz_common.hpp"
#include "percent_reference.hpp"
#include "percent_support.hpp"
#include "policy_common.hpp"

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

// decided is the encoded byte whose arrival decides what the unit of decoded
// byte k is (kAtFinish when only the end of the input does: a '%' or "%X" at
// the end): an escape's second digit, a raw byte itself, and for a bad
// escape the first byte after its '%' that is not a hex digit.
std::size_t decided(std::string_view in, const reference::percent::decoded& d, std::size_t k) {
  const std::size_t at = d.offset[k];
  if (d.width[k] == 3) return at + 2;
  if (in[at] != '%') return at;
  const std::size_t by = at + 1 < in.size() && is_hex(in[at + 1]) ? at + 2 : at + 1;
  return by < in.size() ? by : kAtFinish;
}

// expected is one error the library must report, with the window of encoded
// bytes whose arrival may report it in a stream: [first, last].
struct expected {
  utf8guard::encoded_result r;
  std::size_t first;
  std::size_t last;
};

// all_expected is the oracle's errors, in input order, each with the window
// of the decoded byte that decides it.
std::vector<expected> all_expected(std::string_view in, const reference::percent::decoded& d,
                                   utf8guard::policy p) {
  std::vector<expected> out;
  for (const reference::percent::error& e :
       reference::percent::all_errors(in, utf8guard::testing::denied_names(p))) {
    const utf8guard::encoded_result r = utf8guard::testing::from_reference(e);
    std::size_t decisive = 0;
    if (e.category == "bad_escape") {
      decisive = e.decoded_offset;
    } else if (e.category == "double_encoding") {
      decisive = e.decoded_offset + 2;  // the second hex digit after it
    } else if (e.kind == "disallowed") {
      decisive = e.decoded_offset + e.decoded_length - 1;  // the character's last byte
    } else {
      const utf8guard::result in_decoded{r.kind, r.decoded_offset, r.decoded_length};
      decisive = fuzz::decisive_byte(in_decoded, d.bytes);
    }
    const bool at_end = decisive >= d.bytes.size() || decided(in, d, decisive) == kAtFinish;
    out.push_back({r, at_end ? kAtFinish : d.offset[decisive],
                   at_end ? kAtFinish : decided(in, d, decisive)});
  }
  return out;
}

bool same(const utf8guard::encoded_result& r, const expected& e) { return r == e.r; }

// A clean input's answer is the empty result.
bool same_first(const utf8guard::encoded_result& r, const std::vector<expected>& all) {
  return all.empty() ? r == utf8guard::encoded_result{} : same(r, all.front());
}

std::string describe(const utf8guard::encoded_result& r) {
  if (r.kind == utf8guard::error::none) return "none";
  return fuzz::describe(r) + " decoded@" + std::to_string(r.decoded_offset) + "+" +
         std::to_string(r.decoded_length);
}

std::string describe(const expected& e) {
  const std::string s = describe(e.r);
  if (e.first == kAtFinish) return s + " (finish)";
  return s + " (bytes " + std::to_string(e.first) + ".." + std::to_string(e.last) + ")";
}

std::string describe_all(const std::vector<expected>& all) {
  std::string s;
  for (const expected& e : all) s += describe(e) + "; ";
  return s;
}

std::string describe_all(const std::vector<utf8guard::encoded_result>& all) {
  std::string s;
  for (const utf8guard::encoded_result& r : all) s += describe(r) + "; ";
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
  utf8guard::percent::validator v(p);
  utf8guard::percent::scanner scan(p);
  std::vector<utf8guard::encoded_result> events;
  const auto on_error = [&events](const utf8guard::encoded_result& e) { events.push_back(e); };
  const auto fail = [&](const char* what, const std::string& when,
                        const utf8guard::encoded_result& last) {
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
    const utf8guard::encoded_result r = v.feed(chunks[k]);
    const bool went_on = scan.feed(chunks[k], on_error);
    fed += chunks[k].size();
    const auto [must, may] = reported_by(all, fed);
    const std::string when =
        "after feed #" + std::to_string(k) + " (" + std::to_string(fed) + " bytes)";
    // The validator holds the first error once it must, nothing before it may.
    const bool first_ok =
        r.kind == utf8guard::error::none ? must == 0 : may > 0 && same(r, all.front());
    if (!first_ok) fail("percent::validator::feed: wrong error or wrong time", when, r);
    bool prefix = went_on && events.size() >= must && events.size() <= may;
    for (std::size_t i = 0; prefix && i < events.size(); ++i) prefix = same(events[i], all[i]);
    if (!prefix) fail("percent::scanner::feed: wrong errors or wrong time", when, r);
  }
  const utf8guard::encoded_result last = v.finish();
  const bool went_on = scan.finish(on_error);
  bool agree = went_on && same_first(last, all) && v.bytes_fed() == input.size() &&
               events.size() == all.size() && scan.errors() == all.size();
  for (std::size_t i = 0; agree && i < all.size(); ++i) agree = same(events[i], all[i]);
  if (!agree) fail("percent streams at finish differ from the expected errors", "finish", last);

  // reset() starts over: the whole input in one chunk gives the same answer.
  v.reset();
  v.feed(input);
  const utf8guard::encoded_result again = v.finish();
  if (again != last) fail("percent::validator after reset() differs", "after reset", again);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::require_ucd(kTarget);
  const fuzz::encoded_input in(data, size, "%41", 5440);
  const utf8guard::policy p = in.policy;
  const std::string_view input = in.input;
  const std::vector<std::string_view>& chunks = in.chunks;

  const std::string decoded = uriparser_decode(input);
  const reference::percent::decoded oracle = reference::percent::decode(input);
  if (oracle.bytes != decoded) {
    fuzz::fail(kTarget, "the percent oracle and uriparser decode differently", input,
               {{"oracle", fuzz::hex(oracle.bytes)}, {"uriparser", fuzz::hex(decoded)}});
  }
  const std::vector<expected> all = all_expected(input, oracle, p);
  const fuzz::misaligned_copy shifted(input, 1 + input.size() % 63);

  for (const std::string& name : fuzz::kernels_to_try(data, size)) {
    const fuzz::forced_kernel forced(name);
    const std::string ours = utf8guard::percent::decode(shifted.view);
    const utf8guard::encoded_result r = utf8guard::percent::validate(input, p);
    const utf8guard::encoded_result r2 = utf8guard::percent::validate(shifted.view, p);
    const bool valid = utf8guard::percent::is_valid(shifted.view, p);
    if (!forced.ok() || ours != decoded || !same_first(r, all) || r2 != r || valid != all.empty()) {
      fuzz::fail(kTarget, "one-shot percent answers differ from uriparser + the oracle", input,
                 {{"kernel", name},
                  {"policy", std::to_string(p.bits())},
                  {"percent_decode", fuzz::hex(ours)},
                  {"uriparser", fuzz::hex(decoded)},
                  {"percent::validate", describe(r)},
                  {"... (unaligned)", describe(r2)},
                  {"percent::is_valid", valid ? "true" : "false"},
                  {"expected", describe_all(all)}});
    }
    check_streams(input, chunks, p, all, name);
  }
  return 0;
}
