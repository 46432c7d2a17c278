/* shim: BSD sysctlbyname (mach_o/Architecture.cpp asks the host's CPU; never
   reached by valid()): always fails. */
#pragma once
#include <stddef.h>
#include <errno.h>
static inline int sysctlbyname(const char *n, void *o, size_t *ol, void *ni, size_t nl) {
  (void)n; (void)o; (void)ol; (void)ni; (void)nl; errno = ENOENT; return -1;
}
