// encoded_input.hpp - the input of the differential targets of the two
// encoded forms (percent_differential, json_differential). Data layout
// (data_reader): last two bytes = the policy's category bits, then a count
// and that many 16-bit split values, then the padding byte; the rest is the
// payload. When the padding byte is 1 modulo 8, the payload comes after
// 4,032..4,156 copies of the form's filler unit (4 times the byte's other
// bits more than 4,032), which puts it at the end of the engine's first
// windows; each target says why its filler holds no finding.
#ifndef UTF8GUARD_FUZZ_ENCODED_INPUT_HPP
#define UTF8GUARD_FUZZ_ENCODED_INPUT_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_common.hpp"
#include "policy_common.hpp"

namespace fuzz {

// encoded_input reads the data as above; input views the payload, or the
// padded copy it owns, so it is neither copied nor moved.
class encoded_input {
 public:
  encoded_input(const std::uint8_t* data, std::size_t size, std::string_view filler) {
    data_reader reader(data, size);
    policy = take_policy(reader);
    const std::vector<std::uint16_t> raw = take_splits(reader);
    const unsigned pad = reader.take_byte();
    input = reader.rest();
    if (pad % 8 == 1) {
      for (unsigned k = 4032 + (pad >> 3) * 4; k > 0; --k) padded_ += filler;
      padded_ += input;
      input = padded_;
    }
    chunks = chunks_of(input, raw);
  }
  encoded_input(const encoded_input&) = delete;
  encoded_input& operator=(const encoded_input&) = delete;

  utf8guard::policy policy;
  std::string_view input;
  std::vector<std::string_view> chunks;  // input cut at the split points

 private:
  std::string padded_;
};

}  // namespace fuzz

#endif  // UTF8GUARD_FUZZ_ENCODED_INPUT_HPP
