# No shell, no injection: linkguard runs the real compiler with execv /
# posix_spawn and the caller's argv, so arguments that a shell would treat
# specially (spaces, quotes, $(...), backticks, ;, |, >, globs, newlines,
# non-UTF-8 bytes, empty strings) reach the compiler byte for byte, on every
# path: exec (compile), exec with an injected flag, spawn + verify (link),
# and through @response files, which linkguard reads only to classify.
#
# The recording compiler writes each argv NUL-separated; every test compares
# that record with `cmp` against the argv it should have received, and checks
# that nothing named pwned* was created anywhere in the work directory.
#
# Environment values are different by design: LINKGUARD_CXX / CXX name a
# command (a compiler and its leading arguments, as CXX does for make and
# CMake), split into words with shell-like quoting but no expansion of any
# kind, and run directly. docs/reliability.md says what that means.

SUITE_noshell_PROBE() {
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
}

SUITE_noshell_SETUP() {
  LGXX=$(dirname "$LINKGUARD_BIN")/linkguard-clang++
  REC=$FAKE_COMPILERS/recording-compiler
  export FAKE_RECORD=$PWD/rec
  HOSTILE=(
    "two words" "  leading and trailing  " "'single quoted'" '"double quoted"'
    '$(touch pwned)' '`touch pwned-backtick`' '; touch pwned-semicolon'
    '| touch pwned-pipe' '> pwned-redirect' '&& touch pwned-and' '*' '?' '~'
    '$HOME' '${PATH}' '\back\slash\' "$(printf 'new\nline')" "$(printf 'tab\there')"
    "$(printf '\xff\xfe\x80 not utf-8 \xc3\x28')" "" "-DQ=\$(touch pwned-define)"
    "-Wl,\`touch pwned-wl\`" '-I dir with spaces' "%s%n%x" "€ 😀"
  )
}

# expect_record ARG...: the recording compiler was called once, with exactly ARG...
expect_record() {
  printf '%s\0' "$@" >want
  printf '\n--end--\n' >>want
  expect_exists rec
  cmp rec want >/dev/null || test_failed "the compiler's argv differs from the caller's (cmp rec want)"
  rm -f rec want
}

expect_no_pwned() {
  local found
  found=$(find "$E2E_ROOT" -name 'pwned*' | head -3)
  expect_equal "$found" "" "files created by a shell"
}

SUITE_noshell() {
  TEST "hostile arguments on the exec path (compile)"
  for mode in "" off inject verify enforce; do
    LINKGUARD_MODE=$mode LINKGUARD_CXX=$REC "$LGXX" -c x.cpp "${HOSTILE[@]}" -o x.o
    expect_equal $? 0 "status, LINKGUARD_MODE=[$mode]"
    expect_record -c x.cpp "${HOSTILE[@]}" -o x.o
  done
  expect_no_pwned

  TEST "hostile arguments on the spawn path (verified link)"
  for mode in verify enforce; do
    LINKGUARD_MODE=$mode LINKGUARD_CXX=$REC "$LGXX" -shared a.o "${HOSTILE[@]}" -o out.so 2>err
    expect_record -shared a.o "${HOSTILE[@]}" -o out.so
  done
  expect_no_pwned

  TEST "hostile arguments beside an injected flag (MPS AOT link)"
  # Hostile values ride on options here, so the rule still claims the link
  # (explain shows it); the only change is the appended flag.
  args=(-target arm64-apple-macos11 w.o k.o c.o -D TORCH_INDUCTOR_CPP_WRAPPER
        -D STANDALONE_TORCH_HEADER -D USE_MPS -shared -fPIC -undefined dynamic_lookup
        '-DQ=$(touch pwned)' '-DB=`touch pwned-b`' "-DNL=$(printf 'a\nb')"
        "-DU=$(printf '\xff\xfe')" '-I dir with spaces' '-Wl,;touch pwned-wl'
        -o cabx.so -lomp)
  explain=$(LINKGUARD_CXX=$REC "$LINKGUARD_BIN" explain --json clang++ "${args[@]}")
  expect_equal "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["appended"])' <<<"$explain")" \
    "['-Wl,-dead_strip_dylibs']" "explain (control: the rule applies)"
  LINKGUARD_MODE=inject LINKGUARD_CXX=$REC "$LGXX" "${args[@]}"
  expect_equal $? 0 "status"
  expect_record "${args[@]}" -Wl,-dead_strip_dylibs
  # Default mode: the same argv, spawned, then verified (the fake compiler
  # wrote nothing, so enforce fails after the compiler ran with that argv).
  LINKGUARD_CXX=$REC "$LGXX" "${args[@]}" 2>err
  expect_record "${args[@]}" -Wl,-dead_strip_dylibs
  expect_no_pwned

  TEST "hostile response-file content: the compiler gets the @file, unexpanded"
  cat >args.rsp <<'EOF'
-c x.cpp '$(touch pwned)' "`touch pwned-bt`" ;touch\ pwned-semi
-DX=$(touch pwned-x) |touch pwned-pipe >pwned-redir
-o x.o
EOF
  printf '%s\n' "-shared" "-DQ=\$(touch pwned-link)" "-o" "out.so" >link.rsp
  LINKGUARD_CXX=$REC "$LGXX" @args.rsp "two words"
  expect_equal $? 0 "status (compile)"
  expect_record @args.rsp "two words"
  LINKGUARD_MODE=verify LINKGUARD_CXX=$REC "$LGXX" @link.rsp a.o 2>err
  expect_equal $? 0 "status (verified link)"
  expect_record @link.rsp a.o
  expect_contains "$(cat err)" "out.so" "control: linkguard classified the @file as a link to out.so"
  expect_no_pwned

  TEST "LINKGUARD_CXX and CXX: words, never shell syntax"
  # Each word reaches the compiler as a leading argument, literally.
  LINKGUARD_CXX="$REC \$(touch pwned) \`touch pwned-bt\` ';' '|' '>pwned-redir' '*' 'a b' \"c d\" e\\ f" \
    "$LGXX" -c x.cpp
  expect_equal $? 0 "status"
  expect_record '$(touch' 'pwned)' '`touch' 'pwned-bt`' ';' '|' '>pwned-redir' '*' 'a b' 'c d' 'e f' -c x.cpp
  CXX="'$REC' '-DA=\$(touch pwned-cxx)'" "$LGXX" -c x.cpp
  expect_equal $? 0 "status (CXX)"
  expect_record '-DA=$(touch pwned-cxx)' -c x.cpp
  expect_no_pwned

  TEST "LINKGUARD_CXX with an unterminated quote is a config error (78)"
  LINKGUARD_CXX="$REC 'oops" "$LGXX" -c x.cpp 2>err
  expect_equal $? 78 "status"
  expect_contains "$(cat err)" "linkguard: error: unterminated quote"
  expect_missing rec

  TEST "LINKGUARD_CXX is a command by design: it runs what it names"
  # Documented (docs/reliability.md): naming `sh -c ...` runs sh, exactly as
  # CXX="sh -c ..." would for make. linkguard adds no shell of its own: the
  # `$0` below is expanded by the sh the user named, which gets the
  # caller's arguments as "$0 $1 ...".
  LINKGUARD_CXX="sh -c 'printf \"%s|\" \"\$0\" \"\$@\" >made-by-sh'" "$LGXX" -c 'a b' '$(touch pwned)'
  expect_equal $? 0 "status"
  expect_equal "$(cat made-by-sh)" '-c|a b|$(touch pwned)|' "what the named sh received"
  expect_no_pwned
}
