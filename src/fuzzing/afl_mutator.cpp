// afl_mutator.cpp - the mutator as an AFL++ custom mutator library
// (libutf8guard_afl.so, loaded by afl-fuzz through AFL_CUSTOM_MUTATOR_LIBRARY).
// AFL++ dlopen()s it and calls these C functions; its docs/custom_mutators.md
// gives the signatures. The module links the mutator statically, so it needs
// nothing but the C++ runtime at load time.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <vector>

#include "utf8guard/fuzz.h"

namespace {

// state is one afl-fuzz instance's mutator: its own generator (seeded once by
// afl-fuzz, so a run is deterministic) and the buffer returned as out_buf,
// which stays ours until the next call.
struct state {
  unsigned seed;
  std::vector<std::uint8_t> out;
  const char* last = "none";
};

}  // namespace

extern "C" {

// The module's entry points are its ABI with afl-fuzz, whatever the build's
// default visibility.
#define UTF8GUARD_AFL_API __attribute__((visibility("default")))

UTF8GUARD_AFL_API void* afl_custom_init(void* /*afl*/, unsigned int seed) {
  return new (std::nothrow) state{seed, {}, "none"};
}

UTF8GUARD_AFL_API size_t afl_custom_fuzz(void* data, uint8_t* buf, size_t buf_size,
                                         uint8_t** out_buf, uint8_t* /*add_buf*/,
                                         size_t /*add_buf_size*/, size_t max_size) {
  auto* s = static_cast<state*>(data);
  const std::size_t size = buf_size < max_size ? buf_size : max_size;
  try {
    s->out.resize(max_size > size ? max_size : size);
  } catch (...) {
    *out_buf = buf;  // no memory: hand the input back unchanged
    return buf_size;
  }
  if (size != 0) std::memcpy(s->out.data(), buf, size);
  // Each call draws the next seed, so a campaign is a fixed sequence.
  s->seed = s->seed * 1103515245u + 12345u;
  const std::size_t n =
      utf8guard_fuzz_mutate_ex(s->out.data(), size, max_size, s->seed, nullptr, &s->last);
  *out_buf = s->out.data();
  return n;
}

// afl_custom_describe names the last mutation; AFL++ puts it in the names of
// the queue and crash files it saves.
UTF8GUARD_AFL_API const char* afl_custom_describe(void* data, size_t /*max_description_len*/) {
  return static_cast<state*>(data)->last;
}

UTF8GUARD_AFL_API void afl_custom_deinit(void* data) { delete static_cast<state*>(data); }

}  // extern "C"
