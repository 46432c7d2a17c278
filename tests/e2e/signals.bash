# Signals on the spawn path (a link linkguard verifies): every catchable
# terminating signal sent to linkguard at any moment ends the whole job (the
# driver and the linker it runs) and then linkguard by that same signal; a
# terminal's ^Z/^C/^\ reach the whole job; a signal linkguard was started
# with ignored stays ignored; a link that completes despite the signal is
# judged before linkguard dies. docs/architecture.md, "Signals".
#
# The races run through tests/e2e/signal_race.py with the fake driver
# tests/fake-compilers/spawning-driver.c (built by tests/CMakeLists.txt).

SUITE_signals_PROBE() {
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  [ -x "${LINKGUARD_SPAWNING_DRIVER:-}" ] || { echo "LINKGUARD_SPAWNING_DRIVER is not built"; return; }
  command -v python3 >/dev/null || { echo "python3 not found"; return; }
  command -v ps >/dev/null || { echo "ps not found"; return; }
}

SUITE_signals_SETUP() {
  LGXX=$(dirname "$LINKGUARD_BIN")/linkguard-clang++
  RACE=$LINKGUARD_SOURCE_DIR/tests/e2e/signal_race.py
  ulimit -c 0 # SIGQUIT dumps core by default
}

# wait_for_file FILE: up to 60 s (a loaded CI machine, ASan) for FILE to be non-empty.
wait_for_file() {
  local _
  for _ in $(seq 1200); do [ -s "$1" ] && return 0; sleep 0.05; done
  test_failed "$1 never appeared"
}

SUITE_signals() {
  TEST "a signal at a random moment of a verified link ends the whole job, then linkguard by it"
  # Every try: HUP INT QUIT PIPE ALRM TERM USR1 USR2 in turn, 0-6 ms after
  # the start (linkguard starts in about 1 ms; the spawn is inside that
  # window), linkguard a group leader or not.
  python3 "$RACE" race --lgxx "$LGXX" --compiler "$LINKGUARD_SPAWNING_DRIVER" \
    --tries "${LINKGUARD_SIGNAL_TRIES:-240}" >race.log 2>&1
  st=$?
  tail -n 2 race.log
  [ "$st" -eq 0 ] || test_failed "signal race: $(grep -v '^signal race' race.log | head -n 12)"

  TEST "on a terminal the compiler stays in linkguard's job: ^Z stops it all, ^C and ^\\ end it all"
  python3 "$RACE" tty --lgxx "$LGXX" --compiler "$LINKGUARD_SPAWNING_DRIVER" >tty.log 2>&1 ||
    test_failed "$(cat tty.log)"

  TEST "a signal linkguard was started with ignored (nohup) stays ignored, for the compiler too"
  # bash cannot trap a signal ignored at its start: the fake compiler's
  # `trap ... HUP` then does nothing, as in any program started by nohup.
  rm -f pid siglog
  (trap '' HUP
   exec env FAKE_PIDFILE=$PWD/pid FAKE_SIGNAL_LOG=$PWD/siglog FAKE_SLEEP=1 \
     LINKGUARD_MODE=verify LINKGUARD_CXX=$FAKE_COMPILERS/sleeping-compiler \
     "$LGXX" -shared x.o -o out.so 2>err) &
  lg=$!
  wait_for_file pid
  kill -s HUP $lg
  wait $lg
  expect_equal "$?" 0 "linkguard's status after an ignored SIGHUP"
  expect_missing siglog

  TEST "a link that completes despite SIGTERM is judged, then linkguard dies by SIGTERM"
  [ -x "$CLANGXX" ] && [ -x "$LLVM_BIN/ld64.lld" ] || test_failed "clang++-19 and ld64.lld-19 are needed"
  write_sdk "$PWD/sdk"
  read -r -a MACHO <<<"$(macho_flags "$PWD/sdk")"
  echo 'extern "C" int f() { return 1; }' >f.cpp
  # Keeps libomp although nothing uses it: enforce must reject it.
  "$CLANGXX" "${MACHO[@]}" -shared -nostdlib++ f.cpp -o kept.dylib -L"$PWD/sdk/omp" -lomp ||
    test_failed "control link"
  cat >finishing-linker <<'SH'
#!/usr/bin/env bash
# Finishes its "link" when told to stop: copies $FAKE_COPY to -o, exits 0.
out=
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
trap 'cp "$FAKE_COPY" "$out"; exit 0' TERM
echo $$ >"$FAKE_PIDFILE"
sleep 30 &
wait $!
SH
  chmod +x finishing-linker
  rm -f pid
  FAKE_COPY=$PWD/kept.dylib FAKE_PIDFILE=$PWD/pid LINKGUARD_MODE=enforce \
    LINKGUARD_CXX=$PWD/finishing-linker \
    python3 -c '
import signal, subprocess, sys, os, time
p = subprocess.Popen(sys.argv[1:], stderr=open("err", "w"))
for _ in range(1200):  # 60 s: a loaded CI machine, ASan
    if os.path.exists("pid") and os.path.getsize("pid"):
        break
    time.sleep(0.05)
p.send_signal(signal.SIGTERM)
r = p.wait()
print("signal " + signal.Signals(-r).name if r < 0 else "exit %d" % r)' \
    "$LGXX" "${MACHO[@]}" -shared f.o -o out.dylib >status
  expect_equal "$(cat status)" "signal SIGTERM" "linkguard's end"
  expect_contains "$(cat err)" "linkguard: error:" "the verdict"
  expect_missing out.dylib
}
