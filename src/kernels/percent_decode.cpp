// percent_decode.cpp - the vector percent decoder for the active kernel.
#include "core/percent.hpp"

namespace utf8guard::detail {

percent_decode_fn vector_percent_decoder() noexcept { return nullptr; }

}  // namespace utf8guard::detail
