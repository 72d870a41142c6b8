// multipart - the nginx module's multipart/form-data checker
// (nginx/src/multipart.h): a body cut at split points drawn from the data,
// each chunk in an allocation of its own size (a read past a chunk is a read
// past the allocation), gives the finding of one feed word for word, handed
// out once; so do 1-byte feeds when a control bit asks; a finding's text is
// printable ASCII that fits its buffer; nothing answers after the finding or
// the finish; the vectorized scan equals its definition on the payload.
//
// Controls, off the end: one byte (bits 0-1 the header rule: field, off,
// every category; bits 2-3 the field rule: the form rule, off, every
// category; bits 4-5 the file rule: off, strict, every category; bit 6: the
// boundary is the next (byte % 71) control bytes, else "XyZ"; bit 7: also
// 1-byte feeds), then the splits (fuzz::take_splits). The rest is the body.
#include "multipart.h"
#include "fuzz_common.hpp"

namespace {

constexpr const char* kTarget = "multipart";

bool printable(const ug_finding& f) {
  if (f.len >= UG_FINDING_MAX || f.text[f.len] != '\0') return false;
  for (std::size_t i = 0; i < f.len; ++i) {
    if (f.text[i] < 0x20 || f.text[i] > 0x7E) return false;
  }
  return true;
}

ug_rule rule_of(unsigned bits, ug_rule first) {
  switch (bits & 3u) {
    case 0: return first;
    case 1: return ug_rule{false, UG_ENCODING_RAW, 0};
    default: return ug_rule{true, UG_ENCODING_RAW, (1u << UTF8GUARD_CATEGORY_COUNT) - 1};
  }
}

struct rules {
  ug_rule header, field, file;
};

// The body fed in the given chunks (each copied to an allocation of its own
// size), then finished: the finding's text, "(none)", or a string naming
// what broke the contract.
std::string run(const std::string& boundary, const rules& r,
                const std::vector<std::string_view>& chunks) {
  static ug_multipart m;
  ug_multipart_init(&m, boundary.data(), boundary.size(), &r.header, &r.field, &r.file);
  ug_finding f;
  std::string found = "(none)";
  int ready = 0;
  for (std::string_view chunk : chunks) {
    std::unique_ptr<char[]> copy(new char[chunk.size()]);
    if (!chunk.empty()) std::memcpy(copy.get(), chunk.data(), chunk.size());
    if (ug_multipart_feed(&m, copy.get(), chunk.size(), &f)) {
      ++ready;
      found = printable(f) ? std::string(f.text, f.len) : "(not printable)";
    }
  }
  if (ug_multipart_finish(&m, &f)) {
    ++ready;
    found = printable(f) ? std::string(f.text, f.len) : "(not printable)";
  }
  if (ready > 1) return "(twice)";
  if (ug_multipart_finish(&m, &f) || ug_multipart_feed(&m, "-", 1, &f)) return "(after the end)";
  return found;
}

std::size_t scan_reference(std::string_view in) {
  for (std::size_t i = 0; i < in.size(); ++i) {
    if ((in[i] == '\r' || in[i] == '\n') && (i + 1 == in.size() || in[i + 1] == '-')) return i;
  }
  return in.size();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::data_reader reader(data, size);
  const unsigned control = reader.take_byte();
  std::string boundary = "XyZ";
  if ((control & 0x40) != 0) {
    boundary.clear();
    const unsigned n = reader.take_byte() % 71u;
    for (unsigned k = 0; k < n; ++k) boundary.push_back(static_cast<char>(reader.take_byte()));
  }
  const std::vector<std::uint16_t> splits = fuzz::take_splits(reader);
  const std::string_view input = reader.rest();

  const rules r = {rule_of(control, ug_rule_default(UG_SLOT_HEADERS)),
                   rule_of(control >> 2, ug_rule_default(UG_SLOT_BODY_FORM)),
                   rule_of(control >> 4, ug_rule{false, UG_ENCODING_RAW, 0})};
  const std::string whole = run(boundary, r, {input});
  if (whole[0] == '(' && whole != "(none)") {
    fuzz::fail(kTarget, "one feed breaks the contract", input, {{"one feed", whole}});
  }
  const std::string split = run(boundary, r, fuzz::chunks_of(input, splits));
  if (split != whole) {
    fuzz::fail(kTarget, "the split body's finding differs from one feed's", input,
               {{"one feed", whole},
                {"split", split},
                {"chunks", std::to_string(splits.size() + 1)},
                {"boundary", fuzz::hex(boundary)}});
  }
  if ((control & 0x80) != 0) {
    std::vector<std::string_view> bytes;
    for (std::size_t i = 0; i < input.size(); ++i) bytes.push_back(input.substr(i, 1));
    const std::string one = run(boundary, r, bytes);
    if (one != whole) {
      fuzz::fail(kTarget, "1-byte feeds give another finding than one feed", input,
                 {{"one feed", whole}, {"1-byte feeds", one}, {"boundary", fuzz::hex(boundary)}});
    }
  }
  const fuzz::misaligned_copy copy(input, 1);
  const std::size_t got = ug_multipart_scan(copy.view.data(), copy.view.size());
  if (got != scan_reference(input)) {
    fuzz::fail(
        kTarget, "the scan differs from its definition", input,
        {{"scan", std::to_string(got)}, {"reference", std::to_string(scan_reference(input))}});
  }
  return 0;
}
