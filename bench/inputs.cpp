// inputs.cpp - deterministic generators and file loading for the benchmarks.
#include "inputs.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include <utf8guard/utf8guard.hpp>

namespace bench {
namespace {

constexpr std::size_t kCachedSize = 256 * 1024;        // with its output, well inside a 1 MiB L2
constexpr std::size_t kMemorySize = 64 * 1024 * 1024;  // twice a 32 MiB L3
// A file larger than this is reported with the from-memory inputs.
constexpr std::size_t kLargestCached = 4 * 1024 * 1024;

// A scalar value whose UTF-8 form has len bytes, uniform in that range,
// never a surrogate (U+D800..U+DFFF are 3-byte forms the standard forbids).
char32_t random_scalar(prng& rng, int len) {
  static constexpr char32_t lo[] = {0, 0x0, 0x80, 0x800, 0x10000};
  static constexpr char32_t hi[] = {0, 0x7F, 0x7FF, 0xFFFF, 0x10FFFF};
  for (;;) {
    const char32_t c = lo[len] + static_cast<char32_t>(rng.below(hi[len] - lo[len] + 1));
    if (c < 0xD800 || c > 0xDFFF) return c;
  }
}

void append_scalar(std::string& out, char32_t c) {
  char buf[4];
  out.append(buf, utf8guard::encode_one(c, buf));
}

// Ill-formed sequences in the taxonomy's order; the truncated ones are always
// followed by the lead byte of the next character.
constexpr std::string_view kErrors[] = {
    "\x80",              // unexpected_continuation
    "\xC0\xAF",          // overlong '/' (IIS, CVE-2000-0884)
    "\xED\xA0\x80",      // surrogate (CESU-8)
    "\xF4\x90\x80\x80",  // too_large (U+110000)
    "\xFF",              // invalid_byte
    "\xE2\x82",          // truncated 3-byte sequence
    "\xF0\x9F\x98",      // truncated 4-byte sequence
};

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open " + path);
  std::ostringstream s;
  s << f.rdbuf();
  if (f.bad()) throw std::runtime_error("cannot read " + path);
  return std::move(s).str();
}

}  // namespace

input::input(std::string name, input_kind kind, std::function<std::string()> make,
             std::optional<bool> for_validation, std::optional<std::size_t> shift)
    : name_(std::move(name)),
      kind_(kind),
      make_(std::move(make)),
      for_validation_(for_validation),
      shift_(shift) {}

bool input::times_validation() const {
  if (for_validation_) return *for_validation_;
  const std::size_t n = bytes().size();
  return first_error() >= n - n / 10;
}

