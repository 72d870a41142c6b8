// explain - the hint of every offset of the input must equal the oracle's
// (tests/reference/policy_reference.cpp, written from the rules' intent), on
// a copy whose last byte ends an allocation, so a read past the input is
// caught by ASan; and a hint is only ever found where a sequence starting at
// the offset is ill-formed (every rule begins with a byte that cannot start a
// well-formed character there).
#include "fuzz_common.hpp"
#include "policy_reference.hpp"

namespace {

constexpr const char* kTarget = "explain";

std::string describe(const utf8guard::hint& h) {
  return std::string(utf8guard::to_string(h.kind)) + " " +
         std::to_string(static_cast<unsigned long>(h.value)) + (h.has_value ? "" : " (no value)");
}

std::string describe(const reference::hint& h) {
  return (h.name.empty() ? std::string("none") : std::string(h.name)) + " " +
         std::to_string(static_cast<unsigned long>(h.value)) + (h.has_value ? "" : " (no value)");
}

bool same(const utf8guard::hint& h, const reference::hint& r) {
  const std::string_view name =
      h.kind == utf8guard::hint_kind::none ? "" : utf8guard::to_string(h.kind);
  return name == r.name && h.value == r.value && h.has_value == r.has_value;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = fuzz::as_view(data, size);
  const fuzz::misaligned_copy copy(input, 1 + size % 7);
  for (std::size_t off = 0; off <= size; ++off) {
    const utf8guard::hint got = utf8guard::explain(copy.view, off);
    const reference::hint want = reference::explain(input, off);
    if (!same(got, want)) {
      fuzz::fail(kTarget, "explain differs from the oracle", input,
                 {{"offset", std::to_string(off)},
                  {"explain", describe(got)},
                  {"reference", describe(want)}});
    }
  }
  for (std::size_t off = 0; off < size; ++off) {
    if (utf8guard::explain(input, off).kind != utf8guard::hint_kind::none &&
        utf8guard::decode_one(input.substr(off)).kind == utf8guard::error::none) {
      fuzz::fail(kTarget, "a hint at a well-formed character", input,
                 {{"offset", std::to_string(off)}});
    }
  }
  // Past the end: nothing, and nothing read.
  if (utf8guard::explain(copy.view, size + 1).kind != utf8guard::hint_kind::none) {
    fuzz::fail(kTarget, "explain found a hint past the input", input, {});
  }
  return 0;
}
