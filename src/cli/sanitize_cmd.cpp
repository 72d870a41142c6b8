// sanitize_cmd.cpp - `utf8guard sanitize [FILE|-]`: the replacement rule over
// a stream, in constant memory, output buffered and every write checked.
#include <unistd.h>
#include <cerrno>
#include <memory>

#include <utf8guard/utf8guard.hpp>

#include "commands.hpp"
#include "io.hpp"

namespace utf8guard::cli {

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
  sanitizer s(opts.policy.deny);  // --profile/--deny: denied characters become U+FFFD too
  bool wrote = true;
  for (;;) {
    const ssize_t got = read_some(fd, buffer, kChunkSize);
    if (got < 0) {
      err = errno;
      break;
    }
    if (got == 0) break;
    if (!s.feed(std::string_view(buffer, static_cast<std::size_t>(got)), sink)) {
      wrote = false;
      break;
    }
  }
  close_input(fd);
  // After a read error the output stays the sanitized prefix read so far: the
  // unfinished sequence at its end is held back, not guessed at.
  if (wrote && err == 0) wrote = s.finish(sink);
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
