/*===- Loader.c - dlopen one library in a clean process, and report -------===*
 *
 * linkguard-loader is the child `linkguard try-load` starts: linkguard itself
 * is linked fully static and never dlopens. This program links against the C
 * library (and libdl where it is separate) and nothing else, so whatever it
 * finds mapped beyond its own few images came in with the library.
 *
 *   linkguard-loader [--lazy] [--stop] [--parent PID] [--call SYMBOL]
 *                    [--hide PATH]... [--] LIBRARY
 *
 * Steps: hide each PATH in a private mount namespace (Linux), list the images
 * mapped now (the baseline), dlopen(LIBRARY, RTLD_NOW | RTLD_LOCAL) as
 * PyTorch's at::DynamicLibrary does (--lazy: RTLD_LAZY, as ExecuTorch's
 * backends/apple/metal/runtime/metal_backend.cpp does), list the images
 * again, call `int SYMBOL(void)`, list them once more.
 *
 * The report goes to file descriptor 3 (the parent's pipe), never to stdout,
 * which belongs to the library. Each record is one line of fields, each
 * field a netstring-like "LENGTH:BYTES", so a path may hold any byte and a
 * field any length:
 *   hide ok PATH | hide unavailable REASON | hide failed PATH REASON
 *   baseline PATH REALPATH
 *   load ok | load failed DLERROR
 *   image loaded|called PATH REALPATH
 *   call ok STATUS | call missing DLERROR
 *   end
 * A record is written with one write(2) as soon as it is known, so a crash
 * in a constructor or in SYMBOL still leaves everything before it.
 *
 * The report is the loading process's own word, and the library runs in
 * that process: it can write to descriptor 3 too, close it, or exit. So the
 * parent does not rest its verdict on it. With --stop (Linux) the loader
 * stops itself (SIGSTOP) after the baseline, after dlopen returned and after
 * the call; at each stop the parent reads /proc/PID/maps itself and
 * continues it (docs/try-load.md). The report is then a cross-check.
 *
 * --parent PID: the loader dies with linkguard (PR_SET_PDEATHSIG, which
 * posix_spawn cannot set), and exits at once if PID is already gone.
 *
 * --traced (Linux, with --stop): linkguard tries to trace the loader
 * (PTRACE_SEIZE) and says on descriptor 4 whether it does ('y'/'n'). If it
 * does, the loader, before the library can run, installs a seccomp filter
 * that hands linkguard every mmap/mprotect/pkey_mprotect asking for
 * PROT_EXEC, and every mremap (SECCOMP_RET_TRACE: without a tracer such a
 * call fails, ENOSYS, so the filter fails closed), and refuses further filters (seccomp(2),
 * prctl(PR_SET_SECCOMP)): a later filter could outrank it, and
 * personality(READ_IMPLIES_EXEC), which makes a PROT_READ mapping
 * executable without asking for PROT_EXEC. A thread or process must not
 * escape the tracing: clone with CLONE_UNTRACED is handed to linkguard too
 * (SECCOMP_RET_TRACE, data LINKGUARD_TRACE_UNTRACED), which makes it fail
 * (EPERM) and the run undecided (without a tracer it fails, ENOSYS: still
 * refused), and clone3, whose flags a filter cannot read, answers ENOSYS
 * (libc then falls back to clone, as on a kernel without clone3). Threads
 * and processes started otherwise are traced from their first instruction
 * (PTRACE_O_TRACECLONE, TRACEFORK, TRACEVFORK) and inherit the filter.
 * Then one probe
 * mapping, which linkguard sees before the baseline stop: its proof that
 * the filter is there. So a library mapped and unmapped between two stops
 * is seen as well.
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

#include <signal.h>
#if defined(__linux__)
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

#if defined(__APPLE__)
#include <mach-o/dyld.h>
#else
#include <link.h>
#endif

#include "loader/Hide.h"
#include "loader/TraceData.h"

enum { ReportFd = 3, MaxFields = 4 };

/* Set once a write to the report fails (the library closed descriptor 3, or
 * the parent went away): later records are not written, the rest of the run
 * goes on, and the parent reads the process's maps itself. */
static int ReportLost;

/* Writes one record of up to MaxFields fields (NULL ends the list), of any
 * length: a DT_NEEDED name, a dlerror() message or a symbol may be longer
 * than any fixed buffer. */
