# scripts/demo's showing part (scripts/lib/demo_show.sh), as on a fresh
# Debian 12 (issue 30): its clang-19 package installs clang++-19, and no
# `clang++` is on PATH. The demo's explain named `clang++` and stopped there
# with 69 ("real compiler not found"): measured in a debootstrap chroot,
# docs/reliability.md. Here PATH is /usr/bin without any clang or clang++.

SUITE_demo_PROBE() {
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  for tool in clang++ ld64.lld llvm-otool; do
    [ -x "$LLVM_BIN/$tool" ] || { echo "$LLVM_BIN/$tool not found"; return; }
  done
  [ -x "$(dirname "$LINKGUARD_BIN")/linkguard-clang++" ] || echo "linkguard-clang++ is not beside $LINKGUARD_BIN"
}

SUITE_demo() {
  TEST "the demo where PATH has no clang++: both links, explain's decision, the verdict"
  # A PATH like a fresh machine's: every program of /usr/bin but clang and clang++.
  mkdir bin
  local f name
  for f in /usr/bin/*; do
    name=${f##*/}
    case $name in clang | clang++ | clang-[0-9]* | clang++-[0-9]*) continue ;; esac
    ln -s "$f" "bin/$name"
  done
  [ ! -e bin/clang++ ] || test_failed "bin/clang++ should not exist"
  local out status
  out=$(PATH=$PWD/bin TMPDIR=$PWD bash "$LINKGUARD_SOURCE_DIR/scripts/lib/demo_show.sh" \
    "$(dirname "$LINKGUARD_BIN")" 2>err.txt); status=$?
  expect_equal "$status" 0 "the demo's status: $(tail -5 err.txt)"
  expect_contains "$out" "rule mps-aot-dead-strip-dylibs: applies" "explain's decision"
  expect_contains "$out" "linkguard build: libomp dropped, libSystem kept - the contract holds" "the verdict"
  expect_not_contains "$(cat err.txt)" "not found" "the demo's stderr"
}
