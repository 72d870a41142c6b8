// json_differential - JSON text (docs/design.md, the JSON form) must be
// decided exactly as the JSON oracle judges it (tests/reference/
// json_reference.hpp: escapes decoded into units, surrogate escapes paired,
// the policy oracle over the decoded bytes, its offsets mapped back), under a
// policy drawn from the data, on the kernels fuzz::kernels_to_try picks (one
// per input when fuzzing, every one in the replay):
//   - json::validate (on a misaligned copy too), json::is_valid and the C
//     utf8guard_json_validate equal the oracle's first finding;
//   - json::sanitize equals the oracle's sanitize, and its output validates
//     under the same policy (less replacement, which sanitize writes);
//   - the input cut at split points drawn from the data, fed to a
//     json::validator and a json::scanner: after each feed the scanner has
//     reported a prefix of the oracle's findings that holds every finding
//     the bytes fed so far decide (the stream may hold a cut escape, up to
//     11 bytes, until the byte that decides it), the validator nothing or
//     the first finding; finish() gives the first finding and the scanner
//     every one.
//
// When a control byte is 1 modulo 64, the payload comes after 4,032..4,156
// escapes "\/" (their number drawn from the data's hash): 4,096 decoded
// bytes and 8,192 encoded ones then end in the payload's first 64 bytes or
// just before it, so a window of either size the library decodes in meets
// the payload. A '/' has no category, so the padding holds no finding under
// any policy. One input in 64 is padded. Every check of a padded input reads
// the 8 KiB of escapes, and padded inputs beget padded inputs (their window
// offsets are new features): under a fuzzing engine a padded input runs one
// of three groups of the checks above, the one its hash picks
// (groups_to_run; all three in the replay).
//
// Data layout: fuzz::encoded_input (encoded_input.hpp).
#include <cstdlib>

#include "encoded_input.hpp"
#include "fuzz_common.hpp"
#include "json_reference.hpp"
#include "percent_support.hpp"
#include "policy_common.hpp"

