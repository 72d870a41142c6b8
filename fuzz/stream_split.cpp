// stream_split - streaming must not depend on where the chunks end. The
// input is cut at split points drawn from the fuzz data and fed to the
// validator, the sanitizer and the error_scanner; each must equal its
// one-shot counterpart and the reference oracle:
//   - validator: every feed() before the decisive byte reports nothing, the
//     feed() that delivers it reports the error, later ones repeat it, and
//     finish() equals validate() and the oracle's first error;
//   - sanitizer: the concatenated output equals sanitize() and the oracle's,
//     and replacements() counts the oracle's subparts;
//   - error_scanner: the reported errors are the oracle's all_errors();
//   - a sink or callback that asks to stop is obeyed by the call it stopped.
//
// Data layout (data_reader): last byte = kernel choice, then a count and that
// many 16-bit split values, then a stop limit; all the rest is the input.
#include "fuzz_common.hpp"

namespace {

constexpr const char* kTarget = "stream_split";

std::string cuts_of(const std::vector<std::string_view>& chunks) {
  std::string s;
  for (const std::string_view c : chunks) {
    if (!s.empty()) s += ',';
    s += std::to_string(c.size());
  }
  return s;
}

void check_validator(std::string_view input, const std::vector<std::string_view>& chunks,
                     const reference::error& expected) {
  const utf8guard::result one_shot = utf8guard::validate(input);
  const std::size_t decisive = fuzz::decisive_byte(one_shot, input);
  utf8guard::validator v;
  std::size_t fed = 0;
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    const utf8guard::result r = v.feed(chunks[k]);
    fed += chunks[k].size();
    // By the end of this chunk the decisive byte has arrived iff decisive < fed.
    const utf8guard::result want = decisive < fed ? one_shot : utf8guard::result{};
    if (r != want) {
      fuzz::fail(kTarget, "validator::feed reported at the wrong time", input,
                 {{"chunk sizes", cuts_of(chunks)},
                  {"feed #" + std::to_string(k), fuzz::describe(r)},
                  {"expected after this feed", fuzz::describe(want)},
                  {"validate", fuzz::describe(one_shot)}});
    }
  }
  const utf8guard::result last = v.finish();
  if (!fuzz::same(last, expected) || last != one_shot || v.bytes_fed() != input.size()) {
    fuzz::fail(kTarget, "validator::finish differs from the one-shot answer", input,
               {{"chunk sizes", cuts_of(chunks)},
                {"finish", fuzz::describe(last)},
                {"validate", fuzz::describe(one_shot)},
                {"reference", fuzz::describe(expected)},
                {"bytes_fed", std::to_string(v.bytes_fed())}});
  }
  // reset() starts over: the whole input in one chunk gives the same answer.
  v.reset();
  v.feed(input);
  const utf8guard::result again = v.finish();
  if (again != one_shot || v.bytes_fed() != input.size()) {
    fuzz::fail(kTarget, "validator after reset() differs", input,
               {{"after reset", fuzz::describe(again)}, {"validate", fuzz::describe(one_shot)}});
  }
}

void check_sanitizer(std::string_view input, const std::vector<std::string_view>& chunks,
                     std::size_t expected_count, std::size_t stop_after) {
  const std::string one_shot = utf8guard::sanitize(input);
  const std::string expected = reference::sanitize(input);
  utf8guard::sanitizer s;
  std::string out;
  auto sink = [&out](std::string_view piece) { out.append(piece); };
  bool ok = true;
  for (const std::string_view c : chunks) ok = s.feed(c, sink) && ok;
  ok = s.finish(sink) && ok;
  if (!ok || out != one_shot || out != expected || s.replacements() != expected_count) {
    fuzz::fail(kTarget, "streaming sanitize differs from the one-shot answer", input,
               {{"chunk sizes", cuts_of(chunks)},
                {"streamed", fuzz::hex(out)},
                {"sanitize", fuzz::hex(one_shot)},
                {"reference", fuzz::hex(expected)},
                {"replacements", std::to_string(s.replacements())},
                {"reference subparts", std::to_string(expected_count)}});
  }

  // A sink that refuses once it has taken stop_after bytes: the call that
  // hit the refusal returns false, every earlier one true, and what the sink
  // took is a prefix of the full output.
  s.reset();
  std::string partial;
  bool refused = false;
  auto limited = [&](std::string_view piece) {
    if (partial.size() + piece.size() > stop_after) {
      refused = true;
      return false;
    }
    partial.append(piece);
    return true;
  };
  bool stopped_right = true;
  for (std::size_t k = 0; k <= chunks.size() && !refused; ++k) {
    const bool went_on = k < chunks.size() ? s.feed(chunks[k], limited) : s.finish(limited);
    stopped_right = stopped_right && went_on == !refused;
  }
  if (!stopped_right || refused != (one_shot.size() > stop_after) ||
      one_shot.compare(0, partial.size(), partial) != 0) {
    fuzz::fail(kTarget, "sanitizer ignored a sink that asked to stop", input,
               {{"chunk sizes", cuts_of(chunks)},
                {"stop after bytes", std::to_string(stop_after)},
                {"taken before the stop", fuzz::hex(partial)},
                {"sanitize", fuzz::hex(one_shot)}});
  }
}

