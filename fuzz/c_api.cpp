// c_api - the checks of the other targets, through the C API only
// (utf8guard.h): kernel choice, one-shot and streaming validation, one-shot
// and streaming sanitizing, the error scanner, decode/encode, and the kind
// names, all against the reference oracle. The C API is a second surface
// with its own buffers, statuses and callbacks, so it is fuzzed on its own.
//
// Data layout (data_reader): last byte = kernel choice, then a count and that
// many 16-bit split values; all the rest is the input.
#include "fuzz_common.hpp"
#include "sinks.hpp"

namespace {

constexpr const char* kTarget = "c_api";

using utf8guard::testing::append_sink;
using utf8guard::testing::collect_error;

// Every kernel the C API lists as usable gives the oracle's first error.
void check_kernels(std::string_view input, const reference::error& expected) {
  const size_t count = utf8guard_kernel_count();
  for (size_t i = 0; i < count; ++i) {
    bool usable = false;
    const char* name = utf8guard_kernel_name(i, &usable);
    if (!usable) continue;
    if (!utf8guard_set_kernel(name) || std::string_view(utf8guard_active_kernel()) != name) {
      fuzz::fail(kTarget, "utf8guard_set_kernel did not switch", input, {{"kernel", name}});
    }
    const utf8guard_result r = utf8guard_validate(input.data(), input.size());
    const bool valid = utf8guard_is_valid(input.data(), input.size());
    if (!fuzz::same(r, expected) || valid != expected.ok()) {
      utf8guard_set_kernel("best");
      fuzz::fail(kTarget, "utf8guard_validate differs from the oracle", input,
                 {{"kernel", name},
                  {"utf8guard_validate", fuzz::describe(r)},
                  {"utf8guard_is_valid", valid ? "true" : "false"},
                  {"reference", fuzz::describe(expected)}});
    }
  }
  if (utf8guard_kernel_name(count, nullptr) != nullptr || !utf8guard_set_kernel("best") ||
      utf8guard_set_kernel("no-such-kernel")) {
    fuzz::fail(kTarget, "kernel listing or \"best\" misbehaves", input, {});
  }
}

void check_streams(std::string_view input, const std::vector<std::string_view>& chunks,
                   const reference::error& first, const std::vector<reference::error>& all,
                   const std::string& sanitized) {
  utf8guard_validator v;
  utf8guard_validator_init(&v);
  for (const std::string_view c : chunks) utf8guard_validator_feed(&v, c.data(), c.size());
  const utf8guard_result r = utf8guard_validator_finish(&v);

  utf8guard_sanitizer s;
  utf8guard_sanitizer_init(&s);
  std::string out;
  bool sanitizer_ok = true;
  for (const std::string_view c : chunks) {
    sanitizer_ok = sanitizer_ok && utf8guard_sanitizer_feed(&s, c.data(), c.size(), append_sink,
                                                            &out) == UTF8GUARD_STATUS_OK;
  }
  sanitizer_ok =
      sanitizer_ok && utf8guard_sanitizer_finish(&s, append_sink, &out) == UTF8GUARD_STATUS_OK;

  utf8guard_error_scanner sc;
  utf8guard_error_scanner_init(&sc);
  std::vector<utf8guard::result> errors;
  bool scanner_ok = true;
  for (const std::string_view c : chunks) {
    scanner_ok = scanner_ok && utf8guard_error_scanner_feed(&sc, c.data(), c.size(), collect_error,
                                                            &errors) == UTF8GUARD_STATUS_OK;
  }
  scanner_ok = scanner_ok &&
               utf8guard_error_scanner_finish(&sc, collect_error, &errors) == UTF8GUARD_STATUS_OK;
  bool errors_same =
      errors.size() == all.size() && utf8guard_error_scanner_errors(&sc) == all.size();
  for (size_t k = 0; errors_same && k < errors.size(); ++k)
    errors_same = fuzz::same(errors[k], all[k]);

  if (!fuzz::same(r, first) || !sanitizer_ok || out != sanitized ||
      utf8guard_sanitizer_replacements(&s) != all.size() || !scanner_ok || !errors_same) {
    std::string got;
    for (const utf8guard::result& e : errors) got += fuzz::describe(e) + " ";
    fuzz::fail(kTarget, "C streaming differs from the oracle", input,
               {{"chunks", std::to_string(chunks.size())},
                {"validator", fuzz::describe(r)},
                {"reference first error", fuzz::describe(first)},
                {"sanitizer", fuzz::hex(out)},
                {"reference sanitize", fuzz::hex(sanitized)},
                {"replacements", std::to_string(utf8guard_sanitizer_replacements(&s))},
                {"scanner", got},
                {"reference errors", std::to_string(all.size())}});
  }
}

void check_sanitize(std::string_view input, const std::string& expected, size_t expected_count) {
  size_t bound = 0;
  if (utf8guard_sanitize_bound(input.size(), &bound) != UTF8GUARD_STATUS_OK) {
    fuzz::fail(kTarget, "utf8guard_sanitize_bound overflowed on a small size", input, {});
  }
  std::string out(bound, '\0');
  size_t written = 0, replacements = 0;
  const utf8guard_status st = utf8guard_sanitize(input.data(), input.size(), out.data(), out.size(),
                                                 &written, &replacements);
  out.resize(st == UTF8GUARD_STATUS_OK ? written : 0);
  // One byte short of the output is refused, whole.
  utf8guard_status short_st = UTF8GUARD_STATUS_BUFFER_TOO_SMALL;
  if (!expected.empty()) {
    std::string small(expected.size() - 1, '\0');
    short_st = utf8guard_sanitize(input.data(), input.size(), small.data(), small.size(), nullptr,
                                  nullptr);
  }
  size_t huge = 0;
  if (st != UTF8GUARD_STATUS_OK || out != expected || replacements != expected_count ||
      short_st != UTF8GUARD_STATUS_BUFFER_TOO_SMALL ||
      utf8guard_sanitize_bound(SIZE_MAX, &huge) != UTF8GUARD_STATUS_OVERFLOW) {
    fuzz::fail(kTarget, "utf8guard_sanitize differs from the oracle", input,
               {{"status", utf8guard_status_name(st)},
                {"output", fuzz::hex(out)},
                {"reference", fuzz::hex(expected)},
                {"replacements", std::to_string(replacements)},
                {"one byte short", utf8guard_status_name(short_st)}});
  }
}

void check_codec(std::string_view input, const reference::error& first) {
  const std::u32string expected = reference::decode(input);
  std::vector<uint32_t> cps(input.size() + 1);
  size_t count = 0;
  utf8guard_result err{};
  const utf8guard_status st =
      utf8guard_decode(input.data(), input.size(), cps.data(), cps.size(), &count, &err);
  bool right = st == (first.ok() ? UTF8GUARD_STATUS_OK : UTF8GUARD_STATUS_ILL_FORMED) &&
               fuzz::same(err, first) && count == expected.size();
  for (size_t k = 0; right && k < count; ++k) right = cps[k] == expected[k];

  // Encoding what was decoded gives back the well-formed part of the input.
  std::string again(4 * count, '\0');
  size_t written = 0, bad = SIZE_MAX;
  const utf8guard_status enc =
      utf8guard_encode(cps.data(), count, again.data(), again.size(), &written, &bad);
  again.resize(written);
  right = right && enc == UTF8GUARD_STATUS_OK &&
          again == input.substr(0, first.ok() ? input.size() : first.offset);
  // A buffer one code point short is refused.
  if (right && count > 0) {
    std::vector<uint32_t> small(count - 1);
    right = utf8guard_decode(input.data(), first.ok() ? input.size() : first.offset, small.data(),
                             small.size(), nullptr, nullptr) == UTF8GUARD_STATUS_BUFFER_TOO_SMALL;
  }
  // decode_one at the start: the first code point, or the first error.
  uint32_t cp = 0xFFFFFFFFu;
  const utf8guard_result one = utf8guard_decode_one(input.data(), input.size(), &cp);
  if (right && !input.empty()) {
    if (first.ok() || first.offset > 0) {
      char buf[4];
      const size_t n = utf8guard_encode_one(cp, buf);
      right = one.kind == UTF8GUARD_ERROR_NONE && cp == expected[0] && n == one.length &&
              input.compare(0, n, buf, n) == 0;
    } else {
      right = fuzz::same(one, first) && cp == 0xFFFFFFFFu;
    }
  }
  if (!right) {
    fuzz::fail(kTarget, "utf8guard_decode/encode differ from the oracle", input,
               {{"decode status", utf8guard_status_name(st)},
                {"decode error", fuzz::describe(err)},
                {"decoded", std::to_string(count)},
                {"reference first error", fuzz::describe(first)},
                {"reference code points", std::to_string(expected.size())},
                {"encode status", utf8guard_status_name(enc)},
                {"encoded", fuzz::hex(again)},
                {"decode_one", fuzz::describe(one)}});
  }
}

// encode rejects exactly the values that are not scalar values, at the index
// of the first. Each split value gives one: odd ones a scalar value below
// U+8000, even ones a surrogate or a value above U+10FFFF.
void check_encode_rejects(std::string_view input, const std::vector<std::uint16_t>& raw) {
  std::vector<uint32_t> cps;
  size_t want_bad = SIZE_MAX;
  bool one_right = true;
  for (const std::uint16_t v : raw) {
    const bool scalar = (v & 1) != 0;
    const uint32_t cp = scalar ? v >> 1 : (v % 3 == 0 ? 0xD800u + (v >> 1) % 0x800 : 0x110000u + v);
    if (!scalar && want_bad == SIZE_MAX) want_bad = cps.size();
    char out[4];
    one_right = one_right && (utf8guard_encode_one(cp, out) != 0) == scalar;
    cps.push_back(cp);
  }
  std::string buf(4 * cps.size(), '\0');
  size_t bad = SIZE_MAX;
  const utf8guard_status st =
      utf8guard_encode(cps.data(), cps.size(), buf.data(), buf.size(), nullptr, &bad);
  const bool right =
      one_right && (want_bad == SIZE_MAX ? st == UTF8GUARD_STATUS_OK
                                         : st == UTF8GUARD_STATUS_ILL_FORMED && bad == want_bad);
  if (!right) {
    fuzz::fail(kTarget, "utf8guard_encode/encode_one misjudged a scalar value", input,
               {{"status", utf8guard_status_name(st)},
                {"bad index", std::to_string(bad)},
                {"expected bad index", std::to_string(want_bad)}});
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::data_reader reader(data, size);
  const std::uint8_t kernel_choice = reader.take_byte();
  const std::vector<std::uint16_t> raw = fuzz::take_splits(reader);
  // The library reads a copy at a fixed address (fuzz::misaligned_copy).
  const fuzz::misaligned_copy placed(reader.rest(), 0);
  const std::string_view input = placed.view;
  const std::vector<std::string_view> chunks = fuzz::chunks_of(input, raw);

  const reference::error first = reference::first_error(input);
  const std::vector<reference::error> all = reference::all_errors(input);
  const std::string sanitized = reference::sanitize(input);

  check_kernels(input, first);
  // The rest runs on one kernel the data picks, named through the C API.
  bool usable = false;
  const char* name = utf8guard_kernel_name(kernel_choice % utf8guard_kernel_count(), &usable);
  if (usable) utf8guard_set_kernel(name);
  check_streams(input, chunks, first, all, sanitized);
  check_sanitize(input, sanitized, all.size());
  check_codec(input, first);
  check_encode_rejects(input, raw);
  utf8guard_set_kernel("best");

  // (NULL, 0) is the empty input everywhere.
  size_t written = 1;
  if (!utf8guard_is_valid(nullptr, 0) ||
      utf8guard_validate(nullptr, 0).kind != UTF8GUARD_ERROR_NONE ||
      utf8guard_sanitize(nullptr, 0, nullptr, 0, &written, nullptr) != UTF8GUARD_STATUS_OK ||
      written != 0) {
    fuzz::fail(kTarget, "(NULL, 0) is not the empty input", input, {});
  }
  return 0;
}
