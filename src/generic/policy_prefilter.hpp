// policy_prefilter.hpp - the policy's vector prefilter, written once.
//
// No include guard on purpose: each kernel file (src/kernels/) includes
// this file inside its ISA's namespace and target region, after that ISA's
// wrapper (src/simd/<isa>.hpp, struct simd8). It needs core/policy.hpp's
// prefilter_tables.
//
// Every character a policy can deny is flagged by the byte classes of
// core/policy.hpp's kPrefilterHigh/kPrefilterLow, unions of products (high
// nibble x low nibble), one bit each: two 16-entry lookups and an AND
// classify 16, 32 or 64 bytes at once, as the validation lookups do (Keiser
// and Lemire). The tables' bits of the categories the policy allows are
// cleared.
//
// A lead byte alone would stop the prefilter at every Arabic letter (D8),
// every no-break space (C2 A0) and every emoji (F0), so most classes count
// only with the byte after them that one of their denied characters has
// (two more lookups, on that byte): C2 80..9F, D8 9C, E2 80..81, EE/EF
// B7/BB/BF (80..BF when private use is denied), and for the noncharacters
// above U+FFFF their second and third bytes, 8F/9F/AF/BF then BF. The ASCII
// classes count alone, and so do F3 and F4 (the private use planes), from a
// class of the byte-after tables.

