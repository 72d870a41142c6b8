/* multipart_kernels.c - each kernel of the multipart checker's scan
 * (nginx/src/multipart.c, included here to reach them), for
 * multipart_bench.cpp to time side by side on this CPU. */
#include "multipart.c"

#include "multipart_kernels.h"

const char* multipart_kernel_name(int kernel) {
  switch (kernel) {
    case 0: return "scalar";
#ifdef UG_MULTIPART_X86
    case 1: return "sse2";
    case 2: return __builtin_cpu_supports("avx2") ? "avx2" : NULL;
    case 3: return __builtin_cpu_supports("avx512bw") ? "avx512" : NULL;
#endif
#ifdef UG_MULTIPART_NEON
    case 4: return "neon";
#endif
    default: return NULL;
  }
}

size_t multipart_kernel_scan(int kernel, const char* data, size_t len) {
  const unsigned char* p = (const unsigned char*)data;
  switch (kernel) {
#ifdef UG_MULTIPART_X86
    case 1: return scan_sse2(p, len);
    case 2: return scan_avx2(p, len);
    case 3: return scan_avx512(p, len);
#endif
#ifdef UG_MULTIPART_NEON
    case 4: return scan_neon(p, len);
#endif
    default: return scan_scalar(p, 0, len);
  }
}
