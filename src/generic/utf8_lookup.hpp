// utf8_lookup.hpp - the SIMD validation algorithm, written once.
//
// No include guard on purpose: every kernel in src/kernels/ includes this
// file inside its own ISA namespace and target region, after its wrapper
// (src/simd/<isa>.hpp, which defines `simd8` with its width and the
// choices tuned per ISA: group_regs, align_blocks, leads_from_memory).
// It needs <cstddef>, <cstdint>, core/table37.hpp, core/carry.hpp and
// core/short_input.hpp, included by the kernel.
//
// The algorithm is Keiser and Lemire's "lookup" validator ("Validating UTF-8
// in less than one instruction per byte", Software: Practice and Experience,
// 2021). Every byte is checked together with the byte before it by three
// 16-entry lookups (the high and low nibble of the previous byte, the high
// nibble of this byte) whose bitwise AND is nonzero exactly on the forbidden
// two-byte patterns of Unicode Table 3-7. Third and fourth bytes of a sequence
// are then checked by where the last lead byte 2 or 3 bytes back says they
// must be. Both checks depend only on the 4 bytes ending at a position, so the
// first flagged position j says p[0..j) is a valid prefix (well-formed but for
// at most one unfinished sequence) and the error starts at most 3 bytes
// before j: the contract of kernels/kernel.hpp's scan.
//
// Speed comes from two things: a group of registers that is all ASCII costs
// one OR-reduction, and the error accumulator is tested once per group, not
// per register. Only when a group fails is it checked again register by
// register to find the first flagged byte.

