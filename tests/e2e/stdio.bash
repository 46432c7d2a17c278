# The step stays the compiler's own: what only the compiler may read is never
# read by linkguard, and nothing linkguard opens reaches the compiler.
#  - @/dev/stdin and @<(...) are pipes: the compiler reads them, linkguard
#    leaves them unread (explain says why) and the rules decline;
#  - @/dev/zero is not read (it used to abort linkguard), and an @file over
#    16 MiB passes through unread instead of failing the build (67);
#  - LINKGUARD_LOG_FILE: a FIFO without a reader does not hang the step, a
#    symbolic link is not followed, the descriptor is not inherited by the
#    compiler, a step that logs nothing creates no file, and with fd 1 or 2
#    closed at start the compiler's output does not land in the log;
#  - a tool's standard output that cannot be written (>/dev/full) is one
#    line and exit 74 (docs/exit-codes.md).
# Every run that used to hang is under `timeout 60` (a hang guard: a run
# takes well under a second, 60 s leaves room for a loaded CI machine).

SUITE_stdio_PROBE() {
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  [ -x "$CLANGXX" ] || { echo "$CLANGXX not found"; return; }
  [ -d /proc/self/fd ] || { echo "no /proc/self/fd (the descriptor test reads it)"; return; }
  command -v mkfifo >/dev/null || echo "mkfifo not found"
}

SUITE_stdio_SETUP() {
  LGXX=$(dirname "$LINKGUARD_BIN")/linkguard-clang++
  REC=$FAKE_COMPILERS/recording-compiler
  FDS=$FAKE_COMPILERS/fd-listing-compiler
  printf 'int marker_token_4711 = 1;\nint main() { return marker_token_4711 - 1; }\n' >x.cpp
}

SUITE_stdio() {
  TEST "@/dev/stdin: the compiler reads the pipe, not linkguard"
  echo '-c x.cpp -o s.o' | LINKGUARD_CXX=$CLANGXX timeout 60 "$LGXX" @/dev/stdin 2>err
  expect_equal $? 0 "status"
  expect_exists s.o
  expect_equal "$(cat err)" "" "stderr"

  TEST "@<(...): the same for bash's process substitution"
  LINKGUARD_CXX=$CLANGXX timeout 60 "$LGXX" @<(echo -c x.cpp -o p.o) 2>err
  expect_equal $? 0 "status"
  expect_exists p.o

  TEST "explain: the pipe is not read, and the rules decline because of it"
  out=$(echo '-shared -o m.so' | "$LINKGUARD_BIN" explain -- clang++ a.o @/dev/stdin)
  expect_contains "$out" "unknown:   @/dev/stdin (a pipe or FIFO, which only the compiler may read: not read)"
  expect_contains "$out" "action:    exec the original command unchanged"

  TEST "@/dev/zero: passed through unread"
  st=0
  FAKE_RECORD=$PWD/rec LINKGUARD_CXX=$REC timeout 60 "$LGXX" -c x.cpp @/dev/zero 2>err || st=$?
  expect_equal "$st" 0 "status"
  printf '%s\0' -c x.cpp @/dev/zero >want && printf '\n--end--\n' >>want
  expect_same_file rec want

  TEST "an @file over 16 MiB passes through unread instead of failing"
  yes -- '-DLINKGUARD_PAD' | head -c 17000000 >big.rsp
  st=0
  FAKE_RECORD=$PWD/rec LINKGUARD_CXX=$REC timeout 60 "$LGXX" -c x.cpp @big.rsp 2>err || st=$?
  expect_equal "$st" 0 "status"
  printf '%s\0' -c x.cpp @big.rsp >want && printf '\n--end--\n' >>want
  expect_same_file rec want
  out=$("$LINKGUARD_BIN" explain -- clang++ -c x.cpp @big.rsp)
  expect_contains "$out" "@big.rsp (larger than 16777216 bytes: not read)"

  TEST "a tool whose output cannot be written: one line and 74, not LLVM's abort and 1"
  # (/dev/full: Linux, as /proc/self/fd, which the probe requires.)
  "$LINKGUARD_BIN" inspect "$LINKGUARD_BIN" >/dev/full 2>err
  expect_equal $? 74 "status of inspect"
  expect_equal "$(cat err)" "linkguard: error: cannot write the output: No space left on device" "stderr"
  "$LINKGUARD_BIN" explain -- clang++ -c x.cpp >/dev/full 2>err
  expect_equal $? 74 "status of explain"
  "$LINKGUARD_BIN" --help >/dev/full 2>err
  expect_equal $? 74 "status of --help"

  TEST "LINKGUARD_LOG_FILE is a FIFO without a reader: no hang, stderr instead"
  mkfifo log.fifo
  st=0
  LINKGUARD_LOG=debug LINKGUARD_LOG_FILE=$PWD/log.fifo LINKGUARD_CXX=$CLANGXX \
    timeout 60 "$LGXX" -c x.cpp -o f.o 2>err || st=$?
  expect_equal "$st" 0 "status (124: it hung)"
  expect_exists f.o
  expect_contains "$(cat err)" "cannot open LINKGUARD_LOG_FILE $PWD/log.fifo: not a regular file (a pipe or FIFO); logging to stderr"
  expect_contains "$(cat err)" "real compiler: $CLANGXX" "the log, on stderr"

  TEST "LINKGUARD_LOG_FILE: a symbolic link is not followed"
  echo 'precious' >target
  ln -s target link.log
  LINKGUARD_LOG=debug LINKGUARD_LOG_FILE=$PWD/link.log LINKGUARD_CXX=$CLANGXX \
    "$LGXX" -c x.cpp -o l.o 2>err
  expect_equal $? 0 "status"
  expect_equal "$(cat target)" "precious" "the link's target"
  expect_contains "$(cat err)" "cannot open LINKGUARD_LOG_FILE $PWD/link.log: not a regular file (a symbolic link)"

  TEST "the log's descriptor is not inherited by the compiler (exec and spawn)"
  for mode in "" verify; do
    rm -f fds lg.log
    LINKGUARD_MODE=$mode LINKGUARD_LOG=debug LINKGUARD_LOG_FILE=$PWD/lg.log \
      FAKE_FDS=$PWD/fds LINKGUARD_CXX=$FDS "$LGXX" -shared a.o -o a.so 2>err
    expect_exists fds
    expect_contains "$(cat lg.log)" "real compiler: $FDS" "control: the log was open"
    expect_not_contains "$(cat fds)" "lg.log" "descriptors of the compiler (mode '$mode')"
  done

  TEST "a step that logs nothing creates no log file"
  LINKGUARD_LOG=warn LINKGUARD_LOG_FILE=$PWD/quiet.log LINKGUARD_CXX=$CLANGXX \
    "$LGXX" -c x.cpp -o q.o 2>err
  expect_equal $? 0 "status"
  expect_missing quiet.log

  TEST "fd 1 or 2 closed at start: the compiler's output does not land in the log"
  LINKGUARD_LOG=debug LINKGUARD_LOG_FILE=$PWD/out.log LINKGUARD_CXX=$CLANGXX \
    "$LGXX" -E x.cpp >&-
  expect_exists out.log
  expect_not_contains "$(cat out.log)" "marker_token_4711" "the log (stdout closed)"
  echo 'int broken(' >bad.cpp
  LINKGUARD_LOG=debug LINKGUARD_LOG_FILE=$PWD/err.log LINKGUARD_CXX=$CLANGXX \
    "$LGXX" -c bad.cpp -o bad.o 2>&-
  expect_exists err.log
  expect_not_contains "$(cat err.log)" "error:" "the log (stderr closed)"
}
