// check_input.cpp - one input through the library's streaming API.
//
// Until the first error the fast validator runs alone, unless every error is
// wanted (--all, --max-errors N > 1), when the error_scanner reports each
// maximal subpart. Once nothing more is to be printed or counted the rest is
// only read, for the byte count. With --percent and --json-text the same is
// done with the encoded forms of both (percent::validator, percent::scanner;
// json::validator, json::scanner).
//
// A large regular file, with threads to spare (-j), is first validated in
// sections side by side (sections.hpp); reading starts after the prefix they
// proved, and the library's offsets count from there.
//
// Lines and columns cost a pass over the bytes, so a regular file is not
// counted while it is valid: the first error to print re-reads the file's
// prefix (pread) to find its position, and counting goes on inline from
// there. Pipes cannot be re-read and are counted as they stream by.
//
// Errors can be reported up to 3 bytes before the chunk that reveals them (the
// library carries an unfinished sequence across chunks). So the last bytes of
// the stream stay in front of the read area and the position tracker stops 3
// bytes short of each chunk's end. The bytes a message reads around an error
// are kept by the library's finding window, the one every streaming caller
// uses: the checker's window sees every chunk, each error to report gets a
// copy of it marked at its offset, and the error waits until its window is
// ready (6 bytes after it have come: what describe and explain may read) or
// the input ends.
//
// A pipe or terminal is checked as it arrives: each read(2) that returns is
// checked at once, and the output is flushed (when it is live) before the
// next read may block. An error still waiting for the bytes after it is
// printed with those it has when no byte comes for kContextWaitMs.
//
// --lines: a raw LF, and a raw CR followed by a raw LF, are not checked
// against the policy; a CR that ends a read waits for the next byte.
// --quiet and --max-errors stop reading once nothing more is to be printed.
//
// Percent-encoded input (--percent) is checked and reported in decoded bytes
// but read, counted and located in encoded ones, and one decoded byte takes
// up to 3 encoded bytes (an escape). So the distance an error may come late
// is scaled by 3 (and an error may come 2 bytes earlier still: the escape
// that decides it may have begun before its chunk), the window keeps the
// percent form's bytes, and the library decodes them when the error is
// reported (percent::describe). JSON text (--json-text) is read the same way,
// with up to 8 input bytes per checked byte (json::describe).
#include "check_input.hpp"

#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <memory>

#include <utf8guard/utf8guard.hpp>

#include "io.hpp"
#include "position.hpp"
#include "report.hpp"
#include "sections.hpp"

namespace utf8guard::cli {
namespace {

// What differs between UTF-8 input and encoded input: the library's
// streaming classes, what a column counts, how many input bytes carry one
// checked byte at most (kUnitMax), and the window's form and reach: how many
// input bytes a message reads from an error's offset (kAhead), which is also
// how many errors may wait for them at once (each starts its own unit).
struct utf8_input {
  using validator_type = validator;
  using scanner_type = error_scanner;
  using tracker_type = position_tracker;
  static constexpr unsigned kUnitMax = 1;
  static constexpr input_form kForm = input_form::raw;
  static constexpr unsigned kAhead = UTF8GUARD_DESCRIBE_AHEAD;
};

struct percent_input {
  using validator_type = percent::validator;
  using scanner_type = percent::scanner;
  using tracker_type = byte_position_tracker;
  static constexpr unsigned kUnitMax = 3;
  static constexpr input_form kForm = input_form::percent;
  static constexpr unsigned kAhead = UTF8GUARD_DESCRIBE_PERCENT_AHEAD;
};

struct json_input {
  using validator_type = json::validator;
  using scanner_type = json::scanner;
  using tracker_type = byte_position_tracker;
  static constexpr unsigned kUnitMax = 8;
  static constexpr input_form kForm = input_form::json;
  static constexpr unsigned kAhead = UTF8GUARD_DESCRIBE_JSON_AHEAD;
};

// How long an error waits for the bytes after it on a pipe or terminal.
constexpr int kContextWaitMs = 50;

// git's rule for a binary file: a NUL byte among the first 8000 bytes.
constexpr std::size_t kBinaryProbe = 8000;

bool holds_nul(const unsigned char* p, std::size_t n) noexcept {
  return std::memchr(p, 0, n < kBinaryProbe ? n : kBinaryProbe) != nullptr;
}

// The read area is preceded by room for the last bytes of the stream, a page
// of it so that the read area itself is page-aligned (see page_buffer).
constexpr std::size_t kPad = kPageSize;

template <class Input>
class input_checker {
  // How far before its chunk an error may start: 3 checked bytes before the
  // one that decides it, whose own unit may have begun up to kUnitMax - 1
  // bytes before the chunk that completes it.
  static constexpr std::size_t kLate = 3 * Input::kUnitMax + (Input::kUnitMax - 1);
  static_assert(kLate <= UTF8GUARD_FINDING_WINDOW_LATE, "the window cannot start that early");
  static constexpr unsigned kAhead = Input::kAhead;

