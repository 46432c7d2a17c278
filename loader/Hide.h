/*===- Hide.h - make paths absent for this process only ------------------===*
 *
 * `try-load --hide PATH` proves the "passes for the wrong reason" trap away
 * on the build machine itself: the absolute path a library bakes (PyTorch's
 * /opt/llvm-openmp/lib/libomp.dylib, an ELF RUNPATH) resolves there, so a
 * load test passes there. Hiding it from the loading process, and from no
 * other, shows what a machine without it would see.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LINKGUARD_LOADER_HIDE_H
#define LINKGUARD_LOADER_HIDE_H

#include <stddef.h>

/* Moves this process into a private mount namespace: unshare(CLONE_NEWNS)
 * as root, else together with a new user namespace (unprivileged), then
 * makes every mount private so nothing leaks back. Returns 0 and a reason in
 * Why when that is not permitted here (no namespaces on macOS, seccomp,
 * user namespaces disabled). */
int enterPrivateMounts(char *Why, size_t Size);

/* Makes the absolute Path absent: a read-only tmpfs over its directory in
 * which every other entry is bound back (symbolic links recreated), so only
 * that one name is gone. Returns 0 and a reason in Why on failure. */
int hidePath(const char *Path, char *Why, size_t Size);

#endif
