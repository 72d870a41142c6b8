// policy_differential - a policy must decide exactly what the oracle decides
// (tests/reference/policy_reference.cpp, whose categories come from the
// Unicode data files), on the kernels fuzz::kernels_to_try picks (one per
// input when fuzzing, every one in the replay), one-shot and split:
//   - validate/is_valid under the policy equal the oracle's first error or
//     violation; sanitize and sanitize_to (on a misaligned copy too) equal the
//     oracle's replacement under the policy;
//   - the input cut at split points drawn from the data, fed to a validator,
//     an error_scanner and a sanitizer under the policy: the scanner reports
//     the oracle's events, the validator its first, the sanitizer its output;
//   - the empty policy gives the policy-free answers.
//
// Data layout (data_reader): last two bytes = the policy's category bits,
// then a count and that many 16-bit split values; the rest is the input.
#include <cstdlib>

#include "fuzz_common.hpp"
#include "policy_common.hpp"
#include "policy_reference.hpp"

namespace {

constexpr const char* kTarget = "policy_differential";

std::string describe_all(const std::vector<reference::error>& all) {
  std::string s;
  for (const reference::error& e : all) s += fuzz::describe(e) + "; ";
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::require_ucd(kTarget);
  fuzz::data_reader reader(data, size);
  const utf8guard::policy p = fuzz::take_policy(reader);
  std::vector<std::size_t> cuts;
  for (unsigned k = reader.take_byte() % 8; k > 0; --k) cuts.push_back(reader.take_u16());
  const std::string_view input = reader.rest();
  for (std::size_t& c : cuts) c = input.empty() ? 0 : c % (input.size() + 1);
  std::sort(cuts.begin(), cuts.end());

  const reference::denied deny = utf8guard::testing::denied_names(p);
  const std::vector<reference::error> all = reference::all_errors(input, deny);
  const reference::error first = all.empty() ? reference::error{"none", 0, 0} : all.front();
  const std::string clean = reference::sanitize(input, deny);
  const fuzz::misaligned_copy shifted(input, 1 + input.size() % 63);
  const std::string policy_bits = std::to_string(p.bits());

  for (const std::string& name : fuzz::kernels_to_try(data, size)) {
    const fuzz::forced_kernel forced(name);
    const utf8guard::result r = utf8guard::validate(input, p);
    const utf8guard::result r2 = utf8guard::validate(shifted.view, p);
    const bool valid = utf8guard::is_valid(shifted.view, p);
    const std::string out = utf8guard::sanitize(shifted.view, p);
    std::string buf(utf8guard::sanitize_bound(input.size()), '\0');
    const std::size_t n = utf8guard::sanitize_to(input, buf.data(), buf.size(), p);
    if (!forced.ok() || !fuzz::same(r, first) || r != r2 || valid != first.ok() || out != clean ||
        n == SIZE_MAX || buf.compare(0, n, clean) != 0 || buf.size() < n) {
      fuzz::fail(kTarget, "one-shot answers under a policy differ from the oracle", input,
                 {{"kernel", name},
                  {"policy", policy_bits},
                  {"validate", fuzz::describe(r)},
                  {"validate (unaligned)", fuzz::describe(r2)},
                  {"is_valid", valid ? "true" : "false"},
                  {"reference", fuzz::describe(first)},
                  {"sanitize", fuzz::hex(out)},
                  {"reference sanitize", fuzz::hex(clean)}});
    }
    if (p.empty() && (r != utf8guard::validate(input) || out != utf8guard::sanitize(input))) {
      fuzz::fail(kTarget, "the empty policy changed an answer", input, {{"kernel", name}});
    }

    utf8guard::validator v(p);
    utf8guard::error_scanner scan(p);
    utf8guard::sanitizer s(p);
    std::vector<utf8guard::result> events;
    std::string streamed;
    const auto on_error = [&events](const utf8guard::result& e) { events.push_back(e); };
    const auto sink = [&streamed](std::string_view b) { streamed.append(b); };
    std::string sizes;
    for (const std::string_view chunk : utf8guard::testing::chunks_of(input, cuts)) {
      v.feed(chunk);
      scan.feed(chunk, on_error);
      s.feed(chunk, sink);
      sizes += std::to_string(chunk.size()) + ",";
    }
    const utf8guard::result last = v.finish();
    scan.finish(on_error);
    s.finish(sink);
    bool agree = events.size() == all.size() && fuzz::same(last, first) && streamed == clean &&
                 s.replacements() == all.size();
    for (std::size_t k = 0; agree && k < all.size(); ++k) agree = fuzz::same(events[k], all[k]);
    if (!agree) {
      std::string got;
      for (const utf8guard::result& e : events) got += fuzz::describe(e) + "; ";
      fuzz::fail(kTarget, "a split stream under a policy differs from the oracle", input,
                 {{"kernel", name},
                  {"policy", policy_bits},
                  {"chunk sizes", sizes},
                  {"validator", fuzz::describe(last)},
                  {"scanner", got},
                  {"reference", describe_all(all)},
                  {"sanitizer", fuzz::hex(streamed)},
                  {"reference sanitize", fuzz::hex(clean)}});
    }
  }
  return 0;
}
