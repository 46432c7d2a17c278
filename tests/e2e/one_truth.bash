# One truth (issue 11): linkguard plans from the words that really run, for
# every invocation form, explain prints exactly that plan, and verify judges
# (or removes) only a file the link itself wrote. Every TEST here failed on
# the code before the Job/planJob/output-identity change.
#
# Real Mach-O cross-links on Linux (clang++-19 + ld64.lld against .tbd
# stubs), read back with linkguard inspect and llvm-otool-19; a "previous
# build" (bad.dylib: libomp kept by -needed-lomp) sits where a wrong reading
# would judge and remove.

SUITE_one_truth_PROBE() {
  [ -x "$CLANGXX" ] || { echo "$CLANGXX not installed"; return; }
  [ -x "$LLVM_BIN/ld64.lld" ] || { echo "ld64.lld-19 not installed"; return; }
  [ -x "$LINKGUARD_BIN" ] || echo "linkguard not built"
}

SUITE_one_truth_SETUP() {
  LG=$LINKGUARD_BIN
  WRAP=$(dirname "$LG")/linkguard-clang++
  REC=$FAKE_COMPILERS/recording-compiler
  SDK=$PWD/sdk
  write_sdk "$SDK"
  write_tbd "$SDK/omp/libtorchvision.tbd" @rpath/libtorchvision.dylib __ZN6vision4initEv
  write_aoti_model "$PWD/model"
  read -r -a MACHO <<<"$(macho_flags "$SDK")"
  for tu in wrapper kernel consts; do
    "$CLANGXX" "${MACHO[@]}" "model/model.$tu.cpp" -DUSE_MPS -c -o "model/model.$tu.o" \
      2>/dev/null || test_failed "compiling the model"
  done
  OBJS=(model/model.wrapper.o model/model.kernel.o model/model.consts.o)
  # The flags every MPS link here shares (cpp_builder's macOS link shape).
  LINK=(-shared -undefined dynamic_lookup -nostdlib++ -DUSE_MPS "-L$SDK/omp" -lomp)
  # A previous build's output that breaks the contract: libomp kept.
  "$CLANGXX" "${MACHO[@]}" "${LINK[@]}" "${OBJS[@]}" -Wl,-needed-lomp -o bad.dylib ||
    test_failed "linking bad.dylib"
  expect_contains "$(deps bad.dylib)" libomp.dylib "control: bad.dylib keeps libomp"
}

# deps FILE: the dependency names linkguard reads.
deps() { "$LG" inspect "$1" | tail -n +3 | sed 's/^[[:space:]]*//; s/ (compat.*//'; }
otool_deps() { "$LLVM_BIN/llvm-otool" -L "$1" | tail -n +3; }
# json FILE EXPR: a value from a JSON file, by a Python expression on d.
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
# previous NAME: puts a copy of bad.dylib at NAME, as an earlier build left it.
previous() { mkdir -p "$(dirname "$1")" && cp bad.dylib "$1"; }
# lg_link ARGS...: linkguard-clang++ over the real clang++-19, the Mach-O
# cross flags on the command line.
lg_link() { LINKGUARD_CXX=$CLANGXX "$WRAP" "${MACHO[@]}" "$@"; }

