# What the wrapper path and explain say, and where (issue 28 item 11, issue
# 30): names escaped with the one rule (support/Printable.h) on stderr, in
# the log file and in explain's text and JSON; every warning and verdict in
# LINKGUARD_LOG_FILE; the build record LINKGUARD_REPORT and `linkguard
# report`; the enforce text cpp_builder's OpenMP hint cannot turn around;
# one line per Mach-O link that keeps an unused libomp; distcc in front;
# explain of a compiler that is not installed, and of a -c step; --version.
# Real compiles and links (ELF here, Mach-O cross-linked).

SUITE_wrapper_messages_PROBE() {
  [ -x "$LINKGUARD_BIN" ] || { echo "linkguard not built"; return; }
  [ -x "$CLANGXX" ] || { echo "clang++-19 not installed"; return; }
  [ -x "$LLVM_BIN/ld64.lld" ] || { echo "ld64.lld-19 not installed"; return; }
}

SUITE_wrapper_messages_SETUP() {
  WRAP=$(dirname "$LINKGUARD_BIN")/linkguard-clang++
  printf 'extern "C" int model_run(int x) { return 2 * x + 1; }\n' >model.cpp
  "$CLANGXX" -fPIC -c model.cpp -o model.o || test_failed "compiling model.cpp"
}

# macho_lib: sdk/ and a Mach-O object m.o that calls no OpenMP; MACHO=( flags ).
macho_lib() {
  write_sdk "$PWD/sdk"
  read -r -a MACHO <<<"$(macho_flags "$PWD/sdk")"
  "$CLANGXX" "${MACHO[@]}" -fPIC -c model.cpp -o m.o || test_failed "compiling for Mach-O"
}

# no_raw_controls FILE: no byte below 0x20 but newline, and no DEL.
no_raw_controls() {
  if LC_ALL=C grep -q "$(printf '[\001-\011\013-\037\177]')" "$1"; then
    test_failed "$1 holds a raw control byte: $(cat -A "$1")"
  fi
}

