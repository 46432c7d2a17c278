# `linkguard run -- CMD` and `linkguard env`: a whole build with CXX/CC
# through linkguard and the previous CXX/CC recorded as LINKGUARD_CXX/CC
# (scan-build's CCC_CXX convention); never linkguard wrapping itself.

SUITE_run_env_PROBE() {
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  [ -x "$LLVM_BIN/ld64.lld" ] || { echo "$LLVM_BIN/ld64.lld not found"; return; }
  command -v make >/dev/null || echo "make not installed"
}

LG_DIR=$(dirname "$LINKGUARD_BIN")
LGXX=$LG_DIR/linkguard-clang++
LGCC=$LG_DIR/linkguard-clang
LGGXX=$LG_DIR/linkguard-g++
LGGCC=$LG_DIR/linkguard-gcc
# The drop-ins for a build with CXX/CC unset: the compiler it runs, g++ and
# gcc on Linux (make's and inductor's default), clang++ and clang on macOS.
if [ "$(uname -s)" = Darwin ] || ! command -v g++ >/dev/null; then
  DEFAULT_XX=$LGXX DEFAULT_CC=$LGCC
else
  DEFAULT_XX=$LGGXX DEFAULT_CC=$LGGCC
fi

# show_env: the four variables as "NAME=value" or "NAME unset" lines.
SHOW_ENV='for v in CXX CC LINKGUARD_CXX LINKGUARD_CC; do
  if eval "[ -n \"\${$v+x}\" ]"; then eval "printf \"%s=%s\n\" $v \"\$$v\""; else echo "$v unset"; fi
done'