SUITE_one_truth() {
  # --- the words of CXX / LINKGUARD_CXX are part of the command -----------
  TEST "LINKGUARD_CXX='clang++-19 -target arm64-apple-macos11 ...': a Mach-O link, libomp dropped"
  "$CLANGXX" "${MACHO[@]}" "${LINK[@]}" "${OBJS[@]}" -o plain.dylib || test_failed "plain link"
  expect_contains "$(deps plain.dylib)" /opt/llvm-openmp/lib/libomp.dylib "control: the plain link"
  LINKGUARD_CXX="$CLANGXX ${MACHO[*]}" "$WRAP" "${LINK[@]}" "${OBJS[@]}" -o m.dylib 2>err ||
    test_failed "linkguard link: $(cat err)"
  expect_not_contains "$(deps m.dylib)" libomp "through linkguard"
  expect_not_contains "$(otool_deps m.dylib)" libomp "through linkguard (llvm-otool)"
  expect_contains "$(deps m.dylib)" /usr/lib/libSystem.B.dylib "libSystem kept"

  TEST "CXX='/x/arm64-apple-darwin-clang++ -isysroot SDK': the compiler word keeps its target prefix"
  mkdir -p x && ln -s "$CLANGXX" x/arm64-apple-darwin-clang++
  local cxx="$PWD/x/arm64-apple-darwin-clang++ -isysroot $SDK -fuse-ld=lld"
  CXX=$cxx "$LG" explain --json -- "$WRAP" "${LINK[@]}" "${OBJS[@]}" -o p.dylib >plan.json ||
    test_failed "explain"
  expect_equal "$(json plan.json 'd["compilerName"]')" arm64-apple-darwin-clang++
  expect_equal "$(json plan.json 'd["target"]["source"]')" "compiler name"
  expect_equal "$(json plan.json 'd["inject"]')" True "the rule applies"
  CXX=$cxx "$WRAP" "${LINK[@]}" "${OBJS[@]}" -o p.dylib 2>err || test_failed "link: $(cat err)"
  expect_not_contains "$(deps p.dylib)" libomp "the real link through linkguard"

  TEST "explain reads the launcher form and its assumptions, as the run does"
  "$LG" explain --json -- "$LG" --assume-define=USE_MPS -- "$CLANGXX" "${MACHO[@]}" -shared \
    -undefined dynamic_lookup -nostdlib++ "${OBJS[@]}" -o l.dylib -lomp "-L$SDK/omp" >plan.json ||
    test_failed "explain of the launcher form"
  expect_equal "$(json plan.json 'd["form"]')" launcher
  expect_equal "$(json plan.json 'd["inject"]')" True "USE_MPS assumed by the launcher"
  "$LG" --assume-define=USE_MPS -- "$CLANGXX" "${MACHO[@]}" -shared -undefined dynamic_lookup \
    -nostdlib++ "${OBJS[@]}" -o l.dylib -lomp "-L$SDK/omp" 2>err || test_failed "run: $(cat err)"
  expect_not_contains "$(deps l.dylib)" libomp "the launcher run"

  TEST "explain's runs: line is the argv byte for byte, pasted into a shell"
  # A word that is not UTF-8, one with a newline, a quote and a space: the
  # line must give the compiler these exact bytes back (bash's $'...').
  local words=($'a\xffb.o' $'x\ny' "it's" "a b" '$HOME' '')
  "$LG" explain -- "$CLANGXX" -c "${words[@]}" >explain.txt || test_failed "explain"
  line=$(grep '^runs: ' explain.txt | sed 's/^runs: *//')
  eval "set -- $line"
  shift 2 # the compiler, -c
  expect_equal "$#" "${#words[@]}" "number of words back from: $line"
  for i in "${!words[@]}"; do
    [ "$1" = "${words[$i]}" ] || test_failed "word $i: $(printf %q "$1") for $(printf %q "${words[$i]}")"
    shift
  done

  TEST "run and explain plan the same thing, for every fixture and every form"
  one_truth_parity

  # --- verify judges what the linker wrote, nothing else ------------------
  TEST "-Wl,-o / -Xlinker -o / a linker @file: the linker's file is judged, the -o file left alone"
  printf -- '-o\nnew3.dylib\n' >out.rsp
  local variant i=0
  for variant in "-Wl,-o,new1.dylib" "-Xlinker -o -Xlinker new2.dylib" "-Wl,@out.rsp"; do
    i=$((i + 1))
    previous old.dylib
    local before
    before=$(cksum <old.dylib)
    # shellcheck disable=SC2086
    st=$(status_of lg_link "${LINK[@]}" "${OBJS[@]}" -Wl,-needed-lomp -o old.dylib $variant 2>err)
    expect_equal "$st" "exit 86" "$variant: the linker's output breaks the contract"
    expect_contains "$(cat err)" "new$i.dylib" "$variant: the judged file"
    expect_missing "new$i.dylib"
    expect_equal "$(cksum <old.dylib)" "$before" "$variant: the -o file"
  done

  TEST "commands that run no linker leave the previous output alone"
  for flag in -ccc-print-bindings -ccc-print-phases -fdriver-only; do
    previous x.dylib
    st=$(status_of lg_link "${LINK[@]}" "${OBJS[@]}" -o x.dylib "$flag" 2>err)
    expect_equal "$st" "exit 0" "$flag"
    expect_not_contains "$(cat err)" "removed" "$flag"
    expect_same_file x.dylib bad.dylib
  done

  TEST "-Wl,--version / -Wl,--help write nothing: not verified, the previous output stays"
  for flag in -Wl,--version -Wl,--help; do
    previous x.dylib
    st=$(status_of lg_link "${LINK[@]}" "${OBJS[@]}" -o x.dylib "$flag" 2>err)
    expect_equal "$st" "exit 0" "$flag"
    expect_contains "$(cat err)" "not verified: the link did not write x.dylib" "$flag"
    expect_same_file x.dylib bad.dylib
  done
  # -Wl,-v prints the version and links on: that output is the link's own.
  previous x.dylib
  st=$(status_of lg_link "${LINK[@]}" "${OBJS[@]}" -o x.dylib -Wl,-v 2>err)
  expect_equal "$st" "exit 0" "-Wl,-v"
  expect_not_contains "$(deps x.dylib)" libomp "-Wl,-v: the new link"

  TEST "-working-directory D: the link writes D/out, ./out is left alone"
  mkdir -p D && cp "${OBJS[@]}" D/
  previous out.dylib
  st=$(status_of lg_link "${LINK[@]}" model.wrapper.o model.kernel.o model.consts.o \
    -Wl,-needed-lomp -working-directory D -o out.dylib 2>err)
  expect_equal "$st" "exit 86" "D/out.dylib breaks the contract"
  expect_contains "$(cat err)" "D/out.dylib"
  expect_missing D/out.dylib
  expect_same_file out.dylib bad.dylib

  TEST "--config, CCC_OVERRIDE_OPTIONS, --rsp-quoting=windows: not verified, nothing removed"
  echo "-Wl,-needed-lomp" >extra.cfg
  printf '%s ' "${OBJS[@]}" >objs.rsp
  previous c.dylib
  st=$(status_of lg_link "${LINK[@]}" "${OBJS[@]}" -o c.dylib "--config=$PWD/extra.cfg" 2>err)
  expect_equal "$st" "exit 0" "--config"
  expect_contains "$(cat err)" "not verified: --config=$PWD/extra.cfg reads more arguments"
  expect_equal "$(wc -l <err)" 1 "one line on stderr"
  expect_exists c.dylib
  st=$(CCC_OVERRIDE_OPTIONS="+-Wl,-needed-lomp" status_of lg_link "${LINK[@]}" "${OBJS[@]}" \
    -o c.dylib 2>err)
  expect_equal "$st" "exit 0" "CCC_OVERRIDE_OPTIONS"
  expect_contains "$(cat err)" "not verified: CCC_OVERRIDE_OPTIONS"
  expect_contains "$(deps c.dylib)" libomp.dylib "clang applied the override; linkguard kept out"
  st=$(status_of lg_link "${LINK[@]}" @objs.rsp -Wl,-needed-lomp --rsp-quoting=windows \
    -o c.dylib 2>err)
  expect_equal "$st" "exit 0" "--rsp-quoting=windows"
  expect_contains "$(cat err)" "not verified: --rsp-quoting=windows"
  expect_exists c.dylib

  TEST "a rules-file contract on a compile step never touches a.out"
  cat >rules.toml <<'TOML'
[[rule]]
name = "compile-contract"
[rule.match]
phase = ["compile", "link"]
[rule.add]
flags = ["-DLG_SEEN"]
[rule.contract]
forbid = ["openmp"]
TOML
  previous a.out
  # No -o: the object is model.kernel.o here; a.out is not this step's.
  st=$(LINKGUARD_CONFIG=$PWD/rules.toml status_of lg_link -c model/model.kernel.cpp 2>err)
  expect_equal "$st" "exit 0" "the compile step"
  expect_same_file a.out bad.dylib
  expect_exists model.kernel.o

  TEST "-o /dev/null and -o -: a good link keeps its status"
  st=$(status_of lg_link "${LINK[@]}" "${OBJS[@]}" -o /dev/null 2>err)
  expect_equal "$st" "exit 0" "-o /dev/null"
  expect_contains "$(cat err)" "not verified: /dev/null names a device or a descriptor"
  st=$(status_of lg_link "${LINK[@]}" "${OBJS[@]}" -o - 2>err)
  expect_equal "$st" "exit 0" "-o -"
  expect_contains "$(cat err)" "not verified: -o - writes the output to standard output"
  [ -s stdout.out ] || test_failed "the link wrote its output to stdout"

  # --- rule facts from the newest upstream cpp_builder ---------------------
  TEST "-ltorchvision (aot_inductor.custom_op_libs) is not libtorch: the rule applies"
  "$CLANGXX" "${MACHO[@]}" "${LINK[@]}" "${OBJS[@]}" -ltorchvision -o tv-plain.dylib ||
    test_failed "plain link"
  expect_contains "$(deps tv-plain.dylib)" /opt/llvm-openmp/lib/libomp.dylib "control"
  lg_link "${LINK[@]}" "${OBJS[@]}" -ltorchvision -o tv.dylib 2>err || test_failed "$(cat err)"
  expect_not_contains "$(deps tv.dylib)" libomp "with -ltorchvision"

  TEST "a .tbd input is a linker input, not a source: still an AOT link"
  lg_link "${LINK[@]}" "${OBJS[@]}" "$SDK/omp/libtorchvision.tbd" -o tbd.dylib 2>err ||
    test_failed "$(cat err)"
  expect_not_contains "$(deps tbd.dylib)" libomp "with a .tbd input"

  TEST "-o x.dylib -- a.o is a link, and the flag goes before --"
  LINKGUARD_CXX="$REC -target arm64-apple-macos11" "$LG" explain --json -- "$WRAP" "${LINK[@]}" \
    -o dd.dylib -- "${OBJS[@]}" >plan.json || test_failed "explain"
  expect_equal "$(json plan.json 'd["phase"]')" link
  expect_equal "$(json plan.json '" ".join(d["argv"][-5:])')" \
    "-Wl,-dead_strip_dylibs -- ${OBJS[*]}"
  lg_link "${LINK[@]}" -o dd.dylib -- "${OBJS[@]}" 2>err || test_failed "$(cat err)"
  expect_not_contains "$(deps dd.dylib)" libomp "the real link"

  TEST "a JIT cpp_wrapper build linked separately (*.main.o *.optimized.o) is not AOT"
  cp model/model.wrapper.o cabc.main.o && cp model/model.kernel.o cdef.optimized.o
  rm -f direct.rec wrapped.rec
  FAKE_RECORD=direct.rec "$REC" "${LINK[@]}" cabc.main.o cdef.optimized.o -o cabc.main.so
  FAKE_RECORD=wrapped.rec LINKGUARD_CXX=$REC "$WRAP" "${LINK[@]}" -target arm64-apple-macos11 \
    cabc.main.o cdef.optimized.o -o cabc.main.so 2>/dev/null
  LINKGUARD_CXX=$REC "$LG" explain --json -- "$WRAP" "${LINK[@]}" -target arm64-apple-macos11 \
    cabc.main.o cdef.optimized.o -o cabc.main.so >plan.json
  expect_equal "$(json plan.json 'd["inject"]')" False "the JIT shape"
  expect_contains "$(json plan.json '[c["why"] for c in d["rules"][0]["conditions"] if c["name"]=="AOT build"][0]')" \
    "*.main.o"
  expect_not_contains "$(tr '\0' ' ' <wrapped.rec)" dead_strip "the recorded argv"

  # --- found by the red-team pass on this change ---------------------------
  TEST "a linker @file that is a pipe is the linker's: never read, the link writes what it says"
  local st
  st=$(status_of lg_link "${LINK[@]}" "${OBJS[@]}" -Wl,@<(printf -- '-o\np3.dylib\n') 2>err)
  expect_equal "$st" "exit 0" "the pipe link"
  expect_exists p3.dylib
  expect_contains "$(cat err)" "not a regular file" "said once why it is not verified"

  TEST "-Wl,-rpath,@loader_path and -install_name @rpath/... are values, not @files"
  lg_link "${LINK[@]}" "${OBJS[@]}" -o r.dylib -Wl,-rpath,@loader_path \
    -Wl,-install_name,@rpath/libr.dylib 2>err || test_failed "$(cat err)"
  expect_not_contains "$(deps r.dylib)" libomp "the rule applied"
  expect_equal "$(cat err)" "" "nothing said"

  TEST "a linker @file is read where the linker reads it: before a later -Wl,-o"
  printf -- '-o\nfromrsp.dylib\n' >o.rsp
  st=$(status_of lg_link "${LINK[@]}" "${OBJS[@]}" -Wl,-needed-lomp -Wl,@o.rsp -Wl,-o,last.dylib 2>err)
  expect_equal "$st" "exit 86" "last.dylib is the link's output and breaks the contract"
  expect_contains "$(cat err)" "last.dylib"
  expect_missing last.dylib

  TEST "ccache words: explain through ccache plans what the run does; ccache settings are skipped"
  mkdir -p tools
  # A stand-in for ccache >= 4.8 ("ccache [KEY=VALUE ...] compiler args").
  printf '#!/bin/sh\nwhile case "$1" in *=*) true;; *) false;; esac; do shift; done\nexec "$@"\n' >tools/ccache
  chmod +x tools/ccache
  PATH=$PWD/tools:$PATH LINKGUARD_CXX="$CLANGXX ${MACHO[*]}" "$LG" explain --json -- \
    ccache "$WRAP" "${LINK[@]}" "${OBJS[@]}" -o e.dylib >plan.json || test_failed "explain"
  expect_equal "$(json plan.json 'd["form"]')" wrapper
  expect_equal "$(json plan.json 'd["inject"]')" True
  mkdir -p x2 && ln -sf "$CLANGXX" x2/arm64-apple-darwin-clang++
  PATH=$PWD/tools:$PATH LINKGUARD_CXX="ccache sloppiness=time_macros $PWD/x2/arm64-apple-darwin-clang++ -isysroot $SDK -fuse-ld=lld" \
    "$WRAP" "${LINK[@]}" "${OBJS[@]}" -o k.dylib 2>err || test_failed "$(cat err)"
  expect_not_contains "$(deps k.dylib)" libomp "the compiler word past ccache's settings"

  TEST "--emit-static-lib runs no linker: the step is the compiler's"
  mkdir -p lt && ln -s "$LLVM_BIN/llvm-libtool-darwin" lt/libtool
  st=$(status_of lg_link "${LINK[@]}" "${OBJS[@]}" -o es.a --emit-static-lib "-B$PWD/lt" 2>err)
  expect_equal "$st" "exit 0" "--emit-static-lib"
  expect_exists es.a

  TEST "a masquerade name runs that compiler, whatever CXX says"
  mkdir -p masq2 cross x
  ln -s "$LG" masq2/arm64-apple-darwin-clang++
  ln -sf "$CLANGXX" x/arm64-apple-darwin-clang++
  printf '#!/bin/sh\nexec %s -isysroot %s "$@"\n' "$PWD/x/arm64-apple-darwin-clang++" "$SDK" \
    >cross/arm64-apple-darwin-clang++
  chmod +x cross/arm64-apple-darwin-clang++
  PATH=$PWD/masq2:$PWD/cross:$PATH CXX=$CLANGXX arm64-apple-darwin-clang++ -c model/model.kernel.cpp \
    -o mk.o 2>err || test_failed "$(cat err)"
  expect_contains "$("$LLVM_BIN/llvm-objdump" -f mk.o)" mach-o "a Mach-O object, not the host's"

  TEST "CXX naming a compiler whose path has a space"
  mkdir -p "sp ace" && ln -s "$CLANGXX" "sp ace/clang++"
  CXX="$PWD/sp ace/clang++" "$WRAP" -c model/model.kernel.cpp -o sp.o 2>err || test_failed "$(cat err)"
  expect_exists sp.o

  # --- the compiler word's name (issue 12) and unknown options (issue 13) --
  TEST "a masquerade name with a target prefix and no such compiler fails with 69"
  mkdir -p masq && ln -s "$LG" masq/aarch64-linux-gnu-clang++
  st=$(PATH=$PWD/masq:/usr/bin:/bin status_of masq/aarch64-linux-gnu-clang++ -c model/model.kernel.cpp \
    -o m.o 2>err)
  expect_equal "$st" "exit 69"
  expect_contains "$(cat err)" "aarch64-linux-gnu-clang++"
  expect_missing m.o

  TEST "an option clang 19 does not know: one warning; LINKGUARD_ASSUME_KNOWN lets the rule apply"
  rm -f r1.rec r2.rec
  FAKE_RECORD=r1.rec LINKGUARD_CXX=$REC "$WRAP" "${LINK[@]}" -target arm64-apple-macos11 \
    "${OBJS[@]}" -fapple-new-thing -o u.dylib 2>err
  expect_equal "$(grep -c 'linkguard: warning: rule mps-aot-dead-strip-dylibs not applied' err)" 1
  expect_contains "$(cat err)" "-fapple-new-thing"
  expect_not_contains "$(tr '\0' ' ' <r1.rec)" dead_strip "declined"
  FAKE_RECORD=r2.rec LINKGUARD_ASSUME_KNOWN=-fapple-new-* LINKGUARD_CXX=$REC "$WRAP" "${LINK[@]}" \
    -target arm64-apple-macos11 "${OBJS[@]}" -fapple-new-thing -o u.dylib 2>/dev/null
  expect_contains "$(tr '\0' ' ' <r2.rec)" -Wl,-dead_strip_dylibs "declared harmless"
}

