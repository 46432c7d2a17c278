# linkguard with sccache (Debian's sccache 0.4), a server on a free
# loopback port with its cache in the test folder, started and stopped by
# the suite. Both orders:
#   LINKGUARD_CXX="sccache clang++-19"   sccache behind linkguard
#   CXX="sccache linkguard-clang++"      sccache in front of linkguard
# For each, the generated -j8 project (farm_lib.sh) is built twice: the
# second build hits the cache for all 25 compiles (sccache --show-stats),
# the 5 links go through linkguard and get the rule, the outputs equal a
# plain build's. Then what a cache in front must never do: serve the
# objects of the compiler LINKGUARD_CXX named before.

# shellcheck source=farm_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/farm_lib.sh"

# sccache caches no compile in the exact shape cpp_builder renders on
# macOS: it does not know "-undefined dynamic_lookup" on a compile line
# ("multiple input files": dynamic_lookup taken for a second source) and it
# refuses an -Xclang option it does not know, such as "-Xclang -fopenmp"
# ("Can't handle UnknownFlag arguments with -Xclang"; src/compiler/gcc.rs,
# still so upstream). The last test shows both; the cached builds put
# -undefined on the links only and leave -Xclang -fopenmp out.
farm_drop_flags -undefined -Xclang

SUITE_sccache_PROBE() {
  command -v sccache >/dev/null || { echo "sccache not installed (scripts/lib/common.sh installs it)"; return; }
  command -v make >/dev/null || { echo "make not installed"; return; }
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  [ -x "$CLANGXX19" ] || { echo "$CLANGXX19 not installed"; return; }
  [ -x /usr/bin/clang++-14 ] || { echo "/usr/bin/clang++-14 not installed"; return; }
  [ -x "$LLVM_BIN/ld64.lld" ] || echo "$LLVM_BIN/ld64.lld not found"
}

# A fresh server and cache per test: what one test cached cannot make the
# next one hit.
SUITE_sccache_SETUP() {
  [ -n "${SCCACHE_SERVER_PORT:-}" ] && sccache --stop-server >/dev/null 2>&1
  export SCCACHE_DIR=$PWD/sccache-dir SCCACHE_IDLE_TIMEOUT=300
  export SCCACHE_ERROR_LOG=$PWD/sccache-error.log SCCACHE_LOG=info
  # A config of the test's own (not the user's ~/.config/sccache/config):
  # --start-server waits 10 s for the server by default, which a loaded CI
  # machine overran ("Timed out waiting for server startup"; CI robustness).
  export SCCACHE_CONF=$PWD/sccache.conf
  echo 'server_startup_timeout_ms = 60000' >"$SCCACHE_CONF"
  unset SCCACHE_RECACHE SCCACHE_C_CUSTOM_CACHE_BUSTER
  start_sccache
  export LINKGUARD_LOG=info LINKGUARD_LOG_FILE=$PWD/linkguard.log
  # linkguard's record of the compiler behind a cache, per test too.
  export XDG_STATE_HOME=$PWD/state
  write_farm_project "$PWD/proj"
}

# start_sccache: a server on a free loopback port (SCCACHE_SERVER_PORT).
# (CI robustness) free_port only knows the port is free now; the suites
# running beside this one take ports too, and then --start-server fails
# at once ("Address in use"); should it give up waiting for the server
# (60 s, SCCACHE_CONF), the server may come up later: stop it. Either way
# take another port (5 tries), and show sccache's own words if all fail.
start_sccache() {
  local try t0
  export SCCACHE_SERVER_PORT
  for try in 1 2 3 4 5; do
    SCCACHE_SERVER_PORT=$(free_port)
    t0=$SECONDS
    sccache --start-server >sccache-start.log 2>&1 && return 0
    echo "sccache --start-server on port $SCCACHE_SERVER_PORT failed after $((SECONDS - t0)) s (try $try):" \
      "$(cat sccache-start.log)" >&2
    # Not when the port is someone else's: that is no sccache to stop.
    grep -q 'Address in use' sccache-start.log ||
      timeout 60 sccache --stop-server >/dev/null 2>&1
  done
  test_failed "sccache --start-server failed on 5 ports: $(cat sccache-start.log; tail -n 5 "$SCCACHE_ERROR_LOG" 2>&1)"
}

SUITE_sccache_TEARDOWN() {
  [ -n "${SCCACHE_SERVER_PORT:-}" ] && sccache --stop-server >/dev/null 2>&1
  return 0
}

# stat NAME: a counter from sccache --show-stats ("Cache hits   25").
stat() { sccache --show-stats | awk -v k="$1" 'index($0, k) == 1 { print $NF; exit }'; }

# twice MAKE-ARGS...: two clean -j8 builds; the first misses, the second
# hits, for all 25 compiles; the links are not compilations for sccache.
twice() {
  sccache --zero-stats >/dev/null
  farm_make "$PWD/proj" build1.log "$@"
  expect_equal "$(stat 'Cache misses  ')" 25 "cache misses, first build"
  expect_equal "$(stat 'Cache hits  ')" 0 "cache hits, first build"
  sccache --zero-stats >/dev/null
  : >"$LINKGUARD_LOG_FILE"
  farm_make "$PWD/proj" build2.log "$@"
  expect_equal "$(stat 'Cache hits  ')" 25 "cache hits, second build"
  expect_equal "$(stat 'Cache misses  ')" 0 "cache misses, second build"
  expect_equal "$(stat 'Non-compilation calls')" "${LINKS_SEEN:-0}" "links sccache saw"
  expect_links_through_linkguard "$LINKGUARD_LOG_FILE"
  expect_farm_outputs "$PWD/proj" "$E2E_ROOT/ref"
}

