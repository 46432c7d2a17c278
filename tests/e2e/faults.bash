# Faults around the driver: a missing or broken real compiler, recursion,
# a compiler that dies by a signal, signals sent to linkguard mid-link,
# outputs that cannot be written or vanish, huge argument lists, stdin,
# parallel links, temporary files. Every case must end with the compiler's
# own status or one clear `linkguard: error:` line and a distinct code
# (docs/exit-codes.md), and never hang: every run that could loop is under
# `lg_timeout 20` (tests/e2e/lib.sh).
#
# Exit statuses are read through lg_status (python3 subprocess), which
# tells "died by SIGSEGV" from "exited 139"; bash's $? cannot.

SUITE_faults_PROBE() {
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  [ -x "$CLANGXX" ] || { echo "$CLANGXX not found"; return; }
  command -v python3 >/dev/null || { echo "python3 not found"; return; }
}

SUITE_faults_SETUP() {
  LG_DIR=$(dirname "$LINKGUARD_BIN")
  LGXX=$LG_DIR/linkguard-clang++
  REC=$FAKE_COMPILERS/recording-compiler
  ulimit -c 0 # the signal tests must not leave core files
  echo 'int f() { return 1; }' >x.cpp
  mkdir tmp
  export TMPDIR=$PWD/tmp
}

# expect_one_error_line TEXT: fails unless TEXT is exactly one line starting "linkguard: error:".
expect_one_error_line() {
  local n
  n=$(printf '%s\n' "$1" | wc -l)
  expect_equal "$n" 1 "number of stderr lines in [$1]"
  expect_contains "$1" "linkguard: error: "
}

