# `linkguard try-load`: the seed's second proof, "run inference in a
# separate native executable that neither links nor preloads OpenMP", with
# real libraries and real processes. The ELF model (cpp_builder's Linux
# flags, clang++-14 -fopenmp) is linked with and without -Wl,--as-needed;
# a model that really uses OpenMP keeps its runtime; an entry point
# int model_selftest(void) runs the kernel and checks the result. Each
# verdict has its control: --keep-env brings back what scrubbing removed,
# a vendored runtime that is present loads, the same runtime removed fails.

SUITE_try_load_PROBE() {
  [ "$(uname -s)" = Linux ] || { echo "Linux only (dl_iterate_phdr, ELF models)"; return; }
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "linkguard not built"; return; }
  [ -x "$(loader)" ] || { echo "linkguard-loader not built at $(loader)"; return; }
  [ -x /usr/bin/clang++-14 ] || { echo "clang++-14 not installed"; return; }
  [ -e /usr/lib/llvm-14/lib/libomp.so.5 ] || { echo "libomp-dev (LLVM 14) not installed"; return; }
  [ -e "$(gomp)" ] || { echo "libgomp.so.1 not installed"; return; }
  command -v python3 >/dev/null || echo "python3 not found"
}

loader() { echo "$(dirname "$LINKGUARD_BIN")/../libexec/linkguard/linkguard-loader"; }
gomp() { echo /usr/lib/x86_64-linux-gnu/libgomp.so.1; }
LG() { "$LINKGUARD_BIN" "$@"; }
needed() { "$LLVM_BIN/llvm-readelf" -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }

SUITE_try_load_SETUP() {
  if [ ! -d "$E2E_ROOT/models" ]; then
    (mkdir -p "$E2E_ROOT/models" && cd "$E2E_ROOT/models" && build_try_load_models) ||
      { rm -rf "$E2E_ROOT/models"; test_failed "building the models"; }
  fi
  cp "$E2E_ROOT"/models/*.so .
  mkdir tmp # a TMPDIR of its own, to see what is left behind
  CONTAINERS=$LINKGUARD_SOURCE_DIR/scripts/lib/containers.py
}

build_try_load_models() {
  cat >wrapper.cpp <<'CPP'
// An AOTInductor-shaped wrapper with a self test a runner can call.
extern "C" float model_kernel(const float *in, int n);
extern "C" int model_threads(void);
static const float Constants[4] = {1, 2, 3, 4};
extern "C" int model_selftest(void) {
  float Want = model_threads() ? 250000.0f : 20.0f;
  return model_kernel(Constants, 4) == Want ? 0 : 1;
}
CPP
  cat >kernel.cpp <<'CPP'
// Vectorised by the compiler; no call into the OpenMP runtime.
extern "C" int model_threads(void) { return 0; }
extern "C" float model_kernel(const float *in, int n) {
  float s = 0;
#pragma omp simd reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += in[i] * 2.0f;
  return s;
}
CPP
  cat >omp_kernel.cpp <<'CPP'
// Really parallel: needs the OpenMP runtime.
#include <omp.h>
extern "C" int model_threads(void) { return omp_get_max_threads(); }
extern "C" float model_kernel(const float *in, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < 100000; ++i)
    s += in[i % n];
  return (float)s;
}
CPP
  cat >extra.c <<'C'
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <libgen.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
int returns_three(void) { return 3; }
int crashes(void) { return *(volatile int *)0; }
int sleeps(void) { sleep(60); return 0; }
/* 0 when this library sat, while it was loaded, in a directory only its
 * owner can enter (try-load removes the directory once dlopen returned). */
static int PrivateAtLoad = 4;
__attribute__((constructor)) static void check_private(void) {
  Dl_info I;
  struct stat S;
  char Path[4096];
  if (!dladdr((void *)check_private, &I) || !I.dli_fname) {
    PrivateAtLoad = 2;
    return;
  }
  strncpy(Path, I.dli_fname, sizeof Path - 1);
  Path[sizeof Path - 1] = 0;
  if (stat(dirname(Path), &S) != 0)
    PrivateAtLoad = 3;
  else
    PrivateAtLoad = (S.st_mode & 0777) == 0700 && S.st_uid == getuid() ? 0 : 1;
}
int in_private_dir(void) { return PrivateAtLoad; }
C
  local flags=(-shared -fPIC -O2 -fopenmp -Wno-unused-command-line-argument)
  local cxx=/usr/bin/clang++-14
  "$cxx" "${flags[@]}" wrapper.cpp kernel.cpp -o plain.so || return 1
  "$cxx" "${flags[@]}" -Wl,--as-needed wrapper.cpp kernel.cpp -o asneeded.so || return 1
  "$cxx" "${flags[@]}" -Wl,--as-needed wrapper.cpp omp_kernel.cpp -o omp.so || return 1
  # GCC's runtime: -fopenmp=libgomp links libgomp.so.1 (gcc -fopenmp does too).
  "$cxx" -shared -fPIC -O2 -fopenmp=libgomp wrapper.cpp kernel.cpp -o gomp.so || return 1
  "$cxx" -shared -fPIC -O2 -fopenmp=libgomp -Wl,--as-needed wrapper.cpp kernel.cpp -o gomp-asneeded.so || return 1
  "$CLANG" -shared -fPIC extra.c -o extra.so || return 1
}

