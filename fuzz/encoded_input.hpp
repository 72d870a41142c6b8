// encoded_input.hpp - the input of the differential targets of the two
// encoded forms (percent_differential, json_differential). Data layout
// (data_reader): last two bytes = the policy's category bits, then a count
// and that many 16-bit split values, then the padding byte; the rest is the
// payload. When the padding byte is 1 modulo 64, the payload comes after
// copies..copies + 124 copies of the form's filler unit (copies plus 4 times
// a number 0..31 drawn from the hash of the whole data, so that it
// reproduces), which the target chooses to put it at the end of the engine's
// first windows; each target says why its filler holds no finding. A padded input costs many
// unpadded ones (the oracle and every check read the filler too), so one input in 64 is padded: a
// campaign still meets every padding length, at a fraction of the time.
#ifndef UTF8GUARD_FUZZ_ENCODED_INPUT_HPP
#define UTF8GUARD_FUZZ_ENCODED_INPUT_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_common.hpp"
#include "policy_common.hpp"

namespace fuzz {

// encoded_input reads the data as above; input views its copy of the
// payload (padded or not) at a fixed address (fuzz::misaligned_copy, aligned),
// so it is neither copied nor moved.
class encoded_input {
 public:
  encoded_input(const std::uint8_t* data, std::size_t size, std::string_view filler,
                std::size_t copies) {
    data_reader reader(data, size);
    policy = take_policy(reader);
    const std::vector<std::uint16_t> raw = take_splits(reader);
    const unsigned pad = reader.take_byte();
    input = reader.rest();
    if (pad % 64 == 1) {
      // The hash's high bits: its low ones pick the kernel (kernels_to_try),
      // and every length must meet every kernel.
      const std::size_t count = copies + (input_hash(data, size) >> 32) % 32 * 4;
      padded_.reserve(count * filler.size() + input.size());
      for (std::size_t k = count; k > 0; --k) padded_ += filler;
      padded_ += input;
      input = padded_;
    }
    // The library reads a copy at a fixed address (fuzz_common.hpp).
    placed_.emplace(input, 0);
    input = placed_->view;
    chunks = chunks_of(input, raw);
  }
  encoded_input(const encoded_input&) = delete;
  encoded_input& operator=(const encoded_input&) = delete;

  utf8guard::policy policy;
  std::string_view input;
  std::vector<std::string_view> chunks;  // input cut at the split points

  // padded says whether the payload comes after the filler.
  bool padded() const { return !padded_.empty(); }

 private:
  std::string padded_;
  std::optional<misaligned_copy> placed_;
};

}  // namespace fuzz

#endif  // UTF8GUARD_FUZZ_ENCODED_INPUT_HPP
