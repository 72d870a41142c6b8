// kernel_check.hpp - checking scan bodies against the oracle, without a test
// framework: shared by the GoogleTest suites (kernels_test, the guard-page
// proofs), the standalone program that runs under qemu-aarch64
// (kernel_selfcheck) and the emulated AVX-512 fuzz target.
//
// check_one() compares one input on one body with reference::first_error:
// kind, offset and length through the kernel's validate, valid's yes or no, and the scan contract
// of src/kernels/kernel.hpp itself: scan returns n exactly for well-formed input, and otherwise a
// position at most 3 bytes after the first error's start: a SIMD body returns the byte that makes
// the error (at or after its start), the scalar body at most 16 bytes earlier, the start of its
// block.
#ifndef UTF8GUARD_TESTS_SUPPORT_KERNEL_CHECK_HPP
#define UTF8GUARD_TESTS_SUPPORT_KERNEL_CHECK_HPP

#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "api/validate.hpp"
#include "core/carry.hpp"
#include "core/convert.hpp"  // private: detail::bytes
#include "core/table37.hpp"
#include "reference.hpp"
#include "results.hpp"
#include "utf8guard/utf8guard.hpp"

namespace kcheck {

using utf8guard::detail::kernel;
using utf8guard::testing::describe;

// The widest register (AVX-512) is 64 bytes; the tests cover lengths up to
// 4 widths + 64 and errors at every position of such buffers.
constexpr std::size_t kMaxWidth = 64;
constexpr std::size_t kSpan = 4 * kMaxWidth + 64;
// The largest error-check group of any body is 256 bytes; inputs of a few
// groups exercise the accumulation stride.
constexpr std::size_t kLong = 3 * 256 + 64 + 7;

// bodies lists every compiled kernel this CPU can run.
inline std::vector<const kernel*> bodies() {
  std::size_t count = 0;
  const kernel* const* all = utf8guard::detail::kernel_list(count);
  std::vector<const kernel*> out;
  for (std::size_t i = 0; i < count; ++i) {
    if (utf8guard::detail::usable(*all[i])) out.push_back(all[i]);
  }
  return out;
}

inline std::string hex(std::string_view s, std::size_t around, std::size_t radius = 8) {
  static const char* digits = "0123456789ABCDEF";
  const std::size_t lo = around > radius ? around - radius : 0;
  const std::size_t hi = around + radius < s.size() ? around + radius : s.size();
  std::string out = "[";
  out += std::to_string(lo);
  out += "..] ";
  for (std::size_t i = lo; i < hi; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    out += digits[c >> 4];
    out += digits[c & 15];
    out += i + 1 == around ? '|' : ' ';
  }
  return out;
}

// is_scalar says whether k is the scalar kernel, whose scan may stop at the
// start of its 16-byte block rather than at the error.
inline bool is_scalar(const kernel& k) { return std::string_view(k.name) == "scalar"; }

inline const uint8_t* bytes_of(std::string_view s) {
  return reinterpret_cast<const std::uint8_t*>(s.data());
}

// tail_of is the tail word scan_open must return with `open` open bytes: the
// input's last `open` bytes (carried ones among them) as a prior word, 0 for none.
inline std::uint32_t tail_of(std::string_view in, std::size_t open) {
  if (open == 0 || open > 3 || open > in.size()) return 0;
  return utf8guard::detail::prior_word(bytes_of(in) + in.size() - open, open);
}

// tail_ok says whether o, scan_open's answer for the last `chunk` bytes of
// in, has the tail tail_of(in, o.open), but for the ASCII hint in byte 0,
// which a kernel may set only when it settled the chunk, leaves nothing open
// and the chunk ends in ASCII (src/core/carry.hpp); an empty chunk may
// pass on the hint it was given.
inline bool tail_ok(std::string_view in, const utf8guard::detail::open_scan& o, std::size_t chunk) {
  if ((o.tail & 0xFF) != utf8guard::detail::kAsciiHint) return o.tail == tail_of(in, o.open);
  return (o.tail & ~0xFFu) == 0 && o.open == 0 && o.pos == chunk &&
         (chunk == 0 || static_cast<unsigned char>(in.back()) < 0x80);
}

// describe_open is an open_scan as the failure messages print it.
// (Appends, not "{" + ...: GCC 12 -Wrestrict misfires on operator+ with a literal first.)
inline std::string describe_open(const utf8guard::detail::open_scan& o) {
  std::string out = "{";
  out += std::to_string(o.pos);
  out += ", ";
  out += std::to_string(o.open);
  out += ", tail ";
  out += std::to_string(o.tail);
  out += "}";
  return out;
}

// carry_point is where a stream may be cut inside the input's first sequence
// of more than one byte (a valid one, or the valid prefix of a broken one):
// that sequence starts at `at`, and its first 1..span bytes may be carried
// into the next chunk as an unfinished sequence (span 0: nowhere).
struct carry_point {
  std::size_t at = 0;
  std::size_t span = 0;
};
inline carry_point first_carry_point(std::string_view in) {
  const auto* p = bytes_of(in);
  const std::size_t n = in.size();
  carry_point c;
  while (c.at < n) {
    const utf8guard::result r = utf8guard::detail::sequence_at(p, n, c.at);
    if (r.ok() && r.length == 1) {
      ++c.at;
      continue;
    }
    const bool lead_ok = utf8guard::detail::kLeads.entry[p[c.at]].size > 1;
    c.span = r.ok() ? r.length - 1 : lead_ok ? r.length : 0;
    break;
  }
  return c;
}

// check_prior checks scan_open with carried bytes, as a stream feeds it: the
// input is cut at its first carry point, the carried bytes are the prior,
// the rest the chunk. Returns "" or what went wrong.
inline std::string check_prior(const kernel& k, std::string_view in, const reference::error& want) {
  const auto* p = bytes_of(in);
  const std::size_t n = in.size();
  const carry_point cut = first_carry_point(in);
  const std::size_t b = cut.at;
  const std::size_t early = is_scalar(k) ? 16 : 0;
  for (std::size_t t = 1; t <= cut.span && b + t <= n; ++t) {
    const std::size_t j = b + t;
    const std::uint32_t prior = utf8guard::detail::prior_word(p + b, t);
    const utf8guard::detail::open_scan o = k.scan_open(p + j, n - j, prior);
    const std::size_t m = n - j;
    bool ok = tail_ok(in, o, m);
    if (want.ok()) {
      ok = ok && o.pos == m && o.open == 0;
    } else if (want.kind == "incomplete") {
      ok = ok && o.pos == m && o.open == want.length;
    } else {
      // The error, counted from the chunk: before it when the carried
      // sequence breaks.
      const std::ptrdiff_t e =
          static_cast<std::ptrdiff_t>(want.offset) - static_cast<std::ptrdiff_t>(j);
      const auto pos = static_cast<std::ptrdiff_t>(o.pos);
      ok = ok && o.pos < m && o.open == 0 && pos <= e + 3 &&
           pos + static_cast<std::ptrdiff_t>(early) >= e;
    }
    if (!ok) {
      std::string why = "scan_open after ";
      why += std::to_string(t);
      why += " carried bytes returned ";
      why += describe_open(o);
      why += " for a chunk at ";
      why += std::to_string(j);
      return why;
    }
  }
  return "";
}

// check_no_stop checks scan_no_percent (percent-encoded input without
// escapes) and scan_no_backslash (JSON text without escapes): where the
// input has no stop byte, scan's answer; where it has one, kSawStop, or an
// error the oracle has that a byte before the first stop byte reveals (no
// escape can mend it).
inline std::string check_no_stop(const kernel& k, std::string_view in, const reference::error& want,
                                 std::size_t early) {
  const std::size_t n = in.size();
  const std::size_t e = want.offset;
  for (const auto& [scan, stop, name] :
       {std::tuple{k.scan_no_percent, '%', "scan_no_percent"},
        std::tuple{k.scan_no_backslash, '\\', "scan_no_backslash"}}) {
    if (scan == nullptr) continue;
    const std::size_t q = scan(bytes_of(in), n);
    const std::size_t at = in.find(stop);
    const bool error_ok = !want.ok() && q < n && q <= e + 3 && q + early >= e;
    const bool ok = at == std::string_view::npos
                        ? (want.ok() ? q == n : error_ok)
                        : q == utf8guard::detail::kSawStop || (error_ok && q < at);
    if (!ok) return std::string(name) + " returned " + std::to_string(q);
  }
  return "";
}

// check_short_copy returns "" when the body has no short_copy, the input is
// longer than it takes, or it answers as core/scan.hpp says: a well-formed
// input (`ok`) copied exactly and nothing written past out[n), an ill-formed
// one handed to its rest with the same arguments.
inline std::string check_short_copy(const kernel& k, std::string_view in, bool ok) {
  if (k.short_copy == nullptr || in.size() > utf8guard::detail::kShortCopy) return "";
  constexpr char kUntouched = '\x5A';
  constexpr std::size_t kRest = 0x5EC7;  // what the stand-in rest answers
  struct rest_call {
    static std::size_t rest(const std::uint8_t*, std::size_t, char*, std::size_t) noexcept {
      return kRest;
    }
  };
  std::string out(in.size() + 1, kUntouched);
  const std::size_t said =
      k.short_copy(bytes_of(in), in.size(), out.data(), in.size(), &rest_call::rest);
  if (!ok) return said == kRest ? "" : "short_copy copied an ill-formed input";
  if (said != in.size()) return "short_copy returned " + std::to_string(said);
  if (out[said] != kUntouched) return "short_copy wrote past its output";
  if (std::string_view(out).substr(0, said) != in) return "short_copy wrote other bytes";
  return "";
}

// check_one returns "" when the body agrees with `want`, else a description.
// with_prior adds check_prior (which inputs of 3 bytes or less gain little
// from).
inline std::string check_one(const kernel& k, std::string_view in, const reference::error& want,
                             bool with_prior = true) {
  const std::size_t n = in.size();
  const utf8guard::result got = k.validate(bytes_of(in), n).unpacked();
  std::string why;
  if (utf8guard::to_string(got.kind) != want.kind || got.offset != want.offset ||
      got.length != want.length) {
    why += "validate gave ";
    why += describe(utf8guard::to_string(got.kind), got.offset, got.length);
  } else if (k.valid(bytes_of(in), n) != want.ok()) {
    why += k.valid(bytes_of(in), n) ? "valid said yes" : "valid said no";
  } else if (const std::string copied = check_short_copy(k, in, want.ok()); !copied.empty()) {
    why += copied;
  } else {
    const std::size_t pos = k.scan(bytes_of(in), n);
    // A SIMD body flags the byte that makes the error (at most 3 bytes after
    // its start); the scalar body may stop at the start of its 16-byte block.
    const std::size_t early = is_scalar(k) ? 16 : 0;
    const std::size_t e = want.offset;
    if (want.ok() ? pos != n : (pos >= n || pos > e + 3 || pos + early < e)) {
      why += "scan returned ";
      why += std::to_string(pos);
    }
    // scan_open: an unfinished sequence at the very end is open, not an
    // error. The ASCII hint as the prior carries nothing, as 0 does.
    const bool unfinished = want.kind == "incomplete";
    for (const std::uint32_t prior : {std::uint32_t{0}, utf8guard::detail::kAsciiHint}) {
      const utf8guard::detail::open_scan o = k.scan_open(bytes_of(in), n, prior);
      const bool open_ok = tail_ok(in, o, n) &&
                           (want.ok() || unfinished
                                ? o.pos == n && o.open == (unfinished ? want.length : 0)
                                : o.pos < n && o.open == 0 && o.pos <= e + 3 && o.pos + early >= e);
      if (!open_ok) {
        if (!why.empty()) why += "; ";
        why += prior == 0 ? "scan_open returned " : "scan_open after the ASCII hint returned ";
        why += describe_open(o);
      }
    }
    if (why.empty() && with_prior) why = check_prior(k, in, want);
    if (why.empty() && with_prior) why = check_no_stop(k, in, want, early);
  }
  if (why.empty()) return why;
  std::string out(k.name);
  out += ", ";
  out += std::to_string(n);
  out += " bytes: ";
  out += why;
  out += ", oracle ";
  out += describe(want.kind, want.offset, want.length);
  out += "; bytes ";
  out += hex(in, want.ok() ? got.offset : want.offset);
  return out;
}

// check_all runs check_one for every body and passes failures to `fail`.
inline std::size_t check_all(const std::vector<const kernel*>& ks, std::string_view in,
                             const std::function<void(const std::string&)>& fail) {
  const reference::error want = reference::first_error(in);
  std::size_t failures = 0;
  for (const kernel* k : ks) {
    std::string why = check_one(*k, in, want, in.size() > 3);
    if (!why.empty()) {
      ++failures;
      fail(why);
    }
  }
  return failures;
}

// Well-formed backgrounds: characters of one length, or mixed, so that
// sequences straddle every register and group boundary at some offset.
enum class text { ascii, two, three, four, mixed };
constexpr text kTexts[] = {text::ascii, text::two, text::three, text::four, text::mixed};

// background returns exactly len bytes of well-formed text, shifted by
// `phase` characters; where a character would not fit, ASCII fills up.
inline std::string background(text t, std::size_t len, std::size_t phase = 0) {
  static const char* const kAscii[] = {"a", "Z", "0", " ", "\n"};
  static const char* const kTwo[] = {"\xC2\x80", "\xDF\xBF", "\xD0\x96", "\xC3\xA9"};
  static const char* const kThree[] = {"\xE0\xA0\x80", "\xED\x9F\xBF", "\xEE\x80\x80",
                                       "\xEF\xBF\xBD", "\xE4\xB8\xAD"};
  static const char* const kFour[] = {"\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF", "\xF3\xA0\x80\x81",
                                      "\xF0\x9F\x98\x80"};
  std::string out;
  for (std::size_t c = phase; out.size() < len; ++c) {
    const char* ch = nullptr;
    switch (t) {
      case text::ascii: ch = kAscii[c % 5]; break;
      case text::two: ch = kTwo[c % 4]; break;
      case text::three: ch = kThree[c % 5]; break;
      case text::four: ch = kFour[c % 4]; break;
      case text::mixed: {
        const std::size_t r = (c * 7 + c / 3) % 4;
        ch = r == 0 ? kAscii[c % 5] : r == 1 ? kTwo[c % 4] : r == 2 ? kThree[c % 5] : kFour[c % 4];
        break;
      }
    }
    const std::string_view s(ch);
    if (out.size() + s.size() <= len) {
      out += s;
    } else {
      out += 'x';
    }
  }
  return out;
}

// One representative of every error row of Table 3-7 (and of the kinds of
// docs/design.md), to be written over a background at every position.
struct snippet {
  const char* name;
  std::string_view bytes;
};
inline const std::vector<snippet>& snippets() {
  static const std::vector<snippet> all = {
      {"lone continuation", std::string_view("\x80", 1)},
      {"continuation BF", std::string_view("\xBF", 1)},
      {"C0 overlong", std::string_view("\xC0\xAF", 2)},
      {"C1 overlong", std::string_view("\xC1\xBF", 2)},
      {"E0 overlong", std::string_view("\xE0\x9F\xBF", 3)},
      {"ED surrogate", std::string_view("\xED\xA0\x80", 3)},
      {"F0 overlong", std::string_view("\xF0\x8F\xBF\xBF", 4)},
      {"F4 too large", std::string_view("\xF4\x90\x80\x80", 4)},
      {"F5 invalid", std::string_view("\xF5\x80\x80\x80", 4)},
      {"FF invalid", std::string_view("\xFF", 1)},
      {"2-byte truncated", std::string_view("\xC3"
                                            "a",
                                            2)},
      {"3-byte truncated", std::string_view("\xE1\x80"
                                            "a",
                                            3)},
      {"4-byte truncated", std::string_view("\xF1\x80\x80"
                                            "a",
                                            4)},
      {"4-byte cut by lead", std::string_view("\xF1\x80\xC3\xA9", 4)},
      {"too many continuations", std::string_view("\xC3\xA9\x80", 3)},
      {"NUL and BOM (valid)", std::string_view("\x00\xEF\xBB\xBF", 4)},
      // The stop bytes of scan_no_percent and scan_no_backslash.
      {"'%' and backslash (valid)", std::string_view("%\\", 2)},
  };
  return all;
}

// Every input the boundary tests visit, in groups: the callback gets a
// description of the group and each input.
using visit_fn = std::function<void(const std::string& group, std::string_view input)>;

// Every length 0..kSpan of every background, and each of them ending in an
// unfinished 2-, 3- and 4-byte sequence (incomplete) at every length.
inline void each_length(const visit_fn& visit) {
  for (text t : kTexts) {
    for (std::size_t len = 0; len <= kSpan; ++len) {
      std::string s = background(t, len);
      visit("background", s);
      for (std::string_view tail : {std::string_view("\xC3"), std::string_view("\xE1\x80"),
                                    std::string_view("\xF1\x80\x80"), std::string_view("\xF4")}) {
        if (tail.size() > len) continue;
        std::string cut = background(t, len - tail.size());
        cut += tail;
        visit("unfinished at the end", cut);
      }
    }
  }
}

// Every snippet at every position of a kSpan-byte buffer of every
// background, and near every 64-byte boundary of a kLong-byte buffer.
inline void each_error_position(const visit_fn& visit) {
  for (text t : kTexts) {
    const std::string base = background(t, kSpan);
    for (const snippet& sn : snippets()) {
      for (std::size_t pos = 0; pos + sn.bytes.size() <= base.size(); ++pos) {
        std::string s = base;
        s.replace(pos, sn.bytes.size(), sn.bytes);
        visit(sn.name, s);
        visit(sn.name, std::string_view(s).substr(0, pos + sn.bytes.size()));
      }
    }
    const std::string long_base = background(t, kLong, 1);
    for (const snippet& sn : snippets()) {
      for (std::size_t edge = 64; edge < kLong; edge += 64) {
        for (std::size_t pos = edge - 4; pos <= edge + 1 && pos + sn.bytes.size() <= kLong; ++pos) {
          std::string s = long_base;
          s.replace(pos, sn.bytes.size(), sn.bytes);
          visit(sn.name, s);
        }
      }
    }
  }
}

// Long runs of ASCII, where kernels skip whole blocks (1 KiB in the SIMD
// bodies, 256 bytes in the scalar one) and a stream's ASCII hint sends a
// chunk first: every length around the first blocks, each ending in an
// unfinished sequence or a continuation too, and every snippet and
// multi-byte character just before, on and after each block and group edge
// of a 3 KiB run.
inline void each_ascii_block(const visit_fn& visit) {
  std::vector<std::size_t> lengths;
  for (std::size_t edge : {256, 1024, 2048, 4096}) {
    for (std::size_t len = edge - 70; len <= edge + 70; ++len) lengths.push_back(len);
  }
  for (std::size_t len : lengths) {
    const std::string s = background(text::ascii, len);
    visit("ascii", s);
    for (std::string_view tail : {std::string_view("\xC3"), std::string_view("\xE1\x80"),
                                  std::string_view("\xF1\x80\x80"), std::string_view("\x80")}) {
      visit("ascii, then an unfinished sequence or a continuation",
            background(text::ascii, len - tail.size()) + std::string(tail));
    }
  }
  const std::string base = background(text::ascii, 3 * 1024 + 200);
  std::vector<snippet> pieces = snippets();
  pieces.push_back({"2-byte character", std::string_view("\xC3\xA9", 2)});
  pieces.push_back({"3-byte character", std::string_view("\xE2\x82\xAC", 3)});
  pieces.push_back({"4-byte character", std::string_view("\xF0\x9F\x98\x80", 4)});
  for (const snippet& sn : pieces) {
    for (std::size_t edge : {256, 1024, 1152, 1280, 2048, 2304, 3072}) {
      for (std::size_t pos = edge - 5; pos <= edge + 5; ++pos) {
        std::string s = base;
        s.replace(pos, sn.bytes.size(), sn.bytes);
        visit(sn.name, s);
        visit(sn.name, std::string_view(s).substr(0, pos + sn.bytes.size()));
      }
    }
  }
}

// A valid character straddling every position p (its bytes on both sides of
// p) in ASCII, then the same character cut short at p by ASCII or a lead.
inline void each_carry(const visit_fn& visit) {
  for (std::string_view ch : {std::string_view("\xC3\xA9"), std::string_view("\xE2\x82\xAC"),
                              std::string_view("\xF0\x9F\x98\x80")}) {
    for (std::size_t p = 1; p < kLong; ++p) {
      for (std::size_t split = 1; split < ch.size(); ++split) {
        if (p < split) continue;
        std::string s(kLong, 'a');
        s.replace(p - split, ch.size(), ch);
        visit("carried", s);
        std::string cut = s;
        cut[p] = (p % 2) ? 'b' : '\xC3';
        visit("carried, cut", cut);
      }
    }
  }
}

// Random well-formed text (characters of 1..4 bytes, every Table 3-7 row),
// and the same text mutated: bytes replaced, inserted or deleted.
class generator {
 public:
  explicit generator(std::uint64_t seed) : rng_(seed) {}

