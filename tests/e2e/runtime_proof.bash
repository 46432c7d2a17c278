# The runtime proof on Linux, with real processes: a runner
# (tests/runtime/runner.c, plain cc, linking only -ldl) dlopens a model .so,
# calls its AOTI-shaped entry point and reports whether an OpenMP runtime got
# mapped into the process. linkguard's build (examples/linkguard.toml,
# clang++-14 -fopenmp) loads without OpenMP; the plain build maps it (the
# control); the seed's failure - a model that names an OpenMP runtime that
# is gone on the machine that loads it - happens to the plain build and not
# to linkguard's build of the same link line; and a model that really uses
# OpenMP keeps it and runs with several threads.

CLANG14=/usr/bin/clang++-14

SUITE_runtime_proof_PROBE() {
  [ "$(uname -s)" = Linux ] || { echo "Linux only (dlopen + /proc/self/maps)"; return; }
  [ -x "$LINKGUARD_BIN" ] || { echo "linkguard not built"; return; }
  [ -x "$CLANG14" ] || { echo "clang++-14 not installed"; return; }
  [ -e /usr/lib/llvm-14/lib/libomp.so.5 ] || { echo "libomp-dev (LLVM 14) not installed"; return; }
  command -v cc >/dev/null || echo "no C compiler (cc) for the runner"
}

SUITE_runtime_proof_SETUP() {
  WRAP=$(dirname "$LINKGUARD_BIN")/linkguard-clang++
  EXAMPLE=$LINKGUARD_SOURCE_DIR/examples/linkguard.toml
  cc -O2 "$LINKGUARD_SOURCE_DIR/tests/runtime/runner.c" -o runner -ldl ||
    test_failed "building the runner"
  # The runner brings no OpenMP of its own.
  expect_not_contains "$("$LLVM_BIN/llvm-readelf" -d runner)" omp "runner NEEDED"
  write_elf_model
  # cpp_builder's Linux flags for an AOT compile: -fopenmp on every step.
  CFLAGS=(-D TORCH_INDUCTOR_CPP_WRAPPER -D STANDALONE_TORCH_HEADER
          -D C10_USING_CUSTOM_GENERATED_MACROS -shared -fPIC -O3 -DNDEBUG -Wall
          -std=c++17 -fopenmp)
  for tu in wrapper kernel consts omp_kernel; do
    "$CLANG14" "${CFLAGS[@]}" -Wno-unused-command-line-argument -c "model.$tu.cpp" -o "model.$tu.o" ||
      test_failed "compiling model.$tu.cpp"
  done
  OBJS=(model.wrapper.o model.kernel.o model.consts.o)
  OMP_OBJS=(model.wrapper.o model.omp_kernel.o model.consts.o)
}

# write_elf_model: an AOTInductor-shaped model in three translation units
# (wrapper, kernel, constants) whose kernel never calls OpenMP, plus a kernel
# that does (omp parallel for, omp_get_max_threads).
write_elf_model() {
  cat >model.wrapper.cpp <<'CPP'
// Shaped like an AOTInductor wrapper: the entry point a runner calls.
extern "C" float model_kernel(const float *in, int n);
extern "C" const float model_constants[4];
extern "C" int AOTInductorModelContainerRun(void *handle, float *out) {
  (void)handle;
  *out = model_kernel(model_constants, 4);
  return 0;
}
CPP
  cat >model.kernel.cpp <<'CPP'
// Vectorised by the compiler; no call into the OpenMP runtime.
extern "C" float model_kernel(const float *in, int n) {
  float s = 0;
#pragma omp simd reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += in[i] * 2.0f;
  return s; // 20 for {1, 2, 3, 4}
}
CPP
  cat >model.consts.cpp <<'CPP'
extern "C" const float model_constants[4] = {1, 2, 3, 4};
CPP
  cat >model.omp_kernel.cpp <<'CPP'
// A kernel that really runs in parallel: it needs the OpenMP runtime.
#include <atomic>
#include <omp.h>
static std::atomic<int> TeamSize{0};
extern "C" int model_threads(void) { return TeamSize.load(); }
extern "C" float model_kernel(const float *in, int n) {
  double s = 0;
  int Threads = omp_get_max_threads();
#pragma omp parallel for num_threads(Threads) reduction(+ : s)
  for (int i = 0; i < 100000; ++i) {
    int T = omp_get_num_threads(), Seen = TeamSize.load();
    while (T > Seen && !TeamSize.compare_exchange_weak(Seen, T)) {
    }
    s += in[i % n];
  }
  return (float)s; // 250000 for {1, 2, 3, 4}
}
CPP
}

# run_model SO [ENV...]: the runner's report, in $REPORT, status in $RUN_STATUS.
run_model() {
  local so=$1; shift
  REPORT=$(env "$@" ./runner "$PWD/$so" AOTInductorModelContainerRun 2>&1)
  RUN_STATUS=$?
  echo "  runner $so: $(tr '\n' ' ' <<<"$REPORT")"
}

