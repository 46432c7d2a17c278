# `linkguard try-load` must not pass for the wrong reason (issue 28): the
# library under test runs inside the loading process and can write to the
# report's descriptor, close it, exit, unmap what it needs or load code from
# a memfd. The parent reads the process's maps itself, so each such library
# here gets a verdict from the kernel's word, never a forged "holds". Then
# the exit codes and names that were wrong: a platform that cannot load the
# file (91), long names (87/89, not 70), 65 --hide paths, TMPDIR values
# (/tmp, or 73), LD_TRACE_LOADED_OBJECTS, --hide of an entry of / in
# disguise, and names printed with the one escaping rule.

SUITE_try_load_trust_PROBE() {
  [ "$(uname -s)" = Linux ] || { echo "Linux only (/proc/PID/maps, ELF libraries)"; return; }
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "linkguard not built"; return; }
  [ -e /usr/lib/x86_64-linux-gnu/libgomp.so.1 ] || { echo "libgomp.so.1 not installed"; return; }
  unshare -m true 2>/dev/null || unshare -Urm true 2>/dev/null ||
    { echo "this machine allows no private mount namespace (unshare -m, unshare -Urm)"; return; }
  command -v python3 >/dev/null || echo "python3 not found"
}

LG() { "$LINKGUARD_BIN" "$@"; }
GOMP=/usr/lib/x86_64-linux-gnu/libgomp.so.1

SUITE_try_load_trust_SETUP() {
  CONTAINERS=$LINKGUARD_SOURCE_DIR/scripts/lib/containers.py
  # What a constructor can do to the report: the forged records a
  # well-formed report consists of, garbage, or no descriptor at all.
  cat >hostile.c <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef GOMP
extern int omp_get_max_threads(void);
int keep_gomp(void) { return omp_get_max_threads(); }
#endif
int ok(void) { return 0; }
static void put(const char *S) { (void)!write(3, S, strlen(S)); }
/* Unmaps every mapping of a file whose path contains Name. */
static void unmap(const char *Name) {
  FILE *F = fopen("/proc/self/maps", "r");
  char Line[4096];
  unsigned long Start[64], End[64];
  int N = 0;
  while (F && N < 64 && fgets(Line, sizeof Line, F))
    if (strstr(Line, Name) && sscanf(Line, "%lx-%lx", &Start[N], &End[N]) == 2)
      ++N;
  if (F)
    fclose(F);
  for (int I = 0; I < N; ++I)
    munmap((void *)Start[I], End[I] - Start[I]);
}
__attribute__((constructor)) static void start(void) {
  const char *How = getenv("HOSTILE");
  if (!How)
    return;
  if (!strcmp(How, "forge")) /* a report that says: loaded, nothing mapped */
    put("4:load 2:ok\n3:end\n");
  if (!strcmp(How, "forge-exit")) {
    put("4:load 2:ok\n3:end\n");
    _exit(0);
  }
  if (!strcmp(How, "garbage"))
    put("garbage\n");
  if (!strcmp(How, "close"))
    for (int Fd = 3; Fd < 1024; ++Fd)
      close(Fd);
  if (!strcmp(How, "unmap"))
    unmap("libgomp");
  if (!strcmp(How, "stop")) { /* a stop of its own, then libgomp */
    raise(SIGSTOP);
    dlopen("libgomp.so.1", RTLD_NOW);
  }
  if (!strcmp(How, "memfd")) { /* libgomp's bytes, from no file */
    int In = open(getenv("GOMP"), O_RDONLY), Out = memfd_create("libgomp.so.1", 0);
    char Buf[65536], Path[64];
    ssize_t N;
    while (In >= 0 && (N = read(In, Buf, sizeof Buf)) > 0)
      (void)!write(Out, Buf, (size_t)N);
    snprintf(Path, sizeof Path, "/proc/self/fd/%d", Out);
    if (!dlopen(Path, RTLD_NOW))
      _exit(42);
  }
}
C
  "$CLANG" -shared -fPIC -DGOMP hostile.c -o needs-gomp.so -Wl,--no-as-needed "$GOMP" ||
    test_failed "needs-gomp.so"
  "$CLANG" -shared -fPIC hostile.c -o plain.so ||
    test_failed "plain.so"
}

# traced: "true" when linkguard traces the loader here (docs/try-load.md).
traced() {
  "$LINKGUARD_BIN" try-load --json plain.so 2>/dev/null |
    python3 -c 'import json, sys; print(str(json.load(sys.stdin)["traced"]).lower())'
}

# expect_try_load STATUS TITLE ARGS...: runs try-load, output in out.txt/err.txt.
expect_try_load() {
  local want=$1 title=$2
  shift 2
  timeout 30 "$LINKGUARD_BIN" try-load "$@" >out.txt 2>err.txt
  status=$?
  expect_equal "$status" "$want" "$title: $(cat out.txt err.txt)"
}

