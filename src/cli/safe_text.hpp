// safe_text.hpp - paths in the formats that CI systems render (SARIF, GitHub
// workflow commands, GitLab Code Quality): a file name may hold any bytes,
// among them terminal escapes, line breaks and bidi controls (a Trojan Source
// file name), and none of them may reach a log or a web page raw.
#ifndef UTF8GUARD_CLI_SAFE_TEXT_HPP
#define UTF8GUARD_CLI_SAFE_TEXT_HPP

#include <string>
#include <string_view>

namespace utf8guard::cli {

// escape_fn appends the escaped form of one character (code point cp, its
// UTF-8 bytes) to out; plain_fn appends a run of harmless text as the format
// needs it (its own special characters escaped).
using escape_fn = void (*)(std::string& out, char32_t cp, std::string_view bytes);
using plain_fn = void (*)(std::string& out, std::string_view text);

// safe_text returns raw with ill-formed UTF-8 replaced by U+FFFD (as sanitize
// does), each character the field profile denies (NUL, controls, line breaks,
// C1, bidi controls, a BOM, also at byte 0, noncharacters) passed to escape,
// and the text between them to plain.
std::string safe_text(std::string_view raw, plain_fn plain, escape_fn escape);

// json_quote_ci is a JSON string literal of safe_text(raw), quotes included,
// the denied characters as \uXXXX (a surrogate pair above U+FFFF).
std::string json_quote_ci(std::string_view raw);

// github_property is safe_text(raw) escaped for a property of a GitHub
// workflow command (file=...): % CR LF : , as %25 %0D %0A %3A %2C, the way
// GitHub's toolkit escapes them, and the denied characters as %25XX per
// byte, which GitHub shows as the text %XX.
std::string github_property(std::string_view raw);

// github_data is safe_text(raw) escaped for the message of a GitHub workflow
// command (after "::"): % as %25, the denied characters (CR and LF among
// them) as %25XX per byte.
std::string github_data(std::string_view raw);

// uri_reference percent-encodes every byte of a path but the unreserved
// characters (RFC 3986) and '/', so that any file name is a valid URI
// reference whose bytes are kept; an absolute path becomes a file:// URI.
std::string uri_reference(std::string_view path);

}  // namespace utf8guard::cli

#endif  // UTF8GUARD_CLI_SAFE_TEXT_HPP