SUITE_faults() {
  # --- the real compiler cannot be run: 69, one line ----------------------
  TEST "LINKGUARD_CXX names a missing file"
  st=$(LINKGUARD_CXX=$PWD/nonexistent/clang++ lg_status "$LGXX" -c x.cpp 2>err)
  expect_equal "$st" "exit 69"
  expect_one_error_line "$(cat err)"
  expect_contains "$(cat err)" "does not exist"

  TEST "LINKGUARD_CXX names a file that is not executable"
  printf '#!/bin/sh\nexit 0\n' >notexec
  st=$(LINKGUARD_CXX=$PWD/notexec lg_status "$LGXX" -c x.cpp 2>err)
  expect_equal "$st" "exit 69"
  expect_one_error_line "$(cat err)"
  expect_contains "$(cat err)" "not an executable file"

  TEST "LINKGUARD_CXX names a directory"
  mkdir adir
  st=$(LINKGUARD_CXX=$PWD/adir lg_status "$LGXX" -c x.cpp 2>err)
  expect_equal "$st" "exit 69"
  expect_one_error_line "$(cat err)"
  expect_contains "$(cat err)" "not an executable file"

  TEST "CXX names a missing compiler on PATH"
  st=$(CXX=no-such-compiler-xyz lg_status "$LGXX" -c x.cpp 2>err)
  expect_equal "$st" "exit 69"
  expect_one_error_line "$(cat err)"
  expect_contains "$(cat err)" "no-such-compiler-xyz"

  TEST "no compiler on PATH at all"
  mkdir empty
  st=$(lg_status env PATH=$PWD/empty "$LGXX" -c x.cpp 2>err)
  expect_equal "$st" "exit 69"
  expect_one_error_line "$(cat err)"

  # --- CXX empty or blank falls back to PATH ------------------------------
  TEST "CXX empty or only spaces falls back to PATH"
  mkdir bin && ln -s "$REC" bin/clang++
  for cxx in "" "   " "$(printf ' \t ')"; do
    rm -f rec
    st=$(CXX=$cxx FAKE_RECORD=$PWD/rec PATH=$PWD/bin:$PATH lg_status "$LGXX" -c x.cpp)
    expect_equal "$st" "exit 0" "status with CXX=[$cxx]"
    expect_exists rec
  done
  rm -f rec
  st=$(LINKGUARD_CXX="  " FAKE_RECORD=$PWD/rec PATH=$PWD/bin:$PATH lg_status "$LGXX" -c x.cpp)
  expect_equal "$st" "exit 0" "status with LINKGUARD_CXX=[  ]"
  expect_exists rec

  # --- the wrapper twice on PATH, recursion: never a hang -----------------
  TEST "the wrapper on PATH twice before the real compiler"
  mkdir w1 w2 bin
  for d in w1 w2; do
    ln -s "$LINKGUARD_BIN" $d/clang++
    ln -s "$LINKGUARD_BIN" $d/linkguard-clang++
  done
  ln -s "$REC" bin/clang++
  st=$(FAKE_RECORD=$PWD/rec PATH=$PWD/w1:$PWD/w2:$PWD/bin:/usr/bin:/bin \
       lg_timeout 20 "$PWD/w1/clang++" -c x.cpp >/dev/null; echo $?)
  expect_equal "$st" 0 "status through w1/clang++"
  st=$(FAKE_RECORD=$PWD/rec PATH=$PWD/w1:$PWD/w2:$PWD/bin:/usr/bin:/bin \
       lg_timeout 20 "$PWD/w2/linkguard-clang++" -c x.cpp >/dev/null; echo $?)
  expect_equal "$st" 0 "status through w2/linkguard-clang++"
  expect_equal "$(grep -c -- '--end--' rec)" 2 "compiler calls"

  TEST "a PATH masquerade directory with nothing else: 68, no hang"
  mkdir mq
  ln -s "$LINKGUARD_BIN" mq/clang++
  st=$(lg_timeout 20 env PATH=$PWD/mq "$PWD/mq/clang++" -c x.cpp 2>err; echo $?)
  expect_equal "$st" 68
  expect_one_error_line "$(cat err)"
  st=$(lg_timeout 20 env PATH=$PWD/mq "$LGXX" -c x.cpp 2>err; echo $?)
  expect_equal "$st" 68 "status through linkguard-clang++"
  expect_one_error_line "$(cat err)"

  TEST "CXX names linkguard: PATH decides; only linkguard there: 68"
  mkdir mq bin
  ln -s "$LINKGUARD_BIN" mq/clang++
  ln -s "$REC" bin/clang++
  st=$(CXX=$LGXX FAKE_RECORD=$PWD/rec lg_timeout 20 env PATH=$PWD/mq:$PWD/bin:/usr/bin:/bin "$LGXX" -c x.cpp; echo $?)
  expect_equal "$st" 0 "status with a real compiler after the masquerade"
  expect_exists rec
  st=$(CXX=$PWD/mq/clang++ lg_timeout 20 env PATH=$PWD/mq "$LGXX" -c x.cpp 2>err; echo $?)
  expect_equal "$st" 68
  expect_one_error_line "$(cat err)"

  TEST "recursion through CXX (a script that calls linkguard again): 68"
  printf '#!/bin/sh\nexec "%s" "$@"\n' "$LGXX" >loop && chmod +x loop
  st=$(CXX=$PWD/loop lg_timeout 20 "$LGXX" -c x.cpp 2>err; echo $?)
  expect_equal "$st" 68
  expect_one_error_line "$(cat err)"
  expect_contains "$(cat err)" "calling itself"
  # The same through LINKGUARD_CXX, and on the spawn path (verify link).
  st=$(LINKGUARD_CXX=$PWD/loop LINKGUARD_MODE=verify lg_timeout 20 "$LGXX" -shared x.o -o x.so 2>err; echo $?)
  expect_equal "$st" 68 "status on the spawn path"
  expect_one_error_line "$(cat err)"

  TEST "recursion through a launcher: 68"
  st=$(lg_timeout 20 "$LINKGUARD_BIN" "$LGXX" -c x.cpp 2>err; echo $?)
  expect_equal "$st" 68 "launcher naming linkguard-clang++"
  expect_one_error_line "$(cat err)"
  printf '#!/bin/sh\nexec "%s" "$0" "$@"\n' "$LINKGUARD_BIN" >relaunch && chmod +x relaunch
  st=$(lg_timeout 20 "$LINKGUARD_BIN" "$PWD/relaunch" -c x.cpp 2>err; echo $?)
  expect_equal "$st" 68 "launcher script that relaunches"
  expect_one_error_line "$(cat err)"

  TEST "_LINKGUARD_DEPTH that is not a number: 78"
  st=$(_LINKGUARD_DEPTH=abc LINKGUARD_CXX=$REC lg_status "$LGXX" -c x.cpp 2>err)
  expect_equal "$st" "exit 78"
  expect_one_error_line "$(cat err)"

  # --- the compiler dies by a signal: linkguard dies by the same one ------
  TEST "compiler killed by SIGSEGV / SIGKILL on the exec path (compile)"
  for sig in SEGV KILL; do
    st=$(FAKE_SIGNAL=$sig LINKGUARD_CXX=$REC lg_status "$LGXX" -c x.cpp -o x.o)
    expect_equal "$st" "signal SIG$sig"
  done
  # bash reports it as 128+N
  FAKE_SIGNAL=SEGV LINKGUARD_CXX=$REC "$LGXX" -c x.cpp -o x.o 2>/dev/null
  expect_equal $? $((128 + 11)) "bash \$? after SIGSEGV"

  TEST "compiler killed by SIGSEGV / SIGKILL on the spawn path (verify link)"
  for mode in verify enforce; do
    for sig in SEGV KILL; do
      st=$(LINKGUARD_MODE=$mode FAKE_SIGNAL=$sig LINKGUARD_CXX=$REC \
           lg_status "$LGXX" -shared x.o -o x.so 2>err)
      expect_equal "$st" "signal SIG$sig" "$mode, SIG$sig"
      expect_not_contains "$(cat err)" "linkguard:" "stderr ($mode, SIG$sig)"
    done
  done
  LINKGUARD_MODE=verify FAKE_SIGNAL=KILL LINKGUARD_CXX=$REC "$LGXX" -shared x.o -o x.so 2>/dev/null
  expect_equal $? $((128 + 9)) "bash \$? after SIGKILL"

  TEST "compiler exit status passes through on both paths"
  for code in 1 2 42 255; do
    st=$(FAKE_EXIT=$code LINKGUARD_CXX=$REC lg_status "$LGXX" -c x.cpp)
    expect_equal "$st" "exit $code" "exec path"
    st=$(LINKGUARD_MODE=verify FAKE_EXIT=$code LINKGUARD_CXX=$REC lg_status "$LGXX" -shared x.o -o x.so 2>err)
    expect_equal "$st" "exit $code" "spawn path"
    expect_not_contains "$(cat err)" "linkguard:" "stderr after a failed link"
  done

  TEST "SIGTERM / SIGHUP sent to linkguard mid-link reach the compiler"
  for sig in TERM HUP; do
    rm -f pid siglog out.so
    FAKE_PIDFILE=$PWD/pid FAKE_SIGNAL_LOG=$PWD/siglog LINKGUARD_MODE=verify \
      LINKGUARD_CXX=$FAKE_COMPILERS/sleeping-compiler \
      "$LGXX" -shared x.o -o out.so 2>err &
    lg=$!
    for _ in $(seq 600); do [ -s pid ] && break; sleep 0.1; done # 60 s: a loaded CI machine
    expect_exists pid
    kill -s $sig $lg
    wait $lg
    st=$?
    case $sig in TERM) want=143 ;; HUP) want=129 ;; esac
    expect_equal "$st" "$want" "linkguard's status after SIG$sig"
    expect_equal "$(cat siglog)" "$sig" "signal the compiler saw"
    expect_missing out.so
    expect_not_contains "$(cat err)" "linkguard:" "stderr after SIG$sig"
    kill -0 "$(cat pid)" 2>/dev/null && test_failed "the compiler is still running"
  done
  expect_equal "$(ls tmp)" "" "files left in TMPDIR"

  # --- outputs that cannot be written, or vanish --------------------------
  TEST "output directory missing or not writable: the compiler's own status"
  echo 'int f() { return 1; }' >lib.cpp
  "$CLANGXX" -fPIC -c lib.cpp -o lib.o
  outs=(missing-dir/lib.so /proc/linkguard-not-writable.so)
  if [ "$(id -u)" -ne 0 ]; then
    mkdir ro && chmod 555 ro && outs+=(ro/lib.so)
  fi
  for out in "${outs[@]}"; do
    "$CLANGXX" -shared lib.o -o "$out" 2>/dev/null
    want=$?
    [ "$want" -ne 0 ] || test_failed "control: clang++ wrote $out"
    for mode in verify enforce; do
      st=$(LINKGUARD_MODE=$mode LINKGUARD_CXX=$CLANGXX lg_status "$LGXX" -shared lib.o -o "$out" 2>err)
      expect_equal "$st" "exit $want" "$mode, -o $out"
      expect_contains "$(cat err)" "$out" "clang's own diagnostic"
      expect_not_contains "$(cat err)" "linkguard:" "stderr ($mode, -o $out)"
    done
  done
  [ -d ro ] && chmod 755 ro

  TEST "output missing after a successful link: not verified, the compiler's status kept"
  # A link that writes nothing (-Wl,--version, a fake compiler) has nothing
  # of its own to judge: one line, and the compiler's 0, in every mode.
  for mode in verify enforce; do
    st=$(LINKGUARD_MODE=$mode LINKGUARD_CXX=$REC lg_status "$LGXX" -shared x.o -o gone.so 2>err)
    expect_equal "$st" "exit 0" "$mode mode"
    expect_equal "$(wc -l <err)" 1 "stderr lines"
    expect_contains "$(cat err)" "linkguard: warning: not verified: the link wrote no gone.so"
    expect_missing gone.so
  done

  TEST "LINKGUARD_LOG_FILE that cannot be opened does not stop the build"
  # (a regular file as the parent; the file is opened on the first message,
  # so debug level makes sure there is one)
  st=$(LINKGUARD_LOG=debug LINKGUARD_LOG_FILE=$PWD/x.cpp/log LINKGUARD_CXX=$REC \
       lg_status "$LGXX" -c x.cpp 2>err)
  expect_equal "$st" "exit 0"
  expect_contains "$(cat err)" "cannot open LINKGUARD_LOG_FILE" "the fallback warning on stderr"

  # --- big, piped and parallel --------------------------------------------
  TEST "200k arguments through a response file (past ARG_MAX)"
  seq -f '-DLINKGUARD_ARG_%g' 200000 >big.rsp
  echo '-c x.cpp -o big.o' >>big.rsp
  [ "$(file_size big.rsp)" -gt "$(getconf ARG_MAX)" ] || test_failed "control: big.rsp is not past ARG_MAX"
  # The compiler gets the @file itself, never an expanded argv (E2BIG).
  rm -f rec
  st=$(FAKE_RECORD=$PWD/rec LINKGUARD_CXX=$REC lg_status "$LGXX" @big.rsp)
  expect_equal "$st" "exit 0" "recording compiler"
  printf '%s\0' @big.rsp >want && printf '\n--end--\n' >>want
  expect_same_file rec want
  st=$(LINKGUARD_CXX=$CLANGXX lg_status "$LGXX" @big.rsp)
  expect_equal "$st" "exit 0" "real compile"
  expect_exists big.o
  # The spawn path: a verified shared link whose command is in the @file.
  seq -f '-DLINKGUARD_ARG_%g' 200000 >link.rsp
  echo '-shared -fPIC x.cpp -o big.so' >>link.rsp
  st=$(LINKGUARD_MODE=enforce LINKGUARD_CXX=$CLANGXX lg_status "$LGXX" @link.rsp 2>err)
  expect_equal "$st" "exit 0" "real verified link"
  expect_exists big.so

  TEST "stdin piped through on the exec and the spawn path"
  echo 'int piped_fn() { return 7; }' |
    LINKGUARD_CXX=$CLANGXX "$LGXX" -x c++ - -c -o piped.o
  expect_exists piped.o
  expect_contains "$("$LLVM_BIN/llvm-nm" piped.o)" "piped_fn"
  echo 'int piped_lib() { return 7; }' |
    LINKGUARD_MODE=enforce LINKGUARD_CXX=$CLANGXX "$LGXX" -x c++ - -shared -fPIC -o piped.so
  expect_exists piped.so
  expect_contains "$("$LLVM_BIN/llvm-nm" -D piped.so)" "piped_lib"

  TEST "16 parallel verified links (xargs -P8) never interfere"
  for i in $(seq 16); do echo "extern \"C\" int fn_$i() { return $i; }" >p$i.cpp; done
  seq 16 | LINKGUARD_MODE=enforce LINKGUARD_CXX=$CLANGXX \
    xargs -P8 -I{} "$LGXX" -shared -fPIC p{}.cpp -o libp{}.so
  expect_equal $? 0 "xargs status"
  for i in $(seq 16); do
    syms=$("$LLVM_BIN/llvm-nm" -D --defined-only libp$i.so | grep -o 'fn_[0-9]*' | tr '\n' ' ')
    expect_equal "$syms" "fn_$i " "symbols of libp$i.so"
  done

  TEST "no temporary file is left behind"
  echo 'int g() { return 2; }' >g.cpp
  before=$(ls -A tmp)
  LINKGUARD_CXX=$CLANGXX "$LGXX" -c g.cpp -o g.o
  LINKGUARD_MODE=enforce LINKGUARD_CXX=$CLANGXX "$LGXX" -shared -fPIC g.cpp -o g.so
  LINKGUARD_MODE=enforce LINKGUARD_CXX=$CLANGXX "$LGXX" -shared g.o -o g2.so
  LINKGUARD_MODE=enforce LINKGUARD_CXX=$REC "$LGXX" -shared g.o -o never.so 2>/dev/null
  LINKGUARD_MODE=verify FAKE_EXIT=1 LINKGUARD_CXX=$REC "$LGXX" -shared g.o -o never.so 2>/dev/null
  "$LINKGUARD_BIN" inspect g.so >/dev/null
  "$LINKGUARD_BIN" explain -shared g.o -o g.so >/dev/null 2>&1
  expect_exists g.so
  expect_exists g2.so
  expect_equal "$(ls -A tmp)" "$before" "TMPDIR contents"
  # LC_ALL=C: ls sorts by the locale's collation (en_US puts g2.so first).
  expect_equal "$(LC_ALL=C ls -A | tr '\n' ' ')" "g.cpp g.o g.so g2.so tmp x.cpp " "work dir contents"
}
