# `eval "$(linkguard env)"` runs nothing but assignments, whatever CXX and CC
# hold: a newline, quotes, $, backticks, %, backslashes, tabs, escape
# sequences, carriage returns, non-ASCII, trailing newlines. Each value comes
# back byte for byte in sh (dash), dash and bash. fish: env_fish.bash.

SUITE_env_eval_PROBE() {
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  command -v dash >/dev/null || echo "dash not installed"
}

SUITE_env_eval() {
  TEST "a value with a newline is not a second command"
  hostile_env_values
  out=$(CXX=$HOSTILE_CXX CC=$HOSTILE_CC "$LINKGUARD_BIN" env) || test_failed "env exited $?"
  # Nothing but comments and one assignment per variable, each on one line.
  expect_equal "$(printf '%s\n' "$out" | grep -vc '^export \|^# \|^[A-Z_]*=\$(printf ')" 0 "other lines"
  for sh in sh dash bash; do
    (unset LINKGUARD_CXX LINKGUARD_CC
     "$sh" -c 'eval "$1"; printf %s "$LINKGUARD_CXX" >got.cxx; printf %s "$LINKGUARD_CC" >got.cc' _ "$out")
    expect_missing pwned
    expect_same_file got.cxx want.cxx
    expect_same_file got.cc want.cc
  done
  # Line by line, as a CI step that reads an environment file does: a raw
  # newline in a value would make its second half a command of its own.
  (unset LINKGUARD_CXX LINKGUARD_CC
   printf '%s\n' "$out" | while IFS= read -r line; do eval "$line" 2>/dev/null; done)
  expect_missing pwned

  TEST "a note (a comment) quoting such a value cannot end early"
  out=$(LINKGUARD_CXX=$'x\ntouch pwned #' CXX=y "$LINKGUARD_BIN" env)
  expect_contains "$out" "# LINKGUARD_CXX='x\\x0atouch pwned #' kept" "the note"
  for sh in sh bash; do
    "$sh" -c 'eval "$1"' _ "$out"
    expect_missing pwned
  done

  TEST "plain values stay plain single-quoted exports; --shell is checked"
  out=$(CXX="ccache clang++" CC=clang "$LINKGUARD_BIN" env --shell sh)
  expect_contains "$out" "export LINKGUARD_CXX='ccache clang++'"
  expect_contains "$out" "export LINKGUARD_CC='clang'"
  expect_status 64 "$LINKGUARD_BIN" env --shell csh 2>/dev/null
  expect_status 64 "$LINKGUARD_BIN" env --shell 2>/dev/null
}
