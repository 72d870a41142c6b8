// chunks.hpp - an input cut at ascending positions: the chunks a stream is
// fed, shared by the property tests and the fuzz targets.
#ifndef UTF8GUARD_TESTS_SUPPORT_CHUNKS_HPP
#define UTF8GUARD_TESTS_SUPPORT_CHUNKS_HPP

#include <cstddef>
#include <string_view>
#include <vector>

namespace utf8guard::testing {

// chunks_of cuts in at the ascending positions cuts (each at most in.size());
// a repeated position gives an empty chunk, which a stream must accept too.
inline std::vector<std::string_view> chunks_of(std::string_view in,
                                               const std::vector<std::size_t>& cuts) {
  std::vector<std::string_view> out;
  out.reserve(cuts.size() + 1);
  std::size_t from = 0;
  for (std::size_t i = 0; i <= cuts.size(); ++i) {
    const std::size_t to = i < cuts.size() ? cuts[i] : in.size();
    out.push_back(in.substr(from, to - from));
    from = to;
  }
  return out;
}

}  // namespace utf8guard::testing

#endif  // UTF8GUARD_TESTS_SUPPORT_CHUNKS_HPP
