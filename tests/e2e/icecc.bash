# linkguard with icecream (Debian's icecc 1.4): a scheduler and a daemon on
# loopback, started and stopped by the suite, and the generated -j8 project
# (farm_lib.sh) built with icecc and linkguard in both orders:
#   CXX=linkguard-clang++  LINKGUARD_CXX="icecc clang++-19"     linkguard first
#   CXX=linkguard-clang++  LINKGUARD_CXX=/usr/lib/icecc/bin/clang++,
#                          ICECC_CXX=/usr/bin/clang++-19         (icecc masquerade)
#   CXX=/usr/lib/icecc/bin/clang++  ICECC_CXX=linkguard-clang++  icecc first
# Every compile must be a job the scheduler placed (its log: BEGIN/END per
# job), every link must run here through linkguard with the rule (linkguard's
# log), and the outputs must equal a plain clang++-19 build's.
#
# On loopback only: the scheduler listens on lo (-i lo), the daemon takes no
# remote jobs (--no-remote: no TCP listener, only its unix socket), and
# ICECC_TESTS=1 - icecream's own test mode - keeps their discovery
# broadcasts on lo. So the scheduler places every job on this one daemon:
# icecream only sends a job to another host whose CPU is not saturated
# (scheduler/compileserver.cpp is_eligible_now, load < 1000), which a
# 2-core machine running -j8 never is. ICECC_VERSION names a small
# placeholder environment: the jobs run here, and icecc-create-env would
# otherwise pack clang 19 (88 MB, 40 s) before the first job.

# shellcheck source=farm_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/farm_lib.sh"

# icecc takes the "dynamic_lookup" of cpp_builder's "-undefined
# dynamic_lookup" on a compile line for a second input file and compiles
# such a job here, outside the scheduler ("found another non option on
# command line. Two input files?"; the last test shows it). The scheduled
# builds put -undefined on the links only, as CMake does.
farm_drop_flags -undefined

SUITE_icecc_PROBE() {
  local t
  for t in icecc iceccd icecc-scheduler make; do
    command -v "$t" >/dev/null || { echo "$t not installed (scripts/lib/common.sh installs icecc)"; return; }
  done
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  [ -x "$CLANGXX19" ] || { echo "$CLANGXX19 not installed"; return; }
  [ -e /usr/lib/icecc/bin/clang++ ] || { echo "/usr/lib/icecc/bin/clang++ missing"; return; }
  [ -x "$LLVM_BIN/ld64.lld" ] || echo "$LLVM_BIN/ld64.lld not found"
}

# start_icecream: the scheduler and the daemon, as root (both drop to the
# icecc user, hence a folder that user can write, outside the private
# suite folder; a short path for the unix socket).
# The scheduler binds three ports from -p P: TCP P, TCP P+1 (its text
# interface) and UDP P (scheduler/scheduler.cpp main), and exits at once
# if any is taken. free_port only knows TCP P is free now, and the other
# suites running beside this one take ports too: so wait for "scheduler
# ready" (start_on_free_port: another port if it exited instead).
start_icecream() {
  ICE=$(mktemp -d "${TMPDIR:-/tmp}/lg-icecc.XXXXXX")
  chmod 1777 "$ICE"
  local port net=linkguard-e2e-$$
  start_on_free_port "$ICE/scheduler.log" 'scheduler ready' "$ICE/scheduler.pid" \
    env ICECC_TESTS=1 icecc-scheduler -p '{PORT}' -i lo -n "$net" -l "$ICE/scheduler.log" -vvv ||
    test_failed "icecc-scheduler did not start on 5 ports: $(tail -n 5 "$ICE"/scheduler.log* 2>&1)"
  port=$PORT
  ICECC_TESTS=1 ICECC_TEST_SOCKET=$ICE/socket iceccd --no-remote -m 4 -s "127.0.0.1:$port" \
    -n "$net" -N lgice -b "$ICE/envs" -l "$ICE/daemon.log" -vvv &
  echo $! >"$ICE/daemon.pid"
  # ICECC_TESTS=1: the daemon retries the scheduler every 3 s
  # (daemon/main.cpp fast_reconnect); a loaded machine gets 60 s.
  for _ in $(seq 300); do
    grep -q 'Connected to scheduler' "$ICE/daemon.log" 2>/dev/null && break
    sleep 0.2
  done
  grep -q 'Connected to scheduler' "$ICE/daemon.log" ||
    test_failed "iceccd did not reach the scheduler: $(tail -n 5 "$ICE/daemon.log" "$ICE/scheduler.log" 2>&1)"
  # The placeholder environment (icecc wants a file of at least 500 bytes).
  mkdir -p "$ICE/env" && head -c 2048 /dev/urandom >"$ICE/env/placeholder"
  tar czf "$ICE/env.tar.gz" -C "$ICE/env" .
}