SUITE_try_load() {
  TEST "the loader links only the C library and maps no OpenMP of its own"
  local deps
  deps=$(needed "$(loader)")
  expect_not_contains "$deps" omp "loader NEEDED"
  for d in $deps; do
    case $d in libc.so.6 | libdl.so.2) ;; *) test_failed "the loader needs $d" ;; esac
  done
  out=$(LG try-load --forbid openmp --call in_private_dir extra.so 2>/dev/null); status=$?
  expect_equal "$status" 89 "extra.so is not in a private directory here: $out"
  expect_contains "$out" "extra.so: call in_private_dir: failed: in_private_dir returned 1"
  out=$(LG try-load --forbid openmp extra.so); status=$?
  expect_equal "$status" 0 "try-load extra.so: $out"
  expect_contains "$out" "extra.so: image: before-load: $(cd "$(dirname "$(loader)")" && pwd)/linkguard-loader"
  expect_contains "$out" "extra.so: image: library: $PWD/extra.so"
  expect_not_contains "$out" "omp"

  TEST "without --as-needed the model maps libomp; with it, no OpenMP at all"
  expect_contains "$(needed plain.so)" libomp.so.5 "plain.so NEEDED"
  expect_not_contains "$(needed asneeded.so)" omp "asneeded.so NEEDED"
  out=$(LG try-load --forbid openmp --call model_selftest plain.so); status=$?
  expect_equal "$status" 1 "plain.so: $out"
  expect_contains "$out" "plain.so: image: dependency: /usr/lib/llvm-14/lib/libomp.so.5 (loaded by plain.so)"
  # One image, one finding (it is seen at every stop), naming what brought
  # it in (issue 35 item 7).
  expect_contains "$out" "plain.so: violation: /usr/lib/llvm-14/lib/libomp.so.5 is mapped in the process (loaded by plain.so), and 'openmp' is forbidden"
  expect_equal "$(printf '%s\n' "$out" | grep -c ': violation: ')" 1 "violation lines: $out"
  expect_contains "$out" "is forbidden; remove the dependency on it from the image that loads it"
  expect_contains "$out" "1 violation: broken"
  expect_contains "$out" "plain.so: call model_selftest: returned 0"
  # The JSON findings are about images, as docs/try-load.md documents.
  LG try-load --json --forbid openmp plain.so | python3 -c '