namespace {

constexpr const char* kTarget = "json_differential";

// decided_by is the number of bytes after which a stream must have reported
// e (SIZE_MAX: only finish() must): a raw ill-formed subpart by the byte
// after it (when that byte is a backslash, by the escape it starts, which the
// stream holds until it is whole: at most 12 bytes), a denied character by
// its last byte, a lone surrogate escape by
// the sixth byte after it at the latest, a malformed escape by the byte that
// breaks it (at most the fifth after the backslash). A finding the end of the
// input decides is left to finish().
std::size_t decided_by(std::string_view in, const utf8guard::encoded_result& e) {
  using utf8guard::error;
  std::size_t by = 0;
  if (e.kind == error::incomplete) return SIZE_MAX;
  const std::size_t end = e.offset + e.length;
  if (in[e.offset] != '\\') {
    by = e.kind == error::disallowed          ? end
         : end < in.size() && in[end] == '\\' ? end + 12
                                              : end + 1;
  } else if (e.kind == error::surrogate) {
    by = e.offset + 12;
  } else if (e.category == utf8guard::category::bad_escape) {
    by = e.offset + 6;
  } else {
    by = e.offset + e.length;
  }
  return by <= in.size() ? by : SIZE_MAX;
}

std::string describe(const utf8guard::encoded_result& r) {
  if (r.kind == utf8guard::error::none) return "none";
  return fuzz::describe(r) + " decoded@" + std::to_string(r.decoded_offset) + "+" +
         std::to_string(r.decoded_length);
}

std::string describe_all(const std::vector<utf8guard::encoded_result>& all) {
  std::string s;
  for (const utf8guard::encoded_result& r : all) s += describe(r) + "; ";
  return s;
}

utf8guard::encoded_result first_of(const std::vector<utf8guard::encoded_result>& all) {
  return all.empty() ? utf8guard::encoded_result{} : all.front();
}

void check_streams(std::string_view input, const std::vector<std::string_view>& chunks,
                   utf8guard::policy p, const std::vector<utf8guard::encoded_result>& all,
                   const std::string& kernel) {
  utf8guard::json::validator v(p);
  utf8guard::json::scanner scan(p);
  std::vector<utf8guard::encoded_result> events;
  const auto on_error = [&events](const utf8guard::encoded_result& e) { events.push_back(e); };
  std::string sizes;
  for (const std::string_view c : chunks) sizes += std::to_string(c.size()) + ",";
  const auto fail = [&](const char* what, const std::string& when,
                        const utf8guard::encoded_result& last) {
    fuzz::fail(kTarget, what, input,
               {{"kernel", kernel},
                {"policy", std::to_string(p.bits())},
                {"chunk sizes", sizes},
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
    std::size_t must = 0;
    for (const utf8guard::encoded_result& e : all) must += decided_by(input, e) <= fed ? 1 : 0;
    const std::string when =
        "after feed #" + std::to_string(k) + " (" + std::to_string(fed) + " bytes)";
    const bool first_ok =
        r.kind == utf8guard::error::none ? must == 0 : !all.empty() && r == all.front();
    if (!first_ok) fail("json::validator::feed: wrong finding or wrong time", when, r);
    bool prefix = went_on && events.size() >= must && events.size() <= all.size();
    for (std::size_t i = 0; prefix && i < events.size(); ++i) prefix = events[i] == all[i];
    if (!prefix) fail("json::scanner::feed: wrong findings or wrong time", when, r);
  }
  const utf8guard::encoded_result last = v.finish();
  const bool went_on = scan.finish(on_error);
  const bool agree = went_on && last == first_of(all) && v.bytes_fed() == input.size() &&
                     events == all && scan.errors() == all.size();
  if (!agree) fail("json streams at finish differ from the oracle", "finish", last);
}

// The checks of one input, in three groups: the first finding from each
// one-shot call, sanitize and its output, the streams.
enum check_group : unsigned { kFirstFinding = 1, kSanitize = 2, kStreams = 4, kEveryGroup = 7 };

// groups_to_run is every group, but for a padded input under a fuzzing
// engine, whose every check reads some 8 KiB of escapes: the one group its
// hash picks (bits that neither the kernel nor the padding length is drawn
// from), so the same input runs the same checks, and a campaign meets every
// group at every padding length. Padded inputs beget padded inputs (their
// window offsets are features), so they are far more than one run in 64 and
// took much of the time. In the replay main, every group.
unsigned groups_to_run(bool padded, const std::uint8_t* data, std::size_t size) {
#ifdef UTF8GUARD_FUZZ_REPLAY
  (void)padded;
  (void)data;
  (void)size;
  return kEveryGroup;
#else
  if (!padded) return kEveryGroup;
  return 1u << ((fuzz::input_hash(data, size) >> 48) % 3);
#endif
}

void check_first_finding(std::string_view input, std::string_view shifted, utf8guard::policy p,
                         const std::vector<utf8guard::encoded_result>& all,
                         const std::string& kernel) {
  const utf8guard::encoded_result r = utf8guard::json::validate(input, p);
  const utf8guard::encoded_result r2 = utf8guard::json::validate(shifted, p);
  const utf8guard::encoded_result rc =
      utf8guard::testing::from_c(utf8guard_json_validate(shifted.data(), shifted.size(), p.bits()));
  const bool valid = utf8guard::json::is_valid(shifted, p);
  if (r != first_of(all) || r2 != r || rc != r || valid != all.empty()) {
    fuzz::fail(kTarget, "one-shot JSON answers differ from the oracle", input,
               {{"kernel", kernel},
                {"policy", std::to_string(p.bits())},
                {"json::validate", describe(r)},
                {"... (unaligned)", describe(r2)},
                {"utf8guard_json_validate", describe(rc)},
                {"json::is_valid", valid ? "true" : "false"},
                {"expected", describe_all(all)}});
  }
}

void check_sanitize(std::string_view input, std::string_view shifted, utf8guard::policy p,
                    const std::string& clean, const std::string& kernel) {
  const std::string out = utf8guard::json::sanitize(shifted, p);
  // U+FFFD is what sanitize writes: a policy that denies it finds those.
  // Checked from a copy at a fixed address (fuzz::misaligned_copy).
  const fuzz::misaligned_copy out_placed(out, 0);
  const bool out_valid = utf8guard::json::is_valid(
      out_placed.view, utf8guard::policy::from_bits(p.bits() & ~UTF8GUARD_CATEGORY_REPLACEMENT));
  if (out != clean || !out_valid) {
    fuzz::fail(kTarget, "json::sanitize differs from the oracle", input,
               {{"kernel", kernel},
                {"policy", std::to_string(p.bits())},
                {"json::sanitize", fuzz::hex(out)},
                {"... validates", out_valid ? "true" : "false"},
                {"oracle's sanitize", fuzz::hex(clean)}});
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::require_ucd(kTarget);
  const fuzz::encoded_input in(data, size, "\\/", 4032);
  const utf8guard::policy p = in.policy;
  const std::string_view input = in.input;
  const std::vector<std::string_view>& chunks = in.chunks;

  const reference::denied deny = utf8guard::testing::denied_names(p);
  const std::vector<reference::json::error> found = reference::json::all_errors(input, deny);
  std::vector<utf8guard::encoded_result> all;
  for (const auto& e : found) all.push_back(utf8guard::testing::from_reference(e));
  const std::string clean = reference::json::sanitize(input, found);
  const fuzz::misaligned_copy shifted(input, 1 + input.size() % 63);
  const unsigned groups = groups_to_run(in.padded(), data, size);

  for (const std::string& kernel : fuzz::kernels_to_try(data, size)) {
    const fuzz::forced_kernel forced(kernel);
    if (!forced.ok()) {
      fuzz::fail(kTarget, "set_kernel refused a usable kernel", input, {{"kernel", kernel}});
    }
    if ((groups & kFirstFinding) != 0) check_first_finding(input, shifted.view, p, all, kernel);
    if ((groups & kSanitize) != 0) check_sanitize(input, shifted.view, p, clean, kernel);
    if ((groups & kStreams) != 0) check_streams(input, chunks, p, all, kernel);
  }
  return 0;
}
