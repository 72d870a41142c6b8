// avx512_emulated - the two AVX-512 kernels (avx512bw; avx512, with VBMI),
// compiled from their own source over SIMDe's portable intrinsics
// (tests/emulated/), against the reference oracle: the checks the kernel
// self-check runs on its fixed inputs (tests/support/kernel_check.hpp:
// kind, offset and length through the driver; scan's position contract;
// scan_open with and without the ASCII hint, and with the input's first
// sequence carried in from a previous chunk), here on whatever the engine
// finds. On CPUs without AVX-512 (this project's CI machines among them) no
// other fuzz target reaches this source.
//
// Where the CPU runs AVX-512, each emulated kernel must also answer exactly as
// the library's compiled kernel of the same source: one source, the
// compiler's AVX-512 code on one side and each intrinsic at the meaning
// Intel documents on the other, so any difference is a code generation or
// emulation fault, not a freedom of the scan contract.
//
// Each input runs on one of the two bodies under a fuzzing engine, the one
// fuzz::sampled picks from its hash (both in the replay): emulated SIMD under
// ASan is slow, and a campaign meets both.
#include <string>
#include <vector>

#include "emulated_avx512.hpp"
#include "fuzz_common.hpp"
#include "kernel_check.hpp"

namespace {

constexpr const char* kTarget = "avx512_emulated";
using utf8guard::detail::kernel;
using utf8guard::detail::open_scan;

// compiled_body is the library's own kernel of the emulated one's source
// ("avx512bw-emulated" -> "avx512bw"), when this CPU runs it.
const kernel* compiled_body(const kernel& emulated) {
  const std::string name(emulated.name);
  const std::string compiled = name.substr(0, name.rfind("-emulated"));
  const kernel* k = utf8guard::detail::find_kernel(compiled.data(), compiled.size());
  return k != nullptr && utf8guard::detail::usable(*k) ? k : nullptr;
}

bool same(const open_scan& a, const open_scan& b) {
  return a.pos == b.pos && a.open == b.open && a.tail == b.tail;
}

// compare_bodies lists where the two bodies answer differently on in: scan,
// and scan_open after no prior, after the ASCII hint, and with each valid
// number of bytes of the input's first multi-byte sequence carried in
// (kcheck::first_carry_point, as check_all cuts it), the chunk then being
// the bytes after them.
void compare_bodies(const kernel& emulated, const kernel& compiled, std::string_view in,
                    std::vector<fuzz::answer>& differences) {
  const std::string who = std::string(emulated.name) + " vs " + compiled.name;
  const std::uint8_t* p = kcheck::bytes_of(in);
  const std::size_t n = in.size();
  const std::size_t mine = emulated.scan(p, n), theirs = compiled.scan(p, n);
  // (Strings are appended to: GCC 12's -Wrestrict misfires on a literal + std::string.)
  if (mine != theirs) {
    std::string what = "scan ";
    what += std::to_string(mine);
    what += " vs ";
    what += std::to_string(theirs);
    differences.push_back({who, what});
  }
  // (prior, where the chunk starts)
  std::vector<std::pair<std::uint32_t, std::size_t>> starts = {{0, 0},
                                                               {utf8guard::detail::kAsciiHint, 0}};
  const kcheck::carry_point cut = kcheck::first_carry_point(in);
  for (std::size_t t = 1; t <= cut.span && cut.at + t <= n; ++t) {
    starts.emplace_back(utf8guard::detail::prior_word(p + cut.at, t), cut.at + t);
  }
  for (const auto& [prior, skip] : starts) {
    const open_scan a = emulated.scan_open(p + skip, n - skip, prior);
    const open_scan b = compiled.scan_open(p + skip, n - skip, prior);
    if (!same(a, b)) {
      std::string what = "scan_open(prior ";
      what += std::to_string(prior);
      what += ") ";
      what += kcheck::describe_open(a);
      what += " vs ";
      what += kcheck::describe_open(b);
      differences.push_back({who, what});
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<const kernel*> emulated = utf8guard::testing::emulated_avx512_bodies();
  const std::string_view input = fuzz::as_view(data, size);
  // Every position of a 64-byte register comes up as sizes vary, and a read
  // past the end meets ASan's redzone (the emulated masked load reads only
  // the bytes its mask selects, as the instruction does).
  const fuzz::misaligned_copy shifted(input, 1 + size % 63);

  // One body per input when fuzzing, both in the replay (fuzz::sampled).
  const std::vector<const kernel*> to_try = fuzz::sampled(emulated, data, size);

  std::vector<fuzz::answer> oracle, bodies;
  kcheck::check_all(to_try, shifted.view, [&](const std::string& why) {
    oracle.push_back({"oracle", why});
  });
  for (const kernel* e : to_try) {
    if (const kernel* c = compiled_body(*e)) compare_bodies(*e, *c, shifted.view, bodies);
  }
  if (!oracle.empty()) {
    fuzz::fail(kTarget, "an emulated AVX-512 body disagrees with the oracle", input, oracle);
  }
  if (!bodies.empty()) {
    fuzz::fail(kTarget, "an emulated AVX-512 body and the compiled one disagree", input, bodies);
  }
  return 0;
}
