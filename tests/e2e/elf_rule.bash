# The shipped ELF rule (examples/linkguard.toml) on real Linux links with
# clang 14 and its libomp: -Wl,--as-needed lands before the first library,
# the unused OpenMP NEEDED goes, a used one stays, the RUNPATH is reported
# as a note; every "dropped" has a plain-compiler control that keeps it, and
# a control that shows the position matters. Also: how the rules file is
# found, and that a bad one stops the build with 78 before anything runs.

CLANG14=/usr/bin/clang++-14

SUITE_elf_rule_PROBE() {
  [ -x "$LINKGUARD_BIN" ] || { echo "linkguard not built"; return; }
  [ -x "$CLANG14" ] || { echo "clang++-14 not installed"; return; }
  [ -e /usr/lib/llvm-14/lib/libomp.so ] || { echo "libomp-dev (LLVM 14) not installed"; return; }
  [ -x "$LLVM_BIN/llvm-readelf" ] || echo "llvm-readelf-19 not installed"
}

SUITE_elf_rule_SETUP() {
  WRAP=$(dirname "$LINKGUARD_BIN")/linkguard-clang++
  FAKE=$FAKE_COMPILERS/recording-compiler
  EXAMPLE=$LINKGUARD_SOURCE_DIR/examples/linkguard.toml
  # The model: no OpenMP use at all, compiled with -fopenmp as cpp_builder does.
  printf 'extern "C" int model_run(int x) { return 2 * x + 1; }\n' >model.cpp
  printf '#include <omp.h>\nextern "C" int model_threads() { return omp_get_max_threads(); }\n' >uses.cpp
  "$CLANG14" -fopenmp -fPIC -c model.cpp -o model.o || test_failed "compiling model.cpp"
  "$CLANG14" -fopenmp -fPIC -c uses.cpp -o uses.o || test_failed "compiling uses.cpp"
}

