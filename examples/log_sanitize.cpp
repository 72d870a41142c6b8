// log_sanitize.cpp - a log or JSON pipeline step: every record leaves it as
// valid UTF-8, ready to be indexed. `log_sanitize` runs on sample lines;
// `log_sanitize -` filters stdin.
//
// JSON exchanged between systems "MUST be encoded using UTF-8" (RFC 8259,
// 8.1), and an indexer that refuses one ill-formed record may drop its whole
// batch. Replacing each maximal subpart with U+FFFD keeps the record and marks
// the damage, as Python's errors="replace" would. Reads end anywhere, inside a
// character too: utf8guard::sanitizer holds back at most 3 bytes between
// feeds. A record ends at LF, which no multibyte sequence contains, so records
// are cut before sanitizing, and finish() at each LF turns a character cut at
// the end of a record into U+FFFD there, not joined to the next record.
//
// Well-formed text can still forge records (CWE-117): a CR, NEL, LS or PS
// starts a new line in many viewers, and ESC or CSI sequences rewrite the
// terminal of whoever reads the log. The sanitizer runs under the "field"
// profile, so each such character becomes U+FFFD too, in the same pass, and
// one record stays one line.
#include <utf8guard/utf8guard.hpp>

#include <cstdio>
#include <string>
#include <string_view>

namespace {

struct pipeline {
  utf8guard::sanitizer sanitizer{utf8guard::policy::field()};
  std::string record, all;  // the record being built; every record (for the check)
  std::size_t records = 0, replacements = 0, invalid = 0;

  void index() {  // stands for the indexer
    invalid += utf8guard::is_valid(record, utf8guard::policy::field()) ? 0 : 1;
    replacements += sanitizer.replacements();
    std::printf("record %zu, %zu replaced: ", ++records, sanitizer.replacements());
    std::fwrite(record.data(), 1, record.size(), stdout);
    std::putchar('\n');
    all += record + '\n';
    record.clear();
    sanitizer.reset();
  }
  void feed(std::string_view chunk) {
    auto append = [this](std::string_view out) { record += out; };
    for (std::size_t lf; (lf = chunk.find('\n')) != std::string_view::npos;) {
      sanitizer.feed(chunk.substr(0, lf), append);
      sanitizer.finish(append);
      index();
      chunk.remove_prefix(lf + 1);
    }
    sanitizer.feed(chunk, append);
  }
  void finish() {  // the last record may lack its LF
    sanitizer.finish([this](std::string_view out) { record += out; });
    if (!record.empty()) index();
  }
};

}  // namespace

int main(int argc, char** argv) {
  using namespace std::string_view_literals;
  pipeline p;
  if (argc > 1 && argv[1] == "-"sv) {
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, stdin)) > 0;) p.feed({buf, n});
    p.finish();
    std::printf("%zu records, %zu replacements\n", p.records, p.replacements);
    return p.invalid == 0 && !std::ferror(stdin) ? 0 : 1;
  }
  const std::string_view sample =
      "12:00:00 GET /index.html 200 ua=\"curl/8.5\"\n"
      "12:00:01 login user=J\xFCrgen\n"            // Latin-1 "ü": FC is never UTF-8
      "12:00:02 msg=\"caf\xC3\"\n"                 // cut at a byte limit inside "é"
      "12:00:03 emoji=\xED\xA0\xBD\xED\xB8\x80\n"  // CESU-8: six maximal subparts
      "12:00:04 user=x\r12:00:04 admin login\n"    // a forged record after a CR
      "12:00:05 msg=\x1B[2J\xE2\x80\xA8ok\n"       // ESC clears a screen; LS breaks a line
      "12:00:06 tail \xE2\x82"sv;                  // the stream ends inside "€"
  for (std::size_t at = 0; at < sample.size(); at += 7) p.feed(sample.substr(at, 7));
  p.finish();
  std::printf("%zu records, %zu replacements\n", p.records, p.replacements);
  // Cutting at LF and at every 7th byte changed nothing: one-shot sanitize of
  // each record agrees.
  std::string want;
  for (std::string_view rest = sample; !rest.empty();) {
    const std::size_t lf = rest.find('\n');
    want += utf8guard::sanitize(rest.substr(0, lf), utf8guard::policy::field()) + '\n';
    rest.remove_prefix(lf == std::string_view::npos ? rest.size() : lf + 1);
  }
  const bool ok = p.records == 7 && p.replacements == 12 && p.invalid == 0 && p.all == want &&
                  p.all.find_first_of("\r\x1B") == std::string::npos;
  std::puts(ok ? "log_sanitize: ok" : "log_sanitize: FAILED");
  return ok ? 0 : 1;
}
