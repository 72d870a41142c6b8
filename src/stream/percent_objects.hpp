// percent_objects.hpp - percent_validator and percent_scanner: the life of
// stream_life (stream/objects.hpp) on a utf8guard_percent_stream, which
// either of the two starts, over the runs of percent_engine.hpp. Included by
// api/percent.cpp only.
#ifndef UTF8GUARD_STREAM_PERCENT_OBJECTS_HPP
#define UTF8GUARD_STREAM_PERCENT_OBJECTS_HPP

#include <cstddef>
#include <string_view>

#include "core/convert.hpp"
#include "stream/objects.hpp"
#include "stream/percent_engine.hpp"

namespace utf8guard::detail {

// A percent stream is a validator or a scanner, as its init set it up, and
// holds the scanner of its decoded bytes.
template <unsigned char Scanner>
struct percent_kind {
  using state = utf8guard_percent_stream;
  static constexpr bool kVerdict = Scanner == 0;
  static bool owns(const state& s) noexcept { return s.priv_scanner == Scanner; }
  static void started(state& s) noexcept {
    scanner_life::start(s.priv_decoded, s.priv_policy);
    s.priv_scanner = Scanner;
  }
  static percent_result refused() noexcept {
    percent_result r;
    static_cast<result&>(r) = kRefused;
    return r;
  }
  static percent_result verdict(const state& s) noexcept { return from_c(s.priv_error); }
  static void refuse(state& s) noexcept {
    percent_result r = refused();
    r.offset = s.priv_position;
    s.priv_error = to_c(r);
  }
};

using percent_validator_life = stream_life<percent_kind<0>>;
using percent_scanner_life = stream_life<percent_kind<1>>;

// The validator's sink keeps the first error and stops.
struct first_error_sink {
  utf8guard_percent_result& kept;
  bool operator()(const percent_result& r) noexcept {
    kept = to_c(r);
    return false;
  }
};

// The scanner's sink counts and calls the caller's callback.
struct callback_sink {
  percent_fn on_error;
  void* ctx;
  std::size_t& count;
  bool operator()(const percent_result& r) {
    ++count;
    return on_error(ctx, r);
  }
};

inline percent_result percent_validator_feed(utf8guard_percent_stream* s, std::string_view chunk) {
  const bool went_on =
      percent_validator_life::feed(s, chunk, true, [&](utf8guard_percent_stream& st) {
        first_error_sink sink{st.priv_error};
        return percent_run<first_error_sink>(st, sink).feed(bytes(chunk.data()), chunk.size());
      });
  return percent_validator_life::verdict(s, went_on);
}

inline percent_result percent_validator_finish(utf8guard_percent_stream* s) {
  const bool went_on = percent_validator_life::finish(s, true, [](utf8guard_percent_stream& st) {
    first_error_sink sink{st.priv_error};
    return percent_run<first_error_sink>(st, sink).finish();
  });
  return percent_validator_life::verdict(s, went_on);
}

inline bool percent_scanner_feed(utf8guard_percent_stream* s, std::string_view chunk,
                                 percent_fn on_error, void* ctx) {
  return percent_scanner_life::feed(
      s, chunk, on_error != nullptr, [&](utf8guard_percent_stream& st) {
        callback_sink sink{on_error, ctx, st.priv_errors};
        return percent_run<callback_sink>(st, sink).feed(bytes(chunk.data()), chunk.size());
      });
}

inline bool percent_scanner_finish(utf8guard_percent_stream* s, percent_fn on_error, void* ctx) {
  return percent_scanner_life::finish(s, on_error != nullptr, [&](utf8guard_percent_stream& st) {
    callback_sink sink{on_error, ctx, st.priv_errors};
    return percent_run<callback_sink>(st, sink).finish();
  });
}

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_STREAM_PERCENT_OBJECTS_HPP
