// suite.cpp - helpers shared by every benchmark registration.
#include "suite.hpp"

#include <algorithm>
#include <map>

#include <utf8guard/utf8guard.hpp>

namespace bench {

bool force_kernel(benchmark::State& state, const std::string& k) {
  if (utf8guard::set_kernel(k) && utf8guard::active_kernel() == k) return true;
  state.SkipWithError(("cannot force kernel " + k).c_str());
  return false;
}

const std::string& expected_sanitized(const input& in) {
  // Keyed by the input object: names are unique, but addresses cannot collide.
  static std::map<const input*, std::string> cache;
  auto it = cache.find(&in);
  if (it == cache.end()) {
    utf8guard::set_kernel("scalar");
    it = cache.emplace(&in, utf8guard::sanitize(in.bytes())).first;
  }
  return it->second;
}

std::size_t count_errors(std::string_view bytes) {
  utf8guard::error_scanner scanner;
  std::size_t count = 0;
  auto on_error = [&count](const utf8guard::result&) { ++count; };
  scanner.feed(bytes, on_error);
  scanner.finish(on_error);
  return count;
}

std::vector<std::string_view> lines_of(std::string_view bytes) {
  std::vector<std::string_view> lines;
  for (std::size_t at = 0; at < bytes.size();) {
    const std::size_t lf = std::min(bytes.find('\n', at), bytes.size());
    if (lf > at) lines.push_back(bytes.substr(at, lf - at));
    at = lf + 1;
  }
  return lines;
}

std::size_t expected_errors(const input& in) {
  static std::map<const input*, std::size_t> cache;
  auto it = cache.find(&in);
  if (it == cache.end()) {
    utf8guard::set_kernel("scalar");
    it = cache.emplace(&in, count_errors(in.bytes())).first;
  }
  return it->second;
}

utf8guard::result stream(utf8guard::validator& v, std::string_view b, std::size_t chunk) {
  v.reset();
  for (std::size_t off = 0; off < b.size(); off += chunk) {
    v.feed(std::string_view(b.data() + off, std::min(chunk, b.size() - off)));
  }
  return v.finish();
}

void count_bytes(benchmark::State& state, const input& in) {
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(in.bytes().size()));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(in.chars()));
}

out_buffer::out_buffer(std::size_t n)
    : data(new char[utf8guard::sanitize_bound(n)]), capacity(utf8guard::sanitize_bound(n)) {}

std::string bench_name(const std::string& op, const std::string& impl, const std::string& in) {
  return op + "/" + impl + "/" + in;
}

}  // namespace bench
