// encoded_objects.hpp - the validator and scanner of each encoded form
// (percent-encoded input, JSON text): the life of stream_life
// (stream/objects.hpp) on the form's C stream, which either of the two
// starts, over the runs of stream/encoded_engine.hpp. Included by
// api/percent.cpp and api/json.cpp only.
#ifndef UTF8GUARD_STREAM_ENCODED_OBJECTS_HPP
#define UTF8GUARD_STREAM_ENCODED_OBJECTS_HPP

#include <cstddef>
#include <string_view>

#include "core/convert.hpp"
#include "stream/encoded_engine.hpp"
#include "stream/json_engine.hpp"
#include "stream/objects.hpp"
#include "stream/percent_engine.hpp"

namespace utf8guard::detail {

// An encoded stream is a validator or a scanner, as its init set it up, and
// holds the scanner of its decoded bytes.
template <class Form, unsigned char Scanner>
struct encoded_kind {
  using state = typename Form::state;
  static constexpr bool kVerdict = Scanner == 0;
  static bool owns(const state& s) noexcept { return s.priv_scanner == Scanner; }
  static void started(state& s) noexcept {
    scanner_life::start(s.priv_decoded, s.priv_policy);
    s.priv_scanner = Scanner;
  }
  static encoded_result refused() noexcept {
    encoded_result r;
    static_cast<result&>(r) = kRefused;
    return r;
  }
  static encoded_result verdict(const state& s) noexcept { return from_c(s.priv_error); }
  static void refuse(state& s) noexcept {
    encoded_result r = refused();
    r.offset = s.priv_position;
    s.priv_error = to_c(r);
  }
};

template <class Form>
using encoded_validator_life = stream_life<encoded_kind<Form, 0>>;
template <class Form>
using encoded_scanner_life = stream_life<encoded_kind<Form, 1>>;

using percent_validator_life = encoded_validator_life<percent_form>;
using percent_scanner_life = encoded_scanner_life<percent_form>;
using json_validator_life = encoded_validator_life<json_form>;
using json_scanner_life = encoded_scanner_life<json_form>;

// The validator's sink keeps the first error and stops.
struct first_error_sink {
  utf8guard_encoded_result& kept;
  bool operator()(const encoded_result& r) noexcept {
    kept = to_c(r);
    return false;
  }
};

// The scanner's sink counts and calls the caller's callback.
struct callback_sink {
  encoded_fn on_error;
  void* ctx;
  std::size_t& count;
  bool operator()(const encoded_result& r) {
    ++count;
    return on_error(ctx, r);
  }
};

template <class Form>
encoded_result encoded_validator_feed(typename Form::state* s, std::string_view chunk) {
  using form_life = encoded_validator_life<Form>;
  const bool went_on = form_life::feed(s, chunk, true, [&](typename Form::state& st) {
    first_error_sink sink{st.priv_error};
    return encoded_run<Form, first_error_sink>(st, sink).feed(bytes(chunk.data()), chunk.size());
  });
  return form_life::verdict(s, went_on);
}

template <class Form>
encoded_result encoded_validator_finish(typename Form::state* s) {
  using form_life = encoded_validator_life<Form>;
  const bool went_on = form_life::finish(s, true, [](typename Form::state& st) {
    first_error_sink sink{st.priv_error};
    return encoded_run<Form, first_error_sink>(st, sink).finish();
  });
  return form_life::verdict(s, went_on);
}

template <class Form>
bool encoded_scanner_feed(typename Form::state* s, std::string_view chunk, encoded_fn on_error,
                          void* ctx) {
  return encoded_scanner_life<Form>::feed(
      s, chunk, on_error != nullptr, [&](typename Form::state& st) {
        callback_sink sink{on_error, ctx, st.priv_errors};
        return encoded_run<Form, callback_sink>(st, sink).feed(bytes(chunk.data()), chunk.size());
      });
}

template <class Form>
bool encoded_scanner_finish(typename Form::state* s, encoded_fn on_error, void* ctx) {
  return encoded_scanner_life<Form>::finish(s, on_error != nullptr, [&](typename Form::state& st) {
    callback_sink sink{on_error, ctx, st.priv_errors};
    return encoded_run<Form, callback_sink>(st, sink).finish();
  });
}

// encoded_by_stream is a one-shot answer by the form's validator engine over
// the whole input.
template <class Form>
encoded_result encoded_by_stream(const std::uint8_t* p, std::size_t n, utf8guard_policy bits) {
  typename Form::state s;
  encoded_validator_life<Form>::start(s, bits);
  first_error_sink sink{s.priv_error};
  encoded_run<Form, first_error_sink> run(s, sink);
  if (run.feed(p, n)) (void)run.finish();
  return from_c(s.priv_error);
}

// encoded_short_valid answers a short input (at most kEncodedWindow bytes),
// the common call (a header, a URL, a request body): decoded whole into a
// buffer on the stack and validated in one call. true when it is valid; an
// error needs the mapping of the stream engine.
template <class Form>
bool encoded_short_valid(const std::uint8_t* p, std::size_t n, utf8guard_policy bits,
                         bool just_verdict) {
  typename Form::state s;
  encoded_validator_life<Form>::start(s, bits);
  no_sink sink;
  alignas(64) std::uint8_t decoded[kEncodedWindow + kEncodedSlack];
  std::size_t len = 0;
  if (!encoded_run<Form, no_sink>(s, sink).decode_short(p, n, decoded, len)) return false;
  const std::string_view view(reinterpret_cast<const char*>(decoded), len);
  const policy pol = policy::from_bits(bits);
  return just_verdict ? utf8guard::is_valid(view, pol) : utf8guard::validate(view, pol).ok();
}

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_STREAM_ENCODED_OBJECTS_HPP
