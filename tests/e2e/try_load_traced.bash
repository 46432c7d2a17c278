# `linkguard try-load` traces the loader (issue 28, review): a seccomp
# filter hands linkguard every mapping with code as it is made, so a
# library that maps libgomp and unmaps it before the loader's next stop is
# seen; the library cannot outrank the filter with one of its own, nor make
# a PROT_READ mapping executable through personality(READ_IMPLIES_EXEC).
# Where it cannot trace (strace -f has the loader), it says so.

SUITE_try_load_traced_PROBE() {
  [ "$(uname -s)" = Linux ] || { echo "Linux only (ptrace, seccomp)"; return; }
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "linkguard not built"; return; }
  [ -e /usr/lib/x86_64-linux-gnu/libgomp.so.1 ] || { echo "libgomp.so.1 not installed"; return; }
  command -v python3 >/dev/null || { echo "python3 not found"; return; }
  local dir traced
  dir=$(mktemp -d) || { echo "mktemp failed"; return; }
  echo 'int f(void) { return 0; }' >"$dir/f.c"
  "$CLANG" -shared -fPIC "$dir/f.c" -o "$dir/f.so" 2>/dev/null
  traced=$("$LINKGUARD_BIN" try-load --json "$dir/f.so" 2>/dev/null |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["traced"])' 2>/dev/null)
  rm -rf "$dir"
  [ "$traced" = True ] ||
    echo "linkguard cannot trace the loader here (ptrace or seccomp refused): the stops alone"
}

SUITE_try_load_traced_SETUP() {
  cat >traced.c <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
int ok(void) { return 0; }
/* The child's own word on MARK: "ran" and its TracerPid (0: untraced). */
static void childSays(const char *What) {
  char Line[256];
  FILE *Status = fopen("/proc/self/status", "r"), *Out = fopen(getenv("MARK"), "a");
  while (Status && Out && fgets(Line, sizeof Line, Status))
    if (!strncmp(Line, "TracerPid:", 10))
      fprintf(Out, "%s ran, %s", What, Line);
  if (Out)
    fclose(Out);
  _exit(0);
}
static void parentSays(const char *What, long Pid) {
  FILE *Out = fopen(getenv("MARK"), "a");
  if (Pid < 0)
    fprintf(Out, "%s refused: %s\n", What, strerror(errno));
  fclose(Out);
  if (Pid > 0)
    waitpid((pid_t)Pid, NULL, 0);
}
static int threadRuns(void *Arg) {
  (void)Arg;
  syscall(SYS_exit, 0); /* this thread alone */
  return 0;
}
/* Maps code of libm (not dlopen: the constructor holds the loader's lock). */
/* A thread that waits: alive when linkguard counts the library's tasks. */
static void *sleeperRuns(void *Arg) {
  sleep(30);
  return Arg;
}
static void *pthreadRuns(void *Arg) {
  (void)Arg;
  int Fd = open("/usr/lib/x86_64-linux-gnu/libm.so.6", O_RDONLY);
  return mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, Fd, 0);
}
/* --call's function asks for an untraced process, and returns 0. */
int untracedCall(void) {
  long Pid = syscall(SYS_clone, CLONE_UNTRACED | SIGCHLD, 0, 0, 0, 0);
  if (Pid == 0)
    _exit(0);
  if (Pid > 0)
    waitpid((pid_t)Pid, NULL, 0);
  return 0;
}
/* One io_uring request punted to the kernel's io-wq (IOSQE_ASYNC): an
 * "iou-wrk" thread joins the process, untraced (the kernel starts it with
 * CLONE_UNTRACED), running no code of the library. 0: done. */
static int ioUring(void) {
  struct io_uring_params P;
  memset(&P, 0, sizeof P);
  int Fd = (int)syscall(__NR_io_uring_setup, 4, &P);
  if (Fd < 0)
    return 1;
  char *Sq = mmap(NULL, P.sq_off.array + P.sq_entries * sizeof(unsigned), PROT_READ | PROT_WRITE,
                  MAP_SHARED | MAP_POPULATE, Fd, IORING_OFF_SQ_RING);
  struct io_uring_sqe *Sqes = mmap(NULL, P.sq_entries * sizeof(struct io_uring_sqe),
                                   PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, Fd,
                                   IORING_OFF_SQES);
  if (Sq == MAP_FAILED || Sqes == MAP_FAILED)
    return 1;
  memset(&Sqes[0], 0, sizeof Sqes[0]);
  Sqes[0].opcode = IORING_OP_NOP;
  Sqes[0].flags = IOSQE_ASYNC;
  unsigned *Tail = (unsigned *)(Sq + P.sq_off.tail), *Mask = (unsigned *)(Sq + P.sq_off.ring_mask);
  ((unsigned *)(Sq + P.sq_off.array))[*Tail & *Mask] = 0;
  __atomic_store_n(Tail, *Tail + 1, __ATOMIC_RELEASE);
  return syscall(__NR_io_uring_enter, Fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) == 1 ? 0 : 1;
}
/* struct clone_args as of Linux 5.3 (CLONE_ARGS_SIZE_VER0). */
struct CloneArgs {
  uint64_t Flags, PidFd, ChildTid, ParentTid, ExitSignal, Stack, StackSize, Tls;
};
/* clone3(CLONE_UNTRACED), whose flags live in memory; where the kernel has
 * no clone3, clone with Fallback's flags as glibc falls back, named Name. */
