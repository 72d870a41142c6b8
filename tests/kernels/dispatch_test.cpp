// dispatch_test.cpp - the kernel list in C and C++, set_kernel, and
// UTF8GUARD_KERNEL in fresh processes (kernel_probe), including a first use
// on many threads.
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "kernel_check.hpp"
#include "utf8guard/utf8guard.h"

extern char** environ;

namespace {

struct probe_output {
  std::string active, error, list;
};

// run_probe runs kernel_probe with UTF8GUARD_KERNEL set to `value` (unset
// when value is nullptr) and returns its three lines.
probe_output run_probe(const char* value, const char* arg = nullptr) {
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::string(*e).rfind("UTF8GUARD_KERNEL=", 0) != 0) env_strings.emplace_back(*e);
  }
  if (value != nullptr) env_strings.push_back(std::string("UTF8GUARD_KERNEL=") + value);
  std::vector<char*> envp;
  for (std::string& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);

  int fds[2];
  if (pipe(fds) != 0) return {};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  std::string path = UTF8GUARD_KERNEL_PROBE;
  std::string arg_s = arg != nullptr ? arg : "";
  char* argv[] = {path.data(), arg != nullptr ? arg_s.data() : nullptr, nullptr};
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, path.c_str(), &actions, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  std::string out;
  char buf[512];
  for (ssize_t got; rc == 0 && (got = read(fds[0], buf, sizeof buf)) > 0;) {
    out.append(buf, static_cast<std::size_t>(got));
  }
  close(fds[0]);
  int status = 0;
  if (rc == 0) waitpid(pid, &status, 0);
  EXPECT_EQ(rc, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  probe_output p;
  const std::size_t a = out.find('\n'), b = out.find('\n', a + 1);
  if (a == std::string::npos || b == std::string::npos) return p;
  p.active = out.substr(0, a);
  p.error = out.substr(a + 1, b - a - 1);
  p.list = out.substr(b + 1);
  return p;
}

std::string best_usable() {
  std::string best;
  for (const utf8guard::kernel_info& k : utf8guard::kernels()) {
    if (k.usable) best = k.name;
  }
  return best;
}

