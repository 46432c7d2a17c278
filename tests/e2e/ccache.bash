# linkguard with ccache (Debian's ccache 4.x), the three ways users combine
# them. For each: an AOTI-shaped MPS build (three compiles, then the link)
# runs twice from clean objects. The second build's compiles must hit the
# cache (ccache --print-stats counters, CCACHE_DIR in the test directory),
# and the link must get the rule (no libomp in the output). Controls: the
# same build through ccache without linkguard keeps libomp.
#   1. CXX="ccache linkguard-clang++"        ccache in front of linkguard
#   2. LINKGUARD_CXX="ccache clang++"        linkguard in front of ccache
#   3. /usr/lib/ccache first on PATH          ccache's masquerade directory
# Then what a cache in front must never do silently: serve the objects of
# the compiler LINKGUARD_CXX named before (ccache keys on the file it runs,
# linkguard's), the documented way out, the other order, and no loop with
# both masquerade directories on PATH.

SUITE_ccache_PROBE() {
  [ -x /usr/bin/clang++-14 ] || { echo "/usr/bin/clang++-14 not installed"; return; }
  command -v ccache >/dev/null || { echo "ccache not installed (scripts/lib/common.sh installs it)"; return; }
  [ -d /usr/lib/ccache ] || { echo "/usr/lib/ccache (masquerade directory) missing"; return; }
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  [ -x "$LLVM_BIN/ld64.lld" ] || echo "$LLVM_BIN/ld64.lld not found"
}

LGXX=$(dirname "$LINKGUARD_BIN")/linkguard-clang++

SUITE_ccache_SETUP() {
  export CCACHE_DIR=$PWD/ccache-dir
  # Nothing from the user's ccache.conf may change the counters.
  export CCACHE_CONFIGPATH=$PWD/ccache.conf
  : >"$CCACHE_CONFIGPATH"
  unset CCACHE_DISABLE CCACHE_PREFIX CCACHE_RECACHE
  write_sdk sdk
  write_aoti_model src
}

