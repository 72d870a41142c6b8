// cpu_time.hpp - the calling thread's CPU time: unlike wall time it does not
// grow when other jobs share the machine, so the cost checks and the logs of
// long tests measure this thread's work only.
#ifndef UTF8GUARD_TESTS_SUPPORT_CPU_TIME_HPP
#define UTF8GUARD_TESTS_SUPPORT_CPU_TIME_HPP

#include <time.h>

namespace utf8guard::testing {

inline double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

}  // namespace utf8guard::testing

#endif  // UTF8GUARD_TESTS_SUPPORT_CPU_TIME_HPP
