// messages - describe and truncate (docs/design.md, "Messages" and
// "Truncation") must equal the message oracle (tests/reference/
// message_reference.hpp), on the kernels fuzz::kernels_to_try picks (one per
// input when fuzzing, every one in the replay):
//   - every error and denied character of the payload under the drawn
//     policy (past 64 of a form, a spread sample of them when fuzzing:
//     fuzz::spread_sample; every one in the replay), described from a
//     misaligned copy at a fixed address (fuzz::misaligned_copy: a read past
//     the input is caught by ASan), whole and from the window a stream keeps
//     (UTF8GUARD_DESCRIBE_BEHIND bytes before the error, _AHEAD from it),
//     with and without the hint;
//   - the same with the payload read as percent-encoded input (the encoded
//     window a stream keeps, the decoded bytes shown);
//   - truncate in both modes at every length up to the payload's, and one
//     past it.
//
// Data layout (data_reader): last two bytes = the policy's category bits; the
// rest is the payload.
#include "fuzz_common.hpp"
#include "message_reference.hpp"
#include "percent_support.hpp"
#include "policy_common.hpp"

namespace {

constexpr const char* kTarget = "messages";
// How many findings of each form one input describes, at most, when fuzzing.
constexpr std::size_t kFindings = 64;

// window is the part of copy a stream would keep around offset, and the
// offset it starts at.
std::pair<std::string_view, std::size_t> window(std::string_view copy, std::size_t offset,
                                                std::size_t behind, std::size_t ahead) {
  const std::size_t from = offset < behind ? 0 : offset - behind;
  const std::size_t to = std::min(copy.size(), offset + ahead);
  return {copy.substr(from, to - from), from};
}

// described is the message of a result of raw input or of percent-encoded
// input (the only encoded form the oracle knows here).
std::string described(std::string_view bytes, const utf8guard::result& r, unsigned flags,
                      std::size_t base = 0) {
  return utf8guard::describe(bytes, r, flags, base);
}
std::string described(std::string_view bytes, const utf8guard::encoded_result& r, unsigned flags,
                      std::size_t base = 0) {
  return utf8guard::percent::describe(bytes, r, flags, base);
}

// check_described compares the messages of one error with the oracle's,
// which reads the error's bytes from checked: the input itself, or its
// decoding (decoded once per input, not once per error).
template <class Checked, class Result, class Error>
void check_described(std::string_view input, const Checked& checked, std::string_view copy,
                     const Result& r, const Error& e, std::size_t behind, std::size_t ahead) {
  for (bool hints : {false, true}) {
    const std::string want = reference::message(checked, e, hints);
    const unsigned flags = hints ? utf8guard::describe_hint : 0;
    const std::string whole = described(copy, r, flags);
    const auto [bytes, base] = window(copy, e.offset, behind, ahead);
    const std::string kept = described(bytes, r, flags, base);
    if (whole != want || kept != want) {
      fuzz::fail(kTarget, "describe differs from the oracle", input,
                 {{"offset", std::to_string(e.offset)},
                  {"describe", whole},
                  {"describe (window)", kept},
                  {"reference", want}});
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::require_ucd(kTarget);
  fuzz::data_reader reader(data, size);
  const utf8guard::policy p = fuzz::take_policy(reader);
  const std::string_view input = reader.rest();
  const fuzz::misaligned_copy copy(input, 1 + size % 7);
  const reference::denied deny = utf8guard::testing::denied_names(p);

  // describe reads no kernel; truncate validates, so it runs on the kernels
  // to try, against the oracle's cuts at every length from one walk
  // (reference::truncations). Past 256 bytes, the lengths asked of truncate
  // are a sample: the first 64, the last 8 and one in every n / 128.
  // An input of error-dense bytes has about one finding a byte in each
  // form, and each costs six messages: past kFindings, the findings
  // described are a spread sample (fuzz::spread_sample; all in the replay).
  const std::vector<reference::error> raw = reference::all_errors(input, deny);
  const fuzz::spread_sample raw_sample(raw.size(), kFindings, data, size);
  for (std::size_t k = 0; k < raw.size(); ++k) {
    if (!raw_sample(k)) continue;
    check_described(input, input, copy.view, utf8guard::testing::from_reference(raw[k]), raw[k],
                    UTF8GUARD_DESCRIBE_BEHIND, UTF8GUARD_DESCRIBE_AHEAD);
  }
  const reference::percent::decoded decoded = reference::percent::decode(input);
  const std::vector<reference::percent::error> encoded =
      reference::percent::all_errors(input, deny);
  const fuzz::spread_sample encoded_sample(encoded.size(), kFindings, data, size, 24);
  for (std::size_t k = 0; k < encoded.size(); ++k) {
    if (!encoded_sample(k)) continue;
    check_described(input, decoded, copy.view, utf8guard::testing::from_reference(encoded[k]),
                    encoded[k], UTF8GUARD_DESCRIBE_PERCENT_BEHIND,
                    UTF8GUARD_DESCRIBE_PERCENT_AHEAD);
  }
  const std::size_t n = input.size();
  const std::size_t stride = n <= 256 ? 1 : n / 128;
  // The oracle's cuts, indexed by keep_ill_formed, then by max (n for any
  // larger max).
  const std::vector<std::size_t> cuts[2] = {reference::truncations(input, false),
                                            reference::truncations(input, true)};
  for (const std::string& kernel : fuzz::kernels_to_try(data, size)) {
    const fuzz::forced_kernel use(kernel);
    for (std::size_t max = 0; max <= n + 1; max += (max < 64 || max + 8 >= n) ? 1 : stride) {
      for (bool keep : {false, true}) {
        const auto mode = keep ? utf8guard::truncate_mode::keep_ill_formed
                               : utf8guard::truncate_mode::well_formed;
        const std::size_t got = utf8guard::truncate(copy.view, max, mode).size();
        const std::size_t want = cuts[keep][std::min(max, n)];
        if (got != want) {
          fuzz::fail(kTarget, "truncate differs from the oracle", input,
                     {{"kernel", kernel},
                      {"max", std::to_string(max) + (keep ? " keep_ill_formed" : " well_formed")},
                      {"truncate", std::to_string(got)},
                      {"reference", std::to_string(want)}});
        }
      }
    }
  }
  return 0;
}
