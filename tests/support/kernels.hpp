// kernels.hpp - run a test on every kernel this machine can run.
//
//   class MyTest : public utf8guard::testing::EveryKernel {};
//   TEST_P(MyTest, Something) { ... validate(...) ... }
//   UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(MyTest);
//
// SetUp() forces the parameter's kernel through the public set_kernel() and
// checks that the kernel every entry point calls (the dispatcher's active
// kernel, the very struct whose scan and scan_open run) is the compiled
// kernel of that name; TearDown() checks that it still is, so that no call of
// the test ran on another kernel, and restores the best kernel.
#ifndef UTF8GUARD_TESTS_SUPPORT_KERNELS_HPP
#define UTF8GUARD_TESTS_SUPPORT_KERNELS_HPP

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernel_choice.hpp"
#include "kernels/dispatch.hpp"  // private: detail::active_kernel_ref, detail::g_active
#include "utf8guard/utf8guard.hpp"

namespace utf8guard::testing {

// counted_scans counts the scans the engine asks for, for tests of how often
// it runs the kernel: in its scope every entry point calls, instead of the
// active kernel, a kernel of this file that counts each scan and scan_open
// and passes it on to the kernel that was active. The library itself counts
// nothing. One at a time, on one thread.
class counted_scans {
 public:
  counted_scans() {
    inner() = &detail::active_kernel_ref();
    count() = 0;
    detail::g_active.store(&counting(), std::memory_order_release);
  }
  ~counted_scans() { detail::g_active.store(inner(), std::memory_order_release); }
  counted_scans(const counted_scans&) = delete;
  counted_scans& operator=(const counted_scans&) = delete;
  // scans is how many scans (scan or scan_open) ran so far in this scope.
  std::size_t scans() const { return count(); }

 private:
  static const detail::kernel*& inner() {
    static const detail::kernel* k = nullptr;
    return k;
  }
  static std::size_t& count() {
    static std::size_t n = 0;
    return n;
  }
  static std::size_t scan(const std::uint8_t* p, std::size_t n) noexcept {
    ++count();
    return inner()->scan(p, n);
  }
  static detail::open_scan scan_open(const std::uint8_t* p, std::size_t n,
                                     std::uint32_t prior) noexcept {
    ++count();
    return inner()->scan_open(p, n, prior);
  }
  static std::size_t scan_no_percent(const std::uint8_t* p, std::size_t n) noexcept {
    ++count();
    return inner()->scan_no_percent(p, n);
  }
  static std::size_t scan_no_backslash(const std::uint8_t* p, std::size_t n) noexcept {
    ++count();
    return inner()->scan_no_backslash(p, n);
  }
  static bool valid(const std::uint8_t* p, std::size_t n) noexcept {
    ++count();
    return inner()->valid(p, n);
  }
  static packed_result validate(const std::uint8_t* p, std::size_t n) noexcept {
    ++count();
    return inner()->validate(p, n);
  }
  static const detail::kernel& counting() {
    static const detail::kernel k{
        "counted", "", &scan, &scan_open, &scan_no_percent, &scan_no_backslash, &valid, &validate};
    return k;
  }
};

class EveryKernel : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(set_kernel(GetParam())) << GetParam();
    ASSERT_EQ(active_kernel(), GetParam());
    ASSERT_TRUE(is_active(GetParam())) << "set_kernel did not make " << GetParam() << " active";
  }
  void TearDown() override {
    EXPECT_TRUE(is_active(GetParam()))
        << "the test ended on " << active_kernel() << ", not " << GetParam();
    set_kernel("best");
  }
};

inline std::string kernel_param_name(const ::testing::TestParamInfo<std::string>& info) {
  return info.param;
}

}  // namespace utf8guard::testing

#define UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(suite)                                   \
  INSTANTIATE_TEST_SUITE_P(Kernels, suite,                                              \
                           ::testing::ValuesIn(::utf8guard::testing::usable_kernels()), \
                           ::utf8guard::testing::kernel_param_name)

#endif  // UTF8GUARD_TESTS_SUPPORT_KERNELS_HPP
