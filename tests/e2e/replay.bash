# scripts/replay_cpp_builder.py: a cpp_builder-shaped AOT build (subprocess,
# shlex.split, stdout=PIPE + stderr=STDOUT, cwd a temporary build dir,
# compiler from $CXX) for a Mach-O target. Through linkguard-clang++ the
# model loses libomp; with the plain compiler (the control) it keeps it.

SUITE_replay_PROBE() {
  command -v python3 >/dev/null || { echo "python3 not installed"; return; }
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  [ -x "$LLVM_BIN/ld64.lld" ] || echo "$LLVM_BIN/ld64.lld not found"
}

REPLAY=$LINKGUARD_SOURCE_DIR/scripts/replay_cpp_builder.py
LGXX=$(dirname "$LINKGUARD_BIN")/linkguard-clang++

replay() { # ARGS...: output in replay.log
  python3 "$REPLAY" --sdk sdk --otool "$LLVM_BIN/llvm-otool" "$@" >replay.log 2>&1
}

SUITE_replay_SETUP() {
  write_sdk sdk
}

SUITE_replay() {
  TEST "control: CXX is the plain compiler, libomp stays"
  CXX=$CLANGXX replay --expect kept || test_failed "replay: $(cat replay.log)"
  expect_contains "$(cat replay.log)" /opt/llvm-openmp/lib/libomp.dylib "replay output"

  TEST "CXX=linkguard-clang++, LINKGUARD_CXX=clang++-19: libomp dropped, libSystem kept"
  CXX=$LGXX LINKGUARD_CXX=$CLANGXX replay --expect dropped || test_failed "replay: $(cat replay.log)"
  local log
  log=$(cat replay.log)
  expect_contains "$log" "CXX=$LGXX: Debian clang version 19" "the --version probe went through"
  expect_contains "$log" "replay: $LGXX " "commands run with \$CXX"
  expect_contains "$log" "-D  USE_MPS" "cpp_builder's definition spelling"
  expect_not_contains "$log" libomp.dylib "otool -L"
  expect_contains "$log" /usr/lib/libSystem.B.dylib "otool -L"

  TEST "the same through linkguard run, which records CXX"
  CXX=$CLANGXX "$LINKGUARD_BIN" run -- python3 "$REPLAY" --sdk sdk \
      --otool "$LLVM_BIN/llvm-otool" --expect dropped >replay.log 2>&1 \
    || test_failed "replay: $(cat replay.log)"

  TEST "a model that calls OpenMP keeps libomp through linkguard, and builds"
  CXX=$LGXX LINKGUARD_CXX=$CLANGXX replay --uses-openmp --expect kept \
    || test_failed "replay: $(cat replay.log)"

  TEST "a failing command reports cpp_builder-style, with its output"
  CXX=$LGXX LINKGUARD_CXX=/nonexistent/clang++ replay
  expect_equal $? 1 "replay status (the --version probe fails)"
  CXX=$LGXX LINKGUARD_CXX=$CLANGXX replay --sdk /nonexistent-sdk
  expect_equal $? 2 "replay status (the link fails)"
  expect_contains "$(cat replay.log)" "replay: command failed" "replay output"
}
