// kernels.hpp - run a test on every kernel this machine can run.
//
//   class MyTest : public utf8guard::testing::EveryKernel {};
//   TEST_P(MyTest, Something) { ... validate(...) ... }
//   UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(MyTest);
//
// SetUp() forces the parameter's kernel through the public set_kernel() and
// TearDown() checks, through the library's per-thread run counters, that the
// forced kernel really ran (at least one scan) and restores the best kernel.
#ifndef UTF8GUARD_TESTS_SUPPORT_KERNELS_HPP
#define UTF8GUARD_TESTS_SUPPORT_KERNELS_HPP

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernel.hpp"  // private: detail::find_kernel, detail::kernel_runs
#include "kernel_choice.hpp"
#include "utf8guard/utf8guard.hpp"

namespace utf8guard::testing {

// runs_of is how many scans the named kernel has run on this thread.
inline std::size_t runs_of(const std::string& name) {
  const detail::kernel* k = detail::find_kernel(name.data(), name.size());
  return k == nullptr ? 0 : detail::kernel_runs(*k);
}

class EveryKernel : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(set_kernel(GetParam())) << GetParam();
    ASSERT_EQ(active_kernel(), GetParam());
    runs_before_ = runs_of(GetParam());
  }
  void TearDown() override {
    EXPECT_GT(runs_of(GetParam()), runs_before_) << "kernel " << GetParam() << " never ran";
    set_kernel("best");
  }

 private:
  std::size_t runs_before_ = 0;
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