SUITE_wrapper_messages() {
  SUITE_wrapper_messages_explain
  local evil=$'evil\nlinkguard: contract holds\e[2K.so' st

  TEST "an -o name with a newline and an escape cannot forge a verdict line (enforce, verify, log)"
  st=$(LINKGUARD_MODE=enforce LINKGUARD_CXX=$CLANGXX LINKGUARD_LOG=warn LINKGUARD_LOG_FILE=$PWD/lg.log \
    lg_status "$WRAP" -shared model.o -o "$evil" -lgomp 2>err.txt)
  expect_equal "$st" "exit 86" "enforce status"
  no_raw_controls err.txt
  no_raw_controls lg.log
  expect_not_contains "$(cat err.txt)" $'\nlinkguard: contract holds' "a forged line"
  expect_contains "$(cat err.txt)" 'linkguard: error: removed evil\nlinkguard: contract holds\x1b[2K.so because'
  expect_contains "$(cat lg.log)" 'evil\nlinkguard: contract holds\x1b[2K.so: libgomp.so.1 is still a dependency'
  # Every line linkguard printed is one of its own.
  expect_equal "$(grep -vc '^linkguard: ' err.txt)" 0 "lines that are not linkguard's"
  LINKGUARD_MODE=verify LINKGUARD_CXX=$CLANGXX "$WRAP" -shared model.o -o "$evil" -lgomp 2>err.txt ||
    test_failed "verify link"
  no_raw_controls err.txt
  expect_contains "$(cat err.txt)" 'linkguard: warning: evil\nlinkguard: contract holds\x1b[2K.so: libgomp.so.1'

  TEST "explain prints a non-UTF-8 -o as \\xHH in text, with the exact bytes beside in JSON"
  out=$(LINKGUARD_MODE=enforce "$LINKGUARD_BIN" explain -- "$CLANGXX" -shared model.o -o $'ev\xffil.so')
  expect_contains "$out" 'output:    ev\xffil.so (shared-library)'
  expect_contains "$out" 'verifies:  ev\xffil.so: '
  LINKGUARD_MODE=enforce "$LINKGUARD_BIN" explain --json -- "$CLANGXX" -shared model.o -o $'ev\xffil.so' >plan.json
  expect_equal "$(python3 -c 'import json; d=json.load(open("plan.json")); print(d["outputEscaped"], d["outputPathEscaped"])')" \
    'ev\xffil.so ev\xffil.so'

  TEST "LINKGUARD_LOG_FILE gets every warning and verdict at the default level"
  LINKGUARD_MODE=verify LINKGUARD_CXX=$CLANGXX LINKGUARD_LOG=warn LINKGUARD_LOG_FILE=$PWD/lg.log \
    "$WRAP" -shared model.o -o kept.so -lgomp 2>err.txt || test_failed "verify link"
  expect_contains "$(cat err.txt)" "linkguard: warning: kept.so: libgomp.so.1 is still a dependency"
  expect_contains "$(cat lg.log)" "warning: kept.so: libgomp.so.1 is still a dependency"
  LINKGUARD_MODE=enforce LINKGUARD_CXX=$CLANGXX LINKGUARD_LOG=warn LINKGUARD_LOG_FILE=$PWD/lg.log \
    "$WRAP" -shared model.o -o good.so 2>err.txt || test_failed "clean link"
  expect_equal "$(cat err.txt)" "" "stderr of a link that holds (quiet by default)"
  expect_contains "$(cat lg.log)" "info: good.so: contract holds"
  LINKGUARD_MODE=enforce LINKGUARD_CXX=$CLANGXX LINKGUARD_LOG=warn LINKGUARD_LOG_FILE=$PWD/lg.log \
    "$WRAP" -shared model.o -o bad.so -lgomp 2>/dev/null
  expect_contains "$(cat lg.log)" "error: removed bad.so because it broke its contract"
  # A step that stops (no compiler: 69) says why in the log too.
  LINKGUARD_CXX=/nonexistent/clang++ LINKGUARD_LOG=warn LINKGUARD_LOG_FILE=$PWD/lg.log "$WRAP" -c model.cpp 2>/dev/null
  expect_contains "$(cat lg.log)" "error: real compiler /nonexistent/clang++ (from LINKGUARD_CXX) does not exist"

  TEST "LINKGUARD_REPORT: one JSON line per step from parallel steps, and linkguard report sums them"
  export LINKGUARD_REPORT=$PWD/build.jsonl
  TRUE_BIN=$(type -P true)
  seq 1 120 | LINKGUARD_CXX=$TRUE_BIN xargs -P 8 -I{} "$WRAP" -c k{}.cpp -o k{}.o ||
    test_failed "parallel compile steps"
  LINKGUARD_MODE=enforce LINKGUARD_CXX=$CLANGXX "$WRAP" -shared model.o -o good.so || test_failed "good link"
  LINKGUARD_MODE=enforce LINKGUARD_CXX=$CLANGXX "$WRAP" -shared model.o -o bad.so -lgomp 2>/dev/null
  LINKGUARD_MODE=enforce LINKGUARD_CXX=$CLANGXX "$WRAP" -shared model.o -o /dev/null 2>/dev/null ||
    test_failed "-o /dev/null"
  unset LINKGUARD_REPORT
  python3 - build.jsonl <<'PY' || test_failed "the record"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
recs = [json.loads(l) for l in lines]          # every line whole
assert len(recs) == 123, len(recs)
assert all(r["schema"] == "linkguard-report/1" for r in recs)
compiles = [r for r in recs if r["phase"] == "compile"]
assert len(compiles) == 120 and all(r["action"] == "exec" and r["cpuMicros"] > 0 for r in compiles)
assert sorted(r["output"] for r in compiles) == sorted(f"k{i}.o" for i in range(1, 121))
links = {r["output"]: r for r in recs if r["phase"] == "link"}
assert links["good.so"]["verdict"] == "holds" and links["good.so"]["status"] == 0, links["good.so"]
assert links["good.so"]["verifyCpuMicros"] > 0
assert links["bad.so"]["verdict"] == "broken" and links["bad.so"]["status"] == 86, links["bad.so"]
assert links["/dev/null"]["verdict"] == "not-verified", links["/dev/null"]
PY
  out=$("$LINKGUARD_BIN" report build.jsonl) || test_failed "report"
  expect_contains "$out" "steps:         123"
  expect_contains "$out" "links:         3"
  expect_contains "$out" "verified:      2 (1 hold, 1 broken)"
  expect_contains "$out" "not verified:  1"
  expect_contains "$out" "broken:        bad.so"
  "$LINKGUARD_BIN" report --json build.jsonl >sum.json || test_failed "report --json"
  python3 - build.jsonl sum.json <<'PY' || test_failed "report --json sums"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
s = json.load(open(sys.argv[2]))
assert s["schema"] == "linkguard-report-summary/1"
assert (s["steps"], s["links"], s["verified"], s["broken"]) == (123, 3, 2, 1), s
assert s["cpuMicros"] == sum(r["cpuMicros"] for r in recs)
assert s["verifyCpuMicros"] == sum(r["verifyCpuMicros"] or 0 for r in recs)
PY
  # A relative record would be scattered over the build's directories.
  expect_status 78 env LINKGUARD_REPORT=rel.jsonl LINKGUARD_CXX=$TRUE_BIN "$WRAP" -c k.cpp 2>/dev/null
  expect_status 66 "$LINKGUARD_BIN" report missing.jsonl 2>/dev/null
  # A crafted record cannot overflow the sums (signed overflow, undefined):
  # CPU figures that linkguard never writes make the line not understood.
  {
    head -n 2 build.jsonl
    for v in 9223372036854775807 9223372036854775807 -5 1.5 '"7"'; do
      printf '{"schema":"linkguard-report/1","phase":"compile","cpuMicros":%s}\n' "$v"
    done
  } >crafted.jsonl
  "$LINKGUARD_BIN" report --json crafted.jsonl >crafted.json || test_failed "report of crafted lines"
  python3 - build.jsonl crafted.json <<'PY' || test_failed "crafted CPU figures: $(cat crafted.json)"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])][:2]
