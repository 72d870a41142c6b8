// callgrind_driver.cpp - utf8guard_validate_n FILE N: runs utf8guard::is_valid
// on the file N times, for instruction counts under valgrind (bench/callgrind.sh
// subtracts a run with N = 0, leaving only the validation). The kernel is
// whatever UTF8GUARD_KERNEL forces; the driver prints it so the script can
// check that the forced kernel really ran.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <utf8guard/utf8guard.hpp>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s FILE N\n", argv[0]);
    return 2;
  }
  std::ifstream f(argv[1], std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  if (!f) {
    std::fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[1]);
    return 2;
  }
  const std::string bytes = std::move(s).str();
  const long runs = std::strtol(argv[2], nullptr, 10);
  // Resolve the kernel before the loop so that N = 0 pays for dispatch too.
  const std::string_view kernel = utf8guard::active_kernel();
  unsigned valid = 0;
  for (long i = 0; i < runs; ++i) valid += utf8guard::is_valid(bytes) ? 1 : 0;
  std::printf("kernel=%.*s bytes=%zu runs=%ld valid=%u\n", static_cast<int>(kernel.size()),
              kernel.data(), bytes.size(), runs, valid);
  return 0;
}