needed() { "$LLVM_BIN/llvm-readelf" -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }

# guarded ARGS...: the same link through linkguard with the example rules.
guarded() {
  LINKGUARD_CXX=$CLANG14 LINKGUARD_CONFIG=$EXAMPLE LINKGUARD_LOG=info "$WRAP" "$@" 2>err.txt
}

SUITE_runtime_proof() {
  TEST "(a) linkguard's model loads, computes, and maps no OpenMP runtime"
  guarded "${CFLAGS[@]}" "${OBJS[@]}" -o guarded.so -lomp || test_failed "guarded link: $(cat err.txt)"
  run_model guarded.so
  expect_equal "$RUN_STATUS" 0 "runner status"
  expect_contains "$REPORT" "result=20"
  expect_contains "$REPORT" "openmp_mapped=no"

  TEST "(b) control: the plain build of the same link maps OpenMP in the same runner"
  "$CLANG14" "${CFLAGS[@]}" "${OBJS[@]}" -o plain.so -lomp || test_failed "plain link"
  run_model plain.so
  expect_equal "$RUN_STATUS" 0 "runner status"
  expect_contains "$REPORT" "result=20"
  expect_contains "$REPORT" "openmp_mapped=yes"
  expect_contains "$REPORT" "libomp.so.5"

  TEST "(c) the seed's failure: a vendored runtime that is gone breaks the plain build only"
  # libomp.so.5 itself is in this machine's ld.so cache, so a plain copy of
  # it would still load from /lib after its prefix is gone. The failure
  # needs what wheels ship: a runtime under a name no system path provides
  # (PyTorch: libgomp-<hash>.so.1). The copy gets SONAME libomp.so.9,
  # same length, patched in place.
  ldconfig -p 2>/dev/null | grep -q 'libomp\.so\.9 ' && test_failed "libomp.so.9 is installed here"
  prefix=$PWD/prefix
  mkdir -p "$prefix/lib"
  python3 - /usr/lib/llvm-14/lib/libomp.so.5 "$prefix/lib/libomp.so.9" <<'PY' || test_failed "vendoring libomp"
import sys
data = open(sys.argv[1], "rb").read()
assert data.count(b"libomp.so.5\0") >= 1
open(sys.argv[2], "wb").write(data.replace(b"libomp.so.5\0", b"libomp.so.9\0"))
PY
  ln -s libomp.so.9 "$prefix/lib/libomp.so"
  expect_contains "$("$LLVM_BIN/llvm-readelf" -d "$prefix/lib/libomp.so.9")" "[libomp.so.9]" "vendored SONAME"
  link=("${CFLAGS[@]}" "${OBJS[@]}" -o MODEL -L"$prefix/lib" -lomp -Wl,-rpath,"$prefix/lib")
  "$CLANG14" "${link[@]/MODEL/plain.so}" || test_failed "plain link"
  guarded "${link[@]/MODEL/guarded.so}" || test_failed "guarded link: $(cat err.txt)"
  expect_contains "$(needed plain.so)" libomp.so.9 "plain NEEDED"
  expect_not_contains "$(needed guarded.so)" libomp "linkguard's NEEDED"
  # On the build machine both load; the plain one with the vendored runtime.
  run_model plain.so
  expect_equal "$RUN_STATUS" 0 "plain, prefix present"
  expect_contains "$REPORT" "openmp_mapped=yes $prefix/lib/libomp.so.9"
  # Ship it: the prefix is not on the machine that loads the model.
  rm -rf "$prefix"
  run_model plain.so
  expect_equal "$RUN_STATUS" 2 "plain, prefix gone"
  expect_contains "$REPORT" "libomp.so.9: cannot open shared object file"
  run_model guarded.so
  expect_equal "$RUN_STATUS" 0 "linkguard's, prefix gone"
  expect_contains "$REPORT" "result=20"
  expect_contains "$REPORT" "openmp_mapped=no"

  TEST "(d) a model that uses OpenMP keeps it, passes the contract, runs on several threads"
  guarded "${CFLAGS[@]}" "${OMP_OBJS[@]}" -o omp.so -lomp
  expect_equal "$?" 0 "guarded link status: $(cat err.txt)"
  expect_contains "$(needed omp.so)" libomp.so.5 "NEEDED kept"
  expect_contains "$(cat err.txt)" "libomp.so.5 is kept"
  expect_contains "$(cat err.txt)" "omp.so: contract holds"
  run_model omp.so OMP_NUM_THREADS=4
  expect_equal "$RUN_STATUS" 0 "runner status"
  expect_contains "$REPORT" "result=250000"
  expect_contains "$REPORT" "threads=4"
  expect_contains "$REPORT" "openmp_mapped=yes"
  # Control: the thread count is the runtime's, not a constant.
  run_model omp.so OMP_NUM_THREADS=1
  expect_contains "$REPORT" "threads=1"
  expect_contains "$REPORT" "result=250000"
}