 public:
  // reread_fd is a descriptor for pread(2) when the input is a regular file,
  // else -1; reread_from is the file offset where reading began (stdin may
  // be a file read from its middle). The first `proven` bytes of the input
  // are known well-formed and to end where a character does; reading goes on
  // after them.
  input_checker(const check_settings& settings, check_buffer& buffer, reporter* rep, int reread_fd,
                std::uint64_t reread_from, std::uint64_t proven)
      : data_(buffer.get() + kPad),
        reporter_(rep),
        context_(rep != nullptr && rep->needs_context()),
        show_hints_(settings.hints),
        lines_(settings.lines),
        stop_at_max_(settings.stop_at_max),
        max_reported_(rep != nullptr ? settings.max_reported : 0),
        count_every_(settings.count_every_error),
        // --lines passes over line ends: the validator would stop at one.
        phase_((rep != nullptr && (settings.max_reported > 1 || settings.count_every_error)) ||
                       settings.lines
                   ? phase::every_error
                   : phase::first_error),
        reread_fd_(reread_fd),
        reread_from_(reread_from),
        validator_(settings.deny),
        scanner_(settings.deny),
        window_(Input::kForm, settings.hint_bytes ? describe_hint : 0),
        proven_(proven),
        base_(proven),
        end_(proven) {}

  unsigned char* read_area() noexcept { return data_; }

  // consume checks the n bytes just read into read_area(). false: stop
  // (stopped() says whether because nothing more is wanted).
  bool consume(std::size_t n) {
    end_ += n;
    const std::string_view chunk(reinterpret_cast<const char*>(data_), n);
    fill_contexts(chunk);
    chunk_ = chunk;  // the chunk a new error's window takes next
    if (pending_cr_ && !settle_cr(data_[0] == '\n')) return false;
    switch (phase_) {
      case phase::first_error: {
        const result r = validator_.feed(chunk);
        if (!r.ok() && !on_error(r)) return false;
        break;
      }
      case phase::every_error:
      case phase::count_errors:
        if (!scanner_.feed(chunk, [this](const result& r) { return on_error(r); })) return false;
        break;
      case phase::drain: break;
    }
    chunk_ = {};
    if (phase_ != phase::drain) window_.feed(chunk);
    if (tracking()) track_to(end_ >= kLate ? end_ - kLate : 0);
    keep_tail(n);
    if (!emit_ready(false)) return false;
    if (stop_wanted_ && waiting_count_ == 0) {
      stopped_ = true;
      return false;
    }
    return true;
  }

  // waiting says whether an error waits for the bytes after it.
  [[nodiscard]] bool waiting() const noexcept { return waiting_count_ != 0; }
  [[nodiscard]] bool stopped() const noexcept { return stopped_; }

  // finish_early ends an input whose reading stopped (stopped()): its size
  // is `size` if known (a regular file), else what was read.
  bool finish_early(std::uint64_t size) {
    if (!emit_ready(true)) return false;
    return reporter_ == nullptr || reporter_->finish(valid_, size != 0 ? size : end_);
  }

