// scalar_kernel.cpp - the portable kernel: a branch-free shift DFA over
// Table 3-7 with an ASCII fast path of 16 bytes at a time.
//
// Each DFA state is a bit offset (a multiple of 6) into a 64-bit row; the row
// of byte b holds, at offset s, the state reached from s on b. One step is
// `state = row[b] >> (state & 63)`, a single shift on the critical path (the
// mask is implied by x86 and AArch64 shift instructions), so hostile input
// costs no branch mispredictions. Only yes/no is decided here; the classifier
// in table37.hpp says where and why.
#include <cstring>

#include "kernel.hpp"
#include "scalar/table37.hpp"

namespace utf8guard::detail {
namespace {

// States: boundary, error (sticky), need 1/2/3 continuations, and the four
// leads whose second byte has a narrow range (E0, ED, F0, F4).
enum : unsigned {
  ACC = 0,
  ERR = 6,
  CONT1 = 12,
  CONT2 = 18,
  CONT3 = 24,
  S_E0 = 30,
  S_ED = 36,
  S_F0 = 42,
  S_F4 = 48
};
constexpr unsigned kStates[] = {ACC, ERR, CONT1, CONT2, CONT3, S_E0, S_ED, S_F0, S_F4};

constexpr unsigned next_state(unsigned s, unsigned b) {
  const bool cont = (b & 0xC0) == 0x80;
  switch (s) {
    case ACC:
      if (b <= 0x7F) return ACC;
      if (b >= 0xC2 && b <= 0xDF) return CONT1;
      if (b == 0xE0) return S_E0;
      if (b == 0xED) return S_ED;
      if (b >= 0xE1 && b <= 0xEF) return CONT2;
      if (b == 0xF0) return S_F0;
      if (b >= 0xF1 && b <= 0xF3) return CONT3;
      if (b == 0xF4) return S_F4;
      return ERR;  // 80..BF, C0, C1, F5..FF
    case CONT1: return cont ? ACC : ERR;
    case CONT2: return cont ? CONT1 : ERR;
    case CONT3: return cont ? CONT2 : ERR;
    case S_E0: return (b >= 0xA0 && b <= 0xBF) ? CONT1 : ERR;  // E0 A0..BF
    case S_ED: return (b >= 0x80 && b <= 0x9F) ? CONT1 : ERR;  // ED 80..9F
    case S_F0: return (b >= 0x90 && b <= 0xBF) ? CONT2 : ERR;  // F0 90..BF
    case S_F4: return (b >= 0x80 && b <= 0x8F) ? CONT2 : ERR;  // F4 80..8F
    default: return ERR;
  }
}

struct dfa_rows {
  std::uint64_t row[256];
  constexpr dfa_rows() : row{} {
    for (unsigned b = 0; b < 256; ++b) {
      std::uint64_t r = 0;
      for (unsigned s : kStates) r |= static_cast<std::uint64_t>(next_state(s, b)) << s;
      row[b] = r;
    }
  }
};
constexpr dfa_rows kDfa{};

constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;
constexpr std::size_t kBlock = 16;

std::size_t scalar_scan(const std::uint8_t* p, std::size_t n) noexcept {
  std::uint64_t state = ACC;
  std::size_t i = 0;
  // SAFETY: every block read is bounded by n - i >= kBlock.
  while (n - i >= kBlock) {
    if ((state & 63) == ACC) {
      std::uint64_t a, b;
      std::memcpy(&a, p + i, 8);
      std::memcpy(&b, p + i + 8, 8);
      if (((a | b) & kHighBits) == 0) {
        i += kBlock;
        continue;
      }
    }
    std::uint64_t s = state;
    for (std::size_t k = 0; k < kBlock; ++k) s = kDfa.row[p[i + k]] >> (s & 63);
    if ((s & 63) == ERR) return i;  // the error is in this block (or its lead just before it)
    state = s;
    i += kBlock;
  }
  for (; i < n; ++i) {
    const std::uint64_t s = kDfa.row[p[i]] >> (state & 63);
    if ((s & 63) == ERR) return i;
    state = s;
  }
  // Ending inside a sequence is not well-formed: hand the classifier the lead.
  return (state & 63) == ACC ? n : boundary_before(p, 0, n);
}

bool always_usable() noexcept { return true; }

}  // namespace

extern const kernel kernel_scalar{"scalar", kScalar, &always_usable, &scalar_scan,
                                  "nothing beyond the baseline CPU"};

}  // namespace utf8guard::detail
