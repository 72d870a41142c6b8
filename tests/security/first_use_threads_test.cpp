// first_use_threads_test.cpp - every entry point, from many threads, at the
// very first call into the library.
//
// The kernel is chosen lazily on first use (kernels/dispatch.cpp: an atomic pointer,
// UTF8GUARD_KERNEL read once). That first use is the one moment threads can
// race on library state, and it happens once per process, so each round is a
// fresh process: the parent re-executes this binary with "--round K", and in
// the child all threads wait on a barrier and then make their first library
// call together. Under ThreadSanitizer (.ci/sanitizers.sh) any data race is a
// report and a non-zero exit; without it the test still checks that every
// thread got the right answers while the dispatch was being resolved.
//
// Rounds vary the environment: UTF8GUARD_KERNEL unset, forcing each usable
// kernel, naming a kernel that does not exist, and (unset) with threads that
// call set_kernel() while others make their first call.
//
//   security_first_use_threads [--rounds N]     the parent (ctest runs this)
//   security_first_use_threads --round K        one fresh-process round
#include <pthread.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "reference.hpp"
#include "results.hpp"
#include "sinks.hpp"
#include "utf8guard/utf8guard.h"
#include "utf8guard/utf8guard.hpp"

extern char** environ;

namespace {

constexpr int kThreads = 8;

// The mode of a round, passed to the child in UTF8GUARD_TEST_MODE.
enum mode { kDefault, kForced, kBogusName, kSetKernelRace };

// What every thread checks, computed before the barrier with the oracle only:
// nothing may touch the library before the threads are released.
struct expected {
  std::string input;
  reference::error first;
  std::vector<reference::error> all;
  std::string sanitized;
  std::u32string code_points;
};

expected make_expected() {
  expected e;
  // 300 bytes: longer than every vector width, with errors in the SIMD body,
  // at a block edge and an unfinished sequence at the end.
  std::string s;
  while (s.size() < 70) s += "abc\xC3\xA9\xE2\x82\xAC";
  s += "\xC0\xAF";
  while (s.size() < 200) s += "\xF0\x9F\x98\x80xyz";
  s += "\xED\xA0\x80";
  while (s.size() < 297) s += "q";
  s += "\xF0\x9F\x98";
  e.input = s;
  e.first = reference::first_error(s);
  e.all = reference::all_errors(s);
  e.sanitized = reference::sanitize(s);
  e.code_points = reference::decode(s);
  return e;
}

struct shared {
  pthread_barrier_t barrier;
  const expected* want;
  mode m;
  std::string forced;  // the kernel UTF8GUARD_KERNEL names (kForced)
  int failures[kThreads];
};

using utf8guard::testing::append_sink;
using utf8guard::testing::count_error;
using utf8guard::testing::same;

// Each entry point, checked. Returns the number of wrong answers.
int call(int which, const shared& sh) {
  const expected& w = *sh.want;
  const std::string_view in = w.input;
  switch (which) {
    case 0: return utf8guard::is_valid(in) == w.first.ok() ? 0 : 1;
    case 1: return same(utf8guard::validate(in), w.first) ? 0 : 1;
    case 2: return utf8guard_is_valid(in.data(), in.size()) == w.first.ok() ? 0 : 1;
    case 3: return same(utf8guard_validate(in.data(), in.size()), w.first) ? 0 : 1;
    case 4: {
      utf8guard::validator v;
      v.feed(in.substr(0, 71));
      v.feed(in.substr(71));
      return same(v.finish(), w.first) ? 0 : 1;
    }
    case 5: {
      utf8guard_validator v;
      utf8guard_validator_init(&v);
      utf8guard_validator_feed(&v, in.data(), 150);
      utf8guard_validator_feed(&v, in.data() + 150, in.size() - 150);
      return same(utf8guard_validator_finish(&v), w.first) ? 0 : 1;
    }
    case 6: return utf8guard::sanitize(in) == w.sanitized ? 0 : 1;
    case 7: {
      std::string out(utf8guard::sanitize_bound(in.size()), '\0');
      out.resize(utf8guard::sanitize_to(in, out.data(), out.size()));
      return out == w.sanitized ? 0 : 1;
    }
    case 8: {
      std::size_t bound = 0, written = 0;
      if (utf8guard_sanitize_bound(in.size(), &bound) != UTF8GUARD_STATUS_OK) return 1;
      std::string out(bound, '\0');
      if (utf8guard_sanitize(in.data(), in.size(), out.data(), bound, &written, nullptr) !=
          UTF8GUARD_STATUS_OK)
        return 1;
      out.resize(written);
      return out == w.sanitized ? 0 : 1;
    }
    case 9: {
      std::string out;
      utf8guard::sanitizer s;
      s.feed(in.substr(0, 199), [&out](std::string_view b) { out.append(b); });
      s.feed(in.substr(199), [&out](std::string_view b) { out.append(b); });
      s.finish([&out](std::string_view b) { out.append(b); });
      return out == w.sanitized && s.replacements() == w.all.size() ? 0 : 1;
    }
    case 10: {
      std::string out;
      utf8guard_sanitizer s;
      utf8guard_sanitizer_init(&s);
      const utf8guard_status fed =
          utf8guard_sanitizer_feed(&s, in.data(), in.size(), append_sink, &out);
      const utf8guard_status done = utf8guard_sanitizer_finish(&s, append_sink, &out);
      return fed == UTF8GUARD_STATUS_OK && done == UTF8GUARD_STATUS_OK && out == w.sanitized ? 0
                                                                                             : 1;
    }
    case 11: {
      std::vector<utf8guard::result> got;
      utf8guard::error_scanner scan;
      scan.feed(in, [&got](const utf8guard::result& r) { got.push_back(r); });
      scan.finish([&got](const utf8guard::result& r) { got.push_back(r); });
      if (got.size() != w.all.size()) return 1;
      for (std::size_t i = 0; i < got.size(); ++i)
        if (!same(got[i], w.all[i])) return 1;
      return 0;
    }
    case 12: {
      std::size_t n = 0;
      utf8guard_error_scanner scan;
      utf8guard_error_scanner_init(&scan);
      const utf8guard_status fed =
          utf8guard_error_scanner_feed(&scan, in.data(), in.size(), count_error, &n);
      const utf8guard_status done = utf8guard_error_scanner_finish(&scan, count_error, &n);
      return fed == UTF8GUARD_STATUS_OK && done == UTF8GUARD_STATUS_OK && n == w.all.size() &&
                     utf8guard_error_scanner_errors(&scan) == n
                 ? 0
                 : 1;
    }
    case 13: {
      const utf8guard::decoded d = utf8guard::decode_one(in);
      std::uint32_t cp = 0;
      const utf8guard_result r = utf8guard_decode_one(in.data(), in.size(), &cp);
      return d.value == U'a' && d.length == 1 && r.kind == UTF8GUARD_ERROR_NONE && cp == 'a' ? 0
                                                                                             : 1;
    }
    case 14: {
      std::u32string cps;
      const utf8guard::result r = utf8guard::decode(in, cps);
      std::vector<std::uint32_t> out(in.size());
      std::size_t count = 0;
      utf8guard_result err{};
      const utf8guard_status st =
          utf8guard_decode(in.data(), in.size(), out.data(), out.size(), &count, &err);
      return st == UTF8GUARD_STATUS_ILL_FORMED && same(r, w.first) && cps == w.code_points &&
                     same(err, w.first) && count == w.code_points.size()
                 ? 0
                 : 1;
    }
    case 15: {
      std::string out;
      char buf[4];
      std::vector<char> cbuf(4 * w.code_points.size());
      std::size_t written = 0;
      const bool ok = utf8guard::encode(w.code_points, out);
      const auto* cps = reinterpret_cast<const std::uint32_t*>(w.code_points.data());
      const utf8guard_status st =
          utf8guard_encode(cps, w.code_points.size(), cbuf.data(), cbuf.size(), &written, nullptr);
      const std::string prefix = w.input.substr(0, w.first.offset);
      return ok && out == prefix && st == UTF8GUARD_STATUS_OK &&
                     std::string(cbuf.data(), written) == prefix &&
                     utf8guard::encode_one(U'\u20AC', buf) == 3 &&
                     utf8guard_encode_one(0x1F600, buf) == 4
                 ? 0
                 : 1;
    }
    case 16: {  // the kernel list, names and version: read-only, but first use too
      const std::vector<utf8guard::kernel_info> ks = utf8guard::kernels();
      if (ks.empty() || ks.size() != utf8guard_kernel_count()) return 1;
      bool usable = false;
      if (utf8guard_kernel_name(0, &usable) == nullptr || !usable) return 1;
      if (utf8guard::version() != utf8guard_version()) return 1;
      if (utf8guard::to_string(utf8guard::error::overlong) != "overlong") return 1;
      if (std::strcmp(utf8guard_status_name(UTF8GUARD_STATUS_OK), "ok") != 0) return 1;
      return 0;
    }
    case 17: {  // which kernel is active, and why an env request was ignored
      const std::string active(utf8guard::active_kernel());
      if (active != utf8guard_active_kernel()) {
        // set_kernel() may switch between the two reads in the race rounds.
        if (sh.m != kSetKernelRace) return 1;
      }
      const char* env_error = utf8guard_kernel_env_error();
      switch (sh.m) {
        case kForced: return active == sh.forced && env_error == nullptr ? 0 : 1;
        case kBogusName: return env_error != nullptr ? 0 : 1;
        case kDefault: return env_error == nullptr ? 0 : 1;
        case kSetKernelRace: return 0;
      }
      return 1;
    }
    default: return 0;
  }
}
constexpr int kEntryPoints = 18;

void* worker_main(void* arg) {
  auto* sh = static_cast<shared*>(static_cast<void**>(arg)[0]);
  const int id = static_cast<int>(reinterpret_cast<std::intptr_t>(static_cast<void**>(arg)[1]));
  pthread_barrier_wait(&sh->barrier);
  int failures = 0;
  if (sh->m == kSetKernelRace && id % 4 == 3) {
    // These threads make their first call a kernel switch, racing the others'
    // lazy resolution; every usable kernel gives the same answers.
    const std::vector<utf8guard::kernel_info> ks = utf8guard::kernels();
    for (int rep = 0; rep < 4; ++rep) {
      for (const utf8guard::kernel_info& k : ks) {
        if (k.usable && !utf8guard::set_kernel(k.name)) ++failures;
        failures += call((rep + id) % kEntryPoints, *sh);
      }
    }
    if (!utf8guard_set_kernel("best")) ++failures;
  }
  // Every thread starts with a different entry point, then makes all the others.
  for (int k = 0; k < kEntryPoints; ++k) failures += call((id + k) % kEntryPoints, *sh);
  sh->failures[id] = failures;
  return nullptr;
}

int run_round() {
  const char* m = std::getenv("UTF8GUARD_TEST_MODE");
  shared sh{};
  const expected want = make_expected();
  sh.want = &want;
  sh.m = m == nullptr ? kDefault : static_cast<mode>(std::atoi(m));
  if (const char* k = std::getenv("UTF8GUARD_KERNEL")) sh.forced = k;
  pthread_barrier_init(&sh.barrier, nullptr, kThreads);
  pthread_t threads[kThreads];
  void* args[kThreads][2];
  for (int i = 0; i < kThreads; ++i) {
    args[i][0] = &sh;
    args[i][1] = reinterpret_cast<void*>(static_cast<std::intptr_t>(i));
    if (pthread_create(&threads[i], nullptr, worker_main, args[i]) != 0) return 3;
  }
  int failures = 0;
  for (int i = 0; i < kThreads; ++i) {
    pthread_join(threads[i], nullptr);
    failures += sh.failures[i];
  }
  pthread_barrier_destroy(&sh.barrier);
  if (failures != 0) std::fprintf(stderr, "round: %d wrong answers\n", failures);
  return failures == 0 ? 0 : 1;
}

// spawn_round runs one round in a fresh process with the given environment
// changes and returns its wait status.
int spawn_round(const char* self, int round, mode m, const char* kernel) {
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, "UTF8GUARD_KERNEL=", 17) != 0 &&
        std::strncmp(*e, "UTF8GUARD_TEST_MODE=", 20) != 0)
      env_strings.emplace_back(*e);
  }
  env_strings.push_back(
      std::string("UTF8GUARD_TEST_MODE=").append(std::to_string(static_cast<int>(m))));
  if (kernel != nullptr) env_strings.push_back(std::string("UTF8GUARD_KERNEL=") + kernel);
  std::vector<char*> envp;
  for (std::string& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::string round_arg = std::to_string(round);
  char* argv[] = {const_cast<char*>(self), const_cast<char*>("--round"), round_arg.data(), nullptr};
  pid_t pid = 0;
  if (posix_spawn(&pid, self, nullptr, nullptr, argv, envp.data()) != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1;
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--round") == 0) return run_round();
  int rounds = 48;
  if (argc == 3 && std::strcmp(argv[1], "--rounds") == 0) rounds = std::atoi(argv[2]);

  // The parent may call the library: its own dispatch state is not shared
  // with the children. It lists the kernels to force.
  std::vector<std::string> usable;
  for (const utf8guard::kernel_info& k : utf8guard::kernels())
    if (k.usable) usable.emplace_back(k.name);

  int failed = 0;
  for (int r = 0; r < rounds; ++r) {
    const mode m = static_cast<mode>(r % 4);
    const char* kernel = nullptr;
    if (m == kForced) kernel = usable[static_cast<std::size_t>(r / 4) % usable.size()].c_str();
    if (m == kBogusName) kernel = "no-such-kernel";
    const int status = spawn_round("/proc/self/exe", r, m, kernel);
    const bool ok = status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    std::printf("round %2d: %-16s UTF8GUARD_KERNEL=%-15s %s\n", r,
                m == kDefault     ? "default"
                : m == kForced    ? "forced"
                : m == kBogusName ? "unknown kernel"
                                  : "set_kernel race",
                kernel == nullptr ? "(unset)" : kernel, ok ? "ok" : "FAILED");
    if (!ok) {
      ++failed;
      if (status >= 0 && WIFEXITED(status))
        std::printf("  exit status %d\n", WEXITSTATUS(status));
      else if (status >= 0 && WIFSIGNALED(status))
        std::printf("  killed by signal %d\n", WTERMSIG(status));
      else
        std::printf("  could not spawn /proc/self/exe\n");
    }
  }
  std::printf("%d rounds of %d threads, %d failed\n", rounds, kThreads, failed);
  return failed == 0 ? 0 : 1;
}
