#!/usr/bin/env bash
# The order the review this project grew from demands, as CI would run it,
# for ExecuTorch's Metal flow (cross-linked Mach-O) and then the same flow
# on ELF, ending with a real process:
#   1. the models clean first: the .pte's model library has no OpenMP
#      dependency (check --scan --forbid openmp), built through linkguard;
#   2. the runner audit: libomp is a dependency nothing uses (check --unused);
#   3. only then the OpenMP linkage and rpaths removed
#      (-DEXAMPLE_WITHOUT_TORCH_OMP=ON), and the closure of what ships holds
#      with no OpenMP anywhere (check --portable --forbid openmp DIST).
#   ELF: the same, then the model loaded in a process where torch/lib is
#   hidden (try-load --hide), and the runner run for real.
# Each step that must fail before its fix is shown failing first.
#
#   examples/executorch-metal/ci.sh WORKDIR
# Environment: LINKGUARD (the linkguard binary; linkguard-clang++ beside
# it), LLVM_BIN (clang 19's bin directory). Exit 0 when every step behaves.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$root/scripts/lib/macho_sdk.sh"
LG=${LINKGUARD:?set LINKGUARD to the linkguard binary}
LLVM_BIN=${LLVM_BIN:-/usr/lib/llvm-19/bin}
WRAP=$(dirname "$LG")/linkguard-clang++
work=${1:?usage: ci.sh WORKDIR}
mkdir -p "$work" && cd "$work" || exit 2

step() { printf '\n== %s\n' "$*"; }
fail() { echo "ci.sh: FAILED: $*" >&2; exit 1; }
# expect STATUS CMD...: runs CMD, shows its output, fails unless it exits STATUS.
expect() {
  local want=$1 st; shift
  echo "\$ ${*/#$LG/linkguard}"
  "$@"; st=$?
  [ "$st" = "$want" ] || fail "exit $st, expected $want: $*"
}

# expect_line STATUS TEXT CMD...: as expect, and the output holds TEXT.
expect_line() {
  local want=$1 text=$2 out st; shift 2
  echo "\$ ${*/#$LG/linkguard}"
  out=$("$@" 2>&1); st=$?
  echo "$out"
  [ "$st" = "$want" ] || fail "exit $st, expected $want: $*"
  case $out in *"$text"*) ;; *) fail "no \"$text\" in the output of: $*" ;; esac
}

# -- Mach-O (cross-linked: clang++-19 + ld64.lld against .tbd stubs) --
write_sdk sdk
write_tbd sdk/usr/lib/libSystem.tbd /usr/lib/libSystem.B.dylib dyld_stub_binder \
  _malloc _free _printf _fopen _fread _fclose _fseek _ftell _mkstemp _write _close \
  _unlink _dlopen _dlsym _dlerror _atol ___stack_chk_fail ___stack_chk_guard
# PyTorch's torch/lib/libomp, whose install name every link against it bakes.
write_tbd torch/lib/libomp.tbd /opt/llvm-openmp/lib/libomp.dylib _omp_get_max_threads
cat >darwin.cmake <<CMAKE
set(CMAKE_SYSTEM_NAME Darwin)
set(CMAKE_SYSTEM_PROCESSOR arm64)
set(CMAKE_C_COMPILER $LLVM_BIN/clang)
set(CMAKE_CXX_COMPILER $LLVM_BIN/clang++)
set(CMAKE_C_COMPILER_TARGET arm64-apple-macos11)
set(CMAKE_CXX_COMPILER_TARGET arm64-apple-macos11)
set(CMAKE_OSX_SYSROOT $PWD/sdk)
set(CMAKE_EXE_LINKER_FLAGS_INIT "-fuse-ld=lld -nostdlib++")
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
CMAKE
# shellcheck disable=SC2046
MAC=($(macho_flags "$PWD/sdk") -nostdlib++)

step "Mach-O 1. the model library, as inductor's cpp_builder builds it (compile, then link with -lomp)"
# AOT shape: objects first, then the link; -lomp from the libomp PyTorch
# ships (write_sdk: sdk/omp/libomp.tbd, install name /opt/llvm-openmp/...).
"$LLVM_BIN/clang++" "${MAC[@]}" "${AOTI_MPS_CFLAGS[@]}" -c "$here/model/model.cpp" \
  -o model.o || fail "model compile"
"$LLVM_BIN/clang++" "${MAC[@]}" "${AOTI_MPS_CFLAGS[@]}" model.o -o model-plain.dylib \
  -Lsdk/omp -lomp || fail "plain model link"
LINKGUARD_CXX=$LLVM_BIN/clang++ "$WRAP" "${MAC[@]}" "${AOTI_MPS_CFLAGS[@]}" model.o \
  -o model.dylib -Lsdk/omp -lomp || fail "model link through linkguard"
python3 "$root/scripts/lib/containers.py" pte model-plain.pte model-plain.dylib >/dev/null
python3 "$root/scripts/lib/containers.py" pte model.pte model.dylib >model.offset
expect 1 "$LG" check --scan --forbid openmp model-plain.pte
expect 0 "$LG" check --scan --forbid openmp model.pte

step "Mach-O 2. the runner audit: libomp is linked and unused"
cmake -S "$here" -B mac-omp -G Ninja -DCMAKE_TOOLCHAIN_FILE="$PWD/darwin.cmake" \
  -DTORCH_BASE_PATH="$PWD/torch" >mac-omp.log 2>&1 && cmake --build mac-omp >>mac-omp.log 2>&1 ||
  fail "building the runner: $(tail -5 mac-omp.log)"