# comment OBJ: the compiler that made an ELF object (its .comment section).
comment() { "$LLVM_BIN/llvm-readelf" -p .comment "$1" | grep -o 'clang version [0-9]*'; }

SUITE_sccache() {
  farm_reference "$E2E_ROOT/ref"

  TEST "sccache behind linkguard, LINKGUARD_CXX=\"sccache clang++-19\": hits, rule on links"
  # sccache sees the links too (linkguard runs it for every step).
  LINKS_SEEN=5 LINKGUARD_CXX="sccache $CLANGXX19" twice CXX="$LGXX"
  expect_not_contains "$(cat build1.log build2.log)" "linkguard: warning" "build logs"

  TEST "sccache in front, CXX=\"sccache linkguard-clang++\": hits, links through linkguard"
  LINKS_SEEN=5 LINKGUARD_CXX=$CLANGXX19 twice CXX="sccache $LGXX"
  # It keys on linkguard's file: linkguard says so, once (first build).
  expect_equal "$(grep -c 'sccache runs linkguard as its compiler' build1.log build2.log | paste -sd' ')" \
    "build1.log:1 build2.log:0" "first-sight warnings"

  TEST "sccache in front never silently serves the previous LINKGUARD_CXX's objects"
  echo 'int f(int x) { return x * 3; }' >f.cpp
  "$CLANGXX19" -c f.cpp -o want19.o
  LINKGUARD_CXX=/usr/bin/clang++-14 sccache "$LGXX" -c f.cpp -o f.o 2>first.log
  expect_equal "$(comment f.o)" "clang version 14" "first object"
  LINKGUARD_CXX=$CLANGXX19 sccache "$LGXX" -c f.cpp -o f.o 2>second.log
  LINKGUARD_CXX=$CLANGXX19 sccache "$LGXX" f.o -o f.so -shared 2>link.log
  # sccache served clang 14's object (its compiler detection for
  # linkguard-clang++ is cached by path and mtime until the server
  # stops): the link, which sccache runs here, says so once.
  expect_equal "$(comment f.o)" "clang version 14" "object sccache served"
  expect_contains "$(cat link.log)" \
    "changed from /usr/bin/clang++-14 to $CLANGXX19, but sccache in front of linkguard" "link output"
  LINKGUARD_CXX=$CLANGXX19 sccache "$LGXX" f.o -o f.so -shared 2>link2.log
  expect_not_contains "$(cat link2.log)" "linkguard: warning" "second link output (said once)"
  # What the warning says to do: restart the server; detection reruns
  # through linkguard, the key changes, clang 19 compiles.
  # (On another port if this one was taken meanwhile: start_sccache.)
  sccache --stop-server >/dev/null && start_sccache
  LINKGUARD_CXX=$CLANGXX19 sccache "$LGXX" -c f.cpp -o f.o
  expect_same_file f.o want19.o

  TEST "sccache behind linkguard sees the compiler change: no stale object, no warning"
  echo 'int f(int x) { return x * 3; }' >f.cpp
  "$CLANGXX19" -c f.cpp -o want19.o
  LINKGUARD_CXX="sccache /usr/bin/clang++-14" "$LGXX" -c f.cpp -o f.o
  expect_equal "$(comment f.o)" "clang version 14" "first object"
  LINKGUARD_CXX="sccache $CLANGXX19" "$LGXX" -c f.cpp -o f.o 2>second.log
  expect_same_file f.o want19.o
  expect_not_contains "$(cat second.log)" "linkguard: warning" "compile output"

  TEST "cpp_builder's compile lines are not cacheable for sccache (-undefined, -Xclang -fopenmp)"
  write_sdk sdk
  write_aoti_model src
  sccache --zero-stats >/dev/null
  # shellcheck disable=SC2046
  LINKGUARD_CXX="sccache $CLANGXX19" "$LGXX" src/model.kernel.cpp $(macho_flags sdk) \
    "${FARM_CFLAGS[@]}" -undefined dynamic_lookup -c -o k.o 2>/dev/null || test_failed "compile failed"
  # shellcheck disable=SC2046
  LINKGUARD_CXX="sccache $CLANGXX19" "$LGXX" src/model.kernel.cpp $(macho_flags sdk) \
    -D USE_MPS -Xclang -fopenmp -c -o k.o 2>/dev/null || test_failed "compile failed"
  expect_equal "$(stat 'Non-cacheable calls')" 2 "non-cacheable calls"
  expect_contains "$(sccache --show-stats)" "multiple input files" "sccache --show-stats"
  expect_contains "$(sccache --show-stats)" "Can't handle UnknownFlag arguments with -Xclang" \
    "sccache --show-stats"
}
