// kernel_probe.cpp - a fresh process for dispatch tests: dispatch resolves
// UTF8GUARD_KERNEL once per process, so each setting needs its own.
//
// Prints three lines: the active kernel, utf8guard_kernel_env_error() (or
// "-"), and the compiled kernels as name=0|1 (usable). With the argument
// "threads" the first use happens on 8 threads at once, and the line names
// the kernel only if all of them saw the same one.
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "utf8guard/utf8guard.h"
#include "utf8guard/utf8guard.hpp"

int main(int argc, char** argv) {
  std::string active;
  if (argc > 1 && std::strcmp(argv[1], "threads") == 0) {
    std::vector<std::string> seen(8);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < seen.size(); ++i) {
      threads.emplace_back([&seen, i] {
        const bool ok = utf8guard::is_valid("\xC3\xA9 first use");
        seen[i] = ok ? std::string(utf8guard::active_kernel()) : "invalid?";
      });
    }
    for (std::thread& t : threads) t.join();
    active = seen[0];
    for (const std::string& s : seen) {
      if (s != active) active = "disagree";
    }
  } else {
    active = utf8guard::active_kernel();
  }
  const char* err = utf8guard_kernel_env_error();
  std::printf("%s\n%s\n", active.c_str(), err != nullptr ? err : "-");
  for (const utf8guard::kernel_info& k : utf8guard::kernels()) {
    std::printf("%.*s=%d ", static_cast<int>(k.name.size()), k.name.data(), k.usable ? 1 : 0);
  }
  std::printf("\n");
  return 0;
}
