// multipart_bench.cpp - the multipart/form-data checker of the nginx module
// (nginx/src/multipart.h) on a browser's upload: a 1 MiB binary file (random
// bytes, as compressed images and archives are) and three text fields in
// several scripts, under the default rules (header values under "field",
// text fields under the form rule, the file's bytes only searched for the
// boundary). bytes_per_second is the body's size over the time:
//   - multipart_upload/CHUNK: the body fed in CHUNK-byte buffers (nginx's
//     client_body_buffer_size is 8 or 16 KiB; 1 MiB is one feed), then
//     finished;
//   - multipart_scan: ug_multipart_scan alone over the file's bytes, called
//     again after each place a delimiter may begin, as the checker does;
//   - multipart_memchr: glibc's memchr over the same bytes for a byte they do
//     not hold, the vectorized first-byte filter to compare the scan with;
//   - pair_multipart_memcpy: the upload checked in 16 KiB buffers | a memcpy
//     of each buffer into another, the least nginx does with a byte it
//     receives (pair_timer.hpp: side by side, in turns, so that a loaded
//     machine slows both alike). ratio is time(memcpy) / time(check);
//     op_ns and base_ns are per byte.
// Before timing, the upload is checked clean and the scan's stops counted.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "multipart.h"
#include "pair_timer.hpp"

namespace {

constexpr const char* kBoundary = "----WebKitFormBoundary7MA4YWxkTrZu0gW";
constexpr std::size_t kFileBytes = std::size_t{1} << 20;

// Random bytes, but for the body's delimiter, which a file never holds
// (its boundary is chosen so).
std::string random_file() {
  std::string file(kFileBytes, '\0');
  std::uint64_t x = 0x9E3779B97F4A7C15u;
  for (char& c : file) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    c = static_cast<char>(x >> 56);
  }
  return file;
}

std::string field(const char* name, const char* value) {
  return std::string("--") + kBoundary + "\r\nContent-Disposition: form-data; name=\"" + name +
         "\"\r\n\r\n" + value + "\r\n";
}

const std::string& upload_body() {
  static const std::string body = [] {
    std::string b =
        field("title", "Vacances d\xC3\xA9t\xC3\xA9 \xE2\x80\x94 Z\xC3\xBCrich") +
        field("caption",
              "\xE5\xA4\x8F\xE4\xBC\x91\xE3\x81\xBF\xE3\x81\xAE\xE5\x86\x99\xE7\x9C\x9F "
              "\xD1\x84\xD0\xBE\xD1\x82\xD0\xBE\xD0\xB3\xD1\x80\xD0\xB0\xD1\x84\xD0\xB8"
              "\xD1\x8F") +
        field("tags", "summer, lake, \xD8\xB5\xD9\x8A\xD9\x81");
    b += std::string("--") + kBoundary +
         "\r\nContent-Disposition: form-data; name=\"photo\"; "
         "filename=\"\xE6\xB9\x96.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n";
    b += random_file();
    b += std::string("\r\n--") + kBoundary + "--\r\n";
    return b;
  }();
  return body;
}

struct rules {
  ug_rule header = ug_rule_default(UG_SLOT_HEADERS);
  ug_rule field = ug_rule_default(UG_SLOT_BODY_FORM);
  ug_rule file = {false, UG_ENCODING_RAW, 0};
};

bool check(ug_multipart* m, const std::string& body, std::size_t chunk, ug_finding* finding) {
  static const rules r;
  ug_multipart_init(m, kBoundary, std::strlen(kBoundary), &r.header, &r.field, &r.file);
  for (std::size_t at = 0; at < body.size(); at += chunk) {
    const std::size_t n = std::min(chunk, body.size() - at);
    if (ug_multipart_feed(m, body.data() + at, n, finding)) return true;
  }
  return ug_multipart_finish(m, finding);
}

void multipart_upload(benchmark::State& state) {
  const std::string& body = upload_body();
  const auto chunk = static_cast<std::size_t>(state.range(0));
  static ug_multipart m;
  ug_finding finding;
  if (check(&m, body, chunk, &finding)) {
    state.SkipWithError(finding.text);
    return;
  }
  for (auto _ : state) {
    bool found = check(&m, body, chunk, &finding);
    benchmark::DoNotOptimize(found);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * body.size()));
  state.counters["body_bytes"] = static_cast<double>(body.size());
}

std::size_t scan_all(const std::string& file) {
  std::size_t stops = 0;
  for (std::size_t at = 0; at < file.size(); ++at, ++stops)
    at += ug_multipart_scan(file.data() + at, file.size() - at);
  return stops;
}

void multipart_scan(benchmark::State& state) {
  static const std::string file = random_file();
  state.counters["stops"] = static_cast<double>(scan_all(file));
  for (auto _ : state) benchmark::DoNotOptimize(scan_all(file));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * file.size()));
}

void multipart_memchr(benchmark::State& state) {
  static const std::string file = [] {
    std::string f = random_file();
    for (char& c : f)
      if (c == '\r') c = 'x';
    return f;
  }();
  for (auto _ : state) benchmark::DoNotOptimize(std::memchr(file.data(), '\r', file.size()));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * file.size()));
}

void pair_multipart_memcpy(benchmark::State& state) {
  const std::string& body = upload_body();
  constexpr std::size_t kChunk = std::size_t{16} << 10;
  static ug_multipart m;
  ug_finding finding;
  if (check(&m, body, kChunk, &finding)) {
    state.SkipWithError(finding.text);
    return;
  }
  auto copy = std::make_unique<char[]>(kChunk);
  bench::bm_pair(
      state,
      [&] {
        bool found = check(&m, body, kChunk, &finding);
        benchmark::DoNotOptimize(found);
      },
      [&] {
        for (std::size_t at = 0; at < body.size(); at += kChunk) {
          std::memcpy(copy.get(), body.data() + at, std::min(kChunk, body.size() - at));
          benchmark::ClobberMemory();
        }
      },
      body.size());
}

BENCHMARK(multipart_upload)->Arg(8 << 10)->Arg(16 << 10)->Arg(64 << 10)->Arg(1 << 21);
BENCHMARK(multipart_scan);
BENCHMARK(multipart_memchr);
BENCHMARK(pair_multipart_memcpy);

}  // namespace

BENCHMARK_MAIN();
