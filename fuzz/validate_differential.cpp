// validate_differential - every usable kernel (forced one by one, the
// production scalar among them), every compiled kernel run
// directly by the driver, the reference oracle and ICU must agree on the
// first error of the input: validity, offset, length and kind (ICU, which has
// no kinds: validity, offset, length, and the number of U+FFFD).
//
// The input is the fuzz data itself, unsplit, so a crash file is the exact
// input to paste into a regression test.
#include <cstdlib>

#include "fuzz_common.hpp"

namespace {

constexpr const char* kTarget = "validate_differential";

// verdict is one kernel's answers, kept raw: strings are built only on failure.
struct verdict {
  const std::string* name;
  utf8guard::result r, r_shifted;
  bool valid, forced, ran;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = fuzz::as_view(data, size);
  const reference::error expected = reference::first_error(input);
  const std::size_t expected_count = reference::all_errors(input).size();
  // 1..63 bytes off whatever alignment the engine gave: every position of a
  // 64-byte block comes up as inputs vary in size.
  const fuzz::misaligned_copy shifted(input, 1 + size % 63);

  bool agree = true;
  std::vector<verdict> verdicts;
  verdicts.reserve(fuzz::usable_kernels().size());
  for (const std::string& name : fuzz::usable_kernels()) {
    const fuzz::forced_kernel forced(name);
    verdict v{&name,
              utf8guard::validate(input),
              utf8guard::validate(shifted.view),
              utf8guard::is_valid(input),
              forced.ok(),
              false};
    // The three calls ran on the forced kernel: it is still the active one.
    v.ran = fuzz::is_active(name);
    agree = agree && v.forced && v.ran && fuzz::same(v.r, expected) && v.r == v.r_shifted &&
            v.valid == expected.ok();
    verdicts.push_back(v);
  }
  if (utf8guard::active_kernel() != fuzz::usable_kernels().back()) {
    fuzz::fail(kTarget, "set_kernel(\"best\") did not restore the fastest kernel", input,
               {{"active", std::string(utf8guard::active_kernel())},
                {"fastest usable", fuzz::usable_kernels().back()}});
  }

  // Every compiled kernel, through the one driver and the unaligned copy.
  std::size_t count = 0;
  const utf8guard::detail::kernel* const* drivers = utf8guard::detail::kernel_list(count);
  std::vector<std::pair<const utf8guard::detail::kernel*, utf8guard::result>> driver_results;
  for (const utf8guard::detail::kernel* k : std::vector(drivers, drivers + count)) {
    if (!utf8guard::detail::usable(*k)) continue;
    const utf8guard::result r =
        k->validate(utf8guard::detail::bytes(shifted.view.data()), size).unpacked();
    agree = agree && fuzz::same(r, expected);
    driver_results.emplace_back(k, r);
  }

  const fuzz::icu_error icu = fuzz::icu_first_error(input);
  const std::size_t icu_count = fuzz::icu_sanitize(input).replacements;
  agree = agree && icu.valid == expected.ok() &&
          (icu.valid || (icu.offset == expected.offset && icu.length == expected.length)) &&
          icu_count == expected_count;
  if (agree) return 0;

  std::vector<fuzz::answer> answers{{"reference", fuzz::describe(expected)}};
  for (const verdict& v : verdicts) {
    answers.push_back({*v.name + " validate", fuzz::describe(v.r)});
    answers.push_back({*v.name + " validate (unaligned)", fuzz::describe(v.r_shifted)});
    answers.push_back({*v.name + " is_valid", v.valid ? "true" : "false"});
    answers.push_back({*v.name + " forced", v.forced && v.ran ? "ran" : "did not run"});
  }
  for (const auto& [k, r] : driver_results) {
    answers.push_back({std::string("driver ") + k->name, fuzz::describe(r)});
  }
  answers.push_back({"icu first error", fuzz::describe(icu)});
  answers.push_back({"icu U+FFFD count", std::to_string(icu_count)});
  answers.push_back({"reference error count", std::to_string(expected_count)});
  fuzz::fail(kTarget, "implementations disagree on the first error", input, answers);
}
