// fuzz_common.hpp - what every fuzz target shares: a splitter for the fuzz
// data, the usable kernels, ICU as a second oracle, and the one way a target
// fails (the input in hex, each implementation's answer, then abort()).
//
// Every target is an LLVMFuzzerTestOneInput built three ways from one source:
// libFuzzer, AFL++ (through its libFuzzer-compatible driver) and the plain
// replay main (replay_main.cpp) that gcc builds and ctest runs. So nothing
// here may depend on a fuzzing engine: FuzzedDataProvider.h ships with clang
// only, which is why data_reader exists.
#ifndef UTF8GUARD_FUZZ_COMMON_HPP
#define UTF8GUARD_FUZZ_COMMON_HPP

#include <unicode/ucnv.h>
#include <unicode/ucnv_err.h>
#include <unicode/ustring.h>
#include <unicode/utypes.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/validate.hpp"  // private: detail::find_kernel, detail::validate_with
#include "core/convert.hpp"  // private: detail::bytes
#include "reference.hpp"
#include "utf8guard/utf8guard.hpp"

namespace fuzz {

// data_reader splits the fuzz data the way libFuzzer's FuzzedDataProvider
// does: control values come off the end, payload bytes off the front, so a
// mutation of the payload rarely changes how it is split and the seed corpus
// (plain text files) works as is: their last bytes simply become the controls.
class data_reader {
 public:
  data_reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  // take_byte consumes one control byte from the end (0 when none is left).
  std::uint8_t take_byte() {
    if (size_ == 0) return 0;
    --size_;
    return data_[size_];
  }

  // take_u16 consumes up to two control bytes from the end, little-endian.
  std::uint16_t take_u16() {
    const unsigned lo = take_byte();
    const unsigned hi = take_byte();
    return static_cast<std::uint16_t>(lo | (hi << 8));
  }

  // rest returns every byte not yet consumed, as the payload.
  std::string_view rest() const {
    // SAFETY: data_[0..size_) is the unconsumed part of the engine's buffer.
    return {reinterpret_cast<const char*>(data_), size_};
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
};

// as_view turns the engine's buffer into bytes the library takes.
inline std::string_view as_view(const std::uint8_t* data, std::size_t size) {
  // SAFETY: data[0..size) is the engine's buffer; (nullptr, 0) is the empty view.
  return {reinterpret_cast<const char*>(data), size};
}

// hex renders bytes as uppercase pairs separated by spaces, like the security
// vectors (security/vectors/vectors.tsv), so a failure pastes into a test.
inline std::string hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(bytes.size() * 3);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const auto b = static_cast<unsigned char>(bytes[i]);
    if (i != 0) out += ' ';
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

// answer is one implementation's verdict, already rendered for the report.
using answer = std::pair<std::string, std::string>;

// fail reports a disagreement and aborts, which every engine records as a
// crash and the replay main as a failed test. It prints the whole input: a
// reproducer must be exact, and the engines keep inputs small (max_len).
[[noreturn]] inline void fail(const char* target, const char* what, std::string_view input,
                              const std::vector<answer>& answers) {
  std::fprintf(stderr, "\n==== utf8guard fuzz target %s: %s\n", target, what);
  std::fprintf(stderr, "input (%zu bytes): %s\n", input.size(), hex(input).c_str());
  for (const answer& a : answers) {
    std::fprintf(stderr, "  %-28s %s\n", a.first.c_str(), a.second.c_str());
  }
  std::fflush(stderr);
  std::abort();
}

// describe renders a library result as "kind@offset+length".
inline std::string describe(const utf8guard::result& r) {
  if (r.ok()) return "none";
  return std::string(utf8guard::to_string(r.kind)) + "@" + std::to_string(r.offset) + "+" +
         std::to_string(r.length);
}

inline std::string describe(const reference::error& e) {
  if (e.ok()) return "none";
  return std::string(e.kind) + "@" + std::to_string(e.offset) + "+" + std::to_string(e.length);
}

// same compares a library result with the oracle's through the stable kind
// names, never through a shared enum (the oracle names kinds as strings).
inline bool same(const utf8guard::result& r, const reference::error& e) {
  if (r.ok() || e.ok()) return r.ok() && e.ok();
  return utf8guard::to_string(r.kind) == e.kind && r.offset == e.offset && r.length == e.length;
}

// misaligned_copy places the input at the very end of a fresh allocation that
// starts odd: SIMD kernels then see it unaligned, and a read past its end
// still hits the allocation's end (ASan's redzone), as it does in the
// engine's own exact-size buffer.
struct misaligned_copy {
  std::unique_ptr<char[]> storage;
  std::string_view view;
  explicit misaligned_copy(std::string_view in, std::size_t shift)
      : storage(new char[in.size() + shift]) {
    char* start = storage.get() + shift;
    if (!in.empty()) std::memcpy(start, in.data(), in.size());
    view = std::string_view(start, in.size());
  }
};

// usable_kernels names every compiled kernel this CPU runs. Asked at run time,
// so kernels added to the library are fuzzed without touching the targets.
inline const std::vector<std::string>& usable_kernels() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const utf8guard::kernel_info& k : utf8guard::kernels()) {
      if (k.usable) out.emplace_back(k.name);
    }
    return out;
  }();
  return names;
}

