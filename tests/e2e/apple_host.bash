# The host toolchain where it is Apple's: Xcode's (or the Command Line
# Tools') clang++ through xcrun, Apple's ld, the real macOS SDK, and a real
# dlopen in a process that brings no OpenMP of its own
# (tests/runtime/runner.c). The same AOTI-shaped MPS model as scripts/demo,
# linked with -lomp against a libomp stub whose install name is the one
# PyTorch wheels bake (/opt/llvm-openmp/lib/libomp.dylib): plain, the dylib
# keeps that load command and dlopen fails wherever the file is missing;
# through linkguard-clang++, Apple's ld drops it, dlopen succeeds and no
# OpenMP runtime is loaded. On Linux this suite skips (the lld cross-link
# path of mps_rule.bash and runtime_proof.bash covers it there).
#
# Written to Apple's documented tools (xcrun, otool -L, dyld); not run on
# the machines linkguard is developed on, which have no Mac (README.md,
# "macOS").

SUITE_apple_host_PROBE() {
  [ "$(uname -s)" = Darwin ] || { echo "macOS only (Apple's clang, ld and dyld)"; return; }
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  xcrun --find clang++ >/dev/null 2>&1 || { echo "no Apple clang++ (xcode-select --install)"; return; }
}

SUITE_apple_host_SETUP() {
  APPLE_CXX=$(xcrun --find clang++)
  APPLE_CC=$(xcrun --find clang)
  LGXX=$(dirname "$LINKGUARD_BIN")/linkguard-clang++
  write_sdk "$PWD/sdk" # only sdk/omp/libomp.tbd is used: the SDK is the real one
  write_aoti_model "$PWD/model"
  ARCH=$(uname -m)
  for tu in wrapper kernel consts; do
    "$APPLE_CXX" -arch "$ARCH" "model/model.$tu.cpp" "${AOTI_MPS_CFLAGS[@]}" \
      -c -o "model.$tu.o" 2>/dev/null || test_failed "compiling model.$tu.cpp"
  done
  LINK=(model.wrapper.o model.kernel.o model.consts.o "${AOTI_MPS_CFLAGS[@]}" -arch "$ARCH"
        -lomp -L"$PWD/sdk/omp")
  "$APPLE_CC" -O2 "$LINKGUARD_SOURCE_DIR/tests/runtime/runner.c" -o runner ||
    test_failed "building the runner"
}

deps() { xcrun otool -L "$1" | tail -n +2; }

SUITE_apple_host() {
  TEST "Apple's ld keeps the baked libomp without linkguard, drops it through linkguard-clang++"
  "$APPLE_CXX" "${LINK[@]}" -o plain.so || test_failed "plain link"
  expect_contains "$(deps plain.so)" /opt/llvm-openmp/lib/libomp.dylib "plain: otool -L"
  LINKGUARD_CXX=$APPLE_CXX "$LGXX" "${LINK[@]}" -o guarded.so 2>err ||
    test_failed "linkguard link: $(cat err)"
  expect_not_contains "$(deps guarded.so)" libomp "guarded: otool -L"
  expect_contains "$(deps guarded.so)" /usr/lib/libSystem.B.dylib "guarded: otool -L"
  expect_not_contains "$("$LINKGUARD_BIN" inspect guarded.so)" libomp "guarded: linkguard inspect"
  # clang may warn about flags unused on a link; linkguard itself says nothing.
  expect_not_contains "$(cat err)" "linkguard:" "stderr (the verdict holds)"

  TEST "a real dlopen: the guarded model loads with no OpenMP in the process"
  LINKGUARD_CXX=$APPLE_CXX "$LGXX" "${LINK[@]}" -o guarded.so || test_failed "linkguard link"
  out=$(./runner "$PWD/guarded.so" AOTInductorModelContainerRun)
  expect_equal "$?" 0 "runner status: $out"
  expect_contains "$out" "result=10"
  expect_contains "$out" "openmp_mapped=no"

  TEST "a real dlopen: the plain model fails to load where the baked libomp is missing"
  if [ -e /opt/llvm-openmp/lib/libomp.dylib ]; then
    echo "  (skipped: /opt/llvm-openmp/lib/libomp.dylib exists on this Mac, so the plain build loads here)"
  else
    "$APPLE_CXX" "${LINK[@]}" -o plain.so || test_failed "plain link"
    out=$(./runner "$PWD/plain.so" AOTInductorModelContainerRun)
    expect_equal "$?" 2 "runner status: $out"
    expect_contains "$out" "Library not loaded"
    expect_contains "$out" /opt/llvm-openmp/lib/libomp.dylib
  fi

  TEST "SDKROOT reaches the compiler untouched; linkguard itself never runs xcrun"
  sdk=$(xcrun --show-sdk-path)
  cat >spy <<SH
#!/bin/sh
echo "SDKROOT=\$SDKROOT" >"$PWD/spy.log"
exec "$APPLE_CXX" "\$@"
SH
  chmod +x spy
  SDKROOT=$sdk LINKGUARD_CXX=$PWD/spy "$LGXX" "${LINK[@]}" -o spied.so || test_failed "spied link"
  expect_equal "$(cat spy.log)" "SDKROOT=$sdk" "SDKROOT the compiler saw"
  expect_not_contains "$(deps spied.so)" libomp "spied: otool -L"
}
