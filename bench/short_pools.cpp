// short_pools.cpp - cutting short strings from a text, with or without an error.
#include "short_pools.hpp"

#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <unordered_set>

#include <utf8guard/utf8guard.hpp>

#include "inputs.hpp"

namespace bench {
namespace {

bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Bytes that, written over any byte of a well-formed string, may break it
// there: stray continuations, overlong and surrogate leads, leads that the
// next byte may not continue, bytes that never occur. A draw that happens to
// stay well-formed (a continuation over a continuation) is drawn again.
constexpr unsigned char kBreakers[] = {0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xE0,
                                       0xED, 0xF0, 0xF4, 0xF5, 0xFF};

// A string of c's lengths starting at a random character boundary of text,
// or an empty view when the draw does not fit (drawn again by the caller).
std::string_view draw(prng& rng, std::string_view text, size_class c) {
  std::size_t start = static_cast<std::size_t>(rng.below(text.size()));
  while (start < text.size() && is_continuation(text[start])) ++start;
  const std::size_t want = c.lo + static_cast<std::size_t>(rng.below(c.hi - c.lo + 1));
  if (text.size() - start < want) return {};
  std::size_t end = start + want;
  while (end > start && end < text.size() && is_continuation(text[end])) --end;
  if (end - start < c.lo) return {};
  return text.substr(start, end - start);
}

void break_once(prng& rng, std::string& s) {
  for (;;) {
    std::string t = s;
    t[rng.below(t.size())] = static_cast<char>(kBreakers[rng.below(std::size(kBreakers))]);
    if (!utf8guard::is_valid(t)) {
      s = std::move(t);
      return;
    }
  }
}

}  // namespace

std::string pool_name(const std::string& text_name, size_class c, bool with_error) {
  return text_name + "_" + std::to_string(c.lo) + "-" + std::to_string(c.hi) + "B" +
         (with_error ? "_err" : "");
}

string_pool cut_pool(const std::string& text_name, std::string_view text, size_class c,
                     bool with_error) {
  if (!utf8guard::is_valid(text)) throw std::runtime_error(text_name + " is not valid UTF-8");
  if (text.size() < 4 * c.hi) throw std::runtime_error(text_name + " is too short");
  const std::string name = pool_name(text_name, c, with_error);
  // The seed depends on the class and the variant, not on the text: the
  // same draws for every text of the same size.
  prng rng(c.hi * 2 + (with_error ? 1 : 0));
  std::vector<std::string> picked;
  while (picked.size() < kPoolStrings) {
    const std::string_view v = draw(rng, text, c);
    if (v.empty()) continue;
    std::string s(v);
    if (with_error) break_once(rng, s);
    picked.push_back(std::move(s));
  }
  string_pool pool{name, !with_error, 0, {}, {}};
  for (const std::string& s : picked) pool.arena += s;
  std::size_t at = 0;
  for (const std::string& s : picked) {
    pool.strings.emplace_back(pool.arena.data() + at, s.size());
    at += s.size();
  }
  pool.distinct = std::unordered_set<std::string>(picked.begin(), picked.end()).size();
  return pool;
}

}  // namespace bench