// kernels_in_the_sources is the list the library must compile, read from
// its sources as HACKING.md's "How to add a kernel" has a newcomer write it:
// "scalar", then the kernels kernel_list.inc lists for this architecture, in
// its order, each by the name its own file (src/kernels/*.cpp) gives it.
std::vector<std::string> kernels_in_the_sources() {
  const auto read = [](const std::string& path) {
    std::ifstream in(path);
    EXPECT_TRUE(in.good()) << path;
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string dir = std::string(UTF8GUARD_SOURCE_DIR) + "/src/kernels/";
  const std::string list = read(dir + "kernel_list.inc");
#if defined(__x86_64__)
  const std::string arch = "UTF8GUARD_X86_64";
#elif defined(__aarch64__)
  const std::string arch = "UTF8GUARD_AARCH64";
#else
  const std::string arch = "no SIMD architecture";
#endif
  // This architecture's block: from "defined(ARCH)" to the next #elif/#else.
  const std::size_t from = list.find("defined(" + arch + ")");
  const std::string block =
      from == std::string::npos ? "" : list.substr(from, list.find("\n#el", from) - from);
  std::vector<std::string> names = {"scalar"};
  const std::regex listed(R"(&(kernel_\w+))");
  for (std::sregex_iterator m(block.begin(), block.end(), listed), end; m != end; ++m) {
    const std::string symbol = (*m)[1];
    const std::regex defined("extern const kernel " + symbol + R"re(\{\s*"(\w+)")re");
    std::string found;
    for (const auto& file : std::filesystem::directory_iterator(dir)) {
      if (file.path().extension() != ".cpp") continue;
      std::smatch name;
      const std::string text = read(file.path().string());
      if (std::regex_search(text, name, defined)) found = name[1];
    }
    EXPECT_FALSE(found.empty()) << symbol << " is listed, but no file in " << dir << " defines it";
    names.push_back(found);
  }
  // And no file of this architecture defines a kernel the list leaves out.
  const std::regex any_kernel(R"re(extern const kernel (kernel_\w+)\{)re");
  for (const auto& file : std::filesystem::directory_iterator(dir)) {
    const std::string text = read(file.path().string());
    if (file.path().extension() != ".cpp" ||
        text.find("defined(" + arch + ")") == std::string::npos)
      continue;
    for (std::sregex_iterator m(text.begin(), text.end(), any_kernel), end; m != end; ++m) {
      EXPECT_NE(block.find("&" + (*m)[1].str()), std::string::npos)
          << file.path() << " defines " << (*m)[1] << ", which kernel_list.inc does not list";
    }
  }
  return names;
}

TEST(KernelList, ScalarFirstNamesUniqueAndEveryArchitectureKernelCompiled) {
  const std::vector<utf8guard::kernel_info> ks = utf8guard::kernels();
  ASSERT_FALSE(ks.empty());
  EXPECT_EQ(ks.front().name, "scalar");  // slowest first, always compiled
  EXPECT_TRUE(ks.front().usable);
  std::set<std::string_view> names;
  for (const auto& k : ks) EXPECT_TRUE(names.insert(k.name).second) << "twice: " << k.name;
  const std::vector<std::string> expected = kernels_in_the_sources();
  ASSERT_EQ(ks.size(), expected.size());
  for (std::size_t i = 0; i < ks.size(); ++i) EXPECT_EQ(ks[i].name, expected[i]);
  // The C API lists the same kernels, and sets usable whichever value it held.
  ASSERT_EQ(utf8guard_kernel_count(), ks.size());
  for (std::size_t i = 0; i < ks.size(); ++i) {
    bool usable = !ks[i].usable;
    EXPECT_EQ(std::string_view(utf8guard_kernel_name(i, &usable)), ks[i].name);
    EXPECT_EQ(usable, ks[i].usable) << ks[i].name;
    EXPECT_EQ(std::string_view(utf8guard_kernel_name(i, nullptr)), ks[i].name);
  }
  // Past the end: NULL, and usable left as it was, whichever value it held.
  for (const bool before : {true, false}) {
    bool untouched = before;
    EXPECT_EQ(utf8guard_kernel_name(ks.size(), &untouched), nullptr);
    EXPECT_EQ(untouched, before);
  }
  EXPECT_EQ(utf8guard_kernel_name(ks.size(), nullptr), nullptr);
  EXPECT_EQ(utf8guard_kernel_name(SIZE_MAX, nullptr), nullptr);
}

TEST(KernelList, TheDefaultIsTheBestUsableKernel) {
  if (std::getenv("UTF8GUARD_KERNEL") != nullptr) GTEST_SKIP() << "UTF8GUARD_KERNEL is set";
  // Before this test chooses anything: the kernel the process starts with
  // (every test of this file that forces one restores "best" when it ends).
  EXPECT_EQ(utf8guard::active_kernel(), best_usable());
  EXPECT_EQ(std::string_view(utf8guard_active_kernel()), best_usable());
  // "best" is the fastest usable kernel, the last usable one in the list,
  // chosen through either API.
  ASSERT_TRUE(utf8guard::set_kernel("scalar"));
  ASSERT_TRUE(utf8guard::set_kernel("best"));
  EXPECT_EQ(utf8guard::active_kernel(), best_usable());
  ASSERT_TRUE(utf8guard_set_kernel("scalar"));
  EXPECT_EQ(utf8guard::active_kernel(), "scalar");
  ASSERT_TRUE(utf8guard_set_kernel("best"));
  EXPECT_EQ(utf8guard::active_kernel(), best_usable());
  EXPECT_EQ(std::string_view(utf8guard_active_kernel()), best_usable());
}

TEST(SetKernel, EveryUsableKernelCanBeForcedAndRuns) {
  for (const utf8guard::kernel_info& k : utf8guard::kernels()) {
    if (!k.usable) {
      EXPECT_FALSE(utf8guard::set_kernel(k.name)) << k.name;
      continue;
    }
    ASSERT_TRUE(utf8guard::set_kernel(k.name)) << k.name;
    EXPECT_EQ(utf8guard::active_kernel(), k.name);
    const utf8guard::detail::kernel* dk =
        utf8guard::detail::find_kernel(k.name.data(), k.name.size());
    ASSERT_NE(dk, nullptr);
    // Every entry point calls the active kernel's scan or scan_open: forcing
    // k must make k's own struct the active one, not another of its name.
    EXPECT_EQ(&utf8guard::detail::active_kernel_ref(), dk) << k.name;
    EXPECT_TRUE(utf8guard::is_valid("caf\xC3\xA9"));
    EXPECT_EQ(utf8guard::validate("\xE0\x80").kind, utf8guard::error::overlong);
    EXPECT_EQ(&utf8guard::detail::active_kernel_ref(), dk) << k.name;
    // And the kernel itself, called from the list, answers as the calls did.
    const std::string_view ok = "caf\xC3\xA9", bad = "\xE0\x80";
    EXPECT_EQ(dk->scan(utf8guard::detail::bytes(ok.data()), ok.size()), ok.size()) << k.name;
    EXPECT_LT(dk->scan(utf8guard::detail::bytes(bad.data()), bad.size()), bad.size()) << k.name;
    EXPECT_EQ(dk->validate(utf8guard::detail::bytes(bad.data()), bad.size()).unpacked().kind,
              utf8guard::error::overlong)
        << k.name;
  }
  EXPECT_TRUE(utf8guard::set_kernel("best"));
}

TEST(SetKernel, SelectsExactlyTheUsableOnes) {
  for (const utf8guard::kernel_info& k : utf8guard::kernels()) {
    const std::string before(utf8guard::active_kernel());
    EXPECT_EQ(utf8guard::set_kernel(k.name), k.usable) << k.name;
    EXPECT_EQ(utf8guard::active_kernel(), k.usable ? k.name : std::string_view(before)) << k.name;
    EXPECT_STREQ(utf8guard_active_kernel(), std::string(utf8guard::active_kernel()).c_str());
  }
  EXPECT_TRUE(utf8guard::set_kernel("best"));
}

TEST(SetKernel, UnknownNamesChangeNothing) {
  using namespace std::string_view_literals;
  ASSERT_TRUE(utf8guard::set_kernel("scalar"));
  for (const std::string_view bad : {""sv, "bogus"sv, "no-such-kernel"sv, "SCALAR"sv, "Scalar"sv,
                                     "scal"sv, "scalar2"sv, "scalar\0"sv, "scalar "sv, " scalar"sv,
                                     "avx512vbmi"sv, "avx512-bw"sv, "best2"sv, "bestx"sv}) {
    EXPECT_FALSE(utf8guard::set_kernel(bad)) << bad;
    EXPECT_EQ(utf8guard::active_kernel(), "scalar") << bad;
    // The C API takes a C string: a name with a NUL in it cannot be spelt.
    if (bad.find('\0') == std::string_view::npos) {
      EXPECT_FALSE(utf8guard_set_kernel(std::string(bad).c_str())) << bad;
    }
  }
  EXPECT_FALSE(utf8guard_set_kernel(nullptr));
  EXPECT_EQ(utf8guard::active_kernel(), "scalar");
  EXPECT_TRUE(utf8guard::set_kernel("best"));
}

TEST(KernelEnv, NothingToExplainWithoutAForcedKernel) {
  if (std::getenv("UTF8GUARD_KERNEL") != nullptr) GTEST_SKIP() << "UTF8GUARD_KERNEL is set";
  EXPECT_EQ(utf8guard_kernel_env_error(), nullptr);
}

TEST(KernelEnv, UnsetEmptyAndBestPickTheBestUsableKernel) {
  for (const char* v : {static_cast<const char*>(nullptr), "", "best"}) {
    const probe_output p = run_probe(v);
    EXPECT_EQ(p.active, best_usable()) << (v ? v : "(unset)");
    EXPECT_EQ(p.error, "-");
  }
}

TEST(KernelEnv, EveryUsableKernelCanBeForced) {
  for (const utf8guard::kernel_info& k : utf8guard::kernels()) {
    if (!k.usable) continue;
    const std::string name(k.name);
    const probe_output p = run_probe(name.c_str());
    EXPECT_EQ(p.active, name);
    EXPECT_EQ(p.error, "-") << name;
  }
  EXPECT_EQ(run_probe("scalar").active, "scalar");
}

TEST(KernelEnv, AnUnknownNameIsExplainedAndTheBestKernelUsed) {
  const probe_output p = run_probe("bogus");
  EXPECT_EQ(p.active, best_usable());
  EXPECT_NE(p.error.find("UTF8GUARD_KERNEL=bogus"), std::string::npos) << p.error;
  EXPECT_NE(p.error.find("no such kernel"), std::string::npos) << p.error;
  EXPECT_NE(p.error.find("scalar"), std::string::npos) << "lists the compiled kernels: " << p.error;
  EXPECT_NE(p.error.find("using " + best_usable()), std::string::npos) << p.error;
}

TEST(KernelEnv, HostileNamesAreQuotedSafelyAndShortened) {
  const std::string longname(300, 'k');
  const probe_output p = run_probe(longname.c_str());
  EXPECT_EQ(p.active, best_usable());
  EXPECT_LT(p.error.size(), 200u);
  EXPECT_NE(p.error.find("kkk..."), std::string::npos) << p.error;
  const probe_output q = run_probe("av\x1b[2Jx\x7f");
  EXPECT_EQ(q.error.find('\x1b'), std::string::npos) << "control bytes are not echoed";
  EXPECT_NE(q.error.find("av?[2Jx?"), std::string::npos) << q.error;
}

TEST(KernelEnv, AKernelThisCpuCannotRunIsExplained) {
  // The message, for a kernel whose usable() says no (any CPU runs this test).
  utf8guard::detail::kernel unusable{};
  unusable.name = "avx512";
  unusable.target = "avx512f,avx512bw";
  char msg[320];
  utf8guard::detail::explain_kernel_request("avx512", &unusable, "avx2", msg, sizeof msg);
  EXPECT_STREQ(msg,
               "UTF8GUARD_KERNEL=avx512: this CPU or OS cannot run the avx512 kernel (it needs "
               "avx512f,avx512bw); using avx2");
  // And end to end, where this CPU lacks a compiled kernel.
  std::string name;
  for (const utf8guard::kernel_info& k : utf8guard::kernels()) {
    if (!k.usable) name = k.name;
  }
  if (name.empty()) GTEST_SKIP() << "this CPU runs every compiled kernel";
  const probe_output p = run_probe(name.c_str());
  EXPECT_EQ(p.active, best_usable());
  EXPECT_NE(p.error.find("cannot run the " + name + " kernel"), std::string::npos) << p.error;
}

TEST(KernelEnv, FirstUseOnManyThreadsAgrees) {
  for (int round = 0; round < 20; ++round) {
    const probe_output p = run_probe(round % 2 ? "scalar" : nullptr, "threads");
    EXPECT_EQ(p.active, round % 2 ? std::string("scalar") : best_usable());
  }
}

}  // namespace
