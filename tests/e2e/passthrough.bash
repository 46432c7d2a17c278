# Non-link steps run the real compiler with the byte-identical argv, and its
# status, signals and output are its own (issue 3). Uses the recording fake
# compiler (tests/fake-compilers/recording-compiler) and the real clang++-19.

SUITE_passthrough_PROBE() {
  [ -x "$LINKGUARD_BIN" ] || { echo "linkguard not built"; return; }
  [ -x "$CLANGXX" ] || echo "$CLANGXX not installed"
}

SUITE_passthrough_SETUP() {
  WRAP=$(dirname "$LINKGUARD_BIN")/linkguard-clang++
  FAKE=$FAKE_COMPILERS/recording-compiler
}

# record_both ARGS...: the argv the fake compiler gets directly and through
# linkguard, in direct.rec and wrapped.rec.
record_both() {
  rm -f direct.rec wrapped.rec
  FAKE_RECORD=direct.rec "$FAKE" "$@"
  FAKE_RECORD=wrapped.rec LINKGUARD_CXX=$FAKE "$WRAP" "$@"
}

SUITE_passthrough() {
  TEST "compile, preprocess, PCH, dependency scans and probes reach the compiler byte-identical"
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    eval "set -- $line"
    record_both "$@" || test_failed "linkguard failed on: $line"
    expect_same_file wrapped.rec direct.rec
  done <<'LINES'
-c a.cpp -o a.o -shared -fPIC -undefined dynamic_lookup -D  USE_MPS -Xclang -fopenmp
-E -P a.cpp -o a.i -D USE_MPS
-x c++-header hdr.h -o hdr.h.gch -D USE_MPS -shared
-M a.cpp
-MM -MF deps.d a.cpp
-fsyntax-only a.cpp
-S a.cpp -o a.s
--version
-v
-dumpfullversion -dumpversion
-print-search-dirs
-### a.o -shared -o x.so
'arg with spaces' -c "quote\"d" 'dollar $(touch pwned)' a.cpp
LINES
  expect_missing pwned

  TEST "the compiler's exit status passes through: 0, 1, 77"
  for code in 0 1 77; do
    FAKE_EXIT=$code LINKGUARD_CXX=$FAKE "$WRAP" -c a.cpp
    expect_equal "$?" "$code" "status through the exec path"
    # A Mach-O shared link with verify on goes through the spawn path.
    FAKE_EXIT=$code LINKGUARD_MODE=verify LINKGUARD_CXX=$FAKE "$WRAP" a.o -shared \
      -target arm64-apple-macos11 -o x.so 2>/dev/null
    expect_equal "$?" "$code" "status through the spawn path"
  done

  TEST "death by signal is reproduced on both paths"
  for sig in SEGV KILL; do
    num=$(kill -l "$sig")
    bash -c 'FAKE_SIGNAL='"$sig"' LINKGUARD_CXX='"$FAKE"' "$0" -c a.cpp' "$WRAP"
    expect_equal "$?" "$((128 + num))" "exec path, SIG$sig"
    bash -c 'FAKE_SIGNAL='"$sig"' LINKGUARD_MODE=verify LINKGUARD_CXX='"$FAKE"' "$0" a.o -shared -target arm64-apple-macos11 -o x.so' "$WRAP" 2>/dev/null
    expect_equal "$?" "$((128 + num))" "spawn path, SIG$sig"
  done

  TEST "--version output is the real compiler's, exactly"
  "$CLANGXX" --version >direct.out 2>&1
  LINKGUARD_CXX=$CLANGXX "$WRAP" --version >wrapped.out 2>&1
  expect_same_file wrapped.out direct.out

  TEST "a real compile through linkguard produces the same object as clang++"
  printf 'int f(int x) { return x * 2; }\n' >k.cpp
  "$CLANGXX" -c k.cpp -o direct.o
  LINKGUARD_CXX=$CLANGXX "$WRAP" -c k.cpp -o wrapped.o
  expect_same_file wrapped.o direct.o

  TEST "stdout of the compiler is not mixed with linkguard output (logging on)"
  FAKE_STDOUT=compiler-says LINKGUARD_LOG=debug LINKGUARD_CXX=$FAKE "$WRAP" -c a.cpp >out.txt 2>err.txt
  expect_equal "$(cat out.txt)" compiler-says "stdout"
  expect_contains "$(cat err.txt)" "real compiler" "the debug log on stderr"

  TEST "CXX pointing at the wrapper and a masquerade directory end in the recursion error, not a hang"
  mkdir -p masq
  ln -s "$LINKGUARD_BIN" masq/clang++
  # Only linkguard is on PATH: there is no real compiler to find.
  PATH=$PWD/masq lg_timeout 20 "$PWD/masq/clang++" -c a.cpp 2>err.txt
  status=$?
  expect_equal "$status" 68 "masquerade with no real compiler: PATH leads only back to linkguard"
  expect_contains "$(cat err.txt)" "leads only back to linkguard"
  # A wrapper script that calls clang++ from PATH, where PATH leads back to
  # us, as LINKGUARD_CXX: the depth guard ends the loop. (A masquerade does
  # not read CXX: the build called it by name.)
  printf '#!/bin/sh\nexec clang++ "$@"\n' >masq/cxx-script
  chmod +x masq/cxx-script
  PATH=$PWD/masq:/usr/bin:/bin LINKGUARD_CXX=$PWD/masq/cxx-script lg_timeout 20 "$PWD/masq/clang++" -c a.cpp 2>err.txt
  expect_equal "$?" 68 "a loop through LINKGUARD_CXX and the masquerade"
  expect_contains "$(cat err.txt)" "calling itself"
  LINKGUARD_CXX=$WRAP lg_timeout 20 "$WRAP" -c a.cpp 2>err.txt
  expect_equal "$?" 68 "LINKGUARD_CXX naming the wrapper"

  TEST "usage errors and bad variables have distinct codes and one line"
  "$LINKGUARD_BIN" 2>err.txt
  expect_equal "$?" 64 "no arguments"
  expect_equal "$(wc -l <err.txt)" 1 "one error line"
  LINKGUARD_MODE=loud LINKGUARD_CXX=$FAKE "$WRAP" -c a.cpp 2>err.txt
  expect_equal "$?" 78 "bad LINKGUARD_MODE"
  expect_contains "$(cat err.txt)" "LINKGUARD_MODE"
  # "@missing.rsp" is an input clang reports ("no such file or directory");
  # the compiler's own status passes through (here the fake's 3).
  FAKE_EXIT=3 LINKGUARD_CXX=$FAKE "$WRAP" a.o @missing.rsp -o x 2>err.txt
  expect_equal "$?" 3 "a missing response file is the compiler's error"
  printf 'a.o\n' >dir.rsp && mkdir -p unreadable.rsp
  LINKGUARD_CXX=$FAKE "$WRAP" @unreadable.rsp -o x 2>err.txt
  expect_equal "$?" 67 "a response file that cannot be read"
  expect_contains "$(cat err.txt)" "unreadable.rsp"
}