  std::string valid(std::size_t approx_len) {
    std::string out;
    while (out.size() < approx_len) append_char(out);
    return out;
  }
  std::string mutated(std::string s) {
    const int edits = 1 + static_cast<int>(rng_() % 3);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = s.empty() ? 0 : rng_() % s.size();
      const char b = interesting_byte();
      switch (rng_() % 3) {
        case 0:
          if (!s.empty()) s[at] = b;
          break;
        case 1: s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), b); break;
        default:
          if (!s.empty()) s.erase(at, 1);
          break;
      }
    }
    return s;
  }
  std::string random_bytes(std::size_t len) {
    std::string s(len, '\0');
    for (char& c : s) c = static_cast<char>(rng_());
    return s;
  }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(rng_() % n); }

 private:
  char interesting_byte() {
    static const unsigned char kBytes[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F,
                                           0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0,
                                           0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF};
    return (rng_() % 4 == 0) ? static_cast<char>(rng_())
                             : static_cast<char>(kBytes[rng_() % sizeof kBytes]);
  }
  void append_char(std::string& out) {
    // Code point ranges of Table 3-7's rows, each drawn equally often.
    static const char32_t kRows[][2] = {
        {0x0, 0x7F},        {0x80, 0x7FF},      {0x800, 0xFFF},
        {0x1000, 0xCFFF},   {0xD000, 0xD7FF},   {0xE000, 0xFFFF},
        {0x10000, 0x3FFFF}, {0x40000, 0xFFFFF}, {0x100000, 0x10FFFF}};
    const auto& row = kRows[rng_() % 9];
    // Half the time ASCII, so runs of ASCII groups occur too.
    const char32_t cp = (rng_() % 2)
                            ? static_cast<char32_t>(0x20 + rng_() % 0x5F)
                            : row[0] + static_cast<char32_t>(rng_() % (row[1] - row[0] + 1));
    out += reference::encode(cp);
  }
  std::mt19937_64 rng_;
};

}  // namespace kcheck

#endif  // UTF8GUARD_TESTS_SUPPORT_KERNEL_CHECK_HPP
