// replay_main.cpp - runs a fuzz target without a fuzzing engine, so any
// compiler (gcc included) builds the targets and ctest replays the corpus on
// every build: the targets never rot, and every corpus file stays a passing
// regression test.
//
//   TARGET [FILE | DIR]... [--vectors vectors.tsv]
//
// Each FILE, and each regular file directly inside each DIR (in name order),
// is one input. --vectors reads the security vectors' TSV
// (security/vectors/README.md) and runs each row's bytes as one input; a
// missing TSV is a skip (exit 77), for a replay binary run away from the
// repository. A failing check aborts inside the target, as under a fuzzing
// engine.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "vectors_manifest.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
// Weak, as libFuzzer declares it: targets that need no setup leave it out.
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace {

constexpr int kSkipped = 77;  // ctest's SKIP_RETURN_CODE

namespace fs = std::filesystem;

bool read_file(const fs::path& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

void run_one(const std::string& bytes) {
  // An exact-size heap copy, as libFuzzer passes it: a read past the end is
  // then caught by ASan even when the caller's string had spare capacity.
  std::vector<std::uint8_t> copy(bytes.begin(), bytes.end());
  LLVMFuzzerTestOneInput(copy.empty() ? nullptr : copy.data(), copy.size());
}

// run_vectors replays the bytes of every row of the manifest (read by
// tests/support/vectors_manifest.hpp); returns how many. A malformed
// manifest clears ok.
std::size_t run_vectors(const fs::path& path, bool& ok) {
  std::vector<utf8guard::security::attack_vector> rows;
  try {
    rows = utf8guard::security::load_manifest(path.string());
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    ok = false;
    return 0;
  }
  for (const utf8guard::security::attack_vector& v : rows) run_one(v.bytes);
  return rows.size();
}

}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize != nullptr) LLVMFuzzerInitialize(&argc, &argv);
  std::vector<fs::path> files;
  std::vector<fs::path> vectors;
  bool ok = true;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--vectors") {
      if (i + 1 == argc) {
        std::fprintf(stderr, "usage: %s [FILE|DIR]... [--vectors FILE.tsv]\n", argv[0]);
        return 2;
      }
      vectors.emplace_back(argv[++i]);
      continue;
    }
    std::error_code ec;
    if (fs::is_directory(arg, ec)) {
      std::vector<fs::path> inside;
      for (const fs::directory_entry& e : fs::directory_iterator(arg, ec)) {
        if (e.is_regular_file(ec)) inside.push_back(e.path());
      }
      std::sort(inside.begin(), inside.end());
      files.insert(files.end(), inside.begin(), inside.end());
    } else {
      files.emplace_back(arg);
    }
  }

  std::size_t replayed = 0;
  for (const fs::path& path : files) {
    std::string bytes;
    if (!read_file(path, bytes)) {
      std::fprintf(stderr, "%s: cannot read\n", path.c_str());
      ok = false;
      continue;
    }
    run_one(bytes);
    ++replayed;
  }
  bool skipped = false;
  for (const fs::path& path : vectors) {
    if (!fs::exists(path)) {
      std::printf("security vectors %s not found: skipped\n", path.c_str());
      skipped = true;
      continue;
    }
    replayed += run_vectors(path, ok);
  }
  std::printf("%s: replayed %zu inputs\n", argv[0], replayed);
  if (!ok) return 1;
  if (replayed == 0) {
    if (skipped) return kSkipped;
    std::fprintf(stderr, "no input given: an empty corpus replays nothing\n");
    return 1;
  }
  return 0;
}
