// jobs.cpp - workers check batches of consecutive inputs into slots; the main
// thread writes the slots out in order.
//
// The unit of hand-over is a batch, not an input: a worker claims a run of
// inputs under one lock, checks them one after the other into one buffer,
// and publishes them under one more lock. A small file costs a few system
// calls; a lock round trip with a wake-up per file cost as much again.
// Batches shrink as the inputs run out (a quarter of each worker's share of
// what is left, at most kMaxBatch), so the workers finish together.
//
// Memory stays bounded: a worker claims batch b only when b is within
// `window` batches of the one being written, and it blocks once its slot holds
// more than `cap` bytes until the main thread, on reaching that batch, drains
// it. The batch being written is never blocked by either rule, so the work
// always progresses; the others wait at most until their turn.
//
// Each side sleeps on its own condition variable and is signalled only when
// it waits for what changed, so a worker that never has to wait makes no
// futex call.
#include "jobs.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace utf8guard::cli {
namespace {

// Everything the slots may hold at once, and the per-slot limits around it.
constexpr std::size_t kTotalBudget = 32 * 1024 * 1024;
constexpr std::size_t kMaxSlotBytes = 1024 * 1024;
constexpr std::size_t kMinSlotBytes = 64 * 1024;
// A worker hands its output over in pieces of this size (one lock each).
constexpr std::size_t kPiece = 64 * 1024;
// The most inputs in one batch: enough that the hand-over vanishes beside
// the system calls of the files, few enough that the report of a batch
// starts early.
constexpr std::size_t kMaxBatch = 64;

struct segment {
  bool to_stderr = false;
  std::string bytes;
};

constexpr std::size_t kUnclaimed = SIZE_MAX;

struct slot {
  std::size_t batch = kUnclaimed;  // the batch it holds
  std::size_t count = 0;           // inputs in that batch
  std::deque<segment> queue;
  std::size_t queued = 0;  // bytes in queue
  bool done = false;
  std::vector<input_result> results;  // one per input, once done
};

class ordered_output {
 public:
  ordered_output(std::size_t inputs, std::size_t jobs)
      : inputs_(inputs),
        jobs_(jobs),
        window_(2 * jobs),
        cap_(std::clamp(kTotalBudget / window_, kMinSlotBytes, kMaxSlotBytes)),
        slots_(window_) {}

  // ---- worker side

  // claim gives a worker the next batch, [first, first + count). false when
  // every input is claimed or the output failed.
  bool claim(std::size_t& batch, std::size_t& first, std::size_t& count) {
    std::unique_lock<std::mutex> lock(mutex_);
    wait_as_worker(lock, [&] { return next_batch_ < head_ + window_ || next_input_ == inputs_; });
    if (stopped() || next_input_ == inputs_) return false;
    const std::size_t share = (inputs_ - next_input_) / (4 * jobs_);
    batch = next_batch_++;
    first = next_input_;
    count = std::clamp<std::size_t>(share, 1, kMaxBatch);
    next_input_ += count;
    slot& s = slots_[batch % window_];
    s.batch = batch;
    s.count = count;
    return true;
  }

  // hand_over queues bytes for batch and waits while its slot is over the
  // cap. false if stopping.
  bool hand_over(std::size_t batch, bool to_stderr, std::string bytes) {
    std::unique_lock<std::mutex> lock(mutex_);
    slot& s = slots_[batch % window_];
    s.queued += bytes.size();
    s.queue.push_back(segment{to_stderr, std::move(bytes)});
    wake_main(batch);
    wait_as_worker(lock, [&] { return s.queued <= cap_; });
    return !stopped();
  }

  void finish(std::size_t batch, std::vector<input_result> results) {
    const std::lock_guard<std::mutex> lock(mutex_);
    slot& s = slots_[batch % window_];
    s.results = std::move(results);
    s.done = true;
    wake_main(batch);
  }

  [[nodiscard]] bool stopped() const noexcept { return stop_.load(std::memory_order_relaxed); }

  // ---- main side: write batch after batch until all are out or stdout fails.

