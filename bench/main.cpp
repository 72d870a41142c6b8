// main.cpp - utf8guard_bench [FILE...] [--dump_inputs=DIR] [--benchmark_...]
//
// Arguments that do not start with "--" are files to benchmark next to the
// synthetic inputs (e.g. the texts bench/texts.sh lists); they are removed
// before Google Benchmark sees the command line. --dump_inputs=DIR writes the
// synthetic inputs to DIR/NAME.bin and exits, so that other programs (Node's
// Buffer.isUtf8, see node_isutf8.js) can be timed on the same bytes.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

#include <utf8guard/utf8guard.hpp>

#include "limits.hpp"
#include "suite.hpp"

namespace {

constexpr const char* kDumpFlag = "--dump_inputs=";

const char* compiler() {
#if defined(__clang__)
  return "clang " __clang_version__;
#elif defined(__GNUC__)
  return "g++ " __VERSION__;
#else
  return "unknown";
#endif
}

int dump(const bench::input_list& inputs, const std::string& dir) {
  for (const auto& in : inputs) {
    const std::string path = dir + "/" + in->name() + ".bin";
    std::ofstream f(path, std::ios::binary);
    f.write(in->bytes().data(), static_cast<std::streamsize>(in->bytes().size()));
    if (!f.flush()) {
      std::fprintf(stderr, "utf8guard_bench: cannot write %s\n", path.c_str());
      return 2;
    }
  }
  return 0;
}

void add_context() {
  std::string usable;
  for (const std::string& k : bench::usable_kernels()) usable += (usable.empty() ? "" : ",") + k;
  benchmark::AddCustomContext("utf8guard_version", std::string(utf8guard::version()));
  benchmark::AddCustomContext("utf8guard_kernels", usable);
  utf8guard::set_kernel("best");
  benchmark::AddCustomContext("utf8guard_best_kernel", std::string(utf8guard::active_kernel()));
  benchmark::AddCustomContext("read_pass", std::string(bench::read_pass_isa()));
  benchmark::AddCustomContext("compiler", compiler());
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> args{argv[0]};
  std::vector<std::string> files;
  std::string dump_dir;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], kDumpFlag, std::strlen(kDumpFlag)) == 0) {
      dump_dir = argv[i] + std::strlen(kDumpFlag);
    } else if (std::strncmp(argv[i], "--", 2) == 0) {
      args.push_back(argv[i]);
    } else {
      files.emplace_back(argv[i]);
    }
  }

  bench::input_list inputs;
  try {
    for (const std::string& f : files) inputs.push_back(bench::file_input(f));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "utf8guard_bench: %s\n", e.what());
    return 2;
  }
  const bench::input_list synthetic = bench::synthetic_inputs();
  if (!dump_dir.empty()) return dump(synthetic, dump_dir);
  inputs.insert(inputs.end(), synthetic.begin(), synthetic.end());
  const std::vector<bench::small_pool> pools = bench::small_pools();

  int bench_argc = static_cast<int>(args.size());
  args.push_back(nullptr);
  benchmark::Initialize(&bench_argc, args.data());
  if (benchmark::ReportUnrecognizedArguments(bench_argc, args.data())) return 1;
  add_context();
  bench::register_utf8guard(inputs, pools);
  bench::register_competitors(inputs, pools);
  bench::register_limits(inputs);
  bench::register_pairs(inputs);
  bench::register_percent_pairs(inputs);
  bench::register_request_parts(inputs);
  bench::register_json_pairs(inputs);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
