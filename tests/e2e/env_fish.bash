# `linkguard env --shell fish | source` in fish: the hostile values of
# env_eval.bash (lib.sh: hostile_env_values, with fish's own specials (cmd),
# {a,b} and *) come back byte for byte and run nothing.

SUITE_env_fish_PROBE() {
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  command -v fish >/dev/null || echo "fish not installed (scripts/lib/common.sh installs it)"
}

SUITE_env_fish() {
  TEST "values through fish, byte for byte"
  hostile_env_values
  out=$(CXX=$HOSTILE_CXX CC=$HOSTILE_CC "$LINKGUARD_BIN" env --shell fish) ||
    test_failed "env exited $?"
  expect_contains "$out" "set -gx CXX '" "fish syntax"
  printf '%s\n' "$out" | (unset LINKGUARD_CXX LINKGUARD_CC
    fish --no-config -c 'source; printf %s "$LINKGUARD_CXX" >got.cxx; printf %s "$LINKGUARD_CC" >got.cc')
  expect_missing pwned
  expect_same_file got.cxx want.cxx
  expect_same_file got.cc want.cc
}