SUITE_icecc_TEARDOWN() {
  [ -n "${ICE:-}" ] || return 0
  stop_daemon "$ICE/daemon.pid" "$ICE/scheduler.pid"
  cp "$ICE"/*.log "$E2E_ROOT/" 2>/dev/null
  rm -rf "$ICE"
}

SUITE_icecc_SETUP() {
  export ICECC_TEST_SOCKET=$ICE/socket ICECC_VERSION=$ICE/env.tar.gz
  export ICECC_DEBUG=debug ICECC_LOGFILE=$PWD/icecc.log
  unset ICECC ICECC_CXX ICECC_CC ICECC_PREFERRED_HOST
  export LINKGUARD_LOG=info LINKGUARD_LOG_FILE=$PWD/linkguard.log
  : >"$LINKGUARD_LOG_FILE"
  MARK=$(wc -l <"$ICE/scheduler.log")
  write_farm_project "$PWD/proj"
}

# expect_scheduled_compiles: the scheduler placed all 25 compiles and each
# ended with status 0; icecc ran the 5 links here, outside the scheduler.
expect_scheduled_compiles() {
  local log
  # (CI robustness) icecc tells its job's end to the local daemon and
  # exits; the daemon passes it on to the scheduler later (client/remote.cpp
  # maybe_build_local: JobDoneMsg FROM_SUBMITTER): make can return before
  # the scheduler logged the last END, which would then count in the next
  # test. Wait until every BEGIN has its END (60 s for a loaded machine).
  for _ in $(seq 300); do
    log=$(tail -n +"$((MARK + 1))" "$ICE/scheduler.log")
    [ "$(grep -c 'END [0-9]* status=' <<<"$log")" -ge "$(grep -c 'BEGIN: ' <<<"$log")" ] && break
    sleep 0.2
  done
  expect_equal "$(grep -c 'BEGIN: .* server=lgice' <<<"$log")" 25 "jobs the scheduler placed"
  expect_equal "$(grep -c 'END .* status=0 ' <<<"$log")" 25 "jobs that ended with status 0"
  expect_equal "$(grep -c 'neither -c nor -S argument, building locally' "$ICECC_LOGFILE")" 5 \
    "links icecc ran here"
  expect_links_through_linkguard "$LINKGUARD_LOG_FILE"
}

SUITE_icecc() {
  farm_reference "$E2E_ROOT/ref"
  start_icecream

  TEST "linkguard in front: LINKGUARD_CXX=\"icecc clang++-19\""
  LINKGUARD_CXX="icecc clang++-19" farm_make "$PWD/proj" build.log CXX="$LGXX"
  expect_scheduled_compiles
  expect_farm_outputs "$PWD/proj" "$E2E_ROOT/ref"

  TEST "linkguard in front of icecc's masquerade: LINKGUARD_CXX=/usr/lib/icecc/bin/clang++, ICECC_CXX=/usr/bin/clang++-19"
  # ICECC_CXX is exec()ed as given, without a PATH search: a path.
  LINKGUARD_CXX=/usr/lib/icecc/bin/clang++ ICECC_CXX=$CLANGXX19 \
    farm_make "$PWD/proj" build.log CXX="$LGXX"
  expect_scheduled_compiles
  expect_farm_outputs "$PWD/proj" "$E2E_ROOT/ref"

  TEST "icecc in front: CXX=/usr/lib/icecc/bin/clang++, ICECC_CXX=linkguard-clang++"
  # icecc runs linkguard-clang++ for the jobs it keeps here and for links.
  # For a real farm this order needs linkguard inside the environment
  # icecc ships (docs/integration.md): keep linkguard first there.
  ICECC_CXX=$LGXX LINKGUARD_CXX=$CLANGXX19 \
    farm_make "$PWD/proj" build.log CXX=/usr/lib/icecc/bin/clang++
  expect_scheduled_compiles
  expect_farm_outputs "$PWD/proj" "$E2E_ROOT/ref"

  TEST "cpp_builder's -undefined dynamic_lookup on a compile line keeps the job off the scheduler"
  write_sdk sdk
  write_aoti_model src
  # shellcheck disable=SC2046
  LINKGUARD_CXX="icecc clang++-19" "$LGXX" src/model.kernel.cpp $(macho_flags sdk) \
    "${AOTI_MPS_CFLAGS[@]}" -c -o k.o 2>/dev/null || test_failed "compile failed"
  expect_contains "$(cat "$ICECC_LOGFILE")" "Two input files? dynamic_lookup" "icecc's log"
  expect_equal "$(tail -n +"$((MARK + 1))" "$ICE/scheduler.log" | grep -c 'BEGIN: ')" 0 \
    "jobs the scheduler placed"
}