SUITE_try_load_trust() {
  TEST "controls: the hostile library loads, with and without libgomp"
  expect_contains "$("$LLVM_BIN/llvm-readelf" -d needs-gomp.so)" "libgomp.so.1" "NEEDED"
  expect_try_load 1 "needs-gomp.so, left alone" --forbid openmp needs-gomp.so
  expect_contains "$(cat out.txt)" "needs-gomp.so: violation: /lib/x86_64-linux-gnu/libgomp.so.1"
  expect_try_load 0 "plain.so, left alone" --forbid openmp plain.so

  TEST "a report forged on descriptor 3 does not make libgomp disappear"
  HOSTILE=forge expect_try_load 1 "forged report" --forbid openmp needs-gomp.so
  expect_contains "$(cat out.txt)" "needs-gomp.so: violation: /usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0 is mapped"
  expect_contains "$(cat out.txt)" "needs-gomp.so: note: report incomplete: linkguard-loader's report: records after its end"
  expect_not_contains "$(cat out.txt)" "holds"
  HOSTILE=forge-exit expect_try_load 90 "forged report, then _exit" --forbid openmp needs-gomp.so
  expect_contains "$(cat err.txt)" "report incomplete: the loader reports the library loaded, but the process never showed it mapped"

  TEST "garbage on descriptor 3, or no descriptor 3: report incomplete (90), not 70 or 87"
  HOSTILE=garbage expect_try_load 90 "garbage" plain.so
  expect_contains "$(cat err.txt)" "report incomplete: linkguard-loader's report: "
  HOSTILE=close expect_try_load 90 "fds closed" plain.so
  expect_contains "$(cat err.txt)" "the library was mapped in the process, but the loader's report stops before the load"

  TEST "a library that unmaps what it needs: seen as it was mapped (traced), else the needed library must be mapped"
  if [ "$(traced)" = true ]; then
    HOSTILE=unmap expect_try_load 1 "libgomp unmapped" --forbid openmp needs-gomp.so
    expect_contains "$(cat out.txt)" "needs-gomp.so: violation: /lib/x86_64-linux-gnu/libgomp.so.1 (/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0) is mapped"
  else
    echo "  (linkguard cannot trace the loader here: the stops alone)"
    HOSTILE=unmap expect_try_load 90 "libgomp unmapped" --forbid openmp needs-gomp.so
    expect_contains "$(cat err.txt)" "report incomplete: the library needs libgomp.so.1, and no image mapped in the process is it"
  fi

  TEST "code loaded from a memfd cannot be named: --forbid is undecided (90)"
  HOSTILE=memfd GOMP=$GOMP expect_try_load 90 "memfd" --forbid openmp plain.so
  expect_contains "$(cat err.txt)" "/memfd:libgomp.so.1 (deleted) is mapped with code from no file linkguard can name"
  HOSTILE=memfd GOMP=$GOMP expect_try_load 0 "memfd, nothing forbidden" plain.so
  expect_contains "$(cat out.txt)" "image: dependency: /memfd:libgomp.so.1 (deleted)"

  TEST "a library that stops its own process: no hang, and what it loads next is seen"
  HOSTILE=stop expect_try_load 1 "self-stop" --forbid openmp plain.so
  expect_contains "$(cat out.txt)" "plain.so: violation: "
  expect_contains "$(cat out.txt)" "libgomp.so.1"

  TEST "a Mach-O on Linux, an ELF for another machine: not loadable here (91), with the check to run instead"
  write_sdk sdk
  echo 'extern "C" int f() { return 1; }' >m.cpp
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk) -shared -nostdlib++ m.cpp -o m.dylib || test_failed "m.dylib"
  expect_try_load 91 "Mach-O" m.dylib
  expect_contains "$(cat err.txt)" "m.dylib is a Mach-O dylib (arm64); this platform loads ELF only"
  expect_contains "$(cat err.txt)" "linkguard check --portable --mps-aot m.dylib"
  expect_equal "$(cat out.txt)" "" "stdout"
  # An ELF for another machine: the same, with the ELF check.
  echo 'int f(void) { return 1; }' >arm.c
  "$CLANG" --target=aarch64-linux-gnu -fuse-ld=lld -nostdlib -shared -fPIC arm.c -o arm.so ||
    test_failed "arm.so"
  expect_try_load 91 "aarch64 ELF" arm.so
  expect_contains "$(cat err.txt)" "arm.so is an ELF ET_DYN (aarch64); this machine is x86_64"
  expect_contains "$(cat err.txt)" "read its load commands instead: linkguard check --portable arm.so"

  TEST "long names are the loader's message (87, 89), not 70"
  local long
  long=$(head -c 13000 /dev/zero | tr '\0' x)
  echo 'int dep(void) { return 1; }' >dep.c
  "$CLANG" -shared -fPIC dep.c -o libdep.so -Wl,-soname,"$long" || test_failed "libdep.so"
  echo 'int dep(void); int use(void) { return dep(); }' >use.c
  "$CLANG" -shared -fPIC use.c -o use.so -L. -l:libdep.so || test_failed "use.so"
  expect_try_load 87 "13 KB DT_NEEDED name" use.so
  expect_contains "$(cat err.txt)" "xxxxxxxxxx"
  expect_try_load 89 "20 KB --call name" --call "$(head -c 20000 /dev/zero | tr '\0' y)" plain.so
  expect_contains "$(cat err.txt)" "undefined symbol: yyyyyyyyyy"

  TEST "a member whose base name is over 255 bytes loads from a shortened copy"
  local member
  member=data/$(head -c 300 /dev/zero | tr '\0' m).so
  python3 "$CONTAINERS" pt2 long.pt2 "$member=plain.so" || test_failed "long.pt2"
  mkdir tmp
  TMPDIR=$PWD/tmp expect_try_load 0 "long member name" --call ok "long.pt2!long/$member"
  expect_equal "$(ls -A tmp)" "" "TMPDIR afterwards"

  TEST "65 --hide paths: no fixed limit"
  local hides=() i
  for i in $(seq 65); do
    mkdir -p "h/$i" && touch "h/$i/f"
    hides+=(--hide "$PWD/h/$i/f")
  done
  expect_try_load 0 "65 hidden paths" "${hides[@]}" plain.so
  expect_contains "$(cat out.txt)" "plain.so: hidden: $PWD/h/65/f"

  TEST "TMPDIR: empty, relative or '-x' means /tmp; unusable is 73"
  python3 "$CONTAINERS" pt2 pkg.pt2 data/plain.so=plain.so || test_failed "pkg.pt2"
  local t
  for t in "" -x tmp; do
    TMPDIR=$t expect_try_load 0 "TMPDIR='$t'" --call ok 'pkg.pt2!pkg/data/plain.so'
    expect_contains "$(cat out.txt)" "image: library: /tmp/linkguard-try-load-"
  done
  touch not-a-dir
  for t in /no/such/dir "$PWD/not-a-dir"; do
    TMPDIR=$t expect_try_load 73 "TMPDIR='$t'" 'pkg.pt2!pkg/data/plain.so'
    expect_contains "$(cat err.txt)" "linkguard: error: try-load: cannot create a private directory like $t/linkguard-try-load-"
  done
  TMPDIR=/no/such/dir expect_try_load 0 "a library file needs no private directory" plain.so

  TEST "LD_TRACE_LOADED_OBJECTS is scrubbed with the other loader variables"
  # Set for linkguard alone: any dynamically linked tool would obey it too.
  timeout 30 env LD_TRACE_LOADED_OBJECTS=1 "$LINKGUARD_BIN" try-load --call ok plain.so \
    >out.txt 2>err.txt
  expect_equal "$?" 0 "LD_TRACE_LOADED_OBJECTS=1: $(cat out.txt err.txt)"
  expect_contains "$(cat out.txt)" "plain.so: environment: removed LD_TRACE_LOADED_OBJECTS"

  TEST "--hide of an entry of / in disguise is refused (88), not covering /"
  ln -s / rootlink
  local p
  for p in /./etc /tmp/../etc "$PWD/rootlink/etc"; do
    expect_try_load 88 "--hide $p" --hide "$p" plain.so
    expect_contains "$(cat err.txt)" "could not hide $p: hiding an entry of / is not supported"
  done

  TEST "member names, --call symbols and --hide paths print escaped, text and JSON"
  local evil=$'data/evil\nlinkguard: contract holds\e[2K.so'
  python3 "$CONTAINERS" pt2 evil.pt2 "$evil=plain.so" || test_failed "evil.pt2"
  expect_try_load 89 "evil member" --call nosuch "evil.pt2!evil/$evil"
  expect_contains "$(cat err.txt)" 'linkguard: error: try-load: evil.pt2!evil/data/evil\nlinkguard: contract holds\x1b[2K.so: '
  expect_equal "$(wc -l <err.txt)" 1 "stderr lines"
  expect_try_load 89 "evil symbol" --call $'f\nlinkguard: holds\e[2K' plain.so
  expect_contains "$(cat out.txt)" 'plain.so: call f\nlinkguard: holds\x1b[2K: failed: '
  if grep -q $'\e' out.txt err.txt; then test_failed "an escape reached the terminal"; fi
  mkdir odd && touch odd/$'bad\xff\nname'
  expect_try_load 0 "odd --hide path" --hide "$PWD/odd/"$'bad\xff\nname' plain.so
  expect_contains "$(cat out.txt)" "plain.so: hidden: $PWD/odd/bad\\xff\\nname"
  LG try-load --json --hide "$PWD/odd/"$'bad\xff\nname' --call $'g\xfe' plain.so 2>/dev/null |
    python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["hiddenEscaped"][0].endswith("/odd/bad\\xff\\nname"), d
assert d["call"]["symbolEscaped"] == "g\\xfe", d["call"]
' || test_failed "escaped names in JSON"
}
