// jobs.cpp - workers check files into per-file slots; the main thread writes
// the slots out in order.
//
// Memory stays bounded: a worker starts file i only when i is within `window`
// files of the one being written, and it blocks once its slot holds more than
// `cap` bytes until the main thread, on reaching that file, drains it. The
// file being written is never blocked by either rule, so the work always
// progresses; the others wait at most until their turn.
#include "jobs.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>

namespace utf8guard::cli {
namespace {

// Everything the slots may hold at once, and the per-slot limits around it.
constexpr std::size_t kTotalBudget = 32 * 1024 * 1024;
constexpr std::size_t kMaxSlotBytes = 1024 * 1024;
constexpr std::size_t kMinSlotBytes = 64 * 1024;
// A worker hands its output over in batches of this size (one lock each).
constexpr std::size_t kBatch = 64 * 1024;

struct segment {
  bool to_stderr = false;
  std::string bytes;
};

struct slot {
  std::deque<segment> queue;
  std::size_t queued = 0;  // bytes in queue
  bool done = false;
  input_result result;
};

class ordered_output {
 public:
  ordered_output(std::size_t count, unsigned jobs)
      : count_(count), window_(2 * static_cast<std::size_t>(jobs)), slots_(window_) {
    cap_ = std::clamp(kTotalBudget / window_, kMinSlotBytes, kMaxSlotBytes);
  }

  // Worker side.
  std::size_t next_index() { return next_.fetch_add(1); }

  // wait_turn_window blocks until file index may start; false if stopping.
  bool wait_window(std::size_t index) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return index < head_ + window_ || stopped(); });
    return !stopped();
  }

  // hand_over queues bytes for file index and waits while its slot is over
  // the cap. false if stopping.
  bool hand_over(std::size_t index, bool to_stderr, std::string bytes) {
    std::unique_lock<std::mutex> lock(mutex_);
    slot& s = slots_[index % window_];
    s.queued += bytes.size();
    s.queue.push_back(segment{to_stderr, std::move(bytes)});
    changed_.notify_all();
    changed_.wait(lock, [&] { return s.queued <= cap_ || stopped(); });
    return !stopped();
  }

  void finish(std::size_t index, const input_result& result) {
    const std::lock_guard<std::mutex> lock(mutex_);
    slot& s = slots_[index % window_];
    s.result = result;
    s.done = true;
    changed_.notify_all();
  }

  [[nodiscard]] bool stopped() const noexcept { return stop_.load(std::memory_order_relaxed); }

  // Main side: write file after file until all are out or stdout fails.
  void write_all_in_order(fd_writer& out, const std::function<void(const input_result&)>& done) {
    for (std::size_t index = 0; index < count_ && !out.failed(); ++index) {
      slot& s = slots_[index % window_];
      for (;;) {
        std::deque<segment> taken;
        bool finished = false;
        {
          std::unique_lock<std::mutex> lock(mutex_);
          changed_.wait(lock, [&] { return !s.queue.empty() || s.done; });
          taken.swap(s.queue);
          s.queued = 0;
          finished = s.done;
          changed_.notify_all();
        }
        for (const segment& seg : taken) {
          if (seg.to_stderr) {
            (void)out.flush();
            write_stderr(seg.bytes);
          } else {
            (void)out.write(seg.bytes);
          }
        }
        if (out.failed() || finished) break;
      }
      if (out.failed()) break;
      done(s.result);
      const std::lock_guard<std::mutex> lock(mutex_);
      s = slot{};
      ++head_;
      changed_.notify_all();
    }
    if (out.failed()) {
      const std::lock_guard<std::mutex> lock(mutex_);
      stop_.store(true, std::memory_order_relaxed);
      changed_.notify_all();
    }
  }

 private:
  std::size_t count_;
  std::size_t window_;
  std::size_t cap_ = 0;
  std::vector<slot> slots_;  // file i uses slots_[i % window_]
  std::atomic<std::size_t> next_{0};
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t head_ = 0;  // the file being written
};

// slot_channel is a worker's channel for one file.
class slot_channel final : public channel {
 public:
  slot_channel(ordered_output& output, std::size_t index) : output_(output), index_(index) {}

  bool out(std::string_view bytes) override {
    if (output_.stopped()) return false;
    batch_.append(bytes);
    return batch_.size() < kBatch || flush();
  }

  void err(std::string_view message) override {
    (void)flush();
    (void)output_.hand_over(index_, true, std::string(message));
  }

  [[nodiscard]] bool failed() const override { return output_.stopped(); }

  bool flush() {
    if (batch_.empty()) return !output_.stopped();
    std::string bytes;
    bytes.swap(batch_);
    return output_.hand_over(index_, false, std::move(bytes));
  }

 private:
  ordered_output& output_;
  std::size_t index_;
  std::string batch_;
};

}  // namespace

bool check_in_parallel(const check_settings& settings, const std::vector<std::string>& paths,
                       unsigned jobs, fd_writer& out,
                       const std::function<void(const input_result&)>& done) {
  ordered_output output(paths.size(), jobs);
  // The threads are shared out by file here, so each file is read in one pass.
  check_settings one_pass = settings;
  one_pass.threads = 1;
  const auto work = [&] {
    for (;;) {
      const std::size_t index = output.next_index();
      if (index >= paths.size() || !output.wait_window(index)) return;
      slot_channel ch(output, index);
      input_result result = check_input(one_pass, paths[index], ch);
      if (!ch.flush()) result.status = input_result::outcome::output_failed;
      output.finish(index, result);
    }
  };
  const unsigned threads = std::min<std::size_t>(jobs, paths.size());
  std::vector<std::thread> workers;
  workers.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) {
    try {
      workers.emplace_back(work);
    } catch (const std::system_error&) {
      break;  // fewer workers than asked for (thread limit): the ones running suffice
    }
  }
  if (workers.empty()) return false;
  output.write_all_in_order(out, done);
  for (std::thread& w : workers) w.join();
  return true;
}

}  // namespace utf8guard::cli