  void write_all_in_order(fd_writer& out, const std::function<void(const input_result&)>& done) {
    for (std::size_t written = 0; written < inputs_ && !out.failed();) {
      slot& s = slots_[head_ % window_];
      for (;;) {
        std::deque<segment> taken;
        bool finished = false;
        {
          std::unique_lock<std::mutex> lock(mutex_);
          const auto ready = [&] { return s.batch == head_ && (!s.queue.empty() || s.done); };
          if (!ready()) {
            main_waiting_ = true;
            main_cv_.wait(lock, ready);
            main_waiting_ = false;
          }
          taken.swap(s.queue);
          s.queued = 0;
          finished = s.done;
          wake_workers();
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
      for (const input_result& r : s.results) done(r);
      written += s.count;
      const std::lock_guard<std::mutex> lock(mutex_);
      s = slot{};
      ++head_;
      wake_workers();
    }
    if (out.failed()) {
      const std::lock_guard<std::mutex> lock(mutex_);
      stop_.store(true, std::memory_order_relaxed);
      worker_cv_.notify_all();
    }
  }

 private:
  template <class Ready>
  void wait_as_worker(std::unique_lock<std::mutex>& lock, Ready ready) {
    const auto go = [&] { return stopped() || ready(); };
    if (go()) return;
    ++workers_waiting_;
    worker_cv_.wait(lock, go);
    --workers_waiting_;
  }

  // Called with the lock held.
  void wake_main(std::size_t batch) {
    if (main_waiting_ && batch == head_) main_cv_.notify_one();
  }
  void wake_workers() {
    if (workers_waiting_ != 0) worker_cv_.notify_all();
  }

  const std::size_t inputs_;
  const std::size_t jobs_;
  const std::size_t window_;
  const std::size_t cap_;
  std::vector<slot> slots_;  // batch b uses slots_[b % window_]
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::condition_variable main_cv_;
  std::condition_variable worker_cv_;
  bool main_waiting_ = false;
  std::size_t workers_waiting_ = 0;
  std::size_t next_batch_ = 0;
  std::size_t next_input_ = 0;
  std::size_t head_ = 0;  // the batch being written
};

// batch_channel is a worker's channel for one batch: the reports of its
// inputs, one after the other, gathered into pieces.
class batch_channel final : public channel {
 public:
  batch_channel(ordered_output& output, std::size_t batch) : output_(output), batch_(batch) {}

  bool out(std::string_view bytes) override {
    if (output_.stopped()) return false;
    piece_.append(bytes);
    return piece_.size() < kPiece || flush();
  }

  void err(std::string_view message) override {
    (void)flush();
    (void)output_.hand_over(batch_, true, std::string(message));
  }

  [[nodiscard]] bool failed() const override { return output_.stopped(); }

  bool flush() {
    if (piece_.empty()) return !output_.stopped();
    std::string bytes;
    bytes.swap(piece_);
    return output_.hand_over(batch_, false, std::move(bytes));
  }

 private:
  ordered_output& output_;
  std::size_t batch_;
  std::string piece_;
};

}  // namespace

bool check_in_parallel(std::size_t count, unsigned jobs, const check_one& check, fd_writer& out,
                       const std::function<void(const input_result&)>& done) {
  const unsigned threads = static_cast<unsigned>(std::min<std::size_t>(jobs, count));
  // Each worker's read buffer, allocated here so that a worker cannot fail
  // to get one; as many workers as buffers.
  std::vector<std::unique_ptr<check_buffer>> buffers;
  try {
    buffers.reserve(threads);
    for (unsigned t = 0; t < threads; ++t) buffers.push_back(std::make_unique<check_buffer>());
  } catch (const std::bad_alloc&) {  // fewer workers then, or the sequential check
  }
  if (buffers.empty()) return false;
  ordered_output output(count, buffers.size());
  const auto work = [&](check_buffer* buffer) {
    std::size_t batch = 0;
    std::size_t first = 0;
    std::size_t n = 0;
    while (output.claim(batch, first, n)) {
      batch_channel ch(output, batch);
      std::vector<input_result> results;
      results.reserve(n);
      for (std::size_t i = first; i < first + n && !output.stopped(); ++i) {
        results.push_back(check(i, ch, *buffer));
      }
      (void)ch.flush();  // a failure stops everything; the main thread knows
      output.finish(batch, std::move(results));
    }
  };
  std::vector<std::thread> workers;
  workers.reserve(buffers.size());
  for (const std::unique_ptr<check_buffer>& buffer : buffers) {
    try {
      workers.emplace_back(work, buffer.get());
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
