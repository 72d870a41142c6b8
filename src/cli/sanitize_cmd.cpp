// sanitize_cmd.cpp - `utf8guard sanitize [FILE|-]`: the replacement rule over
// a stream, in constant memory, output buffered and every write checked.
// With --json-text the input is JSON text and so is the output (the library's
// json::sanitize, over a stream): json::scanner finds what to replace.
#include <unistd.h>
#include <cerrno>
#include <memory>
#include <string>

#include <utf8guard/utf8guard.hpp>

#include "commands.hpp"
#include "io.hpp"

namespace utf8guard::cli {
namespace {

// json_text_sanitizer writes JSON text with each finding of json::scanner
// replaced: one at an escape by \ufffd, a raw one by U+FFFD (what
// json::sanitize writes). A finding may start before the chunk that
// decides it: the scanner holds up to 11 bytes of an escape and carries up
// to 3 raw bytes of a sequence before them. So the last kHeld bytes read
// wait in kept_ until the next chunk or the end.
class json_text_sanitizer {
  static constexpr std::size_t kHeld = 14;

 public:
  explicit json_text_sanitizer(policy p) : scanner_(p) {}

  template <class Sink>
  bool feed(std::string_view chunk, Sink& sink) {
    kept_.append(chunk);
    bool ok = true;
    const bool went_on =
        scanner_.feed(chunk, [&](const encoded_result& r) { return ok = replace(r, sink); });
    if (!went_on || !ok) return false;
    if (kept_.size() > kHeld) {
      const std::size_t n = kept_.size() - kHeld;
      if (!sink(std::string_view(kept_).substr(0, n))) return false;
      kept_.erase(0, n);
      from_ += n;
    }
    return true;
  }

  template <class Sink>
  bool finish(Sink& sink) {
    bool ok = true;
    const bool went_on =
        scanner_.finish([&](const encoded_result& r) { return ok = replace(r, sink); });
    return went_on && ok && sink(kept_);
  }

 private:
  template <class Sink>
  bool replace(const encoded_result& r, Sink& sink) {
    const std::size_t at = static_cast<std::size_t>(r.offset - from_);
    const std::string_view with = kept_[at] == '\\' ? "\\ufffd" : "\xEF\xBF\xBD";
    if (!sink(std::string_view(kept_).substr(0, at)) || !sink(with)) return false;
    kept_.erase(0, at + r.length);
    from_ = r.offset + r.length;
    return true;
  }

  json::scanner scanner_;
  std::string kept_;  // the bytes read from offset from_ on, not yet written
  std::uint64_t from_ = 0;
};

}  // namespace

int run_sanitize(const options& opts) {
  const std::string path = opts.files.empty() ? std::string(kStdinName) : opts.files.front();
  int err = 0;
  input_info info;
  const int fd = open_input(path, err, info);
  if (fd < 0) {
    write_stderr(file_message(path, err));
    return kExitTrouble;
  }
  advise_sequential(fd, info);
  // Output is gathered so that a run of replacements costs one write, not one
  // per U+FFFD; well-formed runs as large as the buffer go straight out.
  fd_writer out(STDOUT_FILENO, kChunkSize);
  auto sink = [&out](std::string_view bytes) { return out.write(bytes); };
  const page_buffer pages = allocate_pages(kChunkSize);
  char* const buffer = reinterpret_cast<char*>(pages.get());
  sanitizer raw(opts.policy.deny);  // --profile/--deny: denied characters become U+FFFD too
  json_text_sanitizer json_text(opts.policy.deny);
  const bool is_json = opts.policy.json_text;
  const auto feed = [&](std::string_view chunk) {
    return is_json ? json_text.feed(chunk, sink) : raw.feed(chunk, sink);
  };
  bool wrote = true;
  for (;;) {
    const ssize_t got = read_some(fd, buffer, kChunkSize);
    if (got < 0) {
      err = errno;
      break;
    }
    if (got == 0) break;
    if (!feed(std::string_view(buffer, static_cast<std::size_t>(got)))) {
      wrote = false;
      break;
    }
  }
  close_input(fd);
  // After a read error the output stays the sanitized prefix read so far: the
  // unfinished sequence at its end is held back, not guessed at.
  if (wrote && err == 0) wrote = is_json ? json_text.finish(sink) : raw.finish(sink);
  if (!out.flush() || !wrote) {
    report_write_failure(out.error());
    return kExitTrouble;
  }
  if (err != 0) {
    write_stderr(file_message(path, err));
    return kExitTrouble;
  }
  return kExitValid;
}

}  // namespace utf8guard::cli
