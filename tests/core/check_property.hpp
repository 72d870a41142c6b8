// check_property.hpp - running a RapidCheck property inside a GoogleTest
// test (one per kernel), for the property test files.
#ifndef UTF8GUARD_TESTS_CORE_CHECK_PROPERTY_HPP
#define UTF8GUARD_TESTS_CORE_CHECK_PROPERTY_HPP

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <utility>

namespace utf8guard::testing {

// check_property runs a RapidCheck property inside the current (kernel
// parameterized) test, with at least `runs` successful cases; RC_PARAMS can
// raise it or fix the seed. A failure reports the shrunk counterexample.
template <class Property>
inline void check_property(Property&& property, int runs = 1000) {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
  metadata.description = info->name();
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  params.maxSuccess = std::max(params.maxSuccess, runs);
  const rc::detail::TestResult outcome =
      rc::detail::checkTestable(std::forward<Property>(property), metadata, params);
  if (!outcome.template is<rc::detail::SuccessResult>()) {
    std::ostringstream message;
    rc::detail::printResultMessage(outcome, message);
    FAIL() << message.str();
  }
}

}  // namespace utf8guard::testing

#endif  // UTF8GUARD_TESTS_CORE_CHECK_PROPERTY_HPP
