// request_check - the nginx module's decisions (nginx/src/request_check.h):
// a body streamed in any chunks, under any rule, gives the finding of the
// whole body word for word, handed out once; a finding's text fits its
// buffer and holds printable ASCII only (a log line never carries a client's
// raw bytes); the Content-Type, directive and header-name readers take any
// bytes.
#include "request_check.h"
#include "fuzz_common.hpp"

namespace {

constexpr const char* kTarget = "request_check";

bool printable(const char* text, std::size_t len) {
  for (std::size_t i = 0; i < len; ++i) {
    if (text[i] < 0x20 || text[i] > 0x7E) return false;
  }
  return text[len] == '\0';
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::data_reader reader(data, size);
  const unsigned control = reader.take_byte();
  const std::vector<std::uint16_t> splits = fuzz::take_splits(reader);
  const std::string_view input = reader.rest();

  // The rule: a slot's default, or a slot's mode with every category denied.
  const auto slot = static_cast<ug_slot>(control % UG_SLOT_COUNT);
  ug_rule rule = ug_rule_default(slot);
  if (!rule.on || (control & 0x80) != 0) {
    rule.on = true;
    rule.encoding = ug_rule_default(slot).encoding;
    rule.policy = (1u << UTF8GUARD_CATEGORY_COUNT) - 1;
  }

  ug_finding whole;
  const bool found = ug_check_part(&rule, "body", input.data(), input.size(), &whole);
  if (found && (whole.len >= UG_FINDING_MAX || !printable(whole.text, whole.len))) {
    fuzz::fail(kTarget, "a finding that is not printable text", input, {{"finding", whole.text}});
  }

  ug_stream stream;
  ug_stream_init(&stream, &rule);
  ug_finding got;
  int ready = 0;
  for (std::string_view chunk : fuzz::chunks_of(input, splits)) {
    ready += ug_stream_feed(&stream, chunk.data(), chunk.size(), &got) ? 1 : 0;
  }
  ready += ug_stream_finish(&stream, &got) ? 1 : 0;
  if (ready != (found ? 1 : 0) || (found && std::strcmp(got.text, whole.text) != 0)) {
    fuzz::fail(kTarget, "the streamed body's finding differs from the whole body's", input,
               {{"whole", found ? whole.text : "(none)"},
                {"streamed", ready == 1   ? got.text
                             : ready == 0 ? "(none)"
                                          : "(twice)"},
                {"chunks", std::to_string(splits.size() + 1)}});
  }

  (void)ug_body_slot(input.data(), input.size());
  ug_rule parsed;
  std::size_t at = 0, len = 0;
  if (!ug_rule_parse(slot, input.data(), input.size(), &parsed, &at, &len) &&
      (at > input.size() || len > input.size() - at)) {
    fuzz::fail(kTarget, "a directive error outside the value", input,
               {{"offset", std::to_string(at)}, {"length", std::to_string(len)}});
  }
  char label[4 * 64];
  const std::size_t n = ug_header_label(input.data(), input.size(), label, sizeof label);
  if (n >= sizeof label || !printable(label, n)) {
    fuzz::fail(kTarget, "a header label that is not printable text", input, {{"label", label}});
  }
  return 0;
}
