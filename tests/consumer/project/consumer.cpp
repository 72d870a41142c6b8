// A C++ program built against utf8guard as another project would build it.
// Exits 0 only if the library and the headers it was compiled with answer as
// docs/design.md says and carry the version the build expects.
#include <utf8guard/utf8guard.hpp>

#include <cstdio>
#include <string_view>

int main() {
  using namespace std::string_view_literals;
  // IIS, CVE-2000-0884: an overlong '/' (C0 AF) after percent-decoding.
  const utf8guard::result r = utf8guard::validate("..\xC0\xAF.."sv);
  const bool found = r.kind == utf8guard::error::overlong && r.offset == 2 && r.length == 1 &&
                     utf8guard::to_string(r.kind) == "overlong";
  // A CESU-8 surrogate half is three maximal subparts: ED, A0, 80.
  const bool replaced =
      utf8guard::sanitize("a\xED\xA0\x80z"sv) == "a\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBDz";
  // The library's version and the installed version.h must agree.
  const bool versioned =
      utf8guard::version() == UTF8GUARD_VERSION_STRING && utf8guard::version() == EXPECTED_VERSION;
  std::printf("utf8guard %.*s (%.*s kernel): found=%d replaced=%d versioned=%d\n",
              static_cast<int>(utf8guard::version().size()), utf8guard::version().data(),
              static_cast<int>(utf8guard::active_kernel().size()),
              utf8guard::active_kernel().data(), found, replaced, versioned);
  return found && replaced && versioned ? 0 : 1;
}
