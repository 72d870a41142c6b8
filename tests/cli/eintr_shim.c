/* eintr_shim.c - LD_PRELOAD fault injection and call counting for the CLI
 * tests.
 *
 * Signals that interrupt read(2) and write(2) arrive at random in real life;
 * this library makes them certain. With UTF8GUARD_SHIM=faults, on standard
 * input every other read(2) fails with EINTR and the others return at most a
 * few bytes; on standard output every other write(2) fails with EINTR and the
 * others write at most a few bytes; every other pread(2), on any descriptor,
 * fails with EINTR and the others read at most half of what they are asked
 * for (more would make reading a large file in sections crawl). A tool whose
 * loops retry EINTR and go on after short reads and writes prints exactly
 * what it prints without the shim.
 * With UTF8GUARD_SHIM=count nothing is changed, only counted. With
 * UTF8GUARD_SHIM=pread-fails every pread(2) fails with EIO (the CLI re-reads
 * a file's prefix with pread to find the line of its first error, and reads
 * the sections of a large file with it). With
 * UTF8GUARD_SHIM=read-fails the first read(2) of standard input succeeds
 * and every later one fails with EIO.
 *
 * At exit the counts go to the file UTF8GUARD_SHIM_REPORT names, as
 * "reads R writes W preads P faults F" (reads and writes of descriptors 0 and
 * 1, preads of any), so a test can see the shim was really there and count.
 * read and write touch only descriptors 0 and 1, so a wrapper such as
 * valgrind, which reads its own files on other descriptors, is unaffected. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

typedef ssize_t (*read_fn)(int, void*, size_t);
typedef ssize_t (*write_fn)(int, const void*, size_t);

static unsigned long reads;
static unsigned long writes;
/* Counted atomically: the sections of a large file are read (pread) by
 * several threads at once. */
static unsigned long faults;
static unsigned long preads;

static void count_fault(void) { __atomic_fetch_add(&faults, 1, __ATOMIC_RELAXED); }

static int faulty(void) {
  const char* mode = getenv("UTF8GUARD_SHIM");
  return mode != NULL && strcmp(mode, "faults") == 0;
}

/* cap_for returns the byte limit of the nth call: 1, 2, 3, 4, 5, 1, ... */
static size_t cap_for(unsigned long n, size_t want) {
  size_t cap = 1 + (size_t)(n / 2 % 5);
  return want < cap ? want : cap;
}

static int reads_fail(void) {
  const char* mode = getenv("UTF8GUARD_SHIM");
  return mode != NULL && strcmp(mode, "read-fails") == 0;
}

ssize_t read(int fd, void* buf, size_t n) {
  static read_fn real;
  if (real == NULL) real = (read_fn)(size_t)dlsym(RTLD_NEXT, "read");
  if (fd != 0 || n == 0) return real(fd, buf, n);
  ++reads;
  if (reads_fail() && reads > 1) {
    count_fault();
    errno = EIO;
    return -1;
  }
  if (!faulty()) return real(fd, buf, n);
  if (reads % 2 == 1) {
    count_fault();
    errno = EINTR;
    return -1;
  }
  return real(fd, buf, cap_for(reads, n));
}

/* _FORTIFY_SOURCE turns read() into __read_chk() where the buffer size is
 * known; route it through the same faults. */
ssize_t __read_chk(int fd, void* buf, size_t n, size_t buflen);
ssize_t __read_chk(int fd, void* buf, size_t n, size_t buflen) {
  (void)buflen;
  return read(fd, buf, n);
}

ssize_t write(int fd, const void* buf, size_t n) {
  static write_fn real;
  if (real == NULL) real = (write_fn)(size_t)dlsym(RTLD_NEXT, "write");
  if (fd != 1 || n == 0) return real(fd, buf, n);
  ++writes;
  if (!faulty()) return real(fd, buf, n);
  if (writes % 2 == 1) {
    count_fault();
    errno = EINTR;
    return -1;
  }
  return real(fd, buf, cap_for(writes, n));
}

static int pread_fails(void) {
  const char* mode = getenv("UTF8GUARD_SHIM");
  return mode != NULL && strcmp(mode, "pread-fails") == 0;
}

typedef ssize_t (*pread_fn)(int, void*, size_t, off_t);

ssize_t pread(int fd, void* buf, size_t n, off_t offset) {
  static pread_fn real;
  if (real == NULL) real = (pread_fn)(size_t)dlsym(RTLD_NEXT, "pread");
  if (pread_fails()) {
    count_fault();
    errno = EIO;
    return -1;
  }
  const unsigned long nth = __atomic_add_fetch(&preads, 1, __ATOMIC_RELAXED);
  if (!faulty() || n == 0) return real(fd, buf, n, offset);
  if (nth % 2 == 1) {
    count_fault();
    errno = EINTR;
    return -1;
  }
  return real(fd, buf, n / 2 + 1 < n ? n / 2 + 1 : n, offset);
}

ssize_t pread64(int fd, void* buf, size_t n, off_t offset) { return pread(fd, buf, n, offset); }

ssize_t __pread_chk(int fd, void* buf, size_t n, off_t offset, size_t buflen);
ssize_t __pread_chk(int fd, void* buf, size_t n, off_t offset, size_t buflen) {
  (void)buflen;
  return pread(fd, buf, n, offset);
}

ssize_t __pread64_chk(int fd, void* buf, size_t n, off_t offset, size_t buflen);
ssize_t __pread64_chk(int fd, void* buf, size_t n, off_t offset, size_t buflen) {
  (void)buflen;
  return pread(fd, buf, n, offset);
}

__attribute__((destructor)) static void report(void) {
  const char* path = getenv("UTF8GUARD_SHIM_REPORT");
  if (path == NULL) return;
  FILE* f = fopen(path, "w");
  if (f == NULL) return;
  fprintf(f, "reads %lu writes %lu preads %lu faults %lu\n", reads, writes, preads, faults);
  fclose(f);
}
