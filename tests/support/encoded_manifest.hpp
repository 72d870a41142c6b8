// encoded_manifest.hpp - the reader of the two encoded-input manifests,
// security/vectors/percent.tsv and json.tsv, which share one format
// (security/vectors/README.md): each row's input as it arrives, its profile,
// and the hand-worked first report and number of findings.
#ifndef UTF8GUARD_TESTS_SUPPORT_ENCODED_MANIFEST_HPP
#define UTF8GUARD_TESTS_SUPPORT_ENCODED_MANIFEST_HPP

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "results.hpp"
#include "utf8guard/utf8guard.hpp"
#include "vectors_manifest.hpp"

namespace utf8guard::security {

// One row of percent.tsv or json.tsv.
struct encoded_vector {
  std::string id;
  std::string encoded;
  std::string profile;
  encoded_result want;
  std::size_t errors = 0;
  int line = 0;
};

// load_encoded_manifest reads percent.tsv or json.tsv.
inline std::vector<encoded_vector> load_encoded_manifest(const std::string& path) {
  std::vector<encoded_vector> rows;
  const char* header =
      "id\tencoded\tprofile\tkind\tcategory\toffset\tlength\tdecoded_offset\t"
      "decoded_length\tcode_point\terrors\twhat";
  for_each_row(path, header, 12,
               [&rows](const std::vector<std::string>& cols, const std::string& where, int number) {
                 encoded_vector v;
                 v.id = cols[0];
                 v.encoded = cols[1];
                 v.profile = cols[2];
                 v.line = number;
                 v.want.kind = testing::kind_named(cols[3]);
                 v.want.category = testing::category_named(cols[4] == "none" ? "" : cols[4]);
                 try {
                   v.want.offset = std::stoul(cols[5]);
                   v.want.length = std::stoul(cols[6]);
                   v.want.decoded_offset = std::stoul(cols[7]);
                   v.want.decoded_length = std::stoul(cols[8]);
                   if (cols[9] != "-") {
                     if (cols[9].rfind("U+", 0) != 0) throw std::runtime_error("not U+XXXX");
                     v.want.code_point =
                         static_cast<char32_t>(std::stoul(cols[9].substr(2), nullptr, 16));
                   }
                   v.errors = std::stoul(cols[10]);
                 } catch (const std::exception& e) {
                   throw std::runtime_error(where + e.what());
                 }
                 rows.push_back(std::move(v));
               });
  return rows;
}

// profile_of is the policy a row names.
inline policy profile_of(const encoded_vector& v) {
  policy p;
  if (!profile_from_name(v.profile, p)) throw std::runtime_error("unknown profile " + v.profile);
  return p;
}

// shifted is want for the input after a prefix of n raw ASCII bytes.
inline encoded_result shifted(encoded_result want, std::size_t n) {
  if (want.ok()) return want;
  want.offset += n;
  want.decoded_offset += n;
  return want;
}

}  // namespace utf8guard::security

#endif  // UTF8GUARD_TESTS_SUPPORT_ENCODED_MANIFEST_HPP
