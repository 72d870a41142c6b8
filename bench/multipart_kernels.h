/* multipart_kernels.h - the scan kernels of nginx/src/multipart.c by number,
 * 0 (scalar), 1 to 3 (SSE2, AVX2, AVX-512BW), 4 (NEON), for the benchmark. */
#ifndef UTF8GUARD_BENCH_MULTIPART_KERNELS_H
#define UTF8GUARD_BENCH_MULTIPART_KERNELS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MULTIPART_KERNELS 5

/* The kernel's name, or NULL when this CPU cannot run it. */
const char* multipart_kernel_name(int kernel);

/* ug_multipart_scan on that kernel. */
size_t multipart_kernel_scan(int kernel, const char* data, size_t len);

#ifdef __cplusplus
}
#endif

#endif