import json, sys
d = json.load(sys.stdin)
f = [x for x in d["findings"] if x["kind"] == "violation"]
assert f and f[0]["image"] == "/usr/lib/llvm-14/lib/libomp.so.5", d["findings"]
assert set(f[0]) == {"kind", "image", "rule", "message", "advice"}, f[0]
assert d["violations"] == len(f) == 1 and d["keepEnvironment"] is False, d
omp = [i for i in d["images"] if i["path"] == "/usr/lib/llvm-14/lib/libomp.so.5"]
assert len(omp) == 1 and omp[0]["via"] == "plain.so", d["images"]
' || test_failed "findings JSON"
  out=$(LG try-load --forbid openmp --call model_selftest asneeded.so); status=$?
  expect_equal "$status" 0 "asneeded.so: $out"
  expect_contains "$out" "asneeded.so: call model_selftest: returned 0"
  expect_contains "$out" "linkguard try-load: 4 images mapped, 0 violations: holds"

  TEST "the same with GCC's runtime: libgomp mapped without --as-needed, not with it"
  expect_contains "$(needed gomp.so)" libgomp.so.1 "gomp.so NEEDED"
  out=$(LG try-load --forbid openmp --call model_selftest gomp.so); status=$?
  expect_equal "$status" 1 "gomp.so: $out"
  expect_contains "$out" "gomp.so: violation: /lib/x86_64-linux-gnu/libgomp.so.1"
  out=$(LG try-load --forbid openmp --call model_selftest gomp-asneeded.so); status=$?
  expect_equal "$status" 0 "gomp-asneeded.so: $out"
  expect_not_contains "$out" libgomp

  TEST "--call of an entry point that really runs OpenMP: the runtime is mapped, and used"
  out=$(OMP_NUM_THREADS=3 LG try-load --require openmp --call model_selftest omp.so); status=$?
  expect_equal "$status" 0 "omp.so: $out"
  expect_contains "$out" "omp.so: image: dependency: /usr/lib/llvm-14/lib/libomp.so.5"
  expect_contains "$out" "omp.so: call model_selftest: returned 0"
  expect_status 1 LG try-load --forbid openmp omp.so >/dev/null
  expect_status 1 LG try-load --require openmp asneeded.so >/dev/null

  TEST "--call failures: a missing symbol, a non-zero return, a crash (exit 89)"
  LG try-load --call no_such_function asneeded.so >out.txt 2>err.txt; status=$?
  expect_equal "$status" 89 "missing symbol"
  expect_contains "$(cat err.txt)" "linkguard: error: try-load: asneeded.so: $PWD/asneeded.so: undefined symbol: no_such_function"
  LG try-load --call returns_three extra.so >out.txt 2>err.txt; status=$?
  expect_equal "$status" 89 "non-zero return"
  expect_contains "$(cat err.txt)" "returns_three returned 3"
  LG try-load --call crashes extra.so >out.txt 2>err.txt; status=$?
  expect_equal "$status" 89 "crash"
  expect_contains "$(cat err.txt)" "the loader died by signal 11"
  expect_contains "$(cat out.txt)" "extra.so: image: library:" "images listed before the call"

  TEST "a caller's LD_PRELOAD of libgomp does not leak into the child (--keep-env: it does)"
  out=$(LD_PRELOAD=$(gomp) LG try-load --forbid openmp asneeded.so); status=$?
  expect_equal "$status" 0 "scrubbed: $out"
  expect_contains "$out" "asneeded.so: environment: removed LD_PRELOAD"
  expect_not_contains "$out" libgomp
  out=$(LD_PRELOAD=$(gomp) LG try-load --keep-env --forbid openmp asneeded.so); status=$?
  expect_equal "$status" 1 "kept: $out"
  expect_contains "$out" "asneeded.so: image: before-load: $(gomp)"
  expect_contains "$out" "asneeded.so: violation: $(gomp)"

  TEST "LD_LIBRARY_PATH is scrubbed too: the RUNPATH decides which runtime loads"
  mkdir -p shadow && cp /usr/lib/llvm-14/lib/libomp.so.5 shadow/
  out=$(LD_LIBRARY_PATH=$PWD/shadow LG try-load plain.so); status=$?
  expect_equal "$status" 0 "scrubbed: $out"
  expect_contains "$out" "plain.so: image: dependency: /usr/lib/llvm-14/lib/libomp.so.5"
  expect_contains "$out" "environment: removed LD_LIBRARY_PATH"
  out=$(LD_LIBRARY_PATH=$PWD/shadow LG try-load --keep-env plain.so)
  expect_contains "$out" "plain.so: image: dependency: $PWD/shadow/libomp.so.5"

  TEST "a missing dependency: exit 87 with the loader's own message"
  # A runtime vendored under a name no system path provides (PyTorch wheels
  # ship libgomp-<hash>.so.1): libomp.so.5 with its SONAME patched in place.
  mkdir -p prefix/lib
  python3 - /usr/lib/llvm-14/lib/libomp.so.5 prefix/lib/libomp.so.9 <<'PY' || test_failed "vendoring libomp"
