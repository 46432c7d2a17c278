# `linkguard try-load` and signals (issue 28): every signal whose default
# action ends a process (support/TerminatingSignals.h, the table the
# wrapper's forwarding uses too) removes the private directory a member was
# written to and takes the loader along, and linkguard then dies by that
# signal. The directory goes as soon as dlopen has returned, so even
# SIGKILL, which nothing can catch, leaves nothing behind once the library
# is loaded, and the loader dies with linkguard (PR_SET_PDEATHSIG).
# TRY_LOAD_SIGNAL_ROUNDS (default 1) repeats each case (docs/reliability.md).

SUITE_try_load_signals_PROBE() {
  [ "$(uname -s)" = Linux ] || { echo "Linux only (PR_SET_PDEATHSIG, ELF libraries)"; return; }
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "linkguard not built"; return; }
  env --default-signal true 2>/dev/null || { echo "env --default-signal (coreutils 8.31+) missing"; return; }
  command -v pgrep >/dev/null || { echo "pgrep (procps) not found"; return; }
  command -v python3 >/dev/null || echo "python3 not found"
}

SUITE_try_load_signals_SETUP() {
  cat >slow.c <<'C'
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
static void mark(void) {
  const char *M = getenv("MARK");
  if (M)
    close(open(M, O_WRONLY | O_CREAT, 0600));
}
/* SLOW=init: dlopen has not returned while this sleeps. */
__attribute__((constructor)) static void start(void) {
  if (getenv("SLOW") && getenv("SLOW")[0] == 'i') {
    mark();
    sleep(30);
  }
}
int sleeps(void) {
  mark();
  sleep(30);
  return 0;
}
C
  "$CLANG" -shared -fPIC slow.c -o slow.so || test_failed "slow.so"
  python3 "$LINKGUARD_SOURCE_DIR/scripts/lib/containers.py" pt2 pkg.pt2 data/slow.so=slow.so ||
    test_failed "pkg.pt2"
  mkdir tmp
  ulimit -c 0 # QUIT, TRAP, XCPU, XFSZ, SYS dump core by default
}

MEMBER='pkg.pt2!pkg/data/slow.so'

# start_try_load SLOW ARGS...: linkguard in the background (every signal at
# its default action, as a shell's `&` would not leave INT and QUIT), once
# the library has reached the mark; sets pid.
start_try_load() {
  rm -f mark
  SLOW=$1 MARK=$PWD/mark TMPDIR=$PWD/tmp env --default-signal "$LINKGUARD_BIN" try-load \
    "${@:2}" >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 1200); do # 60 s, for a loaded CI machine
    [ -e mark ] && return 0
    sleep 0.05
  done
  test_failed "the library never reached its mark"
}

# left_behind: silent (status 1) once the loader has ended and TMPDIR is
# empty, within 30 s (CI robustness: a loaded machine; 2 s was a flake).
left_behind() {
  for _ in $(seq 600); do
    if [ -z "$(ls -A tmp)" ] && ! pgrep -f "linkguard-loader.*$PWD/tmp/" >/dev/null; then
      return 1
    fi
    sleep 0.05
  done
  echo "TMPDIR: [$(ls -A tmp)]; loader: [$(pgrep -af "linkguard-loader.*$PWD/tmp/")]"
}

SUITE_try_load_signals() {
  local rounds=${TRY_LOAD_SIGNAL_ROUNDS:-1} name sig status left clean=0 runs=0
  local names=(HUP INT QUIT TERM USR1 USR2 ALRM PIPE TRAP XCPU VTALRM PROF XFSZ SYS IO PWR
    STKFLT RTMIN RTMIN+5 RTMAX)

  TEST "every terminating signal while dlopen runs: directory removed, loader gone, same signal"
  for _ in $(seq "$rounds"); do
    for name in "${names[@]}"; do
      sig=$(kill -l "$name") || test_failed "no signal $name here"
      start_try_load init "$MEMBER"
      [ -n "$(ls -A tmp)" ] || test_failed "$name: no private directory while dlopen runs"
      kill -s "$name" "$pid"
      wait "$pid"
      status=$?
      runs=$((runs + 1))
      left=$(left_behind) && test_failed "SIG$name left something behind: $left"
      expect_equal "$status" $((128 + sig)) "linkguard's status after SIG$name"
      clean=$((clean + 1))
    done
  done
  echo "  $clean/$runs runs clean (${#names[@]} signals x $rounds)"

  TEST "SIGKILL once dlopen has returned: the directory is gone already, the loader dies too"
  clean=0
  for _ in $(seq "$rounds"); do
    start_try_load call --call sleeps "$MEMBER"
    expect_equal "$(ls -A tmp)" "" "TMPDIR while the call runs"
    kill -KILL "$pid"
    wait "$pid"
    expect_equal "$?" 137 "linkguard's status after SIGKILL"
    left=$(left_behind) && test_failed "SIGKILL left something behind: $left"
    clean=$((clean + 1))
  done
  echo "  $clean/$rounds runs clean"
}
