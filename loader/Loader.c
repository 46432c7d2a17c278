/*===- Loader.c - dlopen one library in a clean process, and report -------===*
 *
 * linkguard-loader is the child `linkguard try-load` starts: linkguard itself
 * is linked fully static and never dlopens. This program links against the C
 * library (and libdl where it is separate) and nothing else, so whatever it
 * finds mapped beyond its own few images came in with the library.
 *
 *   linkguard-loader [--lazy] [--call SYMBOL] [--hide PATH]... LIBRARY
 *
 * Steps: hide each PATH in a private mount namespace (Linux), list the images
 * mapped now (the baseline), dlopen(LIBRARY, RTLD_NOW | RTLD_LOCAL) as
 * PyTorch's at::DynamicLibrary does (--lazy: RTLD_LAZY, as ExecuTorch's
 * backends/apple/metal/runtime/metal_backend.cpp does), list the images
 * again, call `int SYMBOL(void)`, list them once more.
 *
 * The report goes to file descriptor 3 (the parent's pipe), never to stdout,
 * which belongs to the library. Each record is one line of fields, each
 * field a netstring-like "LENGTH:BYTES", so a path may hold any byte:
 *   hide ok PATH | hide unavailable REASON | hide failed PATH REASON
 *   baseline PATH REALPATH
 *   load ok | load failed DLERROR
 *   image loaded|called PATH REALPATH
 *   call ok STATUS | call missing DLERROR
 *   end
 * A record is written with one write(2) as soon as it is known, so a crash
 * in a constructor or in SYMBOL still leaves everything before it.
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__APPLE__)
#include <mach-o/dyld.h>
#else
#include <link.h>
#endif

#include "loader/Hide.h"

enum { ReportFd = 3, MaxFields = 4 };

static char Record[3 * PATH_MAX + 256];
static size_t RecordLen;

static void field(const char *S) {
  size_t N = strlen(S);
  int W = snprintf(Record + RecordLen, sizeof Record - RecordLen, "%zu:", N);
  if (W < 0 || RecordLen + (size_t)W + N + 2 > sizeof Record)
    return; /* cannot happen for PATH_MAX-bounded fields */
  RecordLen += (size_t)W;
  memcpy(Record + RecordLen, S, N);
  RecordLen += N;
  Record[RecordLen++] = ' ';
}

/* Writes one record of up to MaxFields fields (NULL ends the list). */
static void report(const char *A, const char *B, const char *C, const char *D) {
  const char *Fields[MaxFields] = {A, B, C, D};
  RecordLen = 0;
  for (int I = 0; I < MaxFields && Fields[I]; ++I)
    field(Fields[I]);
  Record[RecordLen ? RecordLen - 1 : RecordLen++] = '\n';
  for (size_t Done = 0; Done < RecordLen;) {
    ssize_t N = write(ReportFd, Record + Done, RecordLen - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      _exit(70); /* the parent went away */
    Done += (size_t)N;
  }
}

static void reportImage(const char *Kind, const char *Phase, const char *Path) {
  char Real[PATH_MAX];
  const char *R = Path[0] == '/' && realpath(Path, Real) ? Real : Path;
  if (Phase)
    report(Kind, Phase, Path, R);
  else
    report(Kind, Path, R, NULL);
}

#if defined(__APPLE__)
/* dyld's documented image list: _dyld_image_count / _dyld_get_image_name
 * (man 3 dyld). Index 0 is the main executable. */
static void listImages(const char *Kind, const char *Phase) {
  uint32_t N = _dyld_image_count();
  for (uint32_t I = 0; I < N; ++I) {
    const char *Name = _dyld_get_image_name(I);
    if (Name)
      reportImage(Kind, Phase, Name);
  }
}
#else
struct ListContext {
  const char *Kind, *Phase;
};

static int listOne(struct dl_phdr_info *Info, size_t Size, void *Data) {
  (void)Size;
  const struct ListContext *C = Data;
  const char *Name = Info->dlpi_name;
  char Self[PATH_MAX];
  if (!Name || !*Name) { /* the main program */
    ssize_t N = readlink("/proc/self/exe", Self, sizeof Self - 1);
    if (N <= 0)
      return 0;
    Self[N] = '\0';
    Name = Self;
  }
  reportImage(C->Kind, C->Phase, Name);
  return 0;
}

static void listImages(const char *Kind, const char *Phase) {
  struct ListContext C = {Kind, Phase};
  dl_iterate_phdr(listOne, &C);
}
#endif

static int usage(void) {
  fprintf(stderr, "usage: linkguard-loader [--lazy] [--call SYMBOL] "
                  "[--hide PATH]... LIBRARY\n");
  return 64;
}

int main(int Argc, char **Argv) {
  const char *Call = NULL, *Library = NULL;
  const char *Hide[64];
  int NumHide = 0, Mode = RTLD_NOW;
  for (int I = 1; I < Argc; ++I) {
    if (!strcmp(Argv[I], "--lazy"))
      Mode = RTLD_LAZY;
    else if (!strcmp(Argv[I], "--call") && I + 1 < Argc)
      Call = Argv[++I];
    else if (!strcmp(Argv[I], "--hide") && I + 1 < Argc && NumHide < 64)
      Hide[NumHide++] = Argv[++I];
    else if (Argv[I][0] == '-' || Library)
      return usage();
    else
      Library = Argv[I];
  }
  if (!Library)
    return usage();
  /* The report pipe is ours alone: a program the library runs must not
   * inherit it. */
  fcntl(ReportFd, F_SETFD, FD_CLOEXEC);

  if (NumHide > 0) {
    char Why[512];
    if (!enterPrivateMounts(Why, sizeof Why)) {
      report("hide", "unavailable", Why, NULL);
      report("end", NULL, NULL, NULL);
      return 0;
    }
    for (int I = 0; I < NumHide; ++I) {
      if (!hidePath(Hide[I], Why, sizeof Why)) {
        report("hide", "failed", Hide[I], Why);
        report("end", NULL, NULL, NULL);
        return 0;
      }
      report("hide", "ok", Hide[I], NULL);
    }
  }

  listImages("baseline", NULL);
  void *Handle = dlopen(Library, Mode | RTLD_LOCAL);
  if (!Handle) {
    const char *Err = dlerror();
    report("load", "failed", Err ? Err : "dlopen failed", NULL);
    report("end", NULL, NULL, NULL);
    return 0;
  }
  report("load", "ok", NULL, NULL);
  listImages("image", "loaded");
  if (Call) {
    dlerror();
    void *Sym = dlsym(Handle, Call);
    if (!Sym) {
      const char *Err = dlerror();
      report("call", "missing", Err ? Err : "symbol not found", NULL);
    } else {
      int (*Fn)(void);
      memcpy(&Fn, &Sym,
             sizeof Fn); /* object to function pointer, as POSIX allows */
      fflush(NULL);
      char Status[32];
      snprintf(Status, sizeof Status, "%d", Fn());
      fflush(NULL);
      report("call", "ok", Status, NULL);
      listImages("image", "called");
    }
  }
  report("end", NULL, NULL, NULL);
  return 0;
}