s = json.load(open(sys.argv[2]))
assert (s["steps"], s["linesNotUnderstood"]) == (2, 5), s
assert s["cpuMicros"] == sum(r["cpuMicros"] for r in recs), s
PY
  # A FIFO without a writer is not waited on, /dev/zero does not fill
  # memory: a regular file only, as check and inspect read theirs.
  mkfifo rec.fifo
  st=$(lg_status timeout 20 "$LINKGUARD_BIN" report rec.fifo 2>err.txt)
  expect_equal "$st" "exit 66" "report of a FIFO: $(cat err.txt)"
  expect_contains "$(cat err.txt)" "linkguard: error: cannot read rec.fifo: not a regular file (a pipe or FIFO)"
  st=$( (ulimit -v 4000000; lg_status timeout 20 "$LINKGUARD_BIN" report --json /dev/zero 2>err.txt))
  expect_equal "$st" "exit 66" "report of /dev/zero: $(cat err.txt)"
  # A sparse record of 2 GiB (one line of zeros) is read, not held: 1 GiB
  # of address space is enough, the line is counted as not understood.
  head -n 3 build.jsonl >sparse.jsonl && truncate -s 2G sparse.jsonl
  (ulimit -v 1000000; timeout 120 "$LINKGUARD_BIN" report --json sparse.jsonl >sparse.json 2>err.txt)
  expect_equal "$?" 0 "report of a sparse 2 GiB record: $(cat err.txt)"
  expect_equal "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["steps"], d["linesNotUnderstood"])' sparse.json)" \
    "3 1" "a sparse record's sums"
  rm -f sparse.jsonl
  # Unset, nothing is written anywhere.
  LINKGUARD_CXX=$TRUE_BIN "$WRAP" -c k.cpp -o k.o
  expect_equal "$(wc -l <build.jsonl | tr -d ' ')" 123 "lines after a step without LINKGUARD_REPORT"

  TEST "LINKGUARD_REPORT and LINKGUARD_LOG_FILE at a FIFO someone reads: never opened (its reader not woken), the step passes"
  # Opening a FIFO for writing wakes a reader blocked in open and hands it
  # an end of file when closed; a device's open can act too (a serial
  # port's DTR, a watchdog). Neither is a file linkguard may write: it must
  # decide from lstat before any open, as the log does.
  local var reader
  for var in LINKGUARD_REPORT LINKGUARD_LOG_FILE; do
    rm -f rec.fifo woken && mkfifo rec.fifo
    timeout 30 bash -c 'exec 4<rec.fifo; echo woken >woken' &
    reader=$!
    sleep 0.5 # the reader is in open(2), waiting for a writer
    env "$var=$PWD/rec.fifo" LINKGUARD_LOG=debug LINKGUARD_CXX="$CLANGXX" "$WRAP" -c model.cpp -o fifo.o 2>err.txt ||
      test_failed "$var at a FIFO: the step failed: $(cat err.txt)"
    sleep 0.3
    [ ! -e woken ] || test_failed "$var at a FIFO: linkguard opened it (its reader was woken)"
    expect_contains "$(cat err.txt)" "$var $PWD/rec.fifo: not a regular file (a pipe or FIFO)"
    timeout 5 bash -c ': >rec.fifo' # release the reader
    wait "$reader"
  done

  TEST "ccache in front: an unusable LINKGUARD_REPORT's warning is not stored with the object and replayed on hits"
  if command -v ccache >/dev/null; then
    export CCACHE_DIR=$PWD/ccache-dir
    LINKGUARD_REPORT=/nonexistent/rec.jsonl LINKGUARD_CXX="$CLANGXX" ccache "$WRAP" -c model.cpp -o cc.o 2>err.txt ||
      test_failed "first ccache step"
    expect_contains "$(cat err.txt)" "cannot append to LINKGUARD_REPORT /nonexistent/rec.jsonl"
    LINKGUARD_REPORT=$PWD/rec.jsonl LINKGUARD_CXX="$CLANGXX" ccache "$WRAP" -c model.cpp -o cc.o 2>err.txt ||
      test_failed "second ccache step"
    expect_not_contains "$(cat err.txt)" "/nonexistent/rec.jsonl" "a stale warning replayed by ccache"
    unset CCACHE_DIR
  else
    echo "  (ccache not installed: part skipped)"
  fi

  TEST "the warning for an unusable LINKGUARD_LOG_FILE or LINKGUARD_REPORT prints its name escaped"
  for var in LINKGUARD_REPORT LINKGUARD_LOG_FILE; do
    env "$var=$PWD/no/such/dir/$evil" LINKGUARD_LOG=debug LINKGUARD_CXX="$CLANGXX" "$WRAP" -c model.cpp -o esc.o 2>err.txt ||
      test_failed "$var unusable: the step failed"
    no_raw_controls err.txt
    expect_contains "$(cat err.txt)" "$var $PWD/no/such/dir/evil\\nlinkguard: contract holds\\x1b[2K.so: No such file or directory"
  done

  TEST "enforce on Mach-O: the first line says OpenMP is present and unused, before cpp_builder's hint"
  macho_lib
  LINKGUARD_MODE=enforce LINKGUARD_CXX=$CLANGXX "$WRAP" "${MACHO[@]}" -shared -DUSE_MPS m.o \
    -Wl,-needed-lomp -L"$PWD/sdk/omp" -o m.dylib >out.txt 2>&1
  expect_equal "$?" 86 "enforce status"
  # torch/_inductor/cpp_builder.py run_compile_cmd, as upstream has it: on
  # darwin, output mentioning libomp gets "OpenMP support not found" appended.
  python3 - out.txt <<'PY' || test_failed "what a PyTorch user reads: $(cat out.txt)"