# build_model CXX-WORDS...: compile the three units and link them, the
# cpp_builder way; the compiler command is given as words ("ccache" "x").
build_model() {
  rm -f ./*.o model.so
  local flags f
  # shellcheck disable=SC2207
  flags=($(macho_flags sdk) "${AOTI_MPS_CFLAGS[@]}")
  for f in wrapper kernel consts; do
    "$@" "src/model.$f.cpp" "${flags[@]}" -c -o "model.$f.o" 2>>build.log \
      || test_failed "compile of $f failed: $(cat build.log)"
  done
  "$@" model.wrapper.o model.kernel.o model.consts.o "${flags[@]}" -nostdlib++ \
      -o model.so -lomp -Lsdk/omp 2>>build.log \
    || test_failed "link failed: $(cat build.log)"
}

# stat NAME: one counter from ccache --print-stats.
stat() { ccache --print-stats | awk -v k="$1" '$1 == k { print $2 }'; }
hits() { echo $(($(stat direct_cache_hit) + $(stat preprocessed_cache_hit))); }

# twice CXX-WORDS...: two builds from an empty cache; checks that the first
# misses and the second hits for all 3 compiles.
twice() {
  ccache -C >/dev/null
  ccache -z >/dev/null
  build_model "$@"
  expect_equal "$(hits)" 0 "cache hits in the first build"
  expect_equal "$(stat cache_miss)" 3 "cache misses in the first build"
  ccache -z >/dev/null
  build_model "$@"
  expect_equal "$(hits)" 3 "cache hits in the second build"
  expect_equal "$(stat cache_miss)" 0 "cache misses in the second build"
}

expect_rule_applied() {
  local deps
  deps=$("$LLVM_BIN/llvm-otool" -L model.so)
  expect_not_contains "$deps" libomp "otool -L model.so"
  expect_contains "$deps" /usr/lib/libSystem.B.dylib "otool -L model.so"
}

expect_libomp_kept() {
  expect_contains "$("$LLVM_BIN/llvm-otool" -L model.so)" /opt/llvm-openmp/lib/libomp.dylib \
    "otool -L model.so"
}

SUITE_ccache() {
  TEST "control: ccache clang++ alone caches compiles and keeps libomp"
  twice ccache "$CLANGXX"
  expect_libomp_kept

  TEST "CXX=\"ccache linkguard-clang++\": compiles hit, the link gets the rule"
  export LINKGUARD_CXX=$CLANGXX
  twice ccache "$LGXX"
  expect_rule_applied
  # ccache sees the link and runs linkguard for it unchanged.
  expect_equal "$(stat called_for_link)" 1 "links ccache passed through"
  unset LINKGUARD_CXX

  TEST "CXX=\"ccache linkguard-clang++\" with LINKGUARD_CXX unset: PATH finds clang++, no loop"
  mkdir -p bin && ln -s "$CLANGXX" bin/clang++
  PATH=$PWD/bin:$PATH twice ccache "$LGXX"
  expect_rule_applied

  TEST "linkguard in front of ccache: LINKGUARD_CXX=\"ccache clang++\""
  export LINKGUARD_CXX="ccache $CLANGXX"
  twice "$LGXX"
  expect_rule_applied
  unset LINKGUARD_CXX
  # The same through CXX, as `linkguard run` records it.
  CXX="ccache $CLANGXX" twice "$LINKGUARD_BIN" run -- "$LGXX"
  expect_rule_applied

  TEST "ccache's masquerade directory first on PATH, CXX=linkguard-clang++"
  # /usr/lib/ccache/clang++ is ccache; ccache then runs the next clang++ on
  # PATH, LLVM 19's.
  PATH=/usr/lib/ccache:$LLVM_BIN:$PATH twice "$LGXX"
  expect_rule_applied
  out=$(PATH=/usr/lib/ccache:$LLVM_BIN:$PATH "$LINKGUARD_BIN" --version)
  # --version names the compiler behind ccache's link, as the step runs it.
  expect_contains "$out" "real compiler: $CLANGXX (through /usr/lib/ccache/clang++, from PATH)" "--version"

  SUITE_ccache_wrong_compiler
}

# comment OBJ: the compiler that made an ELF object (its .comment section).
comment() { "$LLVM_BIN/llvm-readelf" -p .comment "$1" | grep -o 'clang version [0-9]*'; }

SUITE_ccache_wrong_compiler() {
  TEST "ccache in front never silently serves the previous LINKGUARD_CXX's objects"
  export XDG_STATE_HOME=$PWD/state
  echo 'int f(int x) { return x * 3; }' >f.cpp
  echo 'int f(int); int main() { return f(0); }' >m.cpp
  "$CLANGXX" -c f.cpp -o want19.o
  build() { # LINKGUARD_CXX: compile both units and link, through ccache
    local c
    for c in f m; do LINKGUARD_CXX=$1 ccache "$LGXX" -c $c.cpp -o $c.o || return 1; done
    LINKGUARD_CXX=$1 ccache "$LGXX" f.o m.o -o prog
  }
  build /usr/bin/clang++-14 2>build14.log || test_failed "build failed: $(cat build14.log)"
  expect_equal "$(comment f.o)" "clang version 14" "first object"
  # First sight, said once (on ccache's UNCACHED_ERR_FD: not stored with
  # the object, so the hits below do not replay it).
  expect_equal "$(grep -c 'ccache runs linkguard as its compiler' build14.log)" 1 "first-sight warnings"
  build /usr/bin/clang++-14 2>again14.log || test_failed "build failed"
  expect_not_contains "$(cat again14.log)" "linkguard: warning" "second build with clang 14"
  # ccache keys on linkguard's file (compiler_check=mtime): clang 14's
  # objects come back for clang 19 - and the link says so, once.
  build "$CLANGXX" 2>build19.log || test_failed "build failed: $(cat build19.log)"
  expect_equal "$(comment f.o)" "clang version 14" "object ccache served"
  expect_equal "$(grep -c "changed from /usr/bin/clang++-14 to $CLANGXX" build19.log)" 1 \
    "change warnings"
  build "$CLANGXX" 2>again19.log || test_failed "build failed"
  expect_not_contains "$(cat again19.log)" "linkguard: warning" "second build with clang 19"

  TEST "ccache in front with CCACHE_COMPILERCHECK='%compiler% -v': keys on the real compiler"
  export XDG_STATE_HOME=$PWD/state CCACHE_COMPILERCHECK='%compiler% -v'
  echo 'int f(int x) { return x * 3; }' >f.cpp
  "$CLANGXX" -c f.cpp -o want19.o
  LINKGUARD_CXX=/usr/bin/clang++-14 ccache "$LGXX" -c f.cpp -o f.o 2>one.log
  expect_equal "$(comment f.o)" "clang version 14" "first object"
  LINKGUARD_CXX=$CLANGXX ccache "$LGXX" -c f.cpp -o f.o 2>two.log
  expect_same_file f.o want19.o
  expect_not_contains "$(cat one.log two.log)" "linkguard: warning" "compile output"
  unset CCACHE_COMPILERCHECK

  TEST "ccache behind linkguard sees the compiler change: no stale object, no warning"
  export XDG_STATE_HOME=$PWD/state
  echo 'int f(int x) { return x * 3; }' >f.cpp
  "$CLANGXX" -c f.cpp -o want19.o
  LINKGUARD_CXX="ccache /usr/bin/clang++-14" "$LGXX" -c f.cpp -o f.o
  expect_equal "$(comment f.o)" "clang version 14" "first object"
  LINKGUARD_CXX="ccache $CLANGXX" "$LGXX" -c f.cpp -o f.o 2>two.log
  expect_same_file f.o want19.o
  expect_not_contains "$(cat two.log)" "linkguard: warning" "compile output"

  TEST "ccache in front: an unusable LINKGUARD_LOG_FILE is said when linkguard runs, not replayed on hits"
  # The fallback's warning goes to ccache's UNCACHED_ERR_FD, as the cache
  # warnings do: on stderr ccache stored it with the object and replayed it
  # on every hit, long after the log file was fixed.
  export XDG_STATE_HOME=$PWD/state
  echo 'int g(int x) { return x + 1; }' >g.cpp
  mkdir -p logdir
  ccache -z >/dev/null
  local i
  for i in 1 2; do
    LINKGUARD_CXX=$CLANGXX LINKGUARD_LOG=debug LINKGUARD_LOG_FILE=$PWD/logdir \
      ccache "$LGXX" -c g.cpp -o g.o 2>log$i.txt || test_failed "compile $i: $(cat log$i.txt)"
  done
  expect_equal "$(stat direct_cache_hit)" 1 "the second compile hit"
  # Said by each process of the miss (ccache runs the preprocessor, then the
  # compiler): at least once.
  [ "$(grep -c 'cannot open LINKGUARD_LOG_FILE' log1.txt)" -ge 1 ] ||
    test_failed "no warning on the first compile: $(cat log1.txt)"
  expect_not_contains "$(cat log2.txt)" "cannot open LINKGUARD_LOG_FILE" "the hit's stderr"

  TEST "UNCACHED_ERR_FD without ccache in front: the log-file fallback warning stays on stderr"
  # The variable is inherited by everything below a ccache run; elsewhere
  # its number names any descriptor: here stdout, where -E writes. The
  # warning went into the preprocessed output.
  echo 'int g(int x) { return x + 1; }' >g.c
  mkdir -p logdir
  LINKGUARD_CXX=$CLANGXX "$LGXX" -E g.c -o - >want.i 2>/dev/null || test_failed "plain -E"
  UNCACHED_ERR_FD=1 LINKGUARD_CXX=$CLANGXX LINKGUARD_LOG=debug LINKGUARD_LOG_FILE=$PWD/logdir \
    "$LGXX" -E g.c -o - >got.i 2>err.txt || test_failed "-E: $(cat err.txt)"
  expect_same_file got.i want.i
  expect_contains "$(cat err.txt)" "cannot open LINKGUARD_LOG_FILE"

  TEST "linkguard's and ccache's masquerade directories both on PATH: no loop"
  # ccache's own lookup skips only ccache: it found linkguard's clang++
  # again and the two called each other until exit 68. linkguard now runs
  # ccache with the real compiler past both.
  echo 'int f(int x) { return x * 3; }' >f.cpp
  "$CLANGXX" -c f.cpp -o want19.o
  mkdir -p lgmasq bin
  ln -s "$LINKGUARD_BIN" lgmasq/clang++
  ln -s "$CLANGXX" bin/clang++
  ccache -z >/dev/null
  local order
  for order in "$PWD/lgmasq:/usr/lib/ccache" "/usr/lib/ccache:$PWD/lgmasq"; do
    PATH=$order:$PWD/bin:$PATH CXX="$LGXX" expect_status 0 "$LGXX" -c f.cpp -o f.o
    expect_same_file f.o want19.o
    out=$(PATH=$order:$PWD/bin:$PATH "$LINKGUARD_BIN" --version)
    # The compiler behind ccache, and ccache beside it (issue 30).
    expect_contains "$out" "real compiler: $PWD/bin/clang++ (through $(readlink -f "$(command -v ccache)"), from PATH)" "--version"
  done
  expect_equal "$(stat direct_cache_hit)" 1 "ccache still caches (second compile hit)"
}
