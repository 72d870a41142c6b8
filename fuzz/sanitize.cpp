// sanitize - the replacement rule, on the kernels fuzz::kernels_to_try picks
// (one per input when fuzzing, every one in the replay): the output is
// well-formed, equals the oracle's replacement and ICU's U+FFFD conversion,
// is idempotent, is the identity on well-formed input, fits in
// sanitize_bound(), and sanitize_to() writes the same bytes into a buffer of
// exactly that size while refusing one byte less.
//
// The input is the fuzz data itself, unsplit.
#include "fuzz_common.hpp"

namespace {

constexpr const char* kTarget = "sanitize";

void check_on_kernel(std::string_view input, const std::string& kernel, const std::string& expected,
                     const std::string& icu) {
  const fuzz::forced_kernel forced(kernel);
  const std::string out = utf8guard::sanitize(input);
  const char* broken = nullptr;
  if (out != expected) {
    broken = "differs from the oracle's replacement";
  } else if (out != icu) {
    broken = "differs from ICU's U+FFFD conversion";
  } else if (!utf8guard::is_valid(out)) {
    broken = "output is not well-formed";
  } else if (utf8guard::sanitize(out) != out) {
    broken = "sanitizing twice differs from sanitizing once";
  } else if (utf8guard::is_valid(input) && out != input) {
    broken = "changed a well-formed input";
  } else if (out.size() > utf8guard::sanitize_bound(input.size())) {
    broken = "output exceeds sanitize_bound()";
  }
  if (broken == nullptr) {
    // sanitize_to: the bound always suffices; the exact size does; one less
    // is told the size it needed, as snprintf tells it, never truncated.
    std::string buffer(utf8guard::sanitize_bound(input.size()), '\0');
    const std::size_t n = utf8guard::sanitize_to(input, buffer.data(), buffer.size());
    std::string exact(out.size(), '\0');
    const std::size_t n_exact = utf8guard::sanitize_to(input, exact.data(), exact.size());
    const std::size_t n_short =
        out.empty() ? 0 : utf8guard::sanitize_to(input, exact.data(), out.size() - 1);
    if (n != out.size() || buffer.compare(0, n, out) != 0 || n_exact != out.size() ||
        exact != out) {
      broken = "sanitize_to differs from sanitize";
    } else if (!out.empty() && n_short != out.size()) {
      broken = "sanitize_to did not tell the size a buffer one byte too small needed";
    }
  }
  if (broken != nullptr) {
    fuzz::fail(kTarget, broken, input,
               {{"kernel", kernel},
                {"sanitize", fuzz::hex(out)},
                {"reference", fuzz::hex(expected)},
                {"icu", fuzz::hex(icu)}});
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = fuzz::as_view(data, size);
  const std::string expected = reference::sanitize(input);
  const std::string icu = fuzz::icu_sanitize(input).bytes;
  for (const std::string& kernel : fuzz::kernels_to_try(data, size)) {
    check_on_kernel(input, kernel, expected, icu);
  }
  return 0;
}