# status_of CMD...: runs CMD (a shell function too) with its stdout in
# ./stdout.out and prints "exit N".
status_of() {
  "$@" >stdout.out
  echo "exit $?"
}

# one_truth_parity: every fixture line, through the wrapper, the launcher
# and a masquerade link, is planned identically by explain --json and by the
# run (its trace log's "plan:" line), and the recorded argv is explain's.
one_truth_parity() {
  mkdir -p plain masq real
  python3 "$LINKGUARD_SOURCE_DIR/tests/e2e/fixture_commands.py" \
    "$LINKGUARD_SOURCE_DIR/tests/data/cpp_builder_darwin_mps.txt" \
    "$PWD/model" "$SDK" "$PWD/plain" >fixtures.txt || test_failed "reading fixtures"
  ln -s "$LG" masq/clang++
  ln -s "$REC" real/clang++
  local name phase inject n=0
  while read -r name phase inject; do
    mapfile -d '' ARGS <"plain/$name.args"
    for form in wrapper launcher masquerade; do
      n=$((n + 1))
      rm -f run.log run.rec
      case $form in
        wrapper)
          FAKE_RECORD=run.rec LINKGUARD_LOG=trace LINKGUARD_LOG_FILE=$PWD/run.log \
            LINKGUARD_CXX=$REC "$WRAP" "${ARGS[@]}" >/dev/null 2>&1
          LINKGUARD_CXX=$REC "$LG" explain --json -- "$WRAP" "${ARGS[@]}" >plan.json ;;
        launcher)
          FAKE_RECORD=run.rec LINKGUARD_LOG=trace LINKGUARD_LOG_FILE=$PWD/run.log \
            "$LG" --assume-define=USE_MPS -- "$REC" "${ARGS[@]}" >/dev/null 2>&1
          "$LG" explain --json -- "$LG" --assume-define=USE_MPS -- "$REC" "${ARGS[@]}" >plan.json ;;
        masquerade)
          PATH=$PWD/masq:$PWD/real:$PATH FAKE_RECORD=run.rec LINKGUARD_LOG=trace \
            LINKGUARD_LOG_FILE=$PWD/run.log clang++ "${ARGS[@]}" >/dev/null 2>&1
          PATH=$PWD/masq:$PWD/real:$PATH "$LG" explain --json -- clang++ "${ARGS[@]}" >plan.json ;;
      esac
      python3 - "$name/$form" plan.json run.log run.rec <<'PY' || test_failed "$name ($form): plans differ"
import json, sys
what, plan, log, rec = sys.argv[1:]
explained = json.load(open(plan))
explained.pop("command")
lines = [l.split("plan: ", 1)[1] for l in open(log) if "plan: " in l]
if len(lines) != 1:
    sys.exit(f"{what}: the run logged {len(lines)} plans")
ran = json.loads(lines[0])
if ran != explained:
    diff = {k: (explained.get(k), ran.get(k)) for k in set(ran) | set(explained)
            if ran.get(k) != explained.get(k)}
    sys.exit(f"{what}: explain vs run: {diff}")
args = open(rec, "rb").read().split(b"\n--end--\n")[0].split(b"\0")[:-1]
if [a.decode() for a in args] != explained["argv"][1:]:
    sys.exit(f"{what}: recorded argv {args} != explain's {explained['argv']}")
PY
    done
  done <fixtures.txt
  [ "$n" -ge 30 ] || test_failed "only $n fixture runs"
}
