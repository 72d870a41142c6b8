// dispatch.cpp - choosing the kernel: lazy, atomic, overridable, silent.
//
// The active kernel is an atomic pointer resolved on first use, so there is no
// global constructor and no init call. Racing first calls all compute the same
// answer and store it; any of them may win. UTF8GUARD_KERNEL=name forces a
// kernel for tests, fuzzing and benchmarks; a name that is unknown or not
// usable here is ignored (the library never prints or aborts) and explained by
// utf8guard_kernel_env_error(), which the CLI reports.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "kernels/dispatch.hpp"

namespace utf8guard::detail {

extern const kernel kernel_scalar;
#include "kernels/kernel_list.inc"

// Constant-initialized (a nullptr): no global constructor.
std::atomic<const kernel*> g_active{nullptr};

// The helpers compiled for the active kernel's instruction set
// (core/policy.hpp, core/percent.hpp): nullptr where the scalar loops serve.
vector_policy_fns vector_policy() noexcept {
  const kernel& k = active_kernel_ref();
  return {k.policy_prefilter, k.quiet_ascii};
}

percent_decode_fn vector_percent_decoder() noexcept { return active_kernel_ref().percent_decode; }

json_decode_fn vector_json_decoder() noexcept { return active_kernel_ref().json_decode; }

namespace {

constexpr const kernel* kAll[] = {&kernel_scalar UTF8GUARD_SIMD_KERNELS};
constexpr std::size_t kCount = sizeof(kAll) / sizeof(kAll[0]);

const kernel* best_usable() noexcept {
  for (std::size_t i = kCount; i-- > 0;) {
    if (usable(*kAll[i])) return kAll[i];
  }
  return &kernel_scalar;
}

// What UTF8GUARD_KERNEL asks for, read once: the forced kernel (nullptr for
// "best" or unset) and, when the request cannot be honoured, why.
struct env_request {
  const kernel* forced = nullptr;
  char error[320] = {};
};

// The name as the message quotes it: at most 32 bytes, non-printable bytes
// shown as '?', so the CLI can print the message as it is.
void quote_name(const char* name, char (&out)[40]) noexcept {
  std::size_t i = 0;
  for (; name[i] != '\0' && i < 32; ++i) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    out[i] = (c >= 0x20 && c < 0x7F) ? static_cast<char>(c) : '?';
  }
  if (name[i] != '\0') out[i++] = '.', out[i++] = '.', out[i++] = '.';
  out[i] = '\0';
}

}  // namespace

void explain_kernel_request(const char* name, const kernel* found, const char* fallback, char* out,
                            std::size_t cap) noexcept {
  char quoted[40];
  quote_name(name, quoted);
  if (found == nullptr) {
    char list[96] = {};
    std::size_t used = 0;
    for (const kernel* each : kAll) {
      const int w =
          std::snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "", each->name);
      if (w < 0 || static_cast<std::size_t>(w) >= sizeof list - used) break;
      used += static_cast<std::size_t>(w);
    }
    std::snprintf(out, cap, "UTF8GUARD_KERNEL=%s: no such kernel (compiled: %s, or best); using %s",
                  quoted, list, fallback);
  } else {
    std::snprintf(out, cap,
                  "UTF8GUARD_KERNEL=%s: this CPU or OS cannot run the %s kernel (it needs %s); "
                  "using %s",
                  quoted, found->name, found->target, fallback);
  }
}

namespace {

env_request read_env() noexcept {
  env_request r;
  const char* env = std::getenv("UTF8GUARD_KERNEL");
  if (env == nullptr || *env == '\0' || std::strcmp(env, "best") == 0) return r;
  const kernel* k = find_kernel(env, std::strlen(env));
  if (k != nullptr && usable(*k)) {
    r.forced = k;
    return r;
  }
  explain_kernel_request(env, k, best_usable()->name, r.error, sizeof r.error);
  return r;
}

// A function-local static: initialized once, thread-safely, on first use.
const env_request& env() noexcept {
  static const env_request request = read_env();
  return request;
}

}  // namespace

const kernel* const* kernel_list(std::size_t& count) noexcept {
  count = kCount;
  return kAll;
}

const kernel* find_kernel(const char* name, std::size_t len) noexcept {
  for (const kernel* k : kAll) {
    if (std::strlen(k->name) == len && std::memcmp(k->name, name, len) == 0) return k;
  }
  return nullptr;
}

const kernel& resolve_active() noexcept {
  const kernel* k = g_active.load(std::memory_order_acquire);
  if (k == nullptr) {
    const kernel* forced = env().forced;
    const kernel* fresh = forced != nullptr ? forced : best_usable();
    // Keep a kernel someone else already chose (set_kernel may have raced us).
    if (g_active.compare_exchange_strong(k, fresh, std::memory_order_acq_rel)) k = fresh;
  }
  return *k;
}

bool set_active_kernel(const char* name, std::size_t len) noexcept {
  const kernel* k =
      (len == 4 && std::memcmp(name, "best", 4) == 0) ? best_usable() : find_kernel(name, len);
  if (k == nullptr || !usable(*k)) return false;
  g_active.store(k, std::memory_order_release);
  return true;
}

const char* kernel_env_error() noexcept {
  const env_request& r = env();
  return r.error[0] == '\0' ? nullptr : r.error;
}

}  // namespace utf8guard::detail