static void clone3Then(long Fallback, const char *Name) {
  struct CloneArgs A = {0};
  A.Flags = CLONE_UNTRACED;
  A.ExitSignal = SIGCHLD;
  long Pid = syscall(435 /* SYS_clone3 */, &A, sizeof A);
  if (Pid == 0)
    childSays("clone3(CLONE_UNTRACED) child");
  parentSays("clone3", Pid);
  if (Pid < 0 && errno == ENOSYS) {
    Pid = syscall(SYS_clone, Fallback | SIGCHLD, 0, 0, 0, 0);
    if (Pid == 0) {
      char Child[64];
      snprintf(Child, sizeof Child, "%s child", Name);
      childSays(Child);
    }
    parentSays(Name, Pid);
  }
}
__attribute__((constructor)) static void start(void) {
  const char *How = getenv("HOSTILE");
  if (!How)
    return;
  if (!strcmp(How, "untraced")) { /* clone(CLONE_UNTRACED): a child linkguard does not trace */
    long Pid = syscall(SYS_clone, CLONE_UNTRACED | SIGCHLD, 0, 0, 0, 0);
    if (Pid == 0)
      childSays("clone(CLONE_UNTRACED) child");
    parentSays("clone(CLONE_UNTRACED)", Pid);
  }
  if (!strcmp(How, "untraced-sleeper")) { /* an untraced child still there at the next stop */
    long Pid = syscall(SYS_clone, CLONE_UNTRACED | SIGCHLD, 0, 0, 0, 0);
    if (Pid == 0) {
      sleep(5);
      _exit(0);
    }
    parentSays("clone(CLONE_UNTRACED)", Pid < 0 ? Pid : 0);
  }
  if (!strcmp(How, "untraced-thread")) { /* a thread linkguard does not trace */
    char *Stack = malloc(1 << 16);
    long Tid = clone(threadRuns, Stack + (1 << 16),
                     CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
                         CLONE_SYSVSEM | CLONE_UNTRACED,
                     NULL);
    FILE *Out = fopen(getenv("MARK"), "a");
    if (Tid < 0)
      fprintf(Out, "clone(CLONE_THREAD | CLONE_UNTRACED) refused: %s\n", strerror(errno));
    else
      fprintf(Out, "clone(CLONE_THREAD | CLONE_UNTRACED) started\n");
    fclose(Out);
    if (Tid > 0)
      sleep(1); /* the thread runs, and ends itself */
  }
  if (!strcmp(How, "clone3-untraced")) /* clone3, then a fallback that keeps CLONE_UNTRACED */
    clone3Then(CLONE_UNTRACED, "clone(CLONE_UNTRACED)");
  if (!strcmp(How, "iouring")) { /* the kernel's own untraced thread */
    FILE *Out = fopen(getenv("MARK"), "w");
    fputs(ioUring() ? "io_uring refused\n" : "io_uring done\n", Out);
    fclose(Out);
  }
  if (!strcmp(How, "many-threads")) { /* more threads than linkguard's census looks at */
    pthread_attr_t A;
    pthread_attr_init(&A);
    pthread_attr_setstacksize(&A, 16384);
    int Made = 0;
    for (int I = 0; I < 4200; ++I) {
      pthread_t T;
      if (pthread_create(&T, &A, sleeperRuns, NULL) == 0)
        ++Made;
    }
    FILE *Out = fopen(getenv("MARK"), "w");
    fprintf(Out, "%d threads\n", Made);
    fclose(Out);
  }
  if (!strcmp(How, "ordinary")) { /* a pthread and a fork()ed child: traced, no finding */
    pthread_t T;
    if (pthread_create(&T, NULL, pthreadRuns, NULL) != 0 || pthread_join(T, NULL) != 0)
      _exit(48);
    pid_t Pid = fork();
    if (Pid == 0)
      childSays("fork() child");
    parentSays("fork()", Pid);
  }
  if (!strcmp(How, "clone3")) /* clone3, whose flags live in memory; then libc's fallback */
    clone3Then(0, "clone");
  if (!strcmp(How, "transient")) { /* libgomp mapped, and gone by the stop */
    void *H = dlopen("libgomp.so.1", RTLD_NOW);
    if (!H || dlclose(H) != 0)
      _exit(46);
  }
  if (!strcmp(How, "filter")) { /* a filter of its own, to outrank linkguard's */
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, NULL) == 0 || errno != EPERM)
      _exit(47);
  }
  if (!strcmp(How, "persona")) { /* libgomp mapped PROT_READ, run as code */
    FILE *Out = fopen(getenv("MARK"), "w");
    if (personality(0xffffffff) == -1 ||
        personality(personality(0xffffffff) | READ_IMPLIES_EXEC) == -1) {
      fputs("refused\n", Out);
    } else {
      int Fd = open("/usr/lib/x86_64-linux-gnu/libgomp.so.1", O_RDONLY);
      void *P = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, Fd, 0);
      char Line[4096], Want[32];
      snprintf(Want, sizeof Want, "%lx-", (unsigned long)P);
      FILE *Maps = fopen("/proc/self/maps", "r");
      while (fgets(Line, sizeof Line, Maps))
        if (!strncmp(Line, Want, strlen(Want)))
          fprintf(Out, "%.4s\n", strchr(Line, ' ') + 1);
      fclose(Maps);
      munmap(P, 4096);
      close(Fd);
    }
    fclose(Out);
  }
}
C
  "$CLANG" -shared -fPIC -pthread traced.c -o traced.so || test_failed "traced.so"
  # Runs a command where no seccomp filter can be installed (EPERM): the
  # loader is traced, but its filter is not there.
  cat >nofilter.c <<'C'
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
int main(int Argc, char **Argv) {
  struct sock_filter F[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_seccomp, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_prctl, 0, 3),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_SET_SECCOMP, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog P = {sizeof F / sizeof F[0], F};
  if (Argc < 2 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &P) != 0)
    return 126;
  execv(Argv[1], Argv + 1);
  return 127;
}
C
  "$CLANG" nofilter.c -o nofilter || test_failed "nofilter"
  # A thread that moves code of libc over a fresh mapping of libgomp as
  # soon as it is made (mremap), 200 times: the read must come first.
  cat >race.c <<'C'
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
int ok(void) { return 0; }
static void *Target, *Innocent;
static volatile int Go, Done;
static void *innocent(void) {
  return mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE,
              open("/usr/lib/x86_64-linux-gnu/libc.so.6", O_RDONLY), 0);
}
static void *swapper(void *Arg) {
  (void)Arg;
  while (!Go) {
  }
  while (!Done)
    if (mremap(Innocent, 4096, 4096, MREMAP_MAYMOVE | MREMAP_FIXED, Target) != MAP_FAILED)
      Innocent = innocent();
  return NULL;
}
__attribute__((constructor)) static void start(void) {
  pthread_t T;
  int Fd = open("/usr/lib/x86_64-linux-gnu/libgomp.so.1", O_RDONLY);
  Target = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  Innocent = innocent();
  pthread_create(&T, NULL, swapper, NULL);
  for (int I = 0; I < 200; ++I) {
    Go = 1;
    mmap(Target, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_FIXED, Fd, 0);
  }
  Done = 1;
  pthread_join(T, NULL);
  munmap(Target, 4096);
}
C
  "$CLANG" -shared -fPIC -pthread race.c -o race.so || test_failed "race.so"
}

