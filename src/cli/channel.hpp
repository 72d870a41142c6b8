// channel.hpp - where the report of one input goes. With -j 1 a channel writes
// straight through; with -j N each input gets its own channel that buffers a
// bounded amount and waits for the input's turn, so the bytes and their order
// are the same either way.
#ifndef UTF8GUARD_CLI_CHANNEL_HPP
#define UTF8GUARD_CLI_CHANNEL_HPP

#include <string_view>

#include "io.hpp"

namespace utf8guard::cli {

class channel {
 public:
  virtual ~channel() = default;
  // out adds bytes to standard output. false: output has failed, stop.
  virtual bool out(std::string_view bytes) = 0;
  // err adds a whole message to standard error, in order with out().
  virtual void err(std::string_view message) = 0;
  // failed says whether output has failed (the whole command then stops).
  [[nodiscard]] virtual bool failed() const = 0;
  // pause says that the input may now wait for more bytes: what was written
  // so far should be seen (a live standard output is flushed).
  virtual void pause() {}
};

// direct_channel writes to the process's standard output writer; stderr
// messages flush stdout first so a terminal shows them in order. live: stdout
// is a pipe or a terminal, flushed at each pause() so that a reader sees each
// finding as soon as the bytes that hold it are checked.
class direct_channel final : public channel {
 public:
  direct_channel(fd_writer& stdout_writer, bool live) : stdout_(stdout_writer), live_(live) {}
  bool out(std::string_view bytes) override { return stdout_.write(bytes); }
  void err(std::string_view message) override {
    (void)stdout_.flush();  // a failure sticks in the writer and is reported by the command
    write_stderr(message);
  }
  [[nodiscard]] bool failed() const override { return stdout_.failed(); }
  void pause() override {
    if (live_) (void)stdout_.flush();  // a failure sticks in the writer
  }

 private:
  fd_writer& stdout_;
  bool live_;
};

}  // namespace utf8guard::cli

#endif  // UTF8GUARD_CLI_CHANNEL_HPP