  // finish ends a completely read input. false: stop.
  bool finish() {
    if (pending_cr_ && !settle_cr(false)) return false;
    switch (phase_) {
      case phase::first_error: {
        const result r = validator_.finish();
        if (!r.ok() && !on_error(r)) return false;
        break;
      }
      case phase::every_error:
      case phase::count_errors:
        if (!scanner_.finish([this](const result& r) { return on_error(r); })) return false;
        break;
      case phase::drain: break;
    }
    input_ended_ = true;
    if (!emit_ready(true)) return false;
    return reporter_ == nullptr || reporter_->finish(valid_, end_);
  }

  // flush prints the errors still waiting for context, as they are: the input
  // failed and no more bytes will come.
  bool flush() { return emit_ready(true); }

  // failure is the message of an input failure found while checking, if any.
  [[nodiscard]] const std::string& failure() const noexcept { return failure_; }
  [[nodiscard]] bool valid() const noexcept { return valid_; }
  [[nodiscard]] std::uint64_t bytes() const noexcept { return end_; }
  [[nodiscard]] const kind_counts& errors() const noexcept { return kinds_; }

 private:
  enum class phase {
    first_error,   // validator until the first error
    every_error,   // scanner; each error is reported
    count_errors,  // scanner; errors past --max-errors are only counted
    drain,         // nothing left to find; read to the end for the size
  };

  // waiting_error is an error waiting for the input bytes after it, which
  // its report's window takes as they come.
  struct waiting_error {
    found_error report;
  };

  [[nodiscard]] bool tracking() const noexcept {
    return reporter_ != nullptr && reread_fd_ < 0 &&
           (phase_ == phase::first_error || phase_ == phase::every_error);
  }

  // catch_up counts the bytes before the read window, [position, target),
  // from the file itself, then stops deferring: from here on every byte is
  // counted as it is read. false if the file no longer holds them.
  bool catch_up(std::uint64_t target) {
    const std::uint64_t window = base_ - tail_;
    if (target > window) target = window;
    const std::size_t piece_size = 64 * 1024;
    const std::unique_ptr<unsigned char[]> piece(new unsigned char[piece_size]);
    while (tracker_.position() < target) {
      const std::uint64_t left = target - tracker_.position();
      const std::size_t want = left < piece_size ? static_cast<std::size_t>(left) : piece_size;
      const ssize_t got =
          pread_some(reread_fd_, piece.get(), want, reread_from_ + tracker_.position());
      if (got <= 0) {
        failure_ = got < 0 ? std::strerror(errno) : "file shrank while being checked";
        return false;
      }
      tracker_.advance(piece.get(), static_cast<std::size_t>(got));
    }
    reread_fd_ = -1;
    return true;
  }

  // at maps an absolute offset in [end_ - n - tail_, end_) to its byte.
  [[nodiscard]] const unsigned char* at(std::uint64_t offset) const noexcept {
    // SAFETY: callers pass offsets the stream has delivered and that lie at
    // most tail_ bytes before the read area (errors come at most kLate bytes
    // late; the tracker stops kLate bytes short).
    return offset >= base_ ? data_ + (offset - base_) : data_ - (base_ - offset);
  }

  void track_to(std::uint64_t target) noexcept {
    const std::uint64_t from = tracker_.position();
    if (target > from) tracker_.advance(at(from), static_cast<std::size_t>(target - from));
  }

  // line_end says whether r is a raw LF, which --lines lets pass; a raw CR
  // is one if a raw LF follows, which may be in the next read.
  bool line_end(const result& r) {
    if (r.kind != error::disallowed || r.category != category::newline || r.length != 1) {
      return false;
    }
    if (r.code_point == U'\n') return true;
    if (r.code_point != U'\r') return false;
    const std::uint64_t next = proven_ + r.offset + 1;
    if (next < end_) return *at(next) == '\n';
    pending_cr_ = true;
    cr_ = r;
    return true;
  }

  // settle_cr reports the CR that ended the previous read unless lf says a
  // raw LF came right after it.
  bool settle_cr(bool lf) {
    pending_cr_ = false;
    return lf || report_error(cr_);
  }