import sys
output = open(sys.argv[1]).read()
openmp_problem = "'omp.h' file not found" in output or "libomp" in output
assert openmp_problem, "cpp_builder would not add its hint: the test proves nothing"
output += "\n\nOpenMP support not found. Please try one of the following solutions:\n(3) install libomp via brew: `brew install libomp`;\n"
first = output.splitlines()[0]
assert first.startswith("linkguard: error: m.dylib: OpenMP is linked but unused (present, not missing)"), first
assert "any \"OpenMP support not found\" advice printed after this does not apply" in first, first
assert output.index("present, not missing") < output.index("OpenMP support not found")
PY

  TEST "a Mach-O shared library without USE_MPS that keeps an unused libomp: one line per link"
  macho_lib
  LINKGUARD_CXX=$CLANGXX "$WRAP" "${MACHO[@]}" -shared m.o -lomp -L"$PWD/sdk/omp" -o m.dylib 2>err.txt ||
    test_failed "verify link: $(cat err.txt)"
  expect_equal "$(wc -l <err.txt | tr -d ' ')" 1 "lines on stderr: $(cat err.txt)"
  expect_contains "$(cat err.txt)" "linkguard: warning: m.dylib: /opt/llvm-openmp/lib/libomp.dylib is still a dependency"
  expect_contains "$(cat err.txt)" "the MPS rule would have dropped it, but USE_MPS is not defined"

  TEST "distcc in front of linkguard gets the warning ccache and sccache get, once"
  command -v distcc >/dev/null || { echo "  (distcc not installed: part skipped)"; return 0; }
  printf 'int f() { return 1; }\n' >c.cpp
  mkdir -p lgbin && ln -s "$WRAP" lgbin/linkguard-clang++
  PATH=$PWD/lgbin:$PATH DISTCC_HOSTS=localhost DISTCC_DIR=$PWD/dd LINKGUARD_CXX=$CLANGXX \
    distcc linkguard-clang++ -c c.cpp -o c.o 2>err.txt || test_failed "distcc step: $(cat err.txt)"
  expect_exists c.o
  expect_contains "$(cat err.txt)" "linkguard: warning: distcc runs linkguard as its compiler"
  expect_contains "$(cat err.txt)" "LINKGUARD_CXX='distcc $CLANGXX'"
  PATH=$PWD/lgbin:$PATH DISTCC_HOSTS=localhost DISTCC_DIR=$PWD/dd LINKGUARD_CXX=$CLANGXX \
    distcc linkguard-clang++ -c c.cpp -o c.o 2>err.txt || test_failed "second distcc step"
  expect_not_contains "$(cat err.txt)" "distcc runs linkguard" "said once"
}