needed() { "$LLVM_BIN/llvm-readelf" -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
runpath() { "$LLVM_BIN/llvm-readelf" -d "$1" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p'; }
# recorded FILE: the last argv the fake compiler saw, one argument a line.
recorded() { awk 'BEGIN{RS="\n--end--\n"} {r=$0} END{printf "%s", r}' "$1" | tr '\0' '\n'; }

# guarded ARGS...: link through linkguard with the example rules, stderr in err.txt.
guarded() {
  LINKGUARD_CXX=$CLANG14 LINKGUARD_CONFIG=$EXAMPLE LINKGUARD_LOG=info "$WRAP" "$@" 2>err.txt
}

SUITE_elf_rule() {
  TEST "explain: the example rule applies and inserts before the libraries"
  json=$(LINKGUARD_CXX=$CLANG14 LINKGUARD_CONFIG=$EXAMPLE "$LINKGUARD_BIN" explain --json -- \
           "$WRAP" -fopenmp -shared model.o -o model.so -lomp)
  got=$(python3 -c 'import json,sys; j=json.load(sys.stdin); r=[x for x in j["rules"] if x["name"]=="elf-openmp-as-needed"][0]; print(r["applies"], r["position"], j["insertedBeforeLibraries"], j["appended"], j["mode"])' <<<"$json")
  expect_equal "$got" "True before-libraries ['-Wl,--as-needed'] [] enforce"
  got=$(python3 -c 'import json,sys; j=json.load(sys.stdin); r=[x for x in j["rules"] if x["name"]=="elf-openmp-as-needed"][0]; print([c["holds"] for c in r["conditions"] if c["name"].startswith("links or passes any of")], j["argv"][-2:])' <<<"$json")
  expect_equal "$got" "[True] ['-Wl,--as-needed', '-lomp']" "the uses-any condition and the placement"

  TEST "the compiler gets -Wl,--as-needed right before the user's first library"
  rm -f rec
  FAKE_RECORD=rec LINKGUARD_MODE=inject LINKGUARD_CXX=$FAKE LINKGUARD_CONFIG=$EXAMPLE \
    "$WRAP" -fopenmp -shared model.o -o libmodel.so -L/opt/x -lomp -lm || test_failed "wrapper failed"
  expect_equal "$(recorded rec | tr '\n' ' ')" \
    "-fopenmp -shared model.o -o libmodel.so -L/opt/x -Wl,--as-needed -lomp -lm "

  TEST "-fopenmp -lomp: the plain link keeps NEEDED libomp.so.5, linkguard's drops it"
  "$CLANG14" -fopenmp -shared model.o -o plain.so -lomp || test_failed "plain link"
  expect_contains "$(needed plain.so)" libomp.so.5 "control: plain NEEDED"
  guarded -fopenmp -shared model.o -o guarded.so -lomp || test_failed "guarded link: $(cat err.txt)"
  expect_not_contains "$(needed guarded.so)" libomp "linkguard's NEEDED"
  expect_not_contains "$(needed guarded.so)" libgomp "linkguard's NEEDED"
  # clang's -fopenmp adds the RUNPATH; --as-needed cannot remove it: a note.
  expect_contains "$(runpath guarded.so)" /usr/lib/llvm-14/lib "RUNPATH"
  expect_contains "$(cat err.txt)" "guarded.so: note: RUNPATH /usr/lib/llvm-14/lib is recorded"
  expect_contains "$(cat err.txt)" "guarded.so: contract holds"
  expect_not_contains "$(cat err.txt)" "error"

  TEST "-fopenmp alone: clang's own -lomp is dropped too (the end is before it)"
  "$CLANG14" -fopenmp -shared model.o -o plain.so || test_failed "plain link"
  expect_contains "$(needed plain.so)" libomp.so.5 "control: plain NEEDED"
  guarded -fopenmp -shared model.o -o guarded.so || test_failed "guarded link: $(cat err.txt)"
  expect_not_contains "$(needed guarded.so)" libomp "linkguard's NEEDED"

  TEST "-lgomp without -fopenmp: the GNU runtime is dropped as well"
  "$CLANG14" -shared model.o -o plain.so -lgomp || test_failed "plain link"
  expect_contains "$(needed plain.so)" libgomp.so.1 "control: plain NEEDED"
  guarded -shared model.o -o guarded.so -lgomp || test_failed "guarded link: $(cat err.txt)"
  expect_not_contains "$(needed guarded.so)" libgomp "linkguard's NEEDED"

  TEST "position matters: --as-needed appended after -lomp keeps the NEEDED"
  "$CLANG14" -fopenmp -shared model.o -o appended.so -lomp -Wl,--as-needed || test_failed "link"
  expect_contains "$(needed appended.so)" libomp.so.5 "appended --as-needed"

  TEST "a model that calls OpenMP keeps libomp, and the contract holds (Kept)"
  guarded -fopenmp -shared uses.o -o uses.so -lomp || test_failed "guarded link: $(cat err.txt)"
  expect_contains "$(needed uses.so)" libomp.so.5 "used OpenMP"
  expect_contains "$(cat err.txt)" "libomp.so.5 is kept"
  expect_contains "$(cat err.txt)" "omp_get_max_threads"

  TEST "never added twice: --as-needed already inside a response file"
  printf -- '-Wl,--as-needed\n-lomp\n' >link.rsp
  rm -f rec
  FAKE_RECORD=rec LINKGUARD_MODE=inject LINKGUARD_CXX=$FAKE LINKGUARD_CONFIG=$EXAMPLE \
    "$WRAP" -fopenmp -shared model.o -o m.so @link.rsp || test_failed "wrapper failed"
  expect_equal "$(recorded rec | tr '\n' ' ')" "-fopenmp -shared model.o -o m.so @link.rsp "

  TEST "the opt-out wins: --no-as-needed adds nothing and libomp stays"
  rm -f rec
  FAKE_RECORD=rec LINKGUARD_MODE=inject LINKGUARD_CXX=$FAKE LINKGUARD_CONFIG=$EXAMPLE \
    "$WRAP" -fopenmp -shared model.o -o m.so -Wl,--no-as-needed -lomp || test_failed "wrapper failed"
  expect_equal "$(recorded rec | tr '\n' ' ')" "-fopenmp -shared model.o -o m.so -Wl,--no-as-needed -lomp "
  # Verified all the same: the kept, unused libomp is reported. (crtbegin's
  # weak hooks __gmon_start__/_ITM_* do not make the attribution unknown:
  # objlib/ELFReader.cpp.) verify warns and keeps the output...
  LINKGUARD_MODE=verify LINKGUARD_CXX=$CLANG14 LINKGUARD_CONFIG=$EXAMPLE \
    "$WRAP" -fopenmp -shared model.o -o kept.so -Wl,--no-as-needed -lomp 2>err.txt ||
    test_failed "verify link: $(cat err.txt)"
  expect_contains "$(needed kept.so)" libomp.so.5 "opted-out NEEDED"
  expect_contains "$(cat err.txt)" "linkguard: warning: kept.so: libomp.so.5 is still a dependency"
  # ...and enforce fails the step and removes the output.
  LINKGUARD_MODE=enforce LINKGUARD_CXX=$CLANG14 LINKGUARD_CONFIG=$EXAMPLE \
    "$WRAP" -fopenmp -shared model.o -o kept.so -Wl,--no-as-needed -lomp 2>err.txt
  expect_equal "$?" 86 "enforce on an unused libomp"
  expect_missing kept.so

  TEST "the rules file is found in a parent directory (the project)"
  mkdir -p proj/build && cp "$EXAMPLE" proj/linkguard.toml && cp model.o proj/build/
  # HOME outside the project: the walk up stops at $HOME (rules.md).
  (cd proj/build && LINKGUARD_CXX=$CLANG14 HOME=$OLDPWD/nohome XDG_CONFIG_HOME= "$WRAP" -fopenmp -shared model.o -o m.so -lomp) ||
    test_failed "guarded link in the project"
  expect_not_contains "$(needed proj/build/m.so)" libomp "project rules file"
  # Control: outside the project (and no user file) nothing is inserted.
  (cd proj/.. && mkdir -p outside && cd outside && cp ../model.o . &&
     LINKGUARD_CXX=$CLANG14 HOME=$PWD XDG_CONFIG_HOME= "$WRAP" -fopenmp -shared model.o -o m.so -lomp) ||
    test_failed "link outside the project"
  expect_contains "$(needed outside/m.so)" libomp.so.5 "no rules file"

  TEST "[builtin] / user file: ~/.config/linkguard/linkguard.toml is used"
  mkdir -p home/.config/linkguard && cp "$EXAMPLE" home/.config/linkguard/linkguard.toml
  LINKGUARD_CXX=$CLANG14 HOME=$PWD/home XDG_CONFIG_HOME= "$WRAP" -fopenmp -shared model.o -o m.so -lomp ||
    test_failed "guarded link with the user file"
  expect_not_contains "$(needed m.so)" libomp "user rules file"

  TEST "a bad rules file: a link stops with one line naming file, line and key (78)"
  printf '[[rule]]\nname = "x"\n[rule.match]\nphse = "link"\n' >bad.toml
  rm -f rec
  FAKE_RECORD=rec LINKGUARD_CXX=$FAKE LINKGUARD_CONFIG=$PWD/bad.toml \
    "$WRAP" -fopenmp -shared model.o -o m.so -lomp 2>err.txt
  expect_equal "$?" 78 "exit status"
  expect_equal "$(wc -l <err.txt)" 1 "error lines"
  expect_contains "$(cat err.txt)" "linkguard: error: $PWD/bad.toml:4: unknown key 'rule[0].match.phse' (expected one of: phase,"
  expect_missing rec
  # A compile step runs unchanged: only links stop on a broken rules file
  # (rules.md, "When the file in force cannot be used").
  FAKE_RECORD=rec LINKGUARD_CXX=$FAKE LINKGUARD_CONFIG=$PWD/bad.toml \
    "$WRAP" -c model.cpp -o x.o 2>err.txt
  expect_equal "$?" 0 "exit status (compile step)"
  expect_equal "$(cat err.txt)" "" "stderr (compile step)"
  expect_exists rec
  rm -f rec
  FAKE_RECORD=rec LINKGUARD_CXX=$FAKE LINKGUARD_CONFIG=$PWD/missing.toml \
    "$WRAP" -fopenmp -shared model.o -o m.so -lomp 2>err.txt
  expect_equal "$?" 78 "exit status (missing LINKGUARD_CONFIG)"
  expect_missing rec
  expect_contains "$(cat err.txt)" "missing.toml: no such file"
}