static void report(const char *A, const char *B, const char *C, const char *D) {
  const char *Fields[MaxFields] = {A, B, C, D};
  size_t Size = 1;
  for (int I = 0; I < MaxFields && Fields[I]; ++I)
    Size += strlen(Fields[I]) + 24;
  char *Record = malloc(Size);
  size_t Len = 0;
  if (!Record) {
    ReportLost = 1; /* the parent sees a report that stops here */
    return;
  }
  for (int I = 0; I < MaxFields && Fields[I]; ++I) {
    size_t N = strlen(Fields[I]);
    Len += (size_t)snprintf(Record + Len, Size - Len, "%zu:", N);
    memcpy(Record + Len, Fields[I], N);
    Len += N;
    Record[Len++] = ' ';
  }
  if (Len == 0)
    Len = 1;
  Record[Len - 1] = '\n';
  for (size_t Done = 0; Done < Len && !ReportLost;) {
    ssize_t N = write(ReportFd, Record + Done, Len - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      ReportLost = 1;
    else
      Done += (size_t)N;
  }
  free(Record);
}

/* With --stop: wait here until the parent has read /proc/self/maps. */
static int Stops;
static void stopForParent(void) {
  if (Stops)
    raise(SIGSTOP);
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

#if defined(__linux__)
/* clone3(2), Linux 5.3: the same number on every architecture. */
#if defined(SYS_clone3)
#define LOADER_SYS_clone3 SYS_clone3
#else
#define LOADER_SYS_clone3 435
#endif
#if defined(__x86_64__)
#define LOADER_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define LOADER_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

/* The filter --traced installs (see the top of this file). 1: installed. */
static int watchExecMappings(void) {
#if defined(LOADER_AUDIT_ARCH) && defined(SECCOMP_RET_TRACE)
  enum { Nr = offsetof(struct seccomp_data, nr),
         Arch = offsetof(struct seccomp_data, arch),
         Arg0 = offsetof(struct seccomp_data, args[0]),
         Arg2 = offsetof(struct seccomp_data, args[2]) };
  struct sock_filter Filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, Arch),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, LOADER_AUDIT_ARCH, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS), /* another ABI */
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, Nr),
#if defined(__x86_64__)
      BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1), /* x32 */
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
#endif
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mremap, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE | LINKGUARD_TRACE_MAPPING), /* serialized */
      /* clone3: its flags are in memory, which a filter cannot read (nor
       * trust: another thread can change them). ENOSYS, as a kernel
       * without clone3 answers: libc falls back to clone. */
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, LOADER_SYS_clone3, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
      /* clone: CLONE_UNTRACED would start a thread or process that
       * linkguard does not trace (and whose mappings with code the filter
       * could then only refuse, not show). linkguard is told, and refuses
       * it (EPERM); with no tracer the kernel refuses it (ENOSYS). */
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 4),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, Arg0), /* flags, low word */
      BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_UNTRACED, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE | LINKGUARD_TRACE_UNTRACED),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mmap, 5, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mprotect, 4, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_pkey_mprotect, 3, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_seccomp, 11, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_prctl, 4, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_personality, 5, 8),
      /* mmap, mprotect, pkey_mprotect: */
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, Arg2), /* prot, low word */
      BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 0, 6),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE | LINKGUARD_TRACE_MAPPING),
      /* prctl: */
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, Arg0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_SET_SECCOMP, 4, 3),
      /* personality: READ_IMPLIES_EXEC would make a PROT_READ mapping
       * executable without asking for PROT_EXEC; a query is fine. */
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, Arg0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xffffffffU, 1, 0),
      BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, READ_IMPLIES_EXEC, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
  };
  struct sock_fprog Prog = {(unsigned short)(sizeof Filter / sizeof Filter[0]),
                            Filter};
  int Persona = personality(0xffffffff);
  if (Persona != -1 && (Persona & READ_IMPLIES_EXEC))
    personality((unsigned long)(Persona & ~READ_IMPLIES_EXEC));
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &Prog) != 0)
    return 0;
  void *Probe = mmap(NULL, 4096, PROT_READ | PROT_EXEC,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (Probe != MAP_FAILED)
    munmap(Probe, 4096);
  return 1;
#else
  return 0;
#endif
}
#endif

static int usage(void) {
  fprintf(stderr, "usage: linkguard-loader [--lazy] [--stop] [--traced] "
                  "[--parent PID] [--call SYMBOL] [--hide PATH]... [--] "
                  "LIBRARY\n");
  return 64;
}

int main(int Argc, char **Argv) {
  const char *Call = NULL, *Library = NULL;
  /* At most one --hide per argument: no fixed limit. */
  const char **Hide = malloc(sizeof(char *) * (size_t)(Argc > 0 ? Argc : 1));
  int NumHide = 0, Mode = RTLD_NOW, Options = 1, Traced = 0;
  long Parent = 0;
  if (!Hide)
    return 71;
  for (int I = 1; I < Argc; ++I) {
    if (Options && !strcmp(Argv[I], "--"))
      Options = 0;
    else if (Options && !strcmp(Argv[I], "--lazy"))
      Mode = RTLD_LAZY;
    else if (Options && !strcmp(Argv[I], "--stop"))
      Stops = 1;
    else if (Options && !strcmp(Argv[I], "--traced"))
      Traced = 1;
    else if (Options && !strcmp(Argv[I], "--parent") && I + 1 < Argc)
      Parent = strtol(Argv[++I], NULL, 10);
    else if (Options && !strcmp(Argv[I], "--call") && I + 1 < Argc)
      Call = Argv[++I];
    else if (Options && !strcmp(Argv[I], "--hide") && I + 1 < Argc)
      Hide[NumHide++] = Argv[++I];
    else if ((Options && Argv[I][0] == '-') || Library)
      return usage();
    else
      Library = Argv[I];
  }
  if (!Library)
    return usage();
#if defined(__linux__)
  if (Parent > 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if ((long)getppid() != Parent)
      return 70; /* linkguard is gone already: nobody to report to */
  }
#else
  (void)Parent;
#endif
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
#if defined(__linux__)
  if (Traced) {
    /* linkguard's answer: does it trace this process? */
    char Answer = 'n';
    while (read(4, &Answer, 1) < 0 && errno == EINTR) {
    }
    close(4);
    if (Answer == 'y')
      watchExecMappings();
  }
#else
  (void)Traced;
#endif
  stopForParent();
  void *Handle = dlopen(Library, Mode | RTLD_LOCAL);
  if (!Handle) {
    const char *Err = dlerror();
    report("load", "failed", Err ? Err : "dlopen failed", NULL);
    report("end", NULL, NULL, NULL);
    return 0;
  }
  report("load", "ok", NULL, NULL);
  listImages("image", "loaded");
  stopForParent();
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
      stopForParent();
    }
  }
  report("end", NULL, NULL, NULL);
  return 0;
}
