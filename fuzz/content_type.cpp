// content_type - the rule core's reading of a request's shape
// (nginx/src/request_check.h): ug_media_parse on any bytes, each in an
// allocation of its own size, answers within the value (a malformed one at an
// offset inside it or at its end; a boundary of at most 70 bytes,
// NUL-terminated; multipart only with one); the answer does not change with
// optional whitespace around the value, a trailing ';', or (outside quoted
// strings) the case of the letters; ug_body_slot agrees with parse + slot;
// every finding (ug_check_media, ug_check_coding, ug_check_header_name) is
// printable ASCII that fits its buffer, and is given exactly when the value
// is malformed, not readable, not a token.
//
// No controls: the whole input is the header value.
#include <cctype>

#include "fuzz_common.hpp"
#include "request_check.h"

namespace {

constexpr const char* kTarget = "content_type";

bool printable(const ug_finding& f) {
  if (f.len >= UG_FINDING_MAX || f.text[f.len] != '\0') return false;
  for (std::size_t i = 0; i < f.len; ++i) {
    if (f.text[i] < 0x20 || f.text[i] > 0x7E) return false;
  }
  return true;
}

// ug_media_parse over a copy of |value| in an allocation of its own size.
bool parse(std::string_view value, ug_media* media) {
  std::unique_ptr<char[]> copy(new char[value.size()]);
  if (!value.empty()) std::memcpy(copy.get(), value.data(), value.size());
  return ug_media_parse(copy.get(), value.size(), media);
}

std::string describe(bool ok, const ug_media& m) {
  return "ok " + std::to_string(ok) + " kind " + std::to_string(m.kind) + " charset " +
         std::to_string(m.charset) + " boundary \"" + std::string(m.boundary, m.boundary_len) +
         "\"";
}

bool same(bool ok_a, const ug_media& a, bool ok_b, const ug_media& b, bool boundary_case) {
  if (ok_a != ok_b || a.kind != b.kind || a.charset != b.charset) return false;
  if (a.boundary_len != b.boundary_len) return false;
  for (std::size_t i = 0; i < a.boundary_len; ++i) {
    const int x = static_cast<unsigned char>(a.boundary[i]);
    const int y = static_cast<unsigned char>(b.boundary[i]);
    if (boundary_case ? x != y : std::tolower(x) != std::tolower(y)) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view value(reinterpret_cast<const char*>(data), size);

  ug_media media;
  const bool ok = parse(value, &media);
  const std::string got = describe(ok, media);
  if (ok == (media.kind == UG_MEDIA_MALFORMED) || (!ok && media.error_offset > value.size()) ||
      media.boundary_len > UG_BOUNDARY_MAX || media.boundary[media.boundary_len] != '\0' ||
      (ok && media.kind == UG_MEDIA_MULTIPART && media.boundary_len == 0)) {
    fuzz::fail(kTarget, "an answer outside the contract", value,
               {{"answer", got}, {"offset", std::to_string(media.error_offset)}});
  }
  if (ug_body_slot(value.data(), value.size()) != ug_media_slot(&media, false)) {
    fuzz::fail(kTarget, "ug_body_slot differs from parse and slot", value, {{"answer", got}});
  }

  ug_media other;
  const std::string padded = " \t" + std::string(value) + "\t ";
  bool other_ok = parse(padded, &other);
  if (!same(ok, media, other_ok, other, true)) {
    fuzz::fail(kTarget, "whitespace around the value changed the answer", value,
               {{"answer", got}, {"padded", describe(other_ok, other)}});
  }
  if (ok) {
    other_ok = parse(std::string(value) + ";", &other);
    if (!same(ok, media, other_ok, other, true)) {
      fuzz::fail(kTarget, "a trailing ';' changed the answer", value,
                 {{"answer", got}, {"with ;", describe(other_ok, other)}});
    }
  }
  if (value.find('"') == std::string_view::npos && value.find('\\') == std::string_view::npos) {
    std::string upper(value);
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    other_ok = parse(upper, &other);
    if (!same(ok, media, other_ok, other, false)) {
      fuzz::fail(kTarget, "the letters' case changed the answer", value,
                 {{"answer", got}, {"upper", describe(other_ok, other)}});
    }
  }

  ug_finding f;
  const bool malformed = ug_check_media(value.data(), value.size(), &media, 1, &f);
  if (malformed != !ok || (malformed && !printable(f))) {
    fuzz::fail(kTarget, "ug_check_media disagrees with the parse", value,
               {{"answer", got}, {"finding", malformed ? f.text : "(none)"}});
  }
  if (!ug_check_media(value.data(), value.size(), &media, 2, &f) || !printable(f)) {
    fuzz::fail(kTarget, "two Content-Types without a printable finding", value, {});
  }
  const bool coded = ug_check_coding(value.data(), value.size(), &f);
  if (coded == ug_coding_readable(value.data(), value.size()) || (coded && !printable(f))) {
    fuzz::fail(kTarget, "ug_check_coding disagrees with ug_coding_readable", value,
               {{"finding", coded ? f.text : "(none)"}});
  }
  std::size_t bad = 0;
  const bool named = ug_check_header_name(value.data(), value.size(), &f);
  if (named == ug_header_name_valid(value.data(), value.size(), &bad) || (named && !printable(f))) {
    fuzz::fail(kTarget, "ug_check_header_name disagrees with ug_header_name_valid", value,
               {{"finding", named ? f.text : "(none)"}});
  }
  return 0;
}
