/* export.h - symbol visibility for utf8guard.
 *
 * The library is built with -fvisibility=hidden; only declarations marked
 * UTF8GUARD_EXPORT form the ABI of the shared library. In a static build the
 * attribute is harmless. */
#ifndef UTF8GUARD_EXPORT_H
#define UTF8GUARD_EXPORT_H

#if defined(_WIN32) && defined(UTF8GUARD_SHARED)
#ifdef UTF8GUARD_BUILDING
#define UTF8GUARD_EXPORT __declspec(dllexport)
#else
#define UTF8GUARD_EXPORT __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define UTF8GUARD_EXPORT __attribute__((visibility("default")))
#else
#define UTF8GUARD_EXPORT
#endif

#endif /* UTF8GUARD_EXPORT_H */