// is_active says whether the compiled kernel of that name is the one every
// entry point calls now (the same struct, not only the same name), to prove
// that forcing a kernel really moved the work to it.
inline bool is_active(const std::string& name) {
  const utf8guard::detail::kernel* k = utf8guard::detail::find_kernel(name.data(), name.size());
  return k != nullptr && &utf8guard::detail::active_kernel_ref() == k;
}

// forced_kernel makes every call in its scope use one kernel and restores the
// best one on the way out, so one target's choice never leaks into the next.
class forced_kernel {
 public:
  explicit forced_kernel(const std::string& name) : ok_(utf8guard::set_kernel(name)) {}
  ~forced_kernel() { utf8guard::set_kernel("best"); }
  forced_kernel(const forced_kernel&) = delete;
  forced_kernel& operator=(const forced_kernel&) = delete;
  bool ok() const { return ok_; }

 private:
  bool ok_;
};

// ---- ICU: a third, independent decoder -------------------------------------
// ICU (60 and later) substitutes U+FFFD per maximal subpart, as DESIGN.md
// requires, so it must agree with the library on every input.

// icu_error is ICU's first error: where it starts and how many bytes ICU
// calls invalid, or valid = true.
struct icu_error {
  bool valid = true;
  std::size_t offset = 0;
  std::size_t length = 0;
};

inline std::string describe(const icu_error& e) {
  if (e.valid) return "valid";
  return "invalid@" + std::to_string(e.offset) + "+" + std::to_string(e.length);
}

// icu_first_error converts with the STOP callback: ICU stops right after the
// first ill-formed sequence and ucnv_getInvalidChars() returns its bytes, so
// the offset is what was consumed minus that length.
inline icu_error icu_first_error(std::string_view in) {
  static UConverter* const conv = [] {
    UErrorCode status = U_ZERO_ERROR;
    UConverter* c = ucnv_open("UTF-8", &status);
    if (U_FAILURE(status)) {
      std::fprintf(stderr, "ICU: ucnv_open(UTF-8): %s\n", u_errorName(status));
      std::abort();
    }
    ucnv_setToUCallBack(c, UCNV_TO_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &status);
    return c;
  }();
  ucnv_reset(conv);
  std::vector<UChar> buffer(in.size() + 1);
  UChar* target = buffer.data();
  const char* source = in.data();
  UErrorCode status = U_ZERO_ERROR;
  // UTF-16 never needs more units than UTF-8 has bytes, so one call suffices.
  ucnv_toUnicode(conv, &target, buffer.data() + buffer.size(), &source, in.data() + in.size(),
                 nullptr, true, &status);
  icu_error e;
  if (U_SUCCESS(status)) return e;
  if (status != U_ILLEGAL_CHAR_FOUND && status != U_INVALID_CHAR_FOUND &&
      status != U_TRUNCATED_CHAR_FOUND) {
    std::fprintf(stderr, "ICU: ucnv_toUnicode: %s\n", u_errorName(status));
    std::abort();
  }
  char bad[32];
  std::int8_t bad_len = sizeof bad;
  UErrorCode status2 = U_ZERO_ERROR;
  ucnv_getInvalidChars(conv, bad, &bad_len, &status2);
  e.valid = false;
  e.length = static_cast<std::size_t>(bad_len);
  e.offset = static_cast<std::size_t>(source - in.data()) - e.length;
  return e;
}

