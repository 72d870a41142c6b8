// dispatch.cpp - choosing the kernel: lazy, atomic, overridable, silent.
//
// The active kernel is an atomic pointer resolved on first use, so there is no
// global constructor and no init call. Racing first calls all compute the same
// answer and store it; any of them may win. UTF8GUARD_KERNEL=name forces a
// kernel for tests, fuzzing and benchmarks; a name that is unknown or not
// usable here is ignored (the library never prints or aborts) and explained by
// utf8guard_kernel_env_error(), which the CLI reports.
#include <atomic>
#include <cstdlib>
#include <cstring>

#include "kernel.hpp"

namespace utf8guard::detail {

extern const kernel kernel_scalar;
#include "kernels/kernel_list.inc"

namespace {

constexpr const kernel* kAll[] = {&kernel_scalar UTF8GUARD_SIMD_KERNELS};
constexpr std::size_t kCount = sizeof(kAll) / sizeof(kAll[0]);

std::atomic<const kernel*> g_active{nullptr};
std::atomic<const char*> g_env_error{nullptr};

const kernel* best_usable() noexcept {
  for (std::size_t i = kCount; i-- > 0;) {
    if (kAll[i]->usable()) return kAll[i];
  }
  return &kernel_scalar;
}

const kernel* resolve() noexcept {
  const char* env = std::getenv("UTF8GUARD_KERNEL");
  if (env == nullptr || *env == '\0' || std::strcmp(env, "best") == 0) return best_usable();
  const kernel* k = find_kernel(env, std::strlen(env));
  if (k == nullptr) {
    g_env_error.store("UTF8GUARD_KERNEL names no compiled kernel; using the best usable one",
                      std::memory_order_relaxed);
    return best_usable();
  }
  if (!k->usable()) {
    g_env_error.store(
        "UTF8GUARD_KERNEL names a kernel this CPU cannot run; using the best usable one",
        std::memory_order_relaxed);
    return best_usable();
  }
  return k;
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

const kernel& active_kernel_ref() noexcept {
  const kernel* k = g_active.load(std::memory_order_acquire);
  if (k == nullptr) {
    const kernel* fresh = resolve();
    // Keep a kernel someone else already chose (set_kernel may have raced us).
    if (g_active.compare_exchange_strong(k, fresh, std::memory_order_acq_rel)) k = fresh;
  }
  return *k;
}

bool set_active_kernel(const char* name, std::size_t len) noexcept {
  const kernel* k =
      (len == 4 && std::memcmp(name, "best", 4) == 0) ? best_usable() : find_kernel(name, len);
  if (k == nullptr || !k->usable()) return false;
  g_active.store(k, std::memory_order_release);
  return true;
}

const char* kernel_env_error() noexcept {
  active_kernel_ref();
  return g_env_error.load(std::memory_order_relaxed);
}

}  // namespace utf8guard::detail
