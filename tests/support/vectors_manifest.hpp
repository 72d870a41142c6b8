// vectors_manifest.hpp - the one C++ reader of the security manifests
// (security/vectors/vectors.tsv here, percent.tsv and json.tsv through
// encoded_manifest.hpp; their format: security/vectors/README.md), for the
// tests and the fuzz replay.
#ifndef UTF8GUARD_TESTS_SUPPORT_VECTORS_MANIFEST_HPP
#define UTF8GUARD_TESTS_SUPPORT_VECTORS_MANIFEST_HPP

#include <cstddef>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hex.hpp"

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

inline std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> cols;
  std::stringstream in(line);
  std::string col;
  while (std::getline(in, col, '\t')) cols.push_back(col);
  if (!line.empty() && line.back() == '\t') cols.emplace_back();
  return cols;
}

// for_each_row calls row(cols, where) for each row of the TSV manifest at
// path after its header line, which must be header; where names the line
// for messages. A missing file or header, or a row with fewer than columns
// columns, throws with the line's number, so a broken manifest fails the
// test instead of shrinking it.
template <class Row>
void for_each_row(const std::string& path, std::string_view header, std::size_t columns,
                  Row&& row) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::string line;
  bool header_seen = false;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    const std::string where = path + ":" + std::to_string(number) + ": ";
    if (!header_seen) {
      if (line != header) throw std::runtime_error(where + "unexpected header");
      header_seen = true;
      continue;
    }
    const std::vector<std::string> cols = split_tabs(line);
    if (cols.size() < columns) {
      throw std::runtime_error(where + "fewer than " + std::to_string(columns) + " columns");
    }
    row(cols, where, number);
  }
  if (!header_seen) throw std::runtime_error(path + ": no header");
}

// load_manifest reads vectors.tsv.
inline std::vector<attack_vector> load_manifest(const std::string& path) {
  std::vector<attack_vector> rows;
  for_each_row(path, "id\thex\tkind\toffset\tlength\tsanitized_hex\twhat", 7,
               [&rows](const std::vector<std::string>& cols, const std::string& where, int number) {
                 attack_vector v;
                 v.id = cols[0];
                 v.line = number;
                 try {
                   v.bytes = testing::parse_hex(cols[1]);
                   v.sanitized = testing::parse_hex(cols[5]);
                   v.offset = std::stoul(cols[3]);
                   v.length = std::stoul(cols[4]);
                 } catch (const std::exception& e) {
                   throw std::runtime_error(where + e.what());
                 }
                 v.kind = cols[2];
                 v.what = cols[6];
                 rows.push_back(std::move(v));
               });
  return rows;
}

}  // namespace utf8guard::security

#endif  // UTF8GUARD_TESTS_SUPPORT_VECTORS_MANIFEST_HPP