  bool on_error(const result& r) {
    if (lines_ && line_end(r)) return true;
    return report_error(r);
  }

  bool report_error(const result& r) {
    valid_ = false;
    ++kinds_[static_cast<std::size_t>(r.kind)];
    if (phase_ == phase::count_errors || phase_ == phase::drain) return true;
    if (reporter_ == nullptr) {
      phase_ = phase::drain;  // --quiet: the verdict is all that is asked
      stop_wanted_ = true;
      return true;
    }
    // The library counts from where it started, after the proven prefix.
    const std::uint64_t offset = proven_ + r.offset;
    if (reread_fd_ >= 0 && !catch_up(offset)) return false;
    track_to(offset);
    waiting_error& w = waiting_[waiting_count_++];
    found_error& e = w.report;  // every field is set here or by emit_ready
    e.kind = r.kind;
    e.offset = offset;
    e.length = r.length;
    e.category = r.category;
    e.code_point = r.code_point;
    e.want_hint = show_hints_;
    e.form = Input::kForm;
    // The checker's window has seen every chunk before this one (the library
    // counts from proven_); this error's copy takes the rest.
    e.window = window_;
    e.window_origin = proven_;
    e.window.mark(r.offset);
    e.window.feed(chunk_);
    if (input_ended_) e.window.finish();
    e.line = tracker_.line();
    e.column = tracker_.column();
    if (r.kind == error::unexpected_continuation) tracker_.lone_continuation();
    if (++reported_ >= max_reported_) {
      phase_ = count_every_ && phase_ == phase::every_error ? phase::count_errors : phase::drain;
      stop_wanted_ = stop_wanted_ || (stop_at_max_ && phase_ == phase::drain);
    }
    return emit_ready(false);
  }

  // fill_contexts gives the waiting errors' windows the chunk just read.
  void fill_contexts(std::string_view chunk) noexcept {
    for (std::size_t i = 0; i < waiting_count_; ++i) waiting_[i].report.window.feed(chunk);
  }

  // emit_ready reports the waiting errors that are complete, in order: at
  // the end of the input, or when no more bytes are to be waited for
  // (at_end), each with the bytes its window holds.
  bool emit_ready(bool at_end) {
    std::size_t done = 0;
    bool ok = true;
    while (done < waiting_count_ && (at_end || waiting_[done].report.window.ready() || !context_)) {
      found_error& e = waiting_[done++].report;
      if (input_ended_) e.window.finish();
      ok = reporter_->error(e);
      if (!ok) break;
    }
    if (done != 0) {
      std::memmove(static_cast<void*>(waiting_), waiting_ + done,
                   (waiting_count_ - done) * sizeof(waiting_error));
      waiting_count_ -= done;
    }
    return ok;
  }

  // keep_tail moves the stream's last bytes in front of the read area.
  void keep_tail(std::size_t n) noexcept {
    const std::size_t have = tail_ + n;
    const std::size_t keep = have < kLate ? have : kLate;
    std::memmove(data_ - keep, data_ + n - keep, keep);
    tail_ = keep;
    base_ = end_;
  }

  unsigned char* data_;
  reporter* reporter_;
  bool context_;
  bool show_hints_;  // --hints: the report names it
  bool lines_;
  bool stop_at_max_;
  std::uint64_t max_reported_;
  bool count_every_;
  phase phase_;
  int reread_fd_;  // >= 0: counting deferred until an error needs a position
  std::uint64_t reread_from_;
  std::string failure_;

  typename Input::validator_type validator_;
  typename Input::scanner_type scanner_;
  typename Input::tracker_type tracker_;
  finding_window window_;   // every chunk fed so far: each error's copy starts from it
  std::string_view chunk_;  // the chunk being checked, while it is