// icu_sanitized is ICU's replacement: UTF-8 to UTF-16 with U+FFFD for each
// ill-formed subpart, then back to UTF-8, plus the number of substitutions.
struct icu_sanitized {
  std::string bytes;
  std::size_t replacements = 0;
};

inline icu_sanitized icu_sanitize(std::string_view in) {
  icu_sanitized out;
  std::vector<UChar> utf16(in.size() + 1);
  std::int32_t units = 0;
  std::int32_t subs = 0;
  UErrorCode status = U_ZERO_ERROR;
  u_strFromUTF8WithSub(utf16.data(), static_cast<std::int32_t>(utf16.size()), &units, in.data(),
                       static_cast<std::int32_t>(in.size()), 0xFFFD, &subs, &status);
  if (U_FAILURE(status)) {
    std::fprintf(stderr, "ICU: u_strFromUTF8WithSub: %s\n", u_errorName(status));
    std::abort();
  }
  out.replacements = static_cast<std::size_t>(subs);
  // Each UTF-16 unit becomes at most 3 UTF-8 bytes (a pair: 4 bytes for 2 units).
  out.bytes.resize(3 * static_cast<std::size_t>(units) + 1);
  std::int32_t written = 0;
  u_strToUTF8(out.bytes.data(), static_cast<std::int32_t>(out.bytes.size()), &written, utf16.data(),
              units, &status);
  if (U_FAILURE(status)) {
    std::fprintf(stderr, "ICU: u_strToUTF8: %s\n", u_errorName(status));
    std::abort();
  }
  out.bytes.resize(static_cast<std::size_t>(written));
  return out;
}

// decisive_byte is the index of the byte whose arrival makes the input
// impossible, for a streaming validator's "reported by the feed() that
// delivers the byte" rule: the lone byte itself, the second byte that leaves
// E0/ED/F0/F4's range, or the byte that cuts a valid prefix. "incomplete"
// has none (only finish() reports it), so it returns SIZE_MAX.
inline std::size_t decisive_byte(const utf8guard::result& r, std::string_view in) {
  using utf8guard::error;
  switch (r.kind) {
    case error::truncated: return r.offset + r.length;
    case error::overlong:
    case error::surrogate:
    case error::too_large: {
      const auto lead = static_cast<unsigned char>(in[r.offset]);
      return lead >= 0xE0 ? r.offset + 1 : r.offset;  // C0/C1 are wrong on their own
    }
    case error::incomplete:
    case error::none: return SIZE_MAX;
    default: return r.offset;
  }
}

// take_splits draws up to 16 raw chunk boundaries from the control bytes.
// They are mapped onto the payload only once its size is known (chunks_of).
inline std::vector<std::uint16_t> take_splits(data_reader& reader) {
  std::vector<std::uint16_t> raw;
  const unsigned count = reader.take_byte() % 17u;
  for (unsigned k = 0; k < count; ++k) raw.push_back(reader.take_u16());
  return raw;
}

// chunks_of cuts the payload at the raw split values (taken modulo n + 1),
// sorted; repeats are kept, so empty chunks are fed too.
inline std::vector<std::string_view> chunks_of(std::string_view in,
                                               const std::vector<std::uint16_t>& raw) {
  std::vector<std::size_t> cuts;
  cuts.reserve(raw.size() + 2);
  cuts.push_back(0);
  for (std::uint16_t v : raw) cuts.push_back(v % (in.size() + 1));
  cuts.push_back(in.size());
  std::sort(cuts.begin() + 1, cuts.end() - 1);
  std::vector<std::string_view> out;
  out.reserve(cuts.size() - 1);
  for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
    out.push_back(in.substr(cuts[k], cuts[k + 1] - cuts[k]));
  }
  return out;
}

}  // namespace fuzz

#endif  // UTF8GUARD_FUZZ_COMMON_HPP