namespace lookup {

// One bit per kind of forbidden pair (previous byte, this byte). A pair is an
// error when the three table entries it selects share a bit.
constexpr std::uint8_t TOO_SHORT = 1 << 0;       // 11______ 0_______  lead, then no continuation
                                                 // 11______ 11______
constexpr std::uint8_t TOO_LONG = 1 << 1;        // 0_______ 10______  continuation after ASCII
constexpr std::uint8_t OVERLONG_3 = 1 << 2;      // 11100000 100_____  E0 80..9F
constexpr std::uint8_t TOO_LARGE = 1 << 3;       // 11110100 1001____  F4 90..9F
                                                 // 11110100 101_____  F4 A0..BF
                                                 // 11110101 1001____  F5..FF 90..BF
                                                 // 1111011_ 101_____  (beyond U+10FFFF)
                                                 // 11111___ 1001____
constexpr std::uint8_t SURROGATE = 1 << 4;       // 11101101 101_____  ED A0..BF
constexpr std::uint8_t OVERLONG_2 = 1 << 5;      // 1100000_ 10______  C0, C1
constexpr std::uint8_t TOO_LARGE_1000 = 1 << 6;  // 11110101 1000____  F5..FF 80..8F
                                                 // 1111011_ 1000____
                                                 // 11111___ 1000____
constexpr std::uint8_t OVERLONG_4 = 1 << 6;      // 11110000 1000____  F0 80..8F (shares bit 6)
constexpr std::uint8_t TWO_CONTS = 1 << 7;       // 10______ 10______  an error unless a lead
                                                 //                    2 or 3 back wants it
// The low nibble of the previous byte says nothing about these three.
constexpr std::uint8_t CARRY = TOO_SHORT | TOO_LONG | TWO_CONTS;

// Indexed by the high nibble of the previous byte.
alignas(16) constexpr std::uint8_t kByte1High[16] = {
    // 0_______ ________  ASCII
    TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
    // 10______ ________  continuation
    TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS,
    // 1100____ ________  C0..CF: 2-byte lead (C0, C1 overlong)
    TOO_SHORT | OVERLONG_2,
    // 1101____ ________  D0..DF: 2-byte lead
    TOO_SHORT,
    // 1110____ ________  E0..EF: 3-byte lead
    TOO_SHORT | OVERLONG_3 | SURROGATE,
    // 1111____ ________  F0..FF: 4-byte lead or invalid
    TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4};

// Indexed by the low nibble of the previous byte.
alignas(16) constexpr std::uint8_t kByte1Low[16] = {
    CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,    // ____0000  C0, E0, F0
    CARRY | OVERLONG_2,                              // ____0001  C1
    CARRY,                                           // ____0010
    CARRY,                                           // ____0011
    CARRY | TOO_LARGE,                               // ____0100  F4
    CARRY | TOO_LARGE | TOO_LARGE_1000,              // ____0101  F5
    CARRY | TOO_LARGE | TOO_LARGE_1000,              // ____0110  F6
    CARRY | TOO_LARGE | TOO_LARGE_1000,              // ____0111  F7
    CARRY | TOO_LARGE | TOO_LARGE_1000,              // ____1000  F8
    CARRY | TOO_LARGE | TOO_LARGE_1000,              // ____1001  F9
    CARRY | TOO_LARGE | TOO_LARGE_1000,              // ____1010  FA
    CARRY | TOO_LARGE | TOO_LARGE_1000,              // ____1011  FB
    CARRY | TOO_LARGE | TOO_LARGE_1000,              // ____1100  FC
    CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,  // ____1101  ED, FD
    CARRY | TOO_LARGE | TOO_LARGE_1000,              // ____1110  FE
    CARRY | TOO_LARGE | TOO_LARGE_1000};             // ____1111  FF

// Indexed by the high nibble of this byte.
alignas(16) constexpr std::uint8_t kByte2High[16] = {
    // ________ 0_______  ASCII
    TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
    // ________ 1000____  80..8F
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
    // ________ 1001____  90..9F
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
    // ________ 101_____  A0..BF
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    // ________ 11______  a lead byte
    TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT};

// An input that ends with 11______, 111_____ __ or 1111____ __ __ ends inside
// a sequence: the last three bytes may not exceed BF, DF, EF respectively.
struct incomplete_max {
  alignas(64) std::uint8_t byte[64];
  constexpr incomplete_max() : byte{} {
    for (std::uint8_t& b : byte) b = 0xFF;
    byte[61] = 0b11110000 - 1;  // 1111____ __ __  a 4-byte lead 3 from the end
    byte[62] = 0b11100000 - 1;  // 111_____ __     a 3- or 4-byte lead 2 from the end
    byte[63] = 0b11000000 - 1;  // 11______        any lead last
  }
};
inline constexpr incomplete_max kIncompleteMax{};

// The check's constants, made once per scan and passed down: made where
// they are used, g++ builds most of them again for every group. Where the
// wrapper says pin_constants (32 registers), each is also passed through
// kept(), so that g++ cannot build it again at all, as it otherwise does for
// three of them in the AVX-512 loop.
struct constants {
  simd8 byte1_high, byte1_low, byte2_high, e0, f0, bit7;
  static UTF8GUARD_SIMD_INLINE constants make() {
    const constants c{simd8::repeat_16(kByte1High), simd8::repeat_16(kByte1Low),
                      simd8::repeat_16(kByte2High), simd8::splat(0xE0 - 0x80),
                      simd8::splat(0xF0 - 0x80),    simd8::splat(0x80)};
    if constexpr (simd8::pin_constants) {
      return {c.byte1_high.kept(), c.byte1_low.kept(), c.byte2_high.kept(),
              c.e0.kept(),         c.f0.kept(),        c.bit7.kept()};
    }
    return c;
  }
};

// lead_flags is 0x80 at j exactly when input[j] is a lead E0..FF or
// prev1[j], the byte before it, a lead F0..FF: then the byte two after j
// must be a continuation (the third or fourth byte of that sequence); else
// 0. Saturating subtraction leaves bit 7 set exactly for those bytes, and
// the mask clears the rest here, where AVX-512 folds it into the OR (one
// vpternlog), so that check_pairs ends in one: one vector operation per
// register fewer.
UTF8GUARD_SIMD_INLINE simd8 lead_flags(simd8 input, simd8 prev1, const constants& c) {
  return (input.saturating_sub(c.e0) | prev1.saturating_sub(c.f0)) & c.bit7;
}

// check_pairs returns nonzero bytes exactly where `input` breaks Table 3-7,
// given prev1, the input one byte earlier (prev1[j] is the byte before
// input[j]), and must23, the lead flags of the input two bytes earlier
// (must23[j] is 0x80 where byte j is a third or fourth byte, else 0).
UTF8GUARD_SIMD_INLINE simd8 check_pairs(simd8 input, simd8 prev1, simd8 must23,
                                        const constants& c) {
  const simd8 special = prev1.high_nibble_lookup(c.byte1_high) &
                        prev1.low_nibble_lookup(c.byte1_low) &
                        input.high_nibble_lookup(c.byte2_high);
  // Where a third or fourth byte is due, the pair must be TWO_CONTS (bit 7);
  // everywhere else no bit may be set.
  return must23 ^ special;
}
// check_shifted is check_pairs for `input` after prev1, with the lead flags
// carried from register to register in leads: shifting that one register by
// 2 costs one byte shift where shifting the input by 2 and by 3 cost two.
UTF8GUARD_SIMD_INLINE simd8 check_shifted(simd8 input, simd8 prev1, simd8& leads,
                                          const constants& c) {
  const simd8 here = lead_flags(input, prev1, c);
  const simd8 must23 = here.template prev<2>(leads);
  leads = here;
  return check_pairs(input, prev1, must23, c);
}
// check is check_pairs for `input` after the register prev_input, from
// registers alone (where the bytes before `input` may not be in memory).
UTF8GUARD_SIMD_INLINE simd8 check(simd8 input, simd8 prev_input, simd8& leads, const constants& c) {
  return check_shifted(input, input.template prev<1>(prev_input), leads, c);
}
// check_at is check for `input`, the register at p, which is inside the
// input with the 3 bytes before it (SAFETY: the caller checked), with those
// bytes read from memory: prev1 always (an unaligned load instead of a byte
// shift across two registers, a shuffle like the three nibble lookups,
// where the load units have room), and the bytes 2 and 3
// back for the lead flags where the wrapper says leads_from_memory; else
// leads carries the flags, as in check. With leads_from_memory the register
// itself is loaded again, through an opaque pointer, rather than kept from
// the group's ASCII test: those wrappers have 16 registers, and a group's
// worth of inputs held live made g++ spill. kept(): see the wrappers.
UTF8GUARD_SIMD_INLINE simd8 check_at(const std::uint8_t* p, simd8 input, simd8& leads,
                                     const constants& c) {
  if constexpr (simd8::leads_from_memory) {
    asm("" : "+r"(p));
    return check_pairs(simd8::load(p).kept(), simd8::load(p - 1).kept(),
                       lead_flags(simd8::load(p - 2), simd8::load(p - 3), c), c);
  } else {
    return check_shifted(input, simd8::load(p - 1).kept(), leads, c);
  }
}

// is_incomplete is nonzero when the input ends with `last` inside a sequence.
UTF8GUARD_SIMD_INLINE simd8 is_incomplete(simd8 last) {
  return last.saturating_sub(simd8::load(kIncompleteMax.byte + 64 - simd8::width));
}

constexpr std::size_t W = simd8::width;
constexpr std::size_t kGroupRegs = simd8::group_regs;  // registers per error check
constexpr std::size_t kGroupBytes = kGroupRegs * W;
// After the first group the register before p[i], and the 3 bytes before
// each register of a group, are inside the input (before_at, check_at).
static_assert(kGroupBytes >= W + 3, "a group must hold a register and the bytes before it");

// The register before a position of the input and its lead flags: what
// check() needs to go on from there.
struct before {
  simd8 prev;
  simd8 leads;
};
// before_at is the register before p[i]: start (a stream's carried bytes)
// at i == 0, else read from memory (SAFETY: callers pass i == 0 or
// i >= kGroupBytes >= W + 3, so p[i - W - 1 .. i) is inside the input).
UTF8GUARD_SIMD_INLINE before before_at(const std::uint8_t* p, std::size_t i, before start) {
  if (i == 0) return start;
  const simd8 prev = simd8::load(p + i - W);
  return {prev, lead_flags(prev, simd8::load(p + i - W - 1), constants::make())};
}

// locate re-checks from p[i] (after the register `at`), one register at a
// time, and returns the first flagged position. It runs
// only after a group failed, so it stops within that group; an error flagged
// only past the end means the input ends inside a sequence, whose lead it
// then returns.
inline std::size_t locate(const std::uint8_t* p, std::size_t n, std::size_t i, before at) {
  const constants c = constants::make();
  simd8 prev = at.prev, leads = at.leads;
  // SAFETY: full loads only while W bytes remain.
  for (; n - i >= W; i += W) {
    const simd8 input = simd8::load(p + i);
    const std::size_t j = check(input, prev, leads, c).first_nonzero();
    if (j != W) return i + j;
    prev = input;
  }
  if (i < n) {
    const std::size_t j = check(simd8::load_partial(p + i, n - i), prev, leads, c).first_nonzero();
    if (j < n - i) return i + j;
  }
  return boundary_before(p, 0, n);
}

// or_range ORs the registers (of type R: simd8, or the wrapper's ascii_reg)
// First .. First + Count - 1 at p, written out
// at compile time: one load instruction per register, in address order (as
// two statements per split: g++ evaluates the operands of | right to left,
// and loaded a block from its end, which halved ASCII scans from memory).
// Aligned says p is aligned to R's width (see ascii_blocks).
// With a Stop byte (scan_no_percent, scan_no_backslash; 0: none) the
// registers' keys (simd8::key) are reduced by a signed minimum instead,
// which clean() tests.
template <class R, std::size_t First, std::size_t Count, bool Aligned, std::uint8_t Stop = 0>
UTF8GUARD_SIMD_INLINE R or_range(const std::uint8_t* p) {
  if constexpr (Count == 1) {
    const R x = Aligned ? R::load_aligned(p + First * R::width) : R::load(p + First * R::width);
    if constexpr (Stop != 0) return x.key(Stop);
    return x;
  } else {
    const R low = or_range<R, First, Count / 2, Aligned, Stop>(p);
    const R high = or_range<R, First + Count / 2, Count - Count / 2, Aligned, Stop>(p);
    if constexpr (Stop != 0) return min_signed(low, high);
    return low | high;
  }
}
// all_ascii says whether the Regs registers (of type R) at p are all ASCII
// (and, with a Stop byte, hold none).
template <std::size_t Regs, bool Aligned = false, class R = simd8, std::uint8_t Stop = 0>
UTF8GUARD_SIMD_INLINE bool all_ascii(const std::uint8_t* p) {
  if constexpr (Stop != 0) return or_range<R, 0, Regs, Aligned, Stop>(p).clean();
  return or_range<R, 0, Regs, Aligned>(p).is_ascii();
}

// ascii_blocks returns the end of the whole blocks of ASCII from p[i] on,
// one branch per 1 KiB block: called once per 4 KiB chunk of a stream, a
// loop with a branch per 256-byte group has its exit mispredicted at nearly
// every call, and a loop of four blocks far less often.
//
// Where the wrapper says align_blocks (SSE4.2), the blocks are read at
// W-aligned addresses, the bytes before the first one by one unaligned
// register. Read so, no load spans two cache lines (from an odd address one
// 16-byte load in four does), and legacy SSE folds the load into por, which
// takes only an aligned memory operand: one instruction per 16 bytes instead
// of a movdqu and a por. AVX2 and AVX-512 read from wherever the input
// starts: aligned, they stream ASCII from memory more slowly.
//
// The blocks are read by the wrapper's ascii_reg: AVX-512 reads them by
// 32-byte registers, which stream from memory faster there (avx512.hpp).
constexpr std::size_t kAsciiBytes = 1024;
template <std::uint8_t Stop = 0>
UTF8GUARD_SIMD_INLINE std::size_t ascii_blocks(const std::uint8_t* p, std::size_t n,
                                               std::size_t i) {
  if (n - i < kAsciiBytes) return i;  // short inputs first, at the cost of one compare
  const std::size_t skew =
      simd8::align_blocks ? (W - reinterpret_cast<std::uintptr_t>(p + i) % W) % W : 0;
  // SAFETY: the unaligned register and every block read are bounded by
  // n - i >= skew + kAsciiBytes, checked before each.
  if (skew != 0) {
    if (n - i - kAsciiBytes < skew || !all_ascii<1, false, simd8, Stop>(p + i)) return i;
    i += skew;
  }
  using R = simd8::ascii_reg;  // W-aligned is R-aligned: W is a multiple of its width
  while (n - i >= kAsciiBytes &&
         all_ascii<kAsciiBytes / R::width, simd8::align_blocks, R, Stop>(p + i)) {
    i += kAsciiBytes;
  }
  return i;
}

// ascii_run returns an end e >= i such that p[i..e) is ASCII: the blocks,
// then whole groups, then, when less than a group is left and all of it is
// ASCII, n, found by one group that ends at n and overlaps bytes already
// read (n >= kGroupBytes). So a chunk of ASCII is settled to its end without
// the full check, whatever its length and alignment.
UTF8GUARD_SIMD_INLINE std::size_t ascii_run(const std::uint8_t* p, std::size_t n, std::size_t i) {
  i = ascii_blocks(p, n, i);
  // SAFETY: each group read is bounded by n - i >= kGroupBytes; the last one
  // is p[n - kGroupBytes .. n), inside the input when n >= kGroupBytes.
  while (n - i >= kGroupBytes && all_ascii<kGroupRegs>(p + i)) i += kGroupBytes;
  if (i != n && n - i < kGroupBytes && n >= kGroupBytes &&
      all_ascii<kGroupRegs>(p + n - kGroupBytes)) {
    i = n;
  }
  return i;
}

// scan_from is the algorithm over p[0..n), after the register start.prev
// (the bytes before p[0]: a stream's carried bytes, or zeros) and its lead
// flags. With Open, an unfinished sequence at the very end is reported as
// open bytes, not as an error (kernels/kernel.hpp). With a Stop byte, a
// Stop in a group or register that holds no error so far stops the scan at
// once with pos kSawStop (scan_no_percent, scan_no_backslash).
template <bool Open, std::uint8_t Stop = 0>
UTF8GUARD_SIMD_INLINE open_scan scan_from(const std::uint8_t* p, std::size_t n,
                                          const before start) noexcept {
  const constants c = constants::make();
  simd8 error = simd8::zero();
  simd8 leads = start.leads;  // the lead flags before p[i] (unused where leads_from_memory)
  std::size_t i = 0;
  // SAFETY: every load of a group is inside p[i .. i + kGroupBytes) <= n.
  while (n - i >= kGroupBytes) {
    simd8 in[kGroupRegs];
    for (std::size_t k = 0; k < kGroupRegs; ++k) in[k] = simd8::load(p + i + k * W);
    simd8 any_high = in[0];
    for (std::size_t k = 1; k < kGroupRegs; ++k) any_high = any_high | in[k];
    simd8 stops = simd8::zero();
    if constexpr (Stop != 0) {
      for (std::size_t k = 0; k < kGroupRegs; ++k) stops = stops | in[k].eq(Stop);
      any_high = any_high | stops;
    }
    if (any_high.is_ascii()) {
      // ASCII cannot finish a sequence the previous group left open, and
      // leaves no third or fourth byte due.
      error = error | is_incomplete(before_at(p, i, start).prev);
      if (error.any()) return {locate(p, n, i, before_at(p, i, start)), 0, 0};
      // The ASCII that follows costs its loads and an OR each: by blocks,
      // then by groups. (Not ascii_run: inlined here, its overlapping last
      // group makes g++ spill the lookup tables to the stack, which short
      // inputs of ASCII pay for.)
      i = ascii_blocks<Stop>(p, n, i + kGroupBytes);
      // SAFETY: each group read is bounded by n - i >= kGroupBytes.
      while (n - i >= kGroupBytes && all_ascii<kGroupRegs, false, simd8, Stop>(p + i)) {
        i += kGroupBytes;
      }
      // Any register of ASCII checks the next one as zeros do: ASCII bytes
      // share their class in all three tables and flag no lead.
      leads = simd8::zero();
      continue;
    }
    if constexpr (Stop != 0) {
      if (stops.any()) return {kSawStop, 0, 0};
    }
    // The bytes before each register are read from memory (check_at), but
    // for the input's first register, which follows bytes that may not be
    // in memory: a stream's carried bytes, in start.
    //
    // The error accumulator is kept() after each register, so that each
    // register's check is folded in before the next one starts: left free,
    // g++ reassociates the chain of ORs (and the ANDs inside check_pairs)
    // into one tree at the group's end, computes every register's lookups
    // first and spills many of them to the stack per group (SSE4.2 and AVX2,
    // which have 16 vector registers). Kept, the group loop spills none.
    // SAFETY: i != 0 means i >= kGroupBytes >= W + 3; the registers at
    // k >= 1 read from p + i + k * W - 3 >= p.
    if (i != 0) {
      error = (error | check_at(p + i, in[0], leads, c)).kept();
    } else {
      error = (error | check(in[0], start.prev, leads, c)).kept();
    }
    for (std::size_t k = 1; k < kGroupRegs; ++k) {
      error = (error | check_at(p + i + k * W, in[k], leads, c)).kept();
    }
    if (error.any()) return {locate(p, n, i, before_at(p, i, start)), 0, 0};
    i += kGroupBytes;
  }
  // The tail: whole registers, then the last partial one, zero-padded; the
  // padding is ASCII, so it flags a sequence the input leaves unfinished.
  // An open scan that ends where a group does (a 4 KiB stream chunk) has
  // none, and skips setting up the register before it, a part of every
  // feed's fixed cost.
  const std::size_t tail = i;
  bool tail_open_failed = false;  // Open: a flag inside the last partial register
  if (!Open || i != n) {
    const before at_tail = before_at(p, i, start);
    simd8 prev = at_tail.prev;
    leads = at_tail.leads;
    for (; n - i >= W; i += W) {
      const simd8 input = simd8::load(p + i);
      if constexpr (Stop != 0) {
        if (input.eq(Stop).any()) return {kSawStop, 0, 0};
      }
      error = error | check(input, prev, leads, c);
      prev = input;
    }
    if (i < n) {
      const simd8 partial = simd8::load_partial(p + i, n - i);  // zero-padded: no Stop
      if constexpr (Stop != 0) {
        if (partial.eq(Stop).any()) return {kSawStop, 0, 0};
      }
      const simd8 last = check(partial, prev, leads, c);
      if constexpr (Open) {
        // Flags in the padding only say that the input ends inside a
        // sequence: open bytes, if they start with a lead that wants more.
        tail_open_failed = last.first_nonzero() < n - i;
      } else {
        error = error | last;
      }
    } else if constexpr (!Open) {
      error = error | is_incomplete(prev);
    }
  }
  if constexpr (Open) {
    // The last bytes by a vector load (n >= 3 here), not byte loads, which
    // wait for a chunk's end to come from memory one by one, a wait a stream
    // of small chunks would pay on every feed. A last register
    // of ASCII leaves the hint (core/carry.hpp) for the next chunk.
    std::uint32_t last = 0, hint = 0;
    if (n >= W) {
      const simd8 end = simd8::load(p + n - W);
      last = end.top_word();
      hint = end.is_ascii() ? kAsciiHint : 0;
    } else {
      last = last_bytes(p, n);
    }
    const std::uint32_t open = open_length(last);
    const std::uint32_t open_bytes = open_word(last, open);
    if (!error.any() && !tail_open_failed && open_lead_ok(open_bytes, open)) {
      return {n, open, open_bytes | hint};
    }
  } else {
    if (!error.any()) return {n, 0, 0};
  }
  return {locate(p, n, tail, before_at(p, tail, start)), 0, 0};
}

// scan_open_body is scan_open from p[i] on, where p[0..i) is ASCII (i is 0,
// or the ASCII the hint let scan_open pass): p[i..n) is scanned as if
// it started a stream after prior. Out of line, so that a chunk the hint
// settles costs its loads and no frame; i is passed in, so that scan_open
// jumps here rather than calls.
__attribute__((noinline)) inline open_scan scan_open_body(const std::uint8_t* p, std::size_t n,
                                                          std::uint32_t prior,
                                                          std::size_t i) noexcept {
  const std::uint8_t* const q = p + i;  // SAFETY: i <= n
  const std::size_t m = n - i;
  open_scan r{};
  if (m < 3) {
    r = stitched_open(q, m, prior);
  } else {
    // The register before q: the bytes a stream carried over (after the
    // hint's ASCII, the hint's word: ASCII, as p[i - 1] is), with the bytes
    // before them as ASCII (they were a boundary), and its lead flags.
    const simd8 prev = simd8::last_word(prior);
    const simd8 leads = lead_flags(prev, prev.template prev<1>(simd8::zero()), constants::make());
    r = scan_from<true>(q, m, {prev, leads});
  }
  r.pos += i;
  return r;
}

// scan_whole is scan's body, out of line: with the test for short ASCII in
// the same function, g++ allocates the group loop's registers worse (more
// register moves per group).
__attribute__((noinline)) inline std::size_t scan_whole(const std::uint8_t* p,
                                                        std::size_t n) noexcept {
  return scan_from<false>(p, n, {simd8::zero(), simd8::zero()}).pos;
}

// scan_no_percent is scan for percent-encoded input without a '%': the same
// check, and a '%' (a compare and an OR per register, on the ASCII path too)
// returns kSawStop unless an error that no escape can mend came first.
// scan_no_backslash is the same for JSON text and its backslash.
__attribute__((noinline)) inline std::size_t scan_no_percent(const std::uint8_t* p,
                                                             std::size_t n) noexcept {
  return scan_from<false, kPercent>(p, n, {simd8::zero(), simd8::zero()}).pos;
}
__attribute__((noinline)) inline std::size_t scan_no_backslash(const std::uint8_t* p,
                                                               std::size_t n) noexcept {
  return scan_from<false, kBackslash>(p, n, {simd8::zero(), simd8::zero()}).pos;
}

// short_check checks an input of at most two registers, read by masked
// loads (the wrapper's short_masked): no branch on where it ends, and none on
// its content but one on ASCII, which settles most header values and keys
// before the check's constants are set up. It says whether the input is
// ASCII, well-formed, or holds an error. The zero padding is ASCII: it flags
// a sequence left unfinished before it, and is_incomplete flags one at the
// end of a full register.
// With Copy, a well-formed input is also stored to out[0..n) from the same
// registers (short_copy). With Open (scan_open's short path), a sequence
// left unfinished at the end is no error: only flags before p[n] count, and
// an input whose other flags are all at or after p[n] is `open`: the caller
// checks the open bytes. `valid` then means that none is left open.
// (R is simd8: a parameter, so that only the masked wrappers need stores.)
// With flagged (scan and validate), an error's first flagged position, or n
// when only the end is, is stored there.
enum class short_verdict { ascii, valid, open, error };
template <bool Copy = false, bool Open = false, class R = simd8>
UTF8GUARD_SIMD_INLINE short_verdict short_check(const std::uint8_t* p, std::size_t n,
                                                std::uint8_t* out = nullptr,
                                                std::size_t* flagged = nullptr) {
  simd8 leads = simd8::zero();
  short_verdict v = short_verdict::ascii;
  // SAFETY: masked loads read p[0..n) only, and masked stores write
  // out[0..n) only.
  if (n <= W) {
    const R x = R::load_partial(p, n);
    if (!x.is_ascii()) {
      const constants c = constants::make();
      const simd8 e = check(x, simd8::zero(), leads, c);
      v = short_verdict::valid;
      if ((e | is_incomplete(x)).any()) {
        if (flagged != nullptr) *flagged = std::min(e.first_nonzero(), n);
        if (!Open || e.first_nonzero() < n) return short_verdict::error;
        v = short_verdict::open;
      }
    }
    if constexpr (Copy) x.store_partial(out, n);
    return v;
  }
  const R x0 = R::load(p);
  const R x1 = R::load_partial(p + W, n - W);
  if (!(x0 | x1).is_ascii()) {
    const constants c = constants::make();
    const simd8 e0 = check(x0, simd8::zero(), leads, c);
    const simd8 e1 = check(x1, x0, leads, c);
    v = short_verdict::valid;
    if ((e0 | e1 | is_incomplete(x1)).any()) {
      if (flagged != nullptr) {
        const std::size_t j0 = e0.first_nonzero();
        *flagged = std::min(j0 + (j0 == W ? e1.first_nonzero() : 0), n);
      }
      if (!Open || e0.any() || e1.first_nonzero() < n - W) return short_verdict::error;
      v = short_verdict::open;
    }
  }
  if constexpr (Copy) {
    x0.store(out);
    x1.store_partial(out + W, n - W);
  }
  return v;
}
// short_error says whether such an input holds an error.
UTF8GUARD_SIMD_INLINE bool short_error(const std::uint8_t* p, std::size_t n) {
  return short_check(p, n) == short_verdict::error;
}

// short_stop is where scan stops in a short input whose check flagged j
// first (n: only its end): j, or the lead of the sequence left unfinished
// at the end, as locate returns it. The check's own flags give it, with no
// second pass; out of line, so that the paths of valid input set up no frame.
__attribute__((noinline)) inline std::size_t short_stop(const std::uint8_t* p, std::size_t n,
                                                        std::size_t j) noexcept {
  return j < n ? j : boundary_before(p, 0, n);
}

// scan and scan_open are the kernel's entry points (kernels/kernel.hpp).
inline std::size_t scan(const std::uint8_t* p, std::size_t n) noexcept {
  if constexpr (simd8::short_masked) {
    if (n <= 2 * W) {
      std::size_t j = n;
      return short_check(p, n, nullptr, &j) == short_verdict::error ? short_stop(p, n, j) : n;
    }
    return scan_whole(p, n);
  }
  if (is_short_ascii(p, n)) return n;
  return scan_whole(p, n);
}
// valid is scan's yes or no: a short input needs no locate, and a long one
// is answered out of line, so that the short path sets up no frame.
__attribute__((noinline)) inline bool valid_whole(const std::uint8_t* p, std::size_t n) noexcept {
  return scan(p, n) == n;
}
inline bool valid(const std::uint8_t* p, std::size_t n) noexcept {
  if constexpr (simd8::short_masked) {
    if (n <= 2 * W) return !short_error(p, n);
  }
  return valid_whole(p, n);
}
// short_copy is the kernel's short_copy (core/scan.hpp): valid, a
// well-formed input stored from the registers that checked it, and an
// ill-formed one handed on to the caller's rest by a jump.
template <bool Masked = simd8::short_masked>
inline std::size_t short_copy(const std::uint8_t* p, std::size_t n, char* out, std::size_t capacity,
                              sanitize_rest_fn rest) noexcept {
  static_assert(Masked && kShortCopy <= 2 * W, "a masked kernel's two registers hold kShortCopy");
  if (short_check<true>(p, n, reinterpret_cast<std::uint8_t*>(out)) != short_verdict::error) {
    return n;
  }
  return rest(p, n, out, capacity);
}
// validate is the kernel's validate (kernels/kernel.hpp) in the same shape:
// a short input's valid path writes its result and returns, with no frame.
__attribute__((noinline)) inline packed_result validate_whole(const std::uint8_t* p,
                                                              std::size_t n) noexcept {
  return validate_at(p, n, scan(p, n));
}
inline packed_result validate(const std::uint8_t* p, std::size_t n) noexcept {
  if constexpr (simd8::short_masked) {
    // An error is classified from the first flagged position (classify_scan
    // takes n, where only the end is flagged, as it takes any stop).
    if (n <= 2 * W) {
      std::size_t j = n;
      if (short_check(p, n, nullptr, &j) != short_verdict::error) return kPackedOk;
      return classify_scan(p, n, j);
    }
  }
  return validate_whole(p, n);
}
inline open_scan scan_open(const std::uint8_t* p, std::size_t n, std::uint32_t prior) noexcept {
  if constexpr (simd8::short_masked) {
    // A short chunk (1..2W bytes) after one that left nothing open, as a
    // stream of header values or keys feeds them: the masked check, then,
    // only if it ends inside a sequence, the open bytes from the last
    // three. An error is located by the general path.
    if (prior <= kAsciiHint && n - 1 <= 2 * W - 1) {
      const short_verdict v = short_check<false, true>(p, n);
      if (v == short_verdict::ascii) return {n, 0, kAsciiHint};
      if (v == short_verdict::valid) return {n, 0, 0};
      if (v == short_verdict::open) {
        const std::uint32_t last = last_bytes_after_boundary(p, n);
        const std::uint32_t open = open_length(last);
        const std::uint32_t open_bytes = open_word(last, open);
        if (open_lead_ok(open_bytes, open)) return {n, open, open_bytes};
      }
      return scan_open_body(p, n, prior, 0);
    }
  }
  std::size_t i = 0;
  if (prior == kAsciiHint) {
    // The chunk before ended in ASCII (core/carry.hpp): a stream of ASCII is
    // settled by ascii_run, with no setup for the full check.
    i = ascii_run(p, n, 0);
    if (i == n) return {n, 0, kAsciiHint};
  }
  return scan_open_body(p, n, prior, i);
}

}  // namespace lookup