  std::uint64_t proven_;    // offset where the validator started (sections.hpp)
  std::uint64_t base_ = 0;  // offset of data_[0]
  std::uint64_t end_ = 0;   // bytes read so far
  std::size_t tail_ = 0;    // stream bytes kept just before data_
  bool input_ended_ = false;
  bool valid_ = true;
  bool stop_wanted_ = false;  // stop once the waiting errors are out
  bool stopped_ = false;
  bool pending_cr_ = false;  // cr_ ended the last read: is a raw LF next?
  result cr_;
  std::uint64_t reported_ = 0;
  kind_counts kinds_{};
  // Errors waiting for their context bytes: each starts a different unit
  // within kAhead bytes of the end (6, or 18 with --percent, 48 with
  // --json-text), so at most kAhead wait, plus the one being added.
  waiting_error waiting_[kAhead + 1];
  std::size_t waiting_count_ = 0;
};

// where_reading says how an input is read: from a descriptor that may be
// re-read (a regular file) from `start`, `length` bytes of it (0: unknown).
struct where_reading {
  int fd;
  bool rereadable;
  std::uint64_t start;
  std::uint64_t length;
};

// wait_for_input waits until fd has bytes (or its end) when the checker holds
// errors waiting for them; after kContextWaitMs they are printed as they are.
template <class Checker>
bool wait_for_input(int fd, Checker& checker) {
  if (!checker.waiting()) return true;
  pollfd p{fd, static_cast<short>(POLLIN), 0};
  int ready;
  do {
    ready = ::poll(&p, 1, kContextWaitMs);
  } while (ready < 0 && errno == EINTR);
  return ready != 0 || checker.flush();
}

// first_read fills the read area with the first kBinaryProbe bytes (fewer
// only at the end of the input) for --skip-binary on a stream. Returns the
// count, or -1 with errno set.
ssize_t first_read(int fd, unsigned char* area) {
  std::size_t have = 0;
  while (have < kBinaryProbe) {
    const ssize_t got = read_some(fd, area + have, kChunkSize - have);
    if (got < 0) return -1;
    if (got == 0) break;
    have += static_cast<std::size_t>(got);
  }
  return static_cast<ssize_t>(have);
}

// read_through reads the input after its proven prefix to the end, checks it
// as Input, reports it, and closes it.
template <class Input>
input_result read_through(const check_settings& settings, const std::string& path,
                          const where_reading& in, std::uint64_t proven, reporter* rep,
                          channel& out, check_buffer& buffer) {
  input_result res;
  int err = 0;
  input_checker<Input> checker(settings, buffer, rep, in.rereadable ? in.fd : -1, in.start, proven);
  bool going = true;
  bool probe = settings.skip_binary && !in.rereadable;  // a file was probed before
  bool skipped = false;                                 // --skip-binary
  bool answered = false;                                // --quiet's answer came from another input
  for (;;) {
    if (!in.rereadable) {
      if (!wait_for_input(in.fd, checker)) {
        going = false;
        break;
      }
      out.pause();
    }
    const ssize_t got = probe ? first_read(in.fd, checker.read_area())
                              : read_some(in.fd, checker.read_area(), kChunkSize);
    if (got < 0) {
      err = errno;
      break;
    }
    if (probe) {
      probe = false;
      skipped = holds_nul(checker.read_area(), static_cast<std::size_t>(got));
      if (skipped) break;
    }
    // The output may have failed in another thread (-j): stop reading.
    if (got == 0 || out.failed()) break;
    answered = settings.found != nullptr && settings.found->load(std::memory_order_relaxed);
    if (answered) break;
    if (!checker.consume(static_cast<std::size_t>(got))) {
      going = checker.stopped();
      break;
    }
    out.pause();
  }
  if (settings.found != nullptr && !checker.valid()) {
    settings.found->store(true, std::memory_order_relaxed);
  }
  std::string failure;
  if (going && err != 0) {
    if (checker.flush()) {
      out.err(file_message(path, err));
      failure = std::strerror(err);
    }
    going = false;
  } else if (going && !out.failed() && !skipped && !answered) {
    going = checker.stopped() ? checker.finish_early(in.length) : checker.finish();
  }
  close_input(in.fd);  // only now: finish() may still re-read the file
  if (!checker.failure().empty() && !out.failed()) {
    out.err(message(path + ": " + checker.failure()));
    failure = checker.failure();
  }
  if (!failure.empty() && rep != nullptr && !out.failed()) (void)rep->unreadable(failure);
  res.valid = checker.valid();
  res.bytes = checker.bytes();
  res.errors = checker.errors();
  if (out.failed()) {
    res.status = input_result::outcome::output_failed;
  } else if (!going || err != 0) {
    res.status = input_result::outcome::io_error;
  } else if (skipped || answered) {
    res.status = input_result::outcome::skipped;
  }
  return res;
}

// not_regular says whether --skip-special passes over path: it exists but
// is not a regular file nor a link to one (a directory, a link to one, a
// FIFO, a socket, a device, a dangling link).
bool not_regular(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) return !S_ISREG(st.st_mode);
  return ::lstat(path.c_str(), &st) == 0;  // a dangling link
}

}  // namespace