# The explain and --version parts: a second suite function would need a
# second file; they run as tests of this one.
SUITE_wrapper_messages_explain() {
  TEST "explain of a command whose compiler is not here: the plan, the compiler marked, 69"
  out=$(PATH=/usr/bin:/bin "$LINKGUARD_BIN" explain -- arm64-apple-darwin-clang++ -shared -DUSE_MPS \
        w.o k.o -o m.so -lomp 2>err.txt)
  expect_equal "$?" 69 "status, as the run's"
  expect_contains "$out" "compiler:  arm64-apple-darwin-clang++ (NOT FOUND here:"
  expect_contains "$out" "phase:     link"
  expect_contains "$out" "target:    arm64-apple-darwin, Mach-O (from compiler name)"
  expect_contains "$out" "rule mps-aot-dead-strip-dylibs: applies"
  expect_contains "$out" "appends:   -Wl,-dead_strip_dylibs"
  expect_contains "$(cat err.txt)" "linkguard: error: real compiler 'arm64-apple-darwin-clang++'"
  json=$(PATH=/usr/bin:/bin "$LINKGUARD_BIN" explain --json -- arm64-apple-darwin-clang++ -shared w.o -o m.so 2>/dev/null)
  expect_equal "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["compilerFound"], d["phase"])' <<<"$json")" "False link"

  # The words of LINKGUARD_CXX are planned as the run would: the target too.
  out=$(LINKGUARD_CXX="/opt/nothere/clang++ -target arm64-apple-macos11" \
        "$LINKGUARD_BIN" explain -- linkguard-clang++ -shared -DUSE_MPS w.o -o m.dylib 2>/dev/null)
  expect_equal "$?" 69 "status, LINKGUARD_CXX missing"
  expect_contains "$out" "target:    arm64-apple-macos11, Mach-O (from -target)"
  expect_contains "$out" "runs:      /opt/nothere/clang++ -target arm64-apple-macos11 -shared -DUSE_MPS w.o -o m.dylib -Wl,-dead_strip_dylibs"

  TEST "explain of a -c step says what it writes, never (none) or JIT shape"
  out=$("$LINKGUARD_BIN" explain -- "$CLANGXX" -target arm64-apple-macos11 -DUSE_MPS -c k.cpp -o k.o)
  expect_contains "$out" "output:    k.o (written by the compile step)"
  expect_not_contains "$out" "k.o (none)"
  expect_not_contains "$out" "JIT shape"
  expect_not_contains "$out" "output is none"

  TEST "explain --json: camelCase keys and a schema, as check and inspect"
  "$LINKGUARD_BIN" explain --json -- "$CLANGXX" -shared model.o -o m.so >plan.json || test_failed "explain"
  python3 - plan.json <<'PY' || test_failed "explain --json conventions"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "linkguard-explain/1", d.get("schema")
bad = []
def walk(o, path):
    if isinstance(o, dict):
        for k, v in o.items():
            if "_" in k and path != "defines":
                bad.append(k)
            walk(v, k)
    elif isinstance(o, list):
        for v in o:
            walk(v, path)
walk(d, "")
assert not bad, bad
PY

  TEST "--version refuses a bad LINKGUARD_MODE (78) and names the compiler behind ccache"
  out=$(LINKGUARD_MODE=bogus "$LINKGUARD_BIN" --version 2>err.txt)
  expect_equal "$?" 78 "status"
  expect_equal "$out" "" "stdout"
  expect_contains "$(cat err.txt)" "LINKGUARD_MODE='bogus'"
  command -v ccache >/dev/null || { echo "  (ccache not installed: part skipped)"; return 0; }
  out=$(LINKGUARD_CXX="ccache $CLANGXX" "$LINKGUARD_BIN" --version) || test_failed "--version"
  expect_contains "$out" "real compiler: $CLANGXX (through $(type -P ccache), from LINKGUARD_CXX)"
  # ccache's masquerade directory first on PATH (/usr/lib/ccache, ccache's
  # documented setup): the compiler is the one ccache finds past its link.
  mkdir -p ccmasq && ln -s "$(type -P ccache)" ccmasq/clang++
  out=$(PATH=$PWD/ccmasq:$LLVM_BIN:/usr/bin:/bin "$LINKGUARD_BIN" --version) || test_failed "--version"
  expect_contains "$out" "real compiler: $CLANGXX (through $PWD/ccmasq/clang++, from PATH)"
}