void input::realize() const {
  if (storage_) return;
  auto made = std::make_shared<std::string>(make_());
  std::string_view b = *made;
  if (shift_) {
    // The bytes again, *shift_ past a 64-byte boundary inside a larger
    // buffer: which addresses a kernel's loads start from is part of its
    // speed (a load that spans two cache lines costs more, and SSE folds only
    // aligned loads), and a std::string's are up to the allocator.
    constexpr std::size_t kBoundary = 64;
    auto placed = std::make_shared<std::string>(kBoundary + *shift_ + made->size(), ' ');
    const std::size_t start =
        (kBoundary - reinterpret_cast<std::uintptr_t>(placed->data()) % kBoundary) % kBoundary +
        *shift_;
    placed->replace(start, made->size(), *made);
    b = std::string_view(*placed).substr(start, made->size());
    made = std::move(placed);
  }
  const utf8guard::result r = utf8guard::validate(b);
  first_error_ = r.ok() ? b.size() : r.offset;
  chars_ = static_cast<std::size_t>(std::count_if(
      b.begin(), b.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
  bytes_ = b;
  storage_ = std::move(made);
}

std::string_view input::bytes() const {
  realize();
  return bytes_;
}

std::size_t input::first_error() const {
  realize();
  return first_error_;
}

std::size_t input::chars() const {
  realize();
  return chars_;
}

std::string make_ascii(std::size_t n, std::uint64_t seed) {
  prng rng(seed);
  std::string s(n, ' ');
  for (std::size_t i = 0; i < n; ++i) {
    s[i] = (i % 80 == 79) ? '\n' : static_cast<char>(0x20 + rng.below(0x7F - 0x20));
  }
  return s;
}

std::string make_fixed_length(std::size_t n, int char_len, std::uint64_t seed) {
  prng rng(seed);
  std::string s;
  s.reserve(n);
  while (n - s.size() >= static_cast<std::size_t>(char_len)) {
    append_scalar(s, random_scalar(rng, char_len));
  }
  s.append(n - s.size(), ' ');
  return s;
}

std::string make_mixed(std::size_t n, std::uint64_t seed) {
  prng rng(seed);
  std::string s;
  s.reserve(n);
  while (s.size() < n) {
    const int len = static_cast<int>(std::min<std::size_t>(1 + rng.below(4), n - s.size()));
    append_scalar(s, random_scalar(rng, len));
  }
  return s;
}

std::string make_with_errors(std::size_t n, double rate, std::uint64_t seed) {
  prng rng(seed);
  // Gaps uniform in [1, 2/rate - 1]: mean 1/rate, never regular enough for a
  // branch predictor to learn.
  const auto span = static_cast<std::uint64_t>(2.0 / rate) - 1;
  std::string s;
  s.reserve(n + 4);
  std::size_t next_error = 1 + rng.below(span);
  std::size_t kind = 0;
  while (s.size() < n) {
    if (s.size() >= next_error) {
      s.append(kErrors[kind++ % std::size(kErrors)]);
      next_error = s.size() + 1 + rng.below(span);
    }
    const int len = static_cast<int>(1 + rng.below(4));
    append_scalar(s, random_scalar(rng, len));
  }
  // The cut may fall inside a sequence: an "incomplete" at the end is one more error.
  s.resize(n);
  return s;
}

std::string make_random_bytes(std::size_t n, std::uint64_t seed) {
  prng rng(seed);
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(rng.next() & 0xFF);
  return s;
}

std::string make_bursts(std::size_t n, std::uint64_t seed) {
  // Each piece starts with a byte that breaks the piece before it.
  static constexpr std::string_view kPieces[] = {"\xC2", "\xE1\x80", "\xF1\x80\x80", "\xFF",
                                                 "\xC0\x80"};
  prng rng(seed);
  std::string s;
  s.reserve(n + 3);
  while (s.size() < n) s.append(kPieces[rng.below(std::size(kPieces))]);
  s.resize(n);
  return s;
}

namespace {

// The scripts of the lipsum texts (bench/make_texts.py draws its stand-ins
// from the same blocks), as request lines name them.
struct script {
  std::string_view name;
  char32_t first;
  char32_t last;
};
constexpr script kScripts[] = {
    {"arabic", 0x0621, 0x064A}, {"chinese", 0x4E00, 0x9FA5}, {"emoji", 0x1F300, 0x1F64F},
    {"hebrew", 0x05D0, 0x05EA}, {"hindi", 0x0905, 0x0939},   {"japanese", 0x3041, 0x3096},
    {"korean", 0xAC00, 0xD7A3}, {"latin", 0x61, 0x7A},       {"russian", 0x0430, 0x044F},
};
constexpr std::string_view kKeys[] = {"q", "ref", "title", "lang", "page", "search"};

// A word of 2..8 letters of the script, each non-ASCII byte as %XX.
void append_word(std::string& out, const script& s, prng& rng) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (std::uint64_t k = 2 + rng.below(7); k > 0; --k) {
    char buf[4];
    const std::size_t n = utf8guard::encode_one(
        s.first + static_cast<char32_t>(rng.below(s.last - s.first + 1)), buf);
    for (std::size_t i = 0; i < n; ++i) {
      const auto b = static_cast<unsigned char>(buf[i]);
      if (b < 0x80) {
        out.push_back(buf[i]);
      } else {
        out.push_back('%');
        out.push_back(kHex[b >> 4]);
        out.push_back(kHex[b & 15]);
      }
    }
  }
}

}  // namespace

std::string make_requests(std::size_t n, std::uint64_t seed) {
  prng rng(seed);
  std::string out;
  std::string line;
  for (;;) {
    // The methods, segments (1..3), parameters (0..3) and words per value
    // (1..4) in about the proportions of the real file.
    const std::uint64_t m = rng.below(100);
    line = m < 79 ? "GET /" : m < 90 ? "HEAD /" : "POST /";
    const script& s = kScripts[rng.below(std::size(kScripts))];
    line.append(s.name);
    for (std::uint64_t k = 1 + rng.below(3); k > 0; --k) {
      line.push_back('/');
      append_word(line, s, rng);
    }
    for (std::uint64_t k = 0, params = rng.below(4); k < params; ++k) {
      line.push_back(k == 0 ? '?' : '&');
      line.append(kKeys[rng.below(std::size(kKeys))]).push_back('=');
      for (std::uint64_t w = 0, words = 1 + rng.below(4); w < words; ++w) {
        if (w > 0) line.push_back('+');
        append_word(line, s, rng);
      }
    }
    line.append(" HTTP/1.1\n");
    if (out.size() + line.size() > n) return out;
    out += line;
  }
}

std::shared_ptr<input> requests_input() {
  constexpr std::size_t kRequestsSize = 1024 * 1024;
  if (const char* data = std::getenv("UTF8GUARD_BENCH_DATA")) {
    const std::string path = std::string(data) + "/urls/requests_1MiB.txt";
    if (std::ifstream(path, std::ios::binary)) return file_input(path);
  }
  std::fprintf(stderr,
               "bench: no request lines ($UTF8GUARD_BENCH_DATA/urls/requests_1MiB.txt); timing "
               "a generated stand-in (requests-Generated_1MiB) instead\n");
  return std::make_shared<input>("requests-Generated_1MiB", input_kind::cached,
                                 [] { return make_requests(kRequestsSize, 13); });
}

std::vector<std::shared_ptr<input>> synthetic_inputs() {
  using k = input_kind;
  auto valid = [](std::string name, input_kind kind, std::function<std::string()> f) {
    return std::make_shared<input>(std::move(name), kind, std::move(f), true);
  };
  auto broken = [](std::string name, input_kind kind, std::function<std::string()> f) {
    return std::make_shared<input>(std::move(name), kind, std::move(f), false);
  };
  // The same bytes one byte past a 64-byte boundary: no register load of
  // theirs is aligned, as with data at any offset in a network buffer.
  auto off1 = [](std::string name, std::function<std::string()> f) {
    return std::make_shared<input>(std::move(name), input_kind::cached, std::move(f), true, 1);
  };
  // Generated once here for the aligned and the one-byte-off inputs alike,
  // so the two always hold the same bytes.
  const std::function<std::string()> ascii = [] { return make_ascii(kCachedSize, 1); };
  const std::function<std::string()> mixed = [] { return make_mixed(kCachedSize, 5); };
  return {
      valid("ascii_256K", k::cached, ascii),
      valid("2byte_256K", k::cached, [] { return make_fixed_length(kCachedSize, 2, 2); }),
      valid("3byte_256K", k::cached, [] { return make_fixed_length(kCachedSize, 3, 3); }),
      valid("4byte_256K", k::cached, [] { return make_fixed_length(kCachedSize, 4, 4); }),
      valid("mixed_256K", k::cached, mixed),
      off1("ascii_256K_off1", ascii),
      off1("mixed_256K_off1", mixed),
      broken("err0.1%_256K", k::cached, [] { return make_with_errors(kCachedSize, 0.001, 6); }),
      broken("err1%_256K", k::cached, [] { return make_with_errors(kCachedSize, 0.01, 7); }),
      broken("err10%_256K", k::cached, [] { return make_with_errors(kCachedSize, 0.1, 8); }),
      broken("random_256K", k::cached, [] { return make_random_bytes(kCachedSize, 9); }),
      broken("bursts_256K", k::cached, [] { return make_bursts(kCachedSize, 12); }),
      valid("ascii_64M", k::memory, [] { return make_ascii(kMemorySize, 10); }),
      valid("mixed_64M", k::memory, [] { return make_mixed(kMemorySize, 11); }),
  };
}

std::string input_name_from_path(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  for (std::string_view ext : {".utf8.txt", ".txt", ".bin"}) {
    if (base.size() > ext.size() && base.substr(base.size() - ext.size()) == ext) {
      base.remove_suffix(ext.size());
      break;
    }
  }
  return std::string(base);
}

std::shared_ptr<input> file_input(const std::string& path, std::optional<std::size_t> shift) {
  // Read now, so that a missing file fails before any benchmark runs; the
  // generator hands the bytes over once instead of keeping a second copy.
  auto bytes = std::make_shared<std::string>(read_file(path));
  const input_kind kind = bytes->size() > kLargestCached ? input_kind::memory : input_kind::cached;
  return std::make_shared<input>(
      input_name_from_path(path), kind, [bytes]() mutable { return std::move(*bytes); },
      std::nullopt, shift);
}

std::vector<small_pool> small_pools() {
  constexpr std::size_t kPool = 64;
  std::vector<small_pool> pools;
  for (const char* content : {"ascii", "mixed"}) {
    for (std::size_t size : {8, 16, 64, 256, 1024}) {
      small_pool p{std::string(content) + "_" + std::to_string(size) + "B", size, {}};
      for (std::size_t i = 0; i < kPool; ++i) {
        const std::uint64_t seed = 1000 * size + i;
        p.strings.push_back(content[0] == 'a' ? make_ascii(size, seed) : make_mixed(size, seed));
      }
      pools.push_back(std::move(p));
    }
  }
  return pools;
}

namespace {

constexpr std::size_t kFormBytes = std::size_t{10} << 20;

// form_of joins the pieces with '&' to kFormBytes bytes, as requests.lua
// does: cut there, and never ending inside an escape.
std::string form_of(const std::vector<std::string>& pieces) {
  std::string body;
  for (std::size_t i = 0; body.size() < kFormBytes; i = (i + 1) % pieces.size()) {
    if (!body.empty()) body += '&';
    body += pieces[i];
  }
  body.resize(kFormBytes);
  for (std::size_t k = 1; k <= 2; ++k) {
    if (body[body.size() - k] == '%') {
      body.resize(body.size() - k);
      break;
    }
  }
  return body;
}

}  // namespace

// targets_of is the target of each "METHOD TARGET ..." line.
std::vector<std::string_view> targets_of(std::string_view b) {
  std::vector<std::string_view> targets;
  for (std::size_t at = 0; at < b.size();) {
    const std::size_t lf = std::min(b.find('\n', at), b.size());
    const std::string_view line = b.substr(at, lf - at);
    const std::size_t sp = line.find(' ');
    if (sp != std::string_view::npos) {
      const std::size_t end = std::min(line.find(' ', sp + 1), line.size());
      if (end > sp + 1) targets.push_back(line.substr(sp + 1, end - sp - 1));
    }
    at = lf + 1;
  }
  return targets;
}

// form_of_requests: the queries of the request lines ("a=b" for a target
// without one).
std::string form_of_requests(std::string_view lines) {
  std::vector<std::string> queries;
  for (const std::string_view t : targets_of(lines)) {
    const std::size_t q = t.find('?');
    queries.emplace_back(q == std::string_view::npos ? std::string_view("a=b") : t.substr(q + 1));
  }
  return form_of(queries);
}

// form_of_text: the text's lines form-encoded (application/x-www-form-
// urlencoded: ' ' as '+', bytes other than ASCII letters, digits and -._~
// as %XX), each the value of a field "text".
std::string form_of_text(std::string_view text) {
  static const char hex[] = "0123456789ABCDEF";
  std::vector<std::string> fields;
  std::string field = "text=";
  for (const char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if (c == '\n') {
      fields.push_back(field);
      field = "text=";
    } else if (c == ' ') {
      field += '+';
    } else if ((b >= '0' && b <= '9') || (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') ||
               c == '-' || c == '.' || c == '_' || c == '~') {
      field += c;
    } else {
      field += '%';
      field += hex[b >> 4];
      field += hex[b & 15];
    }
  }
  if (field.size() > 5) fields.push_back(field);
  return form_of(fields);
}

}  // namespace bench
