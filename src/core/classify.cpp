// classify.cpp - classify_scan (core/scan.hpp): the error near where a scan
// stopped, by Table 3-7's classifier. Every kernel's validate ends here, so
// every kernel reports identical errors.
#include "core/scan.hpp"
#include "core/table37.hpp"

namespace utf8guard::detail {

__attribute__((noinline)) packed_result classify_scan(const std::uint8_t* p, std::size_t n,
                                                      std::size_t pos) noexcept {
  // The scan vouches for p[0..pos) as a valid prefix; the first error starts
  // at most 3 bytes before pos, so the classifier never rescans from the start.
  const result r = first_error_from(p, n, boundary_before(p, 0, pos));
  return {r.offset, static_cast<std::size_t>(r.kind) | r.length << 8};
}

}  // namespace utf8guard::detail