import sys
data = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(data.replace(b"libomp.so.5\0", b"libomp.so.9\0"))
PY
  ln -s libomp.so.9 prefix/lib/libomp.so
  cp "$E2E_ROOT/models/wrapper.cpp" "$E2E_ROOT/models/kernel.cpp" .
  /usr/bin/clang++-14 -shared -fPIC -O2 -fopenmp wrapper.cpp kernel.cpp -o vendored.so \
    -L"$PWD/prefix/lib" -lomp -Wl,-rpath,"$PWD/prefix/lib" || test_failed "linking vendored.so"
  expect_contains "$(needed vendored.so)" libomp.so.9 "vendored.so NEEDED"
  out=$(LG try-load --forbid openmp vendored.so); status=$?
  expect_equal "$status" 1 "control, the vendored runtime present: $out"
  expect_contains "$out" "vendored.so: image: dependency: $PWD/prefix/lib/libomp.so.9"
  rm -rf prefix
  LG try-load --forbid openmp vendored.so >out.txt 2>err.txt; status=$?
  expect_equal "$status" 87 "the vendored runtime gone"
  expect_contains "$(cat out.txt)" "vendored.so: load failed: libomp.so.9: cannot open shared object file: No such file or directory"
  expect_equal "$(cat err.txt)" "linkguard: error: try-load: vendored.so: libomp.so.9: cannot open shared object file: No such file or directory"
  LG try-load --json vendored.so 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["outcome"] == "load-failed" and d["exitCode"] == 87, d