"$LLVM_BIN/llvm-otool" -L mac-omp/executor_runner
expect_line 1 "/opt/llvm-openmp/lib/libomp.dylib is a dependency that no imported symbol binds to" \
  "$LG" check --unused mac-omp/executor_runner
mkdir -p dist-omp/bin dist-omp/models
cp mac-omp/executor_runner dist-omp/bin/ && cp model.pte dist-omp/models/
expect 1 "$LG" check --portable --forbid openmp dist-omp

step "Mach-O 3. then the OpenMP linkage and rpaths removed; the closure holds, no OpenMP anywhere"
cmake -S "$here" -B mac -G Ninja -DCMAKE_TOOLCHAIN_FILE="$PWD/darwin.cmake" \
  -DTORCH_BASE_PATH="$PWD/torch" -DEXAMPLE_WITHOUT_TORCH_OMP=ON >mac.log 2>&1 &&
  cmake --build mac >>mac.log 2>&1 || fail "building the runner: $(tail -5 mac.log)"
"$LLVM_BIN/llvm-otool" -L -l mac/executor_runner | grep -E 'dylib|LC_RPATH|path ' || true
mkdir -p dist/bin dist/models
cp mac/executor_runner dist/bin/ && cp model.pte dist/models/
expect 0 "$LG" check --unused dist/bin/executor_runner
expect 0 "$LG" check --portable --forbid openmp dist
expect 0 "$LG" check --scan --forbid openmp dist/models/model.pte
"$LG" inspect --tree dist

# -- ELF: the same flow, native, ending with real processes --
step "ELF 1. the model library, clean"
mkdir -p torch-elf/lib
echo 'int omp_get_max_threads(void) { return 1; }' >omp.c
"$LLVM_BIN/clang" -shared -fPIC omp.c -o torch-elf/lib/libomp.so -Wl,-soname,libomp.so ||
  fail "libomp.so"
# The plain build bakes the build machine's torch/lib (as a wheel's build
# would): it loads here, for the wrong reason.
"$LLVM_BIN/clang++" -shared -fPIC -O2 "$here/model/model.cpp" -o model-plain.so \
  -Ltorch-elf/lib -lomp -Wl,-rpath,"$PWD/torch-elf/lib" || fail "plain ELF model"
"$LLVM_BIN/clang++" -shared -fPIC -O2 "$here/model/model.cpp" -o model.so \
  -Wl,--as-needed -Ltorch-elf/lib -lomp || fail "ELF model"
python3 "$root/scripts/lib/containers.py" pte model-plain-elf.pte model-plain.so >/dev/null
python3 "$root/scripts/lib/containers.py" pte model-elf.pte model.so >model-elf.offset
expect 1 "$LG" check --scan --forbid openmp model-plain-elf.pte
expect 0 "$LG" check --scan --forbid openmp model-elf.pte

step "ELF 2. the runner audit"
# The runner needs no C++ runtime (as on Mach-O): -nostdlib++.
CC=$LLVM_BIN/clang CXX=$LLVM_BIN/clang++ cmake -S "$here" -B elf-omp -G Ninja \
  -DCMAKE_EXE_LINKER_FLAGS=-nostdlib++ -DTORCH_BASE_PATH="$PWD/torch-elf" >elf-omp.log 2>&1 && cmake --build elf-omp >>elf-omp.log 2>&1 ||
  fail "building the ELF runner: $(tail -5 elf-omp.log)"
"$LLVM_BIN/llvm-readelf" -d elf-omp/executor_runner | grep -E 'NEEDED|RPATH|RUNPATH'
# (libm and libgcc_s, which the clang driver adds, are unused too.)
expect_line 1 "libomp.so is a dependency that no imported symbol binds to" \
  "$LG" check --unused elf-omp/executor_runner
elf-omp/executor_runner model-elf.pte "$(cat model-elf.offset)" || fail "the runner before the fix"

step "ELF 3. the linkage removed; the closure holds; real processes with torch/lib hidden"
CC=$LLVM_BIN/clang CXX=$LLVM_BIN/clang++ cmake -S "$here" -B elf -G Ninja \
  -DCMAKE_EXE_LINKER_FLAGS=-nostdlib++ -DTORCH_BASE_PATH="$PWD/torch-elf" \
  -DEXAMPLE_WITHOUT_TORCH_OMP=ON >elf.log 2>&1 &&
  cmake --build elf >>elf.log 2>&1 || fail "building the ELF runner: $(tail -5 elf.log)"
mkdir -p dist-elf/bin dist-elf/models
cp elf/executor_runner dist-elf/bin/ && cp model-elf.pte dist-elf/models/
expect 0 "$LG" check --forbid openmp dist-elf/bin/executor_runner
expect 0 "$LG" check --portable --forbid openmp dist-elf
# The model in a fresh process where PyTorch's lib directory does not
# exist (a private mount namespace): it loads and its self-test passes.
"$LG" try-load --hide "$PWD/torch-elf/lib" --scan --call model_selftest model-elf.pte; hide=$?
if [ "$hide" = 88 ]; then
  echo "try-load --hide: no private mount namespace here; loading without it"
  expect 0 "$LG" try-load --scan --call model_selftest model-elf.pte
else
  [ "$hide" = 0 ] || fail "try-load --hide exit $hide"
  # The control: the plain model loads on the build machine, for the wrong
  # reason, and not where torch/lib does not exist.
  expect 0 "$LG" try-load --scan model-plain-elf.pte
  expect 87 "$LG" try-load --hide "$PWD/torch-elf/lib" --scan model-plain-elf.pte
fi
rm -rf torch-elf
expect 0 dist-elf/bin/executor_runner dist-elf/models/model-elf.pte "$(cat model-elf.offset)"
echo
echo "ci.sh: every step behaved"