SUITE_try_load_traced() {
  TEST "a library that maps libgomp and unmaps it before the next stop: seen as it was mapped"
  HOSTILE=transient run_try_load 1 "dlopen+dlclose" --forbid openmp --call ok traced.so
  expect_contains "$(cat out.txt)" "traced.so: violation: /usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0 is mapped"
  HOSTILE=transient run_try_load 0 "dlopen+dlclose, nothing forbidden" --call ok traced.so
  # READ_IMPLIES_EXEC would make a PROT_READ mapping code without PROT_EXEC:
  # either it is refused, or the verdict is not "holds".
  HOSTILE=persona MARK=$PWD/persona.txt timeout 60 "$LINKGUARD_BIN" try-load --forbid openmp \
    --call ok traced.so >out.txt 2>err.txt
  local st=$?
  if [ "$(cat persona.txt)" != refused ] && [ "$st" = 0 ]; then
    test_failed "libgomp mapped as $(cat persona.txt) through READ_IMPLIES_EXEC, and try-load held"
  fi
  # Another thread cannot put code of another file in its place first.
  run_try_load 1 "mremap race" --forbid openmp --call ok race.so
  expect_contains "$(cat out.txt)" "race.so: violation: /usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0 is mapped"
  # linkguard's filter cannot be outranked: a filter of the library's own is refused (EPERM).
  HOSTILE=filter run_try_load 0 "its own seccomp filter" --call ok traced.so

  TEST "a library that asks for a thread or process untraced: refused, and undecided (92), naming it (issue 37 part 5)"
  # clone(CLONE_UNTRACED) through syscall(): the filter hands it to
  # linkguard, which makes it fail (EPERM) and ends the run in 92: what the
  # library would have run there cannot be known. Before (the filter
  # answered EPERM itself), linkguard never knew: it said "holds" (0);
  # earlier still the child ran untraced (TracerPid 0) and it held too.
  rm -f untraced.txt
  HOSTILE=untraced MARK=$PWD/untraced.txt run_try_load 92 "clone(CLONE_UNTRACED | SIGCHLD)" \
    --forbid openmp --call ok traced.so
  expect_equal "$(cat untraced.txt)" "clone(CLONE_UNTRACED) refused: Operation not permitted" \
    "clone(CLONE_UNTRACED), in the library"
  expect_contains "$(cat out.txt)" \
    "traced.so: undecided: the library asked for a process that linkguard would not trace (clone with CLONE_UNTRACED); refused (EPERM)"
  expect_contains "$(cat out.txt)" "linkguard try-load: "
  expect_contains "$(tail -n 1 out.txt)" ": undecided"
  # The same, --json: valid against the schema, outcome "undecided", 92.
  HOSTILE=untraced MARK=$PWD/untraced-json.txt timeout 60 "$LINKGUARD_BIN" try-load --json \
    --forbid openmp --call ok traced.so >doc.json 2>err.txt
  expect_equal "$?" 92 "--json: $(cat err.txt)"
  python3 - "$LINKGUARD_SOURCE_DIR/docs/schema/try-load.json" doc.json <<'PY' || test_failed "the undecided document"
import json, sys, jsonschema
d = json.load(open(sys.argv[2]))
assert d["outcome"] == "undecided" and d["exitCode"] == 92 and d["traced"] is True, d
assert "CLONE_UNTRACED" in d["problem"], d
jsonschema.validate(d, json.load(open(sys.argv[1])))
PY
  # In --call's function, not a constructor: the same.
  run_try_load 92 "clone(CLONE_UNTRACED) in --call" --call untracedCall traced.so
  expect_contains "$(cat out.txt)" "traced.so: call untracedCall: returned 0"
  expect_contains "$(cat out.txt)" "traced.so: undecided: the library asked for a process that linkguard would not trace"
  # A thread (clone(CLONE_THREAD | CLONE_UNTRACED), glibc's clone()).
  rm -f thread.txt
  HOSTILE=untraced-thread MARK=$PWD/thread.txt run_try_load 92 "clone(CLONE_THREAD | CLONE_UNTRACED)" \
    --call ok traced.so
  expect_equal "$(cat thread.txt)" "clone(CLONE_THREAD | CLONE_UNTRACED) refused: Operation not permitted" \
    "the thread, in the library"
  expect_contains "$(cat out.txt)" \
    "traced.so: undecided: the library asked for a thread that linkguard would not trace (clone with CLONE_UNTRACED)"
  # clone3 (its flags are in memory, which the filter cannot read): ENOSYS,
  # as a kernel without it answers; a fallback to clone that keeps
  # CLONE_UNTRACED is refused and undecided as above.
  rm -f clone3u.txt
  HOSTILE=clone3-untraced MARK=$PWD/clone3u.txt run_try_load 92 "clone3, then clone(CLONE_UNTRACED)" \
    --forbid openmp --call ok traced.so
  expect_equal "$(cat clone3u.txt)" "clone3 refused: Function not implemented
clone(CLONE_UNTRACED) refused: Operation not permitted" "clone3(CLONE_UNTRACED) and its fallback"
  expect_contains "$(cat out.txt)" "traced.so: undecided: the library asked for a process that linkguard would not trace"
  # The fallback without CLONE_UNTRACED (as libc's): its child is traced,
  # and the verdict is the ordinary one.
  rm -f clone3.txt
  HOSTILE=clone3 MARK=$PWD/clone3.txt run_try_load 0 "clone3, then libc's fallback" \
    --forbid openmp --call ok traced.so
  expect_equal "$(head -1 clone3.txt)" "clone3 refused: Function not implemented" "clone3(CLONE_UNTRACED)"
  expect_equal "$(sed -n 2p clone3.txt | sed 's/TracerPid:[[:space:]]*[1-9][0-9]*$/TracerPid: linkguard/')" \
    "clone child ran, TracerPid: linkguard" "the fallback's child, traced"
  # No false 92: a pthread (which maps code of libm) and a fork()ed child, traced.
  rm -f ordinary.txt
  HOSTILE=ordinary MARK=$PWD/ordinary.txt run_try_load 0 "a pthread and a fork()" \
    --forbid openmp --require libm --call ok traced.so
  expect_equal "$(sed 's/TracerPid:[[:space:]]*[1-9][0-9]*$/TracerPid: linkguard/' ordinary.txt)" \
    "fork() child ran, TracerPid: linkguard" "the fork()ed child, traced"
  expect_not_contains "$(cat out.txt)" "undecided"
  # Nor an io_uring worker (iou-wrk), an untraced thread the kernel starts
  # for the process (PF_IO_WORKER), which runs no code of the library.
  HOSTILE=iouring MARK=$PWD/iouring.txt run_try_load 0 "io_uring's worker thread" --call ok traced.so
  if [ "$(cat iouring.txt)" != "io_uring done" ]; then
    echo "  (io_uring is refused here: the worker thread was not made)"
  fi

  TEST "traced, but the filter is not there: a thread or process seen running untraced is undecided (92)"
  # No filter refuses CLONE_UNTRACED here; linkguard looks at every thread
  # and process of the loader at each stop and at the end (TracerPid).
  # Before, that child went unnoticed: "holds" (0).
  HOSTILE=untraced-sleeper MARK=$PWD/sleeper.txt timeout 60 ./nofilter "$LINKGUARD_BIN" try-load --json \
    --call ok traced.so >doc.json 2>err.txt
  expect_equal "$?" 92 "an untraced child at the stop: $(cat err.txt)"
  python3 - doc.json <<'PY' || test_failed "the untraced child, named"
import json, re, sys
d = json.load(open(sys.argv[1]))
assert d["traced"] is False and d["outcome"] == "undecided", d
assert re.fullmatch(r"undecided: a process of the library ran untraced \(process [0-9]+\): "
                    r"linkguard did not see it start, so what it ran cannot be known", d["problem"]), d
PY
  # No false 92: a pthread and a fork()ed child are traced there too.
  HOSTILE=ordinary MARK=$PWD/ordinary2.txt timeout 60 ./nofilter "$LINKGUARD_BIN" try-load \
    --call ok traced.so >out.txt 2>err.txt
  expect_equal "$?" 0 "a pthread and a fork(), no filter: $(tail -n 3 out.txt err.txt)"

  TEST "a library whose process holds more threads than linkguard counts (4,096): undecided (92), said"
  # Each task's TracerPid is read at the stops and at the end, at most
  # 4,096 of them: past that, what was not looked at is not known to be
  # traced. With a census that counted on (MaxCensus 8192) this held (0).
  HOSTILE=many-threads MARK=$PWD/many.txt run_try_load 92 "4,200 sleeping threads" \
    --call ok traced.so
  expect_equal "$(cat many.txt)" "4200 threads" "the library's threads"
  expect_contains "$(cat out.txt)" \
    "holds more than 4096 threads and processes: linkguard cannot tell that each is traced"

  TEST "where linkguard cannot trace the loader (strace -f has it): the stops alone, said"
  if command -v strace >/dev/null; then
    timeout 60 strace -f -o /dev/null "$LINKGUARD_BIN" try-load --json traced.so 2>/dev/null |
      python3 -c 'import json, sys; d = json.load(sys.stdin); assert d["traced"] is False and d["exitCode"] == 0, d' ||
      test_failed "untraced run"
    timeout 60 strace -f -o /dev/null "$LINKGUARD_BIN" try-load --forbid openmp --call ok traced.so \
      >out.txt 2>err.txt
    expect_equal "$?" 0 "untraced --forbid run: $(cat err.txt)"
    expect_contains "$(cat out.txt)" "traced.so: note: linkguard could not trace the loader here"
  else
    test_failed "strace is not installed (scripts/lib/common.sh lists it)"
  fi
}