assert d["problem"].startswith("libomp.so.9: cannot open shared object file"), d["problem"]
assert d["images"] == [], d["images"]
' || test_failed "load failure JSON"

  TEST "a member of a .pt2: written to a private directory, removed afterwards"
  python3 "$CONTAINERS" pt2 pkg.pt2 data/aotinductor/model/model.wrapper.so=asneeded.so \
    data/aotinductor/probe/extra.so=extra.so || test_failed "writing pkg.pt2"
  out=$(TMPDIR=$PWD/tmp LG try-load --forbid openmp --call model_selftest \
    'pkg.pt2!pkg/data/aotinductor/model/model.wrapper.so'); status=$?
  expect_equal "$status" 0 "member: $out"
  expect_contains "$out" "pkg.pt2!pkg/data/aotinductor/model/model.wrapper.so: image: library: $PWD/tmp/linkguard-try-load-"
  out=$(TMPDIR=$PWD/tmp LG try-load --call in_private_dir 'pkg.pt2!pkg/data/aotinductor/probe/extra.so'); status=$?
  expect_equal "$status" 0 "the member's directory is private (0700, ours): $out"
  expect_equal "$(ls -A tmp)" "" "TMPDIR after try-load"
  LG try-load pkg.pt2 >out.txt 2>err.txt; status=$?
  expect_equal "$status" 64 "two binaries, none named"
  expect_contains "$(cat err.txt)" "pkg.pt2 holds 2 binaries; name one: 'pkg.pt2!pkg/data/aotinductor/model/model.wrapper.so' 'pkg.pt2!pkg/data/aotinductor/probe/extra.so'"
  python3 "$CONTAINERS" pt2 one.pt2 --deflated data/aotinductor/model/model.wrapper.so=plain.so
  out=$(TMPDIR=$PWD/tmp LG try-load --forbid openmp one.pt2); status=$?
  expect_equal "$status" 1 "the only binary member of one.pt2: $out"
  expect_contains "$out" "one.pt2!one/data/aotinductor/model/model.wrapper.so: violation: /usr/lib/llvm-14/lib/libomp.so.5"
  LG try-load 'pkg.pt2!pkg/no/such.so' >/dev/null 2>err.txt; status=$?
  expect_equal "$status" 66 "no such member"
  expect_equal "$(ls -A tmp)" "" "TMPDIR after failures"

  TEST "a library embedded in a .pte: FILE@0xOFFSET, or --scan"
  off=$(python3 "$CONTAINERS" pte prog.pte --offset 7 asneeded.so) || test_failed "writing prog.pte"
  hex=$(printf '0x%x' "$off")
  out=$(TMPDIR=$PWD/tmp LG try-load --forbid openmp --call model_selftest "prog.pte@$hex"); status=$?
  expect_equal "$status" 0 "prog.pte@$hex: $out"
  expect_contains "$out" "prog.pte@$hex: call model_selftest: returned 0"
  expect_status 0 env TMPDIR="$PWD/tmp" "$LINKGUARD_BIN" try-load --scan prog.pte >/dev/null
  expect_equal "$(ls -A tmp)" "" "TMPDIR after try-load"

  TEST "interrupted: the private directory and the child go too"
  python3 "$CONTAINERS" pt2 slow.pt2 data/aotinductor/probe/extra.so=extra.so
  TMPDIR=$PWD/tmp "$LINKGUARD_BIN" try-load --call sleeps 'slow.pt2!slow/data/aotinductor/probe/extra.so' >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 600); do # 60 s, for a loaded CI machine
    pgrep -f "$PWD/tmp/linkguard-try-load-.*/extra.so" >/dev/null && break
    sleep 0.1
  done
  pgrep -f "$PWD/tmp/linkguard-try-load-" >/dev/null || test_failed "the loader never started"
  kill -TERM "$pid"
  wait "$pid"; status=$?
  expect_equal "$status" 143 "linkguard's status after SIGTERM"
  # (CI robustness) the loader dies with linkguard (PR_SET_PDEATHSIG) but
  # is not waited for: poll up to 30 s, not a fixed 0.2 s, on a loaded machine.
  for _ in $(seq 300); do
    pgrep -f "$PWD/tmp/linkguard-try-load-" >/dev/null || break
    sleep 0.1
  done
  expect_equal "$(ls -A tmp)" "" "TMPDIR after SIGTERM"
  pgrep -f "$PWD/tmp/linkguard-try-load-" >/dev/null && test_failed "the loader outlived linkguard"

  TEST "a library that forks a lingering process does not hold try-load up"
  cat >forks.c <<'C'
#include <unistd.h>
/* The child keeps every descriptor the loader had, the report pipe too. */
__attribute__((constructor)) static void start(void) {
  if (fork() == 0) {
    sleep(120);
    _exit(0);
  }
}
int ok(void) { return 0; }
C
  "$CLANG" -shared -fPIC forks.c -o forks.so || test_failed "forks.so"
  # (CI robustness) a hang guard far above a normal run (well under 1 s)
  # and below the child's 120 s (try-load ends it; so does the pkill below).
  out=$(timeout 60 "$LINKGUARD_BIN" try-load --call ok forks.so); status=$?
  expect_equal "$status" 0 "try-load forks.so: $out"
  expect_contains "$out" "forks.so: call ok: returned 0"
  pkill -f "linkguard-loader.*$PWD/forks.so" 2>/dev/null

  TEST "usage errors"
  LG try-load --portable asneeded.so >/dev/null 2>err.txt; expect_equal "$?" 64 "--portable"
  expect_contains "$(cat err.txt)" "use \`linkguard check\`"
  expect_status 64 LG try-load 2>/dev/null
  expect_status 64 LG try-load --call '' asneeded.so 2>/dev/null
  expect_status 64 LG try-load asneeded.so '' 2>/dev/null
  expect_status 64 LG try-load --hide relative/path asneeded.so 2>/dev/null
  expect_status 66 LG try-load --hide /no/such/file asneeded.so 2>/dev/null
  expect_status 66 LG try-load no-such.so 2>/dev/null
  echo 'not a library' >text.so
  expect_status 65 LG try-load text.so 2>/dev/null
}