void check_scanner(std::string_view input, const std::vector<std::string_view>& chunks,
                   const std::vector<reference::error>& expected, std::size_t stop_after) {
  std::vector<utf8guard::result> seen;
  utf8guard::error_scanner scanner;
  auto collect = [&seen](const utf8guard::result& r) { seen.push_back(r); };
  bool ok = true;
  for (const std::string_view c : chunks) ok = scanner.feed(c, collect) && ok;
  ok = scanner.finish(collect) && ok;
  bool same = ok && seen.size() == expected.size() && scanner.errors() == expected.size();
  for (std::size_t k = 0; same && k < seen.size(); ++k) same = fuzz::same(seen[k], expected[k]);
  if (!same) {
    std::string got, want;
    for (const auto& r : seen) got += fuzz::describe(r) + " ";
    for (const auto& e : expected) want += fuzz::describe(e) + " ";
    fuzz::fail(kTarget, "error_scanner differs from the oracle's all_errors", input,
               {{"chunk sizes", cuts_of(chunks)},
                {"error_scanner", got},
                {"reference", want},
                {"errors()", std::to_string(scanner.errors())}});
  }

  // A callback that stops after stop_after errors is obeyed the same way.
  scanner.reset();
  std::size_t taken = 0;
  bool refused = false;
  auto limited = [&](const utf8guard::result&) {
    if (taken == stop_after) {
      refused = true;
      return false;
    }
    ++taken;
    return true;
  };
  bool stopped_right = true;
  for (std::size_t k = 0; k <= chunks.size() && !refused; ++k) {
    const bool went_on =
        k < chunks.size() ? scanner.feed(chunks[k], limited) : scanner.finish(limited);
    stopped_right = stopped_right && went_on == !refused;
  }
  if (!stopped_right || refused != (expected.size() > stop_after)) {
    fuzz::fail(kTarget, "error_scanner ignored a callback that asked to stop", input,
               {{"chunk sizes", cuts_of(chunks)},
                {"stop after errors", std::to_string(stop_after)},
                {"reference errors", std::to_string(expected.size())}});
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::data_reader reader(data, size);
  const std::vector<std::string>& kernels = fuzz::usable_kernels();
  const std::string& kernel = kernels[reader.take_byte() % kernels.size()];
  const std::vector<std::uint16_t> raw = fuzz::take_splits(reader);
  const std::uint16_t stop_raw = reader.take_u16();
  // The library reads a copy at a fixed address (fuzz::misaligned_copy).
  const fuzz::misaligned_copy placed(reader.rest(), 0);
  const std::string_view input = placed.view;
  const std::vector<std::string_view> chunks = fuzz::chunks_of(input, raw);

  const fuzz::forced_kernel forced(kernel);
  const reference::error first = reference::first_error(input);
  const std::vector<reference::error> all = reference::all_errors(input);
  check_validator(input, chunks, first);
  // Stop limits reach just past the whole output (3 bytes per input byte at
  // most) and just past the number of errors, so "never stopped" comes up too.
  check_sanitizer(input, chunks, all.size(), stop_raw % (3 * input.size() + 2));
  check_scanner(input, chunks, all, stop_raw % (all.size() + 2));
  return 0;
}