SUITE_run_env() {
  TEST "unset CXX/CC: the drop-ins of the compiler a build runs without them, nothing recorded (PATH decides)"
  out=$(unset CXX CC; "$LINKGUARD_BIN" run -- sh -c "$SHOW_ENV") || test_failed "run exited $?"
  expect_equal "$out" "CXX=$DEFAULT_XX
CC=$DEFAULT_CC
LINKGUARD_CXX unset
LINKGUARD_CC unset" "environment under run"

  TEST "the drop-in's name says the family of the compiler that runs (inductor reads it)"
  if command -v g++ >/dev/null && command -v gcc >/dev/null; then
    out=$(CXX="ccache g++" CC=gcc "$LINKGUARD_BIN" run -- sh -c "$SHOW_ENV")
    expect_equal "$out" "CXX=$LGGXX
CC=$LGGCC
LINKGUARD_CXX=ccache g++
LINKGUARD_CC=gcc" "environment under run, CXX=g++"
    out=$(CXX=g++ LINKGUARD_CXX=$CLANGXX "$LINKGUARD_BIN" env)
    expect_contains "$out" "export CXX='$LGXX'" "env, LINKGUARD_CXX names clang"
    # linkguard-gcc runs gcc from PATH (never clang as a fallback).
    printf 'int f(void) { return 1; }\n' >fam.c
    env -u LINKGUARD_CC -u CC "$LGGCC" -O2 -c fam.c -o fam.o || test_failed "linkguard-gcc failed"
    expect_contains "$("$LLVM_BIN/llvm-readelf" -p .comment fam.o)" "GCC:" "fam.o's compiler"
    out=$(env -u LINKGUARD_CXX -u CXX PATH=/nonexistent "$LGGXX" -c fam.c -o fam2.o 2>&1); st=$?
    expect_equal "$st" 69 "linkguard-g++ with no g++ on PATH: $out"
  else
    echo "note: g++/gcc not installed; the GCC names were not run" >&2
  fi

  TEST "a clang name in front of GCC warns once per process tree, never replayed by ccache"
  if command -v g++ >/dev/null && command -v ccache >/dev/null; then
    printf 'int g(void) { return 2; }\n' >warn.cpp
    export XDG_STATE_HOME=$PWD/state
    # One tree (one process group): two steps, one warning.
    setsid sh -c 'LINKGUARD_CXX=g++ "$1" -c warn.cpp -o w1.o && LINKGUARD_CXX=g++ "$1" -c warn.cpp -o w2.o' \
      sh "$LGXX" 2>warn.err || test_failed "linkguard-clang++ with g++ failed: $(cat warn.err)"
    expect_equal "$(grep -c 'linkguard-clang++ is a clang name, but the compiler it runs' warn.err)" 1 \
      "warnings in one process tree: $(cat warn.err)"
    expect_contains "$(cat warn.err)" "use linkguard-g++" "the warning"
    # Another tree: said again, once.
    setsid sh -c 'LINKGUARD_CXX=g++ "$1" -c warn.cpp -o w3.o' sh "$LGXX" 2>warn2.err
    expect_equal "$(grep -c 'is a clang name' warn2.err)" 1 "a new process tree: $(cat warn2.err)"
    # The GCC name in front of g++: nothing to say.
    setsid sh -c 'LINKGUARD_CXX=g++ "$1" -c warn.cpp -o w4.o' sh "$LGGXX" 2>warn3.err
    expect_equal "$(cat warn3.err)" "" "linkguard-g++ in front of g++"
    # ccache in front: said on UNCACHED_ERR_FD, so a hit does not replay it.
    export CCACHE_DIR=$PWD/ccache-dir CCACHE_NOHASHDIR=1
    setsid sh -c 'LINKGUARD_CXX=g++ ccache "$1" -c warn.cpp -o c1.o' sh "$LGXX" 2>miss.err
    expect_contains "$(cat miss.err)" "is a clang name" "ccache's miss shows the warning"
    setsid sh -c 'LINKGUARD_CXX=g++ ccache "$1" -c warn.cpp -o c2.o' sh "$LGXX" 2>hit.err
    expect_equal "$(ccache --print-stats | awk -F'\t' '$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { n += $2 } END { print n + 0 }')" 1 \
      "ccache hits"
    expect_not_contains "$(cat hit.err)" "is a clang name" "ccache's hit (replayed stderr)"
    unset XDG_STATE_HOME CCACHE_DIR CCACHE_NOHASHDIR
  else
    echo "note: g++ or ccache not installed; the family warning was not run" >&2
  fi

  TEST "the user's CXX/CC are recorded as LINKGUARD_CXX/LINKGUARD_CC"
  out=$(CXX="ccache $CLANGXX" CC=$CLANG "$LINKGUARD_BIN" run -- sh -c "$SHOW_ENV")
  expect_equal "$out" "CXX=$LGXX
CC=$LGCC
LINKGUARD_CXX=ccache $CLANGXX
LINKGUARD_CC=$CLANG" "environment under run"

  TEST "an explicit LINKGUARD_CXX is kept over CXX"
  out=$(CXX=g++ LINKGUARD_CXX=$CLANGXX "$LINKGUARD_BIN" run -- sh -c "$SHOW_ENV")
  expect_contains "$out" "CXX=$LGXX" "environment under run"
  expect_contains "$out" "LINKGUARD_CXX=$CLANGXX" "environment under run"

  TEST "never wraps itself: nested run and a CXX already through linkguard"
  out=$(CXX=$CLANGXX "$LINKGUARD_BIN" run -- "$LINKGUARD_BIN" run -- sh -c "$SHOW_ENV")
  expect_contains "$out" "CXX=$LGXX" "nested run"
  expect_contains "$out" "LINKGUARD_CXX=$CLANGXX" "nested run (linkguard not recorded)"
  out=$(CXX="ccache $LGXX" "$LINKGUARD_BIN" run -- sh -c "$SHOW_ENV")
  expect_contains "$out" "CXX=ccache $LGXX" "CXX through linkguard is left as is"
  expect_contains "$out" "LINKGUARD_CXX unset" "linkguard not recorded as the compiler"
  out=$(CXX=$LGXX "$LINKGUARD_BIN" env)
  expect_not_contains "$out" "export CXX=" "env with CXX already linkguard"
  expect_not_contains "$out" "export LINKGUARD_CXX=" "env with CXX already linkguard"
  # A masquerade symlink named clang++ that is linkguard counts as linkguard.
  mkdir -p mask && ln -s "$LINKGUARD_BIN" mask/clang++
  out=$(PATH=$PWD/mask:$PATH CXX=clang++ "$LINKGUARD_BIN" env)
  expect_not_contains "$out" "export LINKGUARD_CXX=" "env with CXX a masquerade name"

  TEST "exit status and signals are the command's; no shell in between"
  expect_status 7 "$LINKGUARD_BIN" run -- sh -c 'exit 7'
  "$LINKGUARD_BIN" run -- sh -c 'kill -TERM $$'
  expect_equal $? 143 "status of a command killed by SIGTERM"
  out=$("$LINKGUARD_BIN" run -- printf '[%s]' 'a b' '*' '$HOME')
  expect_equal "$out" '[a b][*][$HOME]' "arguments passed untouched"
  "$LINKGUARD_BIN" run -- 'echo hi' 2>err
  expect_equal $? 71 "status when the command cannot be started"
  expect_contains "$(cat err)" "run: cannot run 'echo hi'" "stderr"

  TEST "env: shell-quoted export lines that round-trip through eval"
  local cxx="$CLANGXX -DQ=\"it's\" -O2"
  out=$(CXX=$cxx "$LINKGUARD_BIN" env) || test_failed "env exited $?"
  expect_contains "$out" "export CXX='$LGXX'" "env output"
  expect_contains "$out" "export LINKGUARD_CXX='$CLANGXX -DQ=\"it'\\''s\" -O2'" "env output"
  got=$(unset LINKGUARD_CXX; eval "$out"; printf '%s|%s' "$CXX" "$LINKGUARD_CXX")
  expect_equal "$got" "$LGXX|$cxx" "after eval"

  TEST "help and usage errors"
  out=$("$LINKGUARD_BIN" run --help) || test_failed "run --help exited $?"
  expect_contains "$out" "USAGE: linkguard run [--] COMMAND ARGS..." "run --help"
  out=$("$LINKGUARD_BIN" env --help) || test_failed "env --help exited $?"
  expect_contains "$out" "USAGE: linkguard env" "env --help"
  expect_status 64 "$LINKGUARD_BIN" run 2>/dev/null
  expect_status 64 "$LINKGUARD_BIN" run --bogus make 2>/dev/null
  expect_status 64 "$LINKGUARD_BIN" env extra 2>/dev/null
  out=$("$LINKGUARD_BIN" --help)
  expect_contains "$out" "linkguard run -- COMMAND ARGS..." "top-level --help"
  expect_contains "$out" "--assume-define=NAME" "top-level --help"

  TEST "a make build that reads CXX goes through linkguard: libomp dropped; control keeps it"
  write_sdk sdk
  write_aoti_model .
  {
    echo "FLAGS = $(macho_flags sdk) ${AOTI_MPS_CFLAGS[*]}"
    # shellcheck disable=SC2016
    printf '%s\n' 'OBJS = model.wrapper.o model.kernel.o model.consts.o' \
      'model.so: $(OBJS)' \
      '	$(CXX) $(OBJS) $(FLAGS) -nostdlib++ -o $@ -lomp -Lsdk/omp' \
      '%.o: %.cpp' \
      '	$(CXX) $< $(FLAGS) -c -o $@'
  } >Makefile
  CXX=$CLANGXX make -s >make.log 2>&1 || test_failed "control make failed: $(cat make.log)"
  expect_contains "$("$LLVM_BIN/llvm-otool" -L model.so)" /opt/llvm-openmp/lib/libomp.dylib "control"
  rm -f ./*.o model.so
  CXX=$CLANGXX "$LINKGUARD_BIN" run -- make >make.log 2>&1 || test_failed "make under run failed: $(cat make.log)"
  expect_contains "$(cat make.log)" "$LGXX model.wrapper.o" "make's link line"
  local deps
  deps=$("$LLVM_BIN/llvm-otool" -L model.so)
  expect_not_contains "$deps" libomp "under linkguard run"
  expect_contains "$deps" /usr/lib/libSystem.B.dylib "under linkguard run"
}
