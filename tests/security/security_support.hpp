// security_support.hpp - what the security tests share: the attack-vector
// manifest (security/vectors/vectors.tsv), byte-string helpers, and output
// buffers that fault on the first byte written past their end.
#ifndef UTF8GUARD_TESTS_SECURITY_SUPPORT_HPP
#define UTF8GUARD_TESTS_SECURITY_SUPPORT_HPP

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace utf8guard::security {

// One row of vectors.tsv. bytes and sanitized are raw bytes; kind is the
// docs/design.md name as text, so tests compare it with to_string() and never
// trust a shared enum.
struct attack_vector {
  std::string id;
  std::string bytes;
  std::string kind;
  std::size_t offset = 0;
  std::size_t length = 0;
  std::string sanitized;
  std::string what;
  int line = 0;
};

// parse_hex reads "C0 AF 2E": uppercase pairs split by single spaces, the
// manifest's only accepted spelling (the fuzz replay reads the same file).
inline std::string parse_hex(std::string_view hex) {
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::runtime_error("not an uppercase hex digit");
  };
  std::string out;
  for (std::size_t i = 0; i < hex.size(); i += 3) {
    if (i + 2 > hex.size() || (i + 2 < hex.size() && hex[i + 2] != ' '))
      throw std::runtime_error("hex bytes must be pairs separated by one space");
    out.push_back(static_cast<char>(digit(hex[i]) * 16 + digit(hex[i + 1])));
  }
  return out;
}

inline std::string to_hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string out;
  for (char ch : bytes) {
    const auto c = static_cast<unsigned char>(ch);
    if (!out.empty()) out.push_back(' ');
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

// same_bytes compares byte strings and, only when they differ, shows both in
// hex (gtest builds a failure message only on failure: the hot loops stay cheap).
inline ::testing::AssertionResult same_bytes(std::string_view got, std::string_view want) {
  if (got == want) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "got [" << to_hex(got) << "], want [" << to_hex(want) << "]";
}

inline std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> cols;
  std::stringstream in(line);
  std::string col;
  while (std::getline(in, col, '\t')) cols.push_back(col);
  if (!line.empty() && line.back() == '\t') cols.emplace_back();
  return cols;
}

// load_manifest reads vectors.tsv; any malformed line throws with its number,
// so a broken manifest fails the test instead of shrinking it.
inline std::vector<attack_vector> load_manifest(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<attack_vector> rows;
  std::string line;
  bool header = false;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> cols = split_tabs(line);
    const std::string where = path + ":" + std::to_string(number) + ": ";
    if (!header) {
      if (line != "id\thex\tkind\toffset\tlength\tsanitized_hex\twhat")
        throw std::runtime_error(where + "unexpected header");
      header = true;
      continue;
    }
    if (cols.size() < 7) throw std::runtime_error(where + "fewer than 7 columns");
    attack_vector v;
    v.id = cols[0];
    v.line = number;
    try {
      v.bytes = parse_hex(cols[1]);
      v.sanitized = parse_hex(cols[5]);
      v.offset = std::stoul(cols[3]);
      v.length = std::stoul(cols[4]);
    } catch (const std::exception& e) {
      throw std::runtime_error(where + e.what());
    }
    v.kind = cols[2];
    v.what = cols[6];
    rows.push_back(std::move(v));
  }
  if (!header) throw std::runtime_error(path + ": no header");
  return rows;
}

// ascii_run is n printable ASCII bytes that cycle, so a shifted or dropped
// byte changes the text.
inline std::string ascii_run(std::size_t n) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>('A' + i % 26);
  return s;
}

// guarded_output is a writable buffer of n bytes whose end touches a
// PROT_NONE page: one byte written past out[n - 1] kills the test with
// SIGSEGV. Proves the bounded writers (sanitize_to, utf8guard_sanitize,
// utf8guard_decode, utf8guard_encode) honour their capacity.
class guarded_output {
 public:
  explicit guarded_output(std::size_t n) : size_(n) {
    page_ = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    map_len_ = ((n + page_ - 1) / page_ + 1) * page_;
    void* m = mmap(nullptr, map_len_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) std::abort();
    map_ = static_cast<char*>(m);
    if (mprotect(map_ + map_len_ - page_, page_, PROT_NONE) != 0) std::abort();
    data_ = map_ + map_len_ - page_ - n;
  }
  ~guarded_output() { munmap(map_, map_len_); }
  guarded_output(const guarded_output&) = delete;
  guarded_output& operator=(const guarded_output&) = delete;

  char* data() { return data_; }
  std::size_t size() const { return size_; }
  // guard is the first byte after the buffer: on the PROT_NONE page.
  char* guard() { return data_ + size_; }

 private:
  std::size_t size_;
  std::size_t page_ = 0;
  std::size_t map_len_ = 0;
  char* map_ = nullptr;
  char* data_ = nullptr;
};

}  // namespace utf8guard::security

#endif  // UTF8GUARD_TESTS_SECURITY_SUPPORT_HPP
