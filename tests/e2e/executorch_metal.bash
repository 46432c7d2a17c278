# examples/executorch-metal/ci.sh in ctest: ExecuTorch's Metal flow
# (models clean first, the runner audit, then the OpenMP linkage removed and
# the closure holding), cross-linked Mach-O and real ELF processes.

SUITE_executorch_metal_PROBE() {
  local tool
  for tool in clang++ clang ld64.lld llvm-otool llvm-readelf; do
    [ -x "$LLVM_BIN/$tool" ] || { echo "$LLVM_BIN/$tool not found"; return; }
  done
  command -v cmake >/dev/null || { echo "cmake not installed"; return; }
  command -v ninja >/dev/null || { echo "ninja not installed"; return; }
  command -v python3 >/dev/null || { echo "python3 not found (the .pte writer)"; return; }
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
}

SUITE_executorch_metal() {
  TEST "examples/executorch-metal/ci.sh: every step behaves, in the demanded order"
  LINKGUARD=$LINKGUARD_BIN LLVM_BIN=$LLVM_BIN \
    bash "$LINKGUARD_SOURCE_DIR/examples/executorch-metal/ci.sh" work >ci.log 2>&1; status=$?
  expect_equal "$status" 0 "ci.sh: $(tail -20 ci.log)"
  log=$(cat ci.log)
  expect_contains "$log" "model-plain.pte@0x30d: violation: /opt/llvm-openmp/lib/libomp.dylib is a dependency"
  expect_contains "$log" "model.pte@0x30d: holds"
  expect_contains "$log" "mac-omp/executor_runner: violation: /opt/llvm-openmp/lib/libomp.dylib is a dependency that no imported symbol binds to"
  expect_contains "$log" "elf-omp/executor_runner: violation: libomp.so is a dependency that no imported symbol binds to"
  expect_contains "$log" "call model_selftest: returned 0"
  expect_contains "$log" "ci.sh: every step behaved"
  # The order: the models' verdicts come before the runner's audit, and the
  # audit before the closure of the fixed tree.
  python3 - ci.log <<'PY' || test_failed "the steps ran out of order"
import sys
log = open(sys.argv[1]).read()
order = ["check --scan --forbid openmp model.pte", "check --unused mac-omp/executor_runner",
         "check --portable --forbid openmp dist\n"]
at = [log.index(s) for s in order]
assert at == sorted(at), at
PY
}