namespace policy_prefilter {

// The byte-after classes are core/policy.hpp's kSecondHigh and kSecondLow,
// narrowed per policy (prefilter_tables); the classes that count alone are
// its kPrefilterAlone. core/policy.hpp's vector_flags_at is flags() one byte
// at a time, for its compile-time checks: change both together.
// How far before a flagged byte its character may start: a pair is
// flagged at its second byte, and a noncharacter's lead is one byte before
// its pair.
constexpr std::size_t kBackUp = 2;

// The tables as registers.
struct tables {
  simd8 first_high, first_low, second_high, second_low, alone, f3_f4;
  static UTF8GUARD_SIMD_INLINE tables make(const prefilter_tables& t) {
    return {simd8::repeat_16(t.high),        simd8::repeat_16(t.low),
            simd8::repeat_16(t.second_high), simd8::repeat_16(t.second_low),
            simd8::splat(kPrefilterAlone),   simd8::splat(t.f3_f4)};
  }
};

// flags is nonzero at the bytes of v that are flagged, given the classes of
// the register before it (before), which it then sets to v's classes.
// F3F4: the policy denies private use, and F3 and F4 count alone (no
// profile does: without them the check costs one operation less).
template <bool F3F4>
UTF8GUARD_SIMD_INLINE simd8 flags(const simd8& v, simd8& before, const tables& k) {
  const simd8 c = v.high_nibble_lookup(k.first_high) & v.low_nibble_lookup(k.first_low);
  const simd8 second = v.high_nibble_lookup(k.second_high) & v.low_nibble_lookup(k.second_low);
  const simd8 lead = c.template prev<1>(before);
  before = c;
  if constexpr (F3F4) return (c & k.alone) | ((lead | k.f3_f4) & second);
  return (c & k.alone) | (lead & second);
}

// first_flag is the offset of the first flagged byte of the group at p,
// whose flags are not all zero, after the register whose classes are in
// before: the group's flags again, register by register (an ASCII group
// through flags too: its classes count alone, and no lead comes before it).
// Out of line: it runs once per stop.
template <bool F3F4>
__attribute__((noinline)) std::size_t first_flag(const std::uint8_t* p, simd8 before,
                                                 const prefilter_tables& t) noexcept {
  const tables k = tables::make(t);
  std::size_t r = 0;
  for (; r < 3; ++r) {
    const std::size_t j = flags<F3F4>(simd8::load(p + r * simd8::width), before, k).first_nonzero();
    if (j != simd8::width) return r * simd8::width + j;
  }
  return r * simd8::width +
         flags<F3F4>(simd8::load(p + r * simd8::width), before, k).first_nonzero();
}

// quiet_groups is quiet_prefix (below) for one value of F3F4.
template <bool F3F4>
quiet_run quiet_groups(const std::uint8_t* p, std::size_t n, const prefilter_tables& t) noexcept {
  constexpr std::size_t kGroup = 4 * simd8::width;
  const tables k = tables::make(t);
  simd8 before = simd8::zero();  // the classes of the register before
  std::size_t i = 0;
  // SAFETY: a group is read only when i + kGroup <= n.
  for (; n - i >= kGroup; i += kGroup) {
    simd8 x[4];
    for (std::size_t r = 0; r < 4; ++r) x[r] = simd8::load(p + i + r * simd8::width);
    simd8 hits = simd8::zero();
    const simd8 group_before = before;
    if (((x[0] | x[1]) | (x[2] | x[3])).is_ascii()) {
      // ASCII alone: no lead, so only the classes that count alone, and no
      // lead class carried into the next group.
      for (const simd8& v : x) {
        hits = hits | (v.high_nibble_lookup(k.first_high) & v.low_nibble_lookup(k.first_low));
      }
      before = simd8::zero();
    } else {
      for (const simd8& v : x) hits = hits | flags<F3F4>(v, before, k);
    }
    if (hits.any()) {
      // Where: the scalar check then starts at the flagged character, not
      // at the group, which it would check again and again.
      const std::size_t at = i + first_flag<F3F4>(p + i, group_before, t);
      return {at < kBackUp ? 0 : at - kBackUp, true};
    }
  }
  // The registers left, the last one partial (the padding's flags lie past
  // n and do not count): a short input, such as a decoded URL, is settled
  // here, not by the scalar blocks.
  // SAFETY: a whole register is read only when i + W <= n; load_partial
  // reads p[i..n) only.
  for (; i < n; i += simd8::width) {
    const std::size_t left = n - i;
    const simd8 v = left >= simd8::width ? simd8::load(p + i) : simd8::load_partial(p + i, left);
    const std::size_t j = flags<F3F4>(v, before, k).first_nonzero();
    if (j < left && j != simd8::width) {
      const std::size_t at = i + j;
      return {at < kBackUp ? 0 : at - kBackUp, true};
    }
  }
  return {n, false};
}

// kQuietBlock is quiet_ascii's block, 1 KiB as the kernels' runs of ASCII.
constexpr std::size_t kQuietBlock = 1024;
// load_once is a block's register, read by one load. With VEX, g++ folds
// one load into each of the minimum and the maximum unless the register is
// kept(); legacy SSE (align_blocks) folds no unaligned load, and kept()
// there costs a copy.
UTF8GUARD_SIMD_INLINE simd8 load_once(const std::uint8_t* p) {
  if constexpr (simd8::align_blocks) return simd8::load(p);
  return simd8::load(p).kept();
}

// quiet_ascii returns a length r such that every byte of p[0..r) is in
// range, an interval of ASCII that the policy allows whole (core/policy.hpp's
// kQuietAscii), and, with a stop byte (0: none), is not it: r is n, or the
// first byte that is outside it or the stop byte. Such bytes are one
// character each, so p[0..r) is well-formed, holds no violation and ends at
// a character boundary. It is the policy's fast path for ASCII: one pass in
// place of the kernel's scan and the prefilter, at an unsigned minimum and
// maximum per register where the scan's ASCII test costs an OR.
//
// A stop byte (JSON text's backslash) is seen by the keys' minimum (simd8::
// key: ASCII but the stop byte 1..7F, the stop byte 0, the rest 80 and
// above): unsigned beside the minimum and maximum, or, where the range is
// all ASCII (KeysOnly: 00..7F, the json profile's), signed and alone, as the
// kernels' scan_no_backslash tests it, at the cost of the range's test.
template <bool Stop, bool KeysOnly>
std::size_t quiet_until(const std::uint8_t* p, std::size_t n, ascii_range range,
                        std::uint8_t stop) noexcept {
  constexpr std::size_t W = simd8::width;
  const simd8 lo = simd8::splat(range.lo), hi = simd8::splat(range.hi), one = simd8::splat(1);
  // outside is nonzero at the bytes of [mn, mx] below lo or above hi, and
  // with Stop where the keys' minimum mk is 0.
  const auto outside = [&](const simd8& mn, const simd8& mx, const simd8& mk) {
    const simd8 out = lo.saturating_sub(mn) | mx.saturating_sub(hi);
    if constexpr (Stop) return out | one.saturating_sub(mk);
    return out;
  };
  // at is outside for one register: nonzero exactly at its bytes that stop.
  const auto at = [&](const simd8& x) { return outside(x, x, Stop ? x.key(stop) : x); };
  // quiet_keys says whether registers whose keys' signed minimum is mk are
  // ASCII without the stop byte (KeysOnly).
  const auto quiet_keys = [](const simd8& mk) { return mk.clean(); };
  std::size_t i = 0;
  // SAFETY: a block is read only when i + kQuietBlock <= n, a group when
  // i + 4 * W <= n, a register when i + W <= n, the last register at n - W
  // when n >= W, and a partial one (masked or from words) reads p[0..n)
  // only.
  // groups reads whole groups from p[i] while i < limit: true when it reads
  // them all, false when one holds a byte that stops, at p[i] (the registers
  // below find where).
  const auto groups = [&](std::size_t limit) {
    for (; n - i >= 4 * W && i < limit; i += 4 * W) {
      const simd8 x0 = simd8::load(p + i), x1 = simd8::load(p + i + W);
      const simd8 x2 = simd8::load(p + i + 2 * W), x3 = simd8::load(p + i + 3 * W);
      if constexpr (KeysOnly) {
        if (!quiet_keys(min_signed(min_signed(x0.key(stop), x1.key(stop)),
                                   min_signed(x2.key(stop), x3.key(stop))))) {
          return false;
        }
      } else {
        const simd8 mn = min_unsigned(min_unsigned(x0, x1), min_unsigned(x2, x3));
        const simd8 mx = max_unsigned(max_unsigned(x0, x1), max_unsigned(x2, x3));
        const simd8 mk = Stop ? min_unsigned(min_unsigned(x0.key(stop), x1.key(stop)),
                                             min_unsigned(x2.key(stop), x3.key(stop)))
                              : mn;
        if (outside(mn, mx, mk).any()) return false;
      }
    }
    return true;
  };
  // With a stop byte, the first block is read by groups: a stop near the
  // start (a JSON body's first escape) is then found without reading a whole
  // block past it, which the caller's next call reads again.
  const bool start_quiet = !Stop || groups(kQuietBlock);
  // Blocks first: one branch per block, and four minima and maxima side by
  // side, so that no chain of dependent operations sets the pace.
  for (; start_quiet && n - i >= kQuietBlock; i += kQuietBlock) {
    simd8 mn[4], mx[4], mk[4];
    for (std::size_t k = 0; k < 4; ++k) {
      mn[k] = mx[k] = load_once(p + i + k * W);
      if constexpr (Stop) mk[k] = mn[k].key(stop);
    }
    for (std::size_t r = 4; r < kQuietBlock / W; r += 4) {
      for (std::size_t k = 0; k < 4; ++k) {
        const simd8 x = load_once(p + i + (r + k) * W);
        if constexpr (KeysOnly) {
          mk[k] = min_signed(mk[k], x.key(stop));
        } else {
          mn[k] = min_unsigned(mn[k], x);
          mx[k] = max_unsigned(mx[k], x);
          if constexpr (Stop) mk[k] = min_unsigned(mk[k], x.key(stop));
        }
      }
    }
    if constexpr (KeysOnly) {
      if (!quiet_keys(min_signed(min_signed(mk[0], mk[1]), min_signed(mk[2], mk[3])))) break;
    } else if (outside(min_unsigned(min_unsigned(mn[0], mn[1]), min_unsigned(mn[2], mn[3])),
                       max_unsigned(max_unsigned(mx[0], mx[1]), max_unsigned(mx[2], mx[3])),
                       min_unsigned(min_unsigned(mk[0], mk[1]), min_unsigned(mk[2], mk[3])))
                   .any()) {
      break;  // the groups below find where
    }
  }
  if (start_quiet) groups(n);
  for (; n - i >= W; i += W) {
    const std::size_t j = at(simd8::load(p + i)).first_nonzero();
    if (j != W) return i + j;
  }
  if (i == n) return n;
  if (n >= W) {  // the last register, over bytes already found inside
    const std::size_t j = at(simd8::load(p + n - W)).first_nonzero();
    return j == W ? n : n - W + j;
  }
  // Shorter than a register: the zero padding is below lo, or in range and
  // no stop byte, so only the flags before p[n] count.
  const std::size_t j = at(simd8::load_partial(p, n)).first_nonzero();
  return j >= n ? n : j;
}
inline std::size_t quiet_ascii(const std::uint8_t* p, std::size_t n, ascii_range range,
                               std::uint8_t stop) noexcept {
  if (stop == 0) return quiet_until<false, false>(p, n, range, 0);
  if (range.lo == 0 && range.hi == 0x7F) return quiet_until<true, true>(p, n, range, stop);
  return quiet_until<true, false>(p, n, range, stop);
}

// quiet_prefix returns how many bytes from p[0] hold no byte that may start
// a denied character: up to kBackUp bytes before the first flagged byte, or
// n when none is. The caller checks what follows a flagged byte exactly.
inline quiet_run quiet_prefix(const std::uint8_t* p, std::size_t n,
                              const prefilter_tables& t) noexcept {
  return t.f3_f4 != 0 ? quiet_groups<true>(p, n, t) : quiet_groups<false>(p, n, t);
}

}  // namespace policy_prefilter