check_buffer::check_buffer() : pages_(allocate_pages(kPad + kChunkSize)) {}

input_result check_input(const check_settings& settings, const std::string& path, channel& out,
                         check_buffer& buffer) {
  input_result res;
  if (settings.skip_special && path != kStdinName && not_regular(path)) {
    res.status = input_result::outcome::skipped;
    return res;
  }
  const std::unique_ptr<reporter> rep = make_reporter(settings.format, path, out, settings.hints);
  int err = 0;
  input_info info;
  const int fd = open_input(path, err, info);
  if (fd < 0) {
    out.err(file_message(path, err));
    if (rep != nullptr) (void)rep->unreadable(std::strerror(err));
    res.status =
        out.failed() ? input_result::outcome::output_failed : input_result::outcome::io_error;
    return res;
  }
  if (settings.found != nullptr && settings.found->load(std::memory_order_relaxed)) {
    close_input(fd);  // --quiet has its answer: an input that opens needs no reading
    res.status = input_result::outcome::skipped;
    return res;
  }
  // A file opened here starts at offset 0; standard input may be a file
  // read from its middle, and only there is the offset asked for.
  where_reading in{fd, info.regular, 0, 0};
  if (in.rereadable && path == kStdinName) {
    const off_t at = ::lseek(fd, 0, SEEK_CUR);
    in.rereadable = at >= 0 && static_cast<std::uint64_t>(at) <= info.size;
    in.start = in.rereadable ? static_cast<std::uint64_t>(at) : 0;
  }
  // What a regular file holds after start (0: unknown, or empty).
  in.length = in.rereadable ? info.size - in.start : 0;
  if (settings.skip_binary && in.length != 0) {
    unsigned char* probe = buffer.get() + kPad;
    const ssize_t got = pread_some(fd, probe, kBinaryProbe, in.start);
    if (got > 0 && holds_nul(probe, static_cast<std::size_t>(got))) {
      close_input(fd);
      res.status = input_result::outcome::skipped;
      return res;
    }
  }
  advise_sequential(fd, info);
  // A large file is first validated in sections on several cores; reading
  // goes on after the prefix they proved, which is all of it when it is valid.
  // Not under a policy, whose bom rule knows byte 0 alone, nor with hints,
  // which read the bytes before an error: sections prove well-formedness only.
  // Nor for encoded input, whose raw bytes they would prove instead.
  std::uint64_t proven = 0;
  if (in.length != 0 && settings.threads > 1 && settings.deny.empty() && !settings.hint_bytes &&
      !settings.percent && !settings.json_text) {
    proven = valid_prefix(fd, in.start, in.length, settings.threads);
    if (proven != 0 && ::lseek(fd, static_cast<off_t>(in.start + proven), SEEK_SET) < 0) {
      proven = 0;  // cannot skip: read it all again
    }
  }
  const auto read = settings.percent     ? read_through<percent_input>
                    : settings.json_text ? read_through<json_input>
                                         : read_through<utf8_input>;
  return read(settings, path, in, proven, rep.get(), out, buffer);
}

}  // namespace utf8guard::cli
