// sections.hpp - one large regular file checked on several cores at once.
//
// Reading a file out of the page cache costs more than validating it (the
// kernel's copy is the slower of the two), and one core can only do the two
// one after the other. So a large
// file is first cut into sections that threads validate side by side, each
// reading its own part with pread(2); the ordinary one-thread check then goes
// on from the first section that did not prove valid, or from the end.
#ifndef UTF8GUARD_CLI_SECTIONS_HPP
#define UTF8GUARD_CLI_SECTIONS_HPP

#include <cstdint>

namespace utf8guard::cli {

// Sections are at least this long, so that reading and validating one takes
// far longer than starting the thread that does it.
inline constexpr std::uint64_t kMinSection = 4 * 1024 * 1024;

// valid_prefix validates the `size` bytes of fd from file offset `from` in
// sections, up to `threads` of them side by side and none shorter than
// kMinSection, and returns the length of the prefix they proved well-formed:
// the sections before the first one that found an error (or could not be
// read) in full. That prefix ends where a character does, so a validator can
// start afresh after it and report exactly what a check from `from` would.
// It is `size` when the whole range is valid, and 0 when the range is too
// short to share out. Every error is left to that check to find and report;
// this only skips what needs no report. A thread or buffer it cannot get
// only shortens the prefix it proves, or leaves more sections to the calling
// thread.
std::uint64_t valid_prefix(int fd, std::uint64_t from, std::uint64_t size,
                           unsigned threads) noexcept;

}  // namespace utf8guard::cli

#endif  // UTF8GUARD_CLI_SECTIONS_HPP
