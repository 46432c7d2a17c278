# What a user types and sees (issue 30, "CI engineer" and "Everyone"):
# every name check/inspect print is accepted back, a blob without --scan
# gets the hint, ELF advice is the ELF rule's flag, one line per finding and
# per file, --quiet, "did you mean" for a misspelled subcommand, `help CMD`,
# `version`, the man page's EXIT STATUS and ENVIRONMENT from the code's
# tables, completions from the OptTable, colour only on a terminal, one
# stderr prefix, --json usage errors as JSON, and every --json document
# valid against its schema in docs/schema/ (issue 29 item 7).

SUITE_ux_PROBE() {
  local tool
  for tool in clang++ ld64.lld llvm-lipo llvm-otool; do
    [ -x "$LLVM_BIN/$tool" ] || { echo "$LLVM_BIN/$tool not found"; return; }
  done
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  command -v python3 >/dev/null || { echo "python3 not found"; return; }
  python3 -c 'import jsonschema' 2>/dev/null ||
    { echo "python3-jsonschema not installed (scripts/lib/common.sh lists it)"; return; }
  [ -x /usr/bin/clang++-14 ] && [ -e /usr/lib/llvm-14/lib/libomp.so ] ||
    { echo "clang++-14 and libomp-dev (LLVM 14) not installed"; return; }
}

SUITE_ux_SETUP() {
  write_sdk sdk
}

LG() { "$LINKGUARD_BIN" "$@"; }

# elf_lib NAME: a small ELF shared library NAME.
elf_lib() {
  echo 'extern "C" int f() { return 1; }' >lib.cpp
  "$CLANGXX" -shared -fPIC lib.cpp -o "$1" || test_failed "linking $1"
}

# zip_of ZIP FILE...: a zip archive holding FILEs under their relative names.
zip_of() {
  python3 - "$@" <<'EOF' || test_failed "making $1"
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    for f in sys.argv[2:]:
        z.write(f)
EOF
}

# omp_dylib OUT ARCH: a Mach-O dylib that links PyTorch's libomp and uses none of it.
omp_dylib() {
  echo 'extern "C" int k() { return 1; }' >k.cpp
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk "$2") -shared -nostdlib++ k.cpp -o "$1" -Lsdk/omp -lomp ||
    test_failed "linking $1"
}

# on_tty CMD...: CMD's output as a terminal shows it (a pseudo-terminal).
on_tty() {
  python3 - "$@" <<'PY'
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
out = b""
while True:
    try:
        d = os.read(fd, 4096)
    except OSError:
        break
    if not d:
        break
    out += d
os.waitpid(pid, 0)
sys.stdout.write(out.decode("utf-8", "replace"))
PY
}

SUITE_ux() {
  TEST "every name inspect and check print is accepted back (PKG!member, PKG/member, FILE@0xOFF)"
  mkdir lib && elf_lib lib/a.so
  zip_of pkg.pt2 lib/a.so
  head -c 1000 /dev/zero >blob.pte && cat lib/a.so >>blob.pte
  out=$(LG inspect pkg.pt2) || test_failed "inspect pkg.pt2"
  expect_contains "$out" "pkg.pt2!lib/a.so:"
  # The name as printed, quoted as a user must in an interactive shell.
  out=$(LG inspect 'pkg.pt2!lib/a.so'); status=$?
  expect_equal "$status" 0 "inspect 'pkg.pt2!lib/a.so': $out"
  expect_contains "$out" "pkg.pt2!lib/a.so:"
  out=$(LG check --forbid 'libomp*' 'pkg.pt2!lib/a.so'); status=$?
  expect_equal "$status" 0 "check 'pkg.pt2!lib/a.so': $out"
  # The second spelling needs no quoting: a path through the archive.
  out=$(LG check --forbid 'libomp*' pkg.pt2/lib/a.so); status=$?
  expect_equal "$status" 0 "check pkg.pt2/lib/a.so: $out"
  expect_contains "$out" "pkg.pt2!lib/a.so: holds"
  out=$(LG check --forbid 'libomp*' --scan blob.pte) || test_failed "check --scan blob.pte: $out"
  expect_contains "$out" "blob.pte@0x3e8: holds"
  out=$(LG check --forbid 'libomp*' blob.pte@0x3e8); status=$?
  expect_equal "$status" 0 "check blob.pte@0x3e8: $out"
  expect_contains "$out" "blob.pte@0x3e8: holds"
  out=$(LG inspect blob.pte@0x3e8); status=$?
  expect_equal "$status" 0 "inspect blob.pte@0x3e8: $out"
  # try-load takes the '/' spelling too.
  if [ -x "$(dirname "$LINKGUARD_BIN")/../libexec/linkguard/linkguard-loader" ]; then
    out=$(LG try-load pkg.pt2/lib/a.so 2>&1); status=$?
    expect_equal "$status" 0 "try-load pkg.pt2/lib/a.so: $out"
  fi
  # A name the container does not hold: 66, one line naming it.
  err=$(LG check --forbid x pkg.pt2/lib/b.so 2>&1 >/dev/null); status=$?
  expect_equal "$status" 66 "a member that is not there"
  expect_contains "$err" "pkg.pt2 holds no binary named pkg.pt2!lib/b.so"
  # A path through a directory is still a path, not a member.
  expect_status 66 LG check --forbid x lib/b.so >/dev/null 2>&1

  TEST "check of a blob without --scan says to add --scan"
  elf_lib a.so
  head -c 1000 /dev/zero >model.pte && cat a.so >>model.pte
  err=$(LG check --forbid openmp model.pte 2>&1 >/dev/null); status=$?
  expect_equal "$status" 65 "check model.pte"
  expect_contains "$err" "model.pte: "
  expect_contains "$err" "add --scan"
  expect_equal "$(printf '%s\n' "$err" | wc -l | tr -d ' ')" 1 "one line"

  TEST "ELF findings advise the ELF rule's own flag (examples/linkguard.toml), Mach-O -dead_strip_dylibs"
  echo 'extern "C" int model() { return 1; }' >model.cpp
  /usr/bin/clang++-14 -fopenmp -fPIC -shared model.cpp -o model.so -lomp ||
    test_failed "linking model.so"
  elf_flag=$(sed -n 's/^flags = \["\(-Wl,--as-needed\)"\]$/\1/p' "$LINKGUARD_SOURCE_DIR/examples/linkguard.toml")
  expect_equal "$elf_flag" "-Wl,--as-needed" "the ELF rule's [rule.add] flags"
  out=$(LG check --forbid-unreferenced openmp model.so); status=$?
  expect_equal "$status" 1 "check model.so"
  expect_contains "$out" "libomp.so.5 is still a dependency (DT_NEEDED) although no symbol binds to it; link with $elf_flag"
  expect_not_contains "$out" "dead_strip_dylibs"
  omp_dylib k.dylib arm64
  out=$(LG check --mps-aot k.dylib); status=$?
  expect_equal "$status" 1 "check --mps-aot k.dylib"
  expect_contains "$out" "link with -Wl,-dead_strip_dylibs"

  TEST "every finding names its fix: a file, a tree, a .pt2's member, an absolute path (issue 35 item 3)"
  # A file: the link line (as above). The same dylib in a tree: the same
  # fix, which a tree's check dropped.
  omp_dylib k.dylib arm64
  mkdir -p tree/lib && cp k.dylib tree/lib/
  out=$(LG check --mps-aot tree); status=$?
  expect_equal "$status" 1 "check --mps-aot tree: $out"
  expect_contains "$out" "tree/lib/k.dylib: violation: "
  expect_contains "$out" "no symbol binds to it; link with -Wl,-dead_strip_dylibs or drop it from the link line"
  # A member of a PyTorch export: export again, not a link line; and under
  # --portable (the zip judged as a tree by its closure) the same.
  mkdir -p m/data/aotinductor/model && cp k.dylib m/data/aotinductor/model/model.so
  zip_of model.pt2 m/data/aotinductor/model/model.so
  for portable in "" --portable; do
    out=$(LG check --mps-aot $portable model.pt2); status=$?
    expect_equal "$status" 1 "check --mps-aot $portable model.pt2: $out"
    expect_contains "$out" "model.pt2!m/data/aotinductor/model/model.so: violation: "
    expect_contains "$out" "no symbol binds to it; export the model again under linkguard.inductor.use() (docs/python.md)"
    expect_not_contains "$out" "drop it from the link line"
  done
  # An absolute path outside the system: ship it and load it by @rpath, or
  # declare it provided.
  echo 'extern "C" int prov() { return 1; }' >prov.cpp
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk) -nostdlib++ -shared prov.cpp -o libprov.dylib \
    -Wl,-install_name,/opt/vendor/libprov.dylib || test_failed "libprov.dylib"
  echo 'extern "C" int prov(); extern "C" int use() { return prov(); }' >use.cpp
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk) -nostdlib++ -shared use.cpp -o use.dylib libprov.dylib ||
    test_failed "use.dylib"
  out=$(LG check --portable use.dylib); status=$?
  expect_equal "$status" 1 "check --portable use.dylib: $out"
  expect_contains "$out" "ship libprov.dylib in the tree and load it as @rpath/libprov.dylib"
  expect_contains "$out" "--provided /opt/vendor/libprov.dylib"
  # The JSON carries each finding's fix apart from its message.
  LG check --json --portable --mps-aot use.dylib k.dylib tree model.pt2 | python3 -c '
import json, sys
d = json.load(sys.stdin)
f = [x for g in d["files"] for x in g["findings"]]
assert f and all(x.get("advice") for x in f), f
assert not any("export the model again" in x["message"] or "link with" in x["message"] for x in f), f
' || test_failed "advice in the JSON"
  # A Linux model that needs libtorch: the torch process that loads a .pt2
  # provides PyTorch's own libraries (docs/check.md).
  echo 'int t(void) { return 1; }' >t.c
  "$CLANG" -shared -fPIC t.c -o libtorch_cpu.so -Wl,-soname,libtorch_cpu.so || test_failed libtorch_cpu.so
  echo 'int t(void); int run(void) { return t(); }' >run.c
  mkdir -p lt/data/aotinductor/model
  "$CLANG" -shared -fPIC run.c -o lt/data/aotinductor/model/model.so -L. -ltorch_cpu || test_failed model.so
  zip_of lt.pt2 lt/data/aotinductor/model/model.so
  # A .pt2 as torch writes it: the package loader finds its prefix from the
  # first two records (shipment/Roots.cpp), so one more record.
  python3 -c 'import zipfile
with zipfile.ZipFile("lt.pt2", "a") as z: z.writestr("lt/archive_format", "pt2")' ||
    test_failed "lt.pt2's archive_format"
  for f in lt.pt2 'lt.pt2!lt/data/aotinductor/model/model.so'; do
    out=$(LG check --portable "$f"); status=$?
    expect_equal "$status" 0 "check --portable $f: libtorch_cpu is PyTorch's own: $out"
  done
  expect_contains "$(LG check --json --portable lt.pt2)" "is PyTorch's own library, which the torch process that loads a .pt2 provides"
  # The same library outside a PyTorch export is not provided.
  expect_status 1 LG check --portable lt/data/aotinductor/model/model.so >/dev/null

  TEST "a tree judges what ships: object files are skipped, a tree of models says what to add (issue 35 item 6)"
  mkdir -p bd/obj
  echo 'int f(void) { return 1; }' >f.c
  "$CLANG" -c -fPIC f.c -o bd/obj/f.o || test_failed f.o
  # By type, not by name: an ET_REL without .o, a Mach-O MH_OBJECT.
  cp bd/obj/f.o bd/obj/f.notdoto
  "$CLANG" -target arm64-apple-macos11 -c f.c -o bd/obj/m.o || test_failed m.o
  "$CLANG" -shared -fPIC bd/obj/f.o -o bd/libf.so || test_failed libf.so
  out=$(LG check --portable --unique openmp bd); status=$?
  expect_equal "$status" 0 "check --portable bd: $out"
  expect_not_contains "$out" "f.o"
  expect_not_contains "$out" "m.o"
  expect_contains "$out" "bd/libf.so: holds"
  expect_contains "$out" "linkguard check: 1 file, 0 violations, 0 kept, 0 unknown, 0 errors, 3 skipped: holds"
  LG check --json --forbid openmp bd | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert [f["path"] for f in d["files"]] == ["bd/libf.so"], d["files"]
assert d["summary"]["skipped"] == 3 and d["summary"]["files"] == 1, d["summary"]
' || test_failed "the JSON counts the object files as skipped"
  expect_not_contains "$(LG inspect --tree bd)" "obj/"
  # Only models and objects: no verdict, and the error says what it found
  # and what to add (an ExecuTorch program: "ET12" at offset 4).
  mkdir -p models && cp bd/obj/f.o models/
  printf '\0\0\0\0ET12\0\0\0\0\0\0\0\0' >models/model.pte
  err=$(LG check --portable models 2>&1 >/dev/null); status=$?
  expect_equal "$status" 65 "a tree of models and objects: $err"
  expect_contains "$err" "models: no Mach-O or ELF image to judge in the tree"
  expect_contains "$err" "1 object file(s) (models/f.o"
  expect_contains "$err" "1 ExecuTorch program(s) (models/model.pte"
  expect_contains "$err" "no Mach-O or ELF image embedded"
  expect_contains "$err" "add what ships: the executables and shared libraries"

  TEST "one line per file judged and per finding (per slice, per rule); --quiet prints the verdict alone"
  elf_lib plain.so
  omp_dylib k_arm64.dylib arm64
  omp_dylib k_x86_64.dylib x86_64
  "$LLVM_BIN/llvm-lipo" -create k_arm64.dylib k_x86_64.dylib -output fat.dylib ||
    test_failed "llvm-lipo"
  out=$(LG check --forbid 'libomp*' plain.so); status=$?
  expect_equal "$status" 0 "check plain.so"
  expect_equal "$out" "plain.so: holds
linkguard check: 1 file, 0 violations, 0 kept, 0 unknown, 0 errors: holds"
  # A universal file whose two slices break the same rule: a line for each
  # slice, naming it (otool -L prints each architecture apart); the summary
  # counts those lines, and the JSON holds the same findings.
  out=$(LG check --portable fat.dylib); status=$?
  expect_equal "$status" 1 "check --portable fat.dylib"
  expect_equal "$(printf '%s\n' "$out" | grep -c violation:)" 2 "violation lines: $out"
  expect_contains "$out" "fat.dylib (x86_64): violation: LC_LOAD_DYLIB /opt/llvm-openmp/lib/libomp.dylib is an absolute path"
  expect_contains "$out" "fat.dylib (arm64): violation: LC_LOAD_DYLIB /opt/llvm-openmp/lib/libomp.dylib is an absolute path"
  expect_contains "$out" "linkguard check: 1 file, 2 violations, 0 kept, 0 unknown, 0 errors: broken"
  n=$(LG check --json --portable fat.dylib |
      python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["files"][0]["findings"]), d["summary"]["violations"])')
  expect_equal "$n" "2 2" "findings in the JSON, and its summary"
  # Two rules on one libomp: one line a slice, the second rule after
  # "also:", each architecture's line in the file's order; the summary
  # counts those lines, the JSON keeps each rule's finding.
  out=$(LG check --portable --mps-aot fat.dylib); status=$?
  expect_equal "$status" 1 "check --portable --mps-aot fat.dylib"
  got=$(printf '%s\n' "$out" | sed -n 's/^fat.dylib (\([a-z0-9_]*\)): violation: .*(also: [a-z-]*)$/\1/p' | tr '\n' ' ')
  expect_equal "$got" "x86_64 arm64 " "slices of the lines: $out"
  expect_contains "$out" "linkguard check: 1 file, 2 violations, 0 kept, 0 unknown, 0 errors: broken"
  # One libomp, four rules: one problem, one line (issue 30: "one libomp
  # can make three violation lines"), the first rule's message and the
  # others named; the JSON keeps the four, each with its own message (the
  # advice to link with -Wl,-dead_strip_dylibs among them).
  out=$(LG check --portable --mps-aot --forbid openmp --unused k_arm64.dylib); status=$?
  expect_equal "$status" 1 "four rules"
  expect_equal "$(printf '%s\n' "$out" | grep -c 'violation: .*libomp.dylib')" 1 "lines naming libomp: $out"
  # The line leads with the rule that says what to do.
  expect_contains "$out" "link with -Wl,-dead_strip_dylibs"
  expect_contains "$out" "(also: forbid openmp, unused, portable)"
  expect_contains "$out" "linkguard check: 1 file, 1 violation, 0 kept, 0 unknown, 0 errors: broken"
  n=$(LG check --json --portable --mps-aot --forbid openmp --unused k_arm64.dylib |
      python3 -c 'import json,sys; d=json.load(sys.stdin); f=d["files"][0]["findings"]; print(len(f), len({x["rule"] for x in f}), d["summary"]["violations"], sum("dead_strip_dylibs" in x["advice"] for x in f) > 0)')
  expect_equal "$n" "4 4 1 True" "findings in the JSON (rules, summary, the drop advice)"
  out=$(LG check --quiet --portable plain.so fat.dylib); status=$?
  expect_equal "$status" 1 "check --quiet"
  expect_equal "$out" "linkguard check: 2 files, 2 violations, 0 kept, 0 unknown, 0 errors: broken"
  out=$(LG check -q --portable plain.so); status=$?
  expect_equal "$status" 0 "check -q"
  expect_equal "$out" "linkguard check: 1 file, 0 violations, 0 kept, 0 unknown, 0 errors: holds"

  TEST "a misspelled subcommand: did you mean; a real program of that name still runs"
  err=$(LG chek foo 2>&1); status=$?
  expect_equal "$status" 64 "linkguard chek foo"
  expect_contains "$err" "did you mean 'check'?"
  err=$(LG inspcet foo 2>&1); status=$?
  expect_equal "$status" 64 "linkguard inspcet foo"
  expect_contains "$err" "did you mean 'inspect'?"
  # A compiler called "chek" on PATH is a compiler: it runs.
  mkdir bin
  printf '#!/bin/sh\necho "the real chek ran: $*"\n' >bin/chek
  chmod +x bin/chek
  out=$(PATH=$PWD/bin:$PATH LG chek -c x.c 2>&1); status=$?
  expect_equal "$status" 0 "chek on PATH: $out"
  expect_contains "$out" "the real chek ran: -c x.c"
  # Far from every subcommand: still the compiler-not-found error (69).
  expect_status 69 LG no-such-compiler-here -c x.c 2>/dev/null

  TEST "linkguard help CMD, help TOPIC and linkguard version"
  out=$(LG help check); status=$?
  expect_equal "$status" 0 "help check"
  expect_equal "$out" "$(LG check --help)" "help check = check --help"
  out=$(LG help) || test_failed "help"
  expect_equal "$out" "$(LG --help)"
  expect_status 64 LG help nosuch 2>/dev/null
  out=$(LG version); status=$?
  expect_equal "$status" 0 "linkguard version"
  expect_equal "$(printf '%s\n' "$out" | head -1)" "$(LG --version | head -1)"
  expect_contains "$out" "linkguard "
  TEST "env --shell bash and zsh: the lines those shells run"
  hostile_env_values
  for sh in bash zsh; do
    command -v "$sh" >/dev/null || test_failed "$sh not installed (scripts/lib/common.sh lists it)"
    out=$(CXX=$HOSTILE_CXX CC=$HOSTILE_CC LG env --shell "$sh"); status=$?
    expect_equal "$status" 0 "env --shell $sh"
    expect_equal "$out" "$(CXX=$HOSTILE_CXX CC=$HOSTILE_CC LG env)" "--shell $sh = the sh lines"
    CXX=$HOSTILE_CXX CC=$HOSTILE_CC LG env --shell "$sh" >lines.sh
    "$sh" -c '. ./lines.sh; printf %s "$LINKGUARD_CXX" >got.cxx; printf %s "$LINKGUARD_CC" >got.cc' ||
      test_failed "$sh could not run the lines"
    expect_same_file got.cxx want.cxx
    expect_same_file got.cc want.cc
    expect_missing pwned
  done
  err=$(LG env --shell csh 2>&1); status=$?
  expect_equal "$status" 64 "env --shell csh"
  expect_contains "$err" "expected sh, bash, zsh, dash, ksh or fish"

  TEST "--json usage errors: a JSON document on stdout too"
  for cmd in "check --json --bogus x" "check --json" "inspect --json --nope" "try-load --json" \
             "explain --json --nope -- cc"; do
    # shellcheck disable=SC2086
    LG $cmd >out.json 2>err.txt; status=$?
    expect_equal "$status" 64 "linkguard $cmd"
    expect_contains "$(cat err.txt)" "linkguard: error: "
    python3 - "$cmd" <<'PY' || test_failed "linkguard $cmd: stdout is not the error document: $(cat out.json)"
import json, sys
d = json.load(open("out.json"))
assert d["schema"] == "linkguard-error/1", d
assert d["kind"] == "usage" and d["exitCode"] == 64, d
assert d["command"] == sys.argv[1].split()[0], d
assert d["message"], d
PY
    validate error.json out.json
  done
  # Without --json, stdout stays empty.
  expect_equal "$(LG check --bogus x 2>/dev/null)" "" "check --bogus without --json"

  TEST "one prefix on stderr: linkguard: warning: / linkguard: error:"
  echo 'int main() { return 0; }' >m.cpp
  # A log line at debug level, and the warning for a log file it cannot open.
  err=$(LINKGUARD_LOG=debug LINKGUARD_LOG_FILE=/nonexistent/dir/log \
        LINKGUARD_CXX=$CLANGXX "$(dirname "$LINKGUARD_BIN")/linkguard-clang++" -c m.cpp -o m.o 2>&1)
  expect_contains "$err" "linkguard: warning: cannot open LINKGUARD_LOG_FILE /nonexistent/dir/log"
  expect_not_contains "$err" "linkguard["
  while IFS= read -r line; do
    case $line in
      "linkguard: error: "* | "linkguard: warning: "* | "linkguard: info: "* | "linkguard: debug: "* | \
        "linkguard: trace: "*) ;;
      *) test_failed "a stderr line with another prefix: [$line]" ;;
    esac
  done <<<"$err"
  # The log file itself keeps the process id: a parallel build shares it.
  LINKGUARD_LOG=debug LINKGUARD_LOG_FILE=$PWD/lg.log \
    LINKGUARD_CXX=$CLANGXX "$(dirname "$LINKGUARD_BIN")/linkguard-clang++" -c m.cpp -o m.o
  expect_contains "$(cat lg.log)" "linkguard["

  TEST "colour for verdicts on a terminal only; NO_COLOR respected"
  omp_dylib k.dylib arm64
  esc=$(printf '\033[')
  out=$(on_tty "$LINKGUARD_BIN" check --portable k.dylib)
  expect_contains "$out" "${esc}1;31mviolation${esc}0m" "on a terminal"
  expect_contains "$out" "${esc}1;31mbroken${esc}0m" "on a terminal"
  out=$(NO_COLOR=1 on_tty "$LINKGUARD_BIN" check --portable k.dylib)
  expect_not_contains "$out" "$esc" "NO_COLOR=1"
  out=$(TERM=dumb on_tty "$LINKGUARD_BIN" check --portable k.dylib)
  expect_not_contains "$out" "$esc" "TERM=dumb"
  out=$(LG check --portable k.dylib)
  expect_not_contains "$out" "$esc" "to a pipe"
  expect_contains "$out" "k.dylib: violation: "

  TEST "completions from the OptTable: bash, zsh, fish offer each subcommand's options"
  LG completion bash >c.bash || test_failed "completion bash"
  LG completion zsh >_linkguard || test_failed "completion zsh"
  LG completion fish >c.fish || test_failed "completion fish"
  got=$(bash -c '. ./c.bash
    COMP_WORDS=(linkguard ch); COMP_CWORD=1; _linkguard; echo "${COMPREPLY[*]}"
    COMP_WORDS=(linkguard check --fo); COMP_CWORD=2; _linkguard; echo "${COMPREPLY[*]}"
    COMP_WORDS=(linkguard env --shell z); COMP_CWORD=3; _linkguard; echo "${COMPREPLY[*]}"
    COMP_WORDS=(linkguard check --q); COMP_CWORD=2; _linkguard; echo "${COMPREPLY[*]}"')
  expect_equal "$got" "check
--forbid-unreferenced --forbid
zsh
--quiet" "bash completions"
  # Every option check --help lists is offered, in each shell's script.
  for opt in $(LG check --help | sed -n 's/^  \(--[a-z-]*\).*/\1/p'); do
    grep -qE -- "^    opts='(.* )?$opt( |')" c.bash || test_failed "bash: check's $opt"
    expect_contains "$(cat _linkguard)" "$opt" "zsh: check's $opt"
    expect_contains "$(cat c.fish)" "-l ${opt#--} " "fish: check's $opt"
  done
  if command -v zsh >/dev/null; then
    zsh -n _linkguard || test_failed "zsh cannot parse _linkguard"
  fi
  if command -v fish >/dev/null; then
    got=$(fish -c "source c.fish; complete -C 'linkguard env --shell '" | cut -f1 | sort | tr '\n' ' ')
    expect_equal "$got" "bash fish sh zsh " "fish: --shell choices"
    got=$(fish -c "source c.fish; complete -C 'linkguard try-lo'" | cut -f1)
    expect_equal "$got" "try-load" "fish: subcommand"
  fi
  expect_status 64 LG completion tcsh 2>/dev/null

  TEST "66's one line says what 66 is today: a directory is a tree (judged), not an unreadable input"
  mkdir -p tree66
  cp /bin/true tree66/
  expect_status 0 LG inspect tree66 >/dev/null
  expect_status 0 LG check --forbid='libnothing*' tree66 >/dev/null
  expect_status 66 LG inspect tree66/missing 2>/dev/null
  line66=$(LG help exit-codes | grep -E '^ +66 ')
  expect_contains "$line66" "missing or unreadable"
  expect_not_contains "$line66" "directory"
  for doc in exit-codes.md inspect.md; do
    expect_not_contains "$(grep -E '^\| 66 \|' "$LINKGUARD_SOURCE_DIR/docs/$doc")" "a directory" "docs/$doc's 66 row"
  done

  TEST "the man page: EXIT STATUS and ENVIRONMENT from the tables the code uses; what it points to is installed"
  install_to "$PWD/prefix"
  page=$(cat prefix/share/man/man1/linkguard.1)
  expect_contains "$page" ".SH EXIT STATUS"
  expect_contains "$page" ".SH ENVIRONMENT"
  # One truth: the exit codes are the rows of driver/ExitCodes.def, as the
  # binary prints them (help exit-codes). The man page's EXIT STATUS and
  # docs/exit-codes.md list the same codes, with their names, in the same
  # order; and driver/ExitCode.h spells none by hand.
  LG help exit-codes >exit-codes.txt || test_failed "help exit-codes"
  python3 - exit-codes.txt prefix/share/man/man1/linkguard.1 "$LINKGUARD_SOURCE_DIR/docs/exit-codes.md" \
    "$LINKGUARD_SOURCE_DIR/driver/ExitCode.h" <<'PY' || test_failed "exit codes disagree (above)"
import re, sys
row = r"^ +(\d+)  (\w+) +\S"
table = re.findall(row, open(sys.argv[1]).read(), re.M)
assert len(table) >= 15, table
page = open(sys.argv[2]).read().split(".SH EXIT STATUS")[1].split(".SH ")[0]
doc = re.findall(r"^\| (\d+) \| (\w+) \|", open(sys.argv[3]).read(), re.M)
bad = 0
for where, rows in (("the man page's EXIT STATUS", re.findall(row, page, re.M)), ("docs/exit-codes.md", doc)):
    for code, name in sorted(set(table) - set(rows)):
        print("%s lacks %s %s" % (where, code, name), file=sys.stderr); bad = 1
    for code, name in sorted(set(rows) - set(table)):
        print("%s has %s %s, which help exit-codes lacks" % (where, code, name), file=sys.stderr); bad = 1
    if not bad and rows != table:
        print("%s lists the codes in another order than help exit-codes" % where, file=sys.stderr); bad = 1
header = re.sub(r"//[^\n]*", "", open(sys.argv[4]).read())
if re.search(r"\w+\s*=\s*\(?\s*\d+\s*\)?\s*,", header):
    print("driver/ExitCode.h spells an exit code by hand; add it to driver/ExitCodes.def", file=sys.stderr); bad = 1
sys.exit(bad)
PY
  # Every LINKGUARD_* variable the sources read is in ENVIRONMENT.
  env_section=$(printf '%s' "$page" | sed -n '/^\.SH ENVIRONMENT/,/^\.SH FILES/p')
  for v in $(grep -rhoE '"LINKGUARD_[A-Z_]+"' "$LINKGUARD_SOURCE_DIR/config" "$LINKGUARD_SOURCE_DIR/driver" \
               "$LINKGUARD_SOURCE_DIR/commands" --include='*.cpp' | tr -d '"' | sort -u); do
    expect_contains "$env_section" "$v" "the man page's ENVIRONMENT"
  done
  expect_contains "$env_section" "NO_COLOR"
  # What the page and --help point to is installed.
  expect_exists prefix/share/doc/linkguard/exit-codes.md
  for s in "$LINKGUARD_SOURCE_DIR"/docs/schema/*.json; do
    expect_same_file "prefix/share/doc/linkguard/schema/$(basename "$s")" "$s"
  done
  LG completion bash | cmp -s - prefix/share/bash-completion/completions/linkguard ||
    test_failed "the installed bash completion is not linkguard completion bash"
  LG completion zsh | cmp -s - prefix/share/zsh/site-functions/_linkguard ||
    test_failed "the installed zsh completion is not linkguard completion zsh"
  LG completion fish | cmp -s - prefix/share/fish/vendor_completions.d/linkguard.fish ||
    test_failed "the installed fish completion is not linkguard completion fish"
  expect_not_contains "$(LG --help)" "docs/exit-codes.md" "--help points to an uninstalled file"
  if command -v man >/dev/null && command -v groff >/dev/null; then
    out=$(MANWIDTH=100 man -l prefix/share/man/man1/linkguard.1 2>&1) || test_failed "man -l: $out"
    expect_contains "$out" "EXIT STATUS"
    expect_contains "$out" "ContractViolated"
  fi
  TEST "every --json document is valid against its schema in docs/schema/ and names it"
  mkdir lib && elf_lib lib/a.so
  zip_of pkg.pt2 lib/a.so
  head -c 1000 /dev/zero >blob.pte && cat lib/a.so >>blob.pte
  omp_dylib k_arm64.dylib arm64
  omp_dylib k_x86_64.dylib x86_64
  "$LLVM_BIN/llvm-lipo" -create k_arm64.dylib k_x86_64.dylib -output fat.dylib || test_failed "llvm-lipo"
  printf 'int ok(void) { return 0; }\n' >ok.c
  "$CLANG" -shared -fPIC ok.c -o ok.so || test_failed "ok.so"
  printf '\xff\xfe' >"$(printf 'bad\xffname.so')"
  n=0
  : >documents.txt
  json_of() { # SCHEMA CMD...: CMD's stdout, validated against docs/schema/SCHEMA.json below
    local schema=$1; shift
    n=$((n + 1))
    "$@" >doc$n.json 2>/dev/null
    printf '%s\t%s\t%s\n' "$schema" doc$n.json "$*" >>documents.txt
  }
  json_of check LG check --json --portable --mps-aot --forbid openmp --unused fat.dylib k_arm64.dylib lib/a.so
  json_of check LG check --json --portable --search lib --provided 'libfoo*' pkg.pt2 missing.so
  json_of check LG check --json --forbid x --scan blob.pte "$(printf 'bad\xffname.so')"
  json_of check LG check --json --require libz pkg.pt2/lib/a.so
  json_of inspect LG inspect --json --symbols --rpaths fat.dylib lib/a.so pkg.pt2 missing.so
  json_of inspect LG inspect --json --scan blob.pte
  json_of inspect-tree LG inspect --tree --json pkg.pt2 fat.dylib lib missing.so
  if [ -x "$(dirname "$LINKGUARD_BIN")/../libexec/linkguard/linkguard-loader" ]; then
    json_of try-load LG try-load --json --call ok ok.so
    json_of try-load LG try-load --json --forbid 'libc.so*' ok.so
    json_of try-load LG try-load --json --call missing_symbol ok.so
    json_of try-load LG try-load --json pkg.pt2
  fi
  json_of explain LG explain --json -- "$CLANGXX" -shared lib.cpp -o x.so
  json_of explain LG explain --json -- "$CLANGXX" -c lib.cpp -o x.o
  # shellcheck disable=SC2046
  json_of explain LG explain --json -- "$CLANGXX" $(macho_flags sdk) -DUSE_MPS -shared k.cpp -o m.dylib
  json_of error LG check --json --frobnicate
  json_of error LG report --json --frobnicate
  # Trees (issue 29): a cross-linked Mach-O app whose closure has every
  # outcome: shipped through an inherited LC_RPATH, system, provided, a
  # weak dylib missing (allowed), PyTorch's baked libomp (non-portable)
  # beside a shipped one (two OpenMP runtimes), a shipped dylib with an
  # absolute install name, a plugin only an executable could place
  # (unknown, 92); dyld's refusal of a duplicate LC_RPATH.
  mac() { # shellcheck disable=SC2046
    $CLANGXX $(macho_flags sdk) -nostdlib++ "$@" || test_failed "clang++ $*"
  }
  mkdir -p mt/bin mt/lib mt/plugins
  echo 'extern "C" int omp_get_max_threads() { return 1; }' >omp.cpp
  echo 'extern "C" int wk() { return 1; }' >wk.cpp
  echo 'extern "C" int wk() __attribute__((weak_import)); extern "C" int omp_get_max_threads();
extern "C" int model() { return (wk ? wk() : 0) + omp_get_max_threads(); }' >model.cpp
  echo 'extern "C" int omp_get_max_threads(); extern "C" int model(); extern "C" int prov();
int main() { return omp_get_max_threads() + model() + prov(); }' >runner.cpp
  echo 'extern "C" int prov() { return 1; }' >prov.cpp
  mac -shared omp.cpp -o mt/lib/libomp.dylib -Wl,-install_name,@rpath/libomp.dylib
  mac -shared wk.cpp -o libW.dylib -Wl,-install_name,@rpath/libW.dylib
  mac -shared prov.cpp -o libprov.dylib -Wl,-install_name,/opt/vendor/libprov.dylib
  # SDK 14.0: its missing weak libW is unresolved and allowed (an older
  # SDK's would be host-dependent: dyld's classic fallback directories).
  mac -shared model.cpp -o mt/lib/model.dylib -Wl,-install_name,@rpath/model.dylib \
    -Lsdk/omp -lomp -Wl,-weak_library,libW.dylib -Wl,-platform_version,macos,11.0,14.0
  mac runner.cpp -o mt/bin/runner mt/lib/libomp.dylib mt/lib/model.dylib libprov.dylib \
    -Wl,-rpath,@executable_path/../lib
  mac -shared prov.cpp -o mt/lib/libabs.dylib -Wl,-install_name,/opt/build/lib/libabs.dylib
  mac -shared wk.cpp -o mt/plugins/plug.dylib mt/lib/libomp.dylib -Wl,-rpath,@executable_path/../lib
  if [ -x "$LLVM_BIN/obj2yaml" ] && [ -x "$LLVM_BIN/yaml2obj" ]; then
    # lld drops a duplicate LC_RPATH: write two, make them one (SDK 15.4).
    mac -shared wk.cpp -o dup.dylib -Wl,-rpath,@loader_path/a -Wl,-rpath,@loader_path/b \
      -Wl,-platform_version,macos,11.0,15.4
    "$LLVM_BIN/obj2yaml" dup.dylib | sed 's#@loader_path/b#@loader_path/a#' |
      "$LLVM_BIN/yaml2obj" -o mt/lib/libdup.dylib || test_failed "yaml2obj"
    # yaml2obj leaves the signature's blob empty: signed as lld did.
    adhoc_resign mt/lib/libdup.dylib
  fi
  # An ELF tree: DT_RUNPATH is not inherited (liba's libb.so is unresolved),
  # libgomp and libomp in one closure.
  mkdir -p et/bin et/lib
  echo 'int b(void) { return 7; }' >b.c
  echo 'int b(void); int a(void) { return b(); }' >a.c
  echo 'int a(void); int main(void) { return a(); }' >main.c
  "$CLANG" -shared -fPIC b.c -o et/lib/libb.so -Wl,-soname,libb.so || test_failed libb.so
  "$CLANG" -shared -fPIC a.c -o et/lib/liba.so -Wl,-soname,liba.so -Let/lib -lb || test_failed liba.so
  "$CLANG" -shared -fPIC b.c -o et/lib/libgomp.so.1 -Wl,-soname,libgomp.so.1 || test_failed libgomp
  "$CLANG" -shared -fPIC b.c -o et/lib/libomp.so -Wl,-soname,libomp.so || test_failed libomp
  "$CLANG" main.c -o et/bin/app -Let/lib -la -Wl,--no-as-needed et/lib/libgomp.so.1 et/lib/libomp.so \
    -Wl,--enable-new-dtags -Wl,-rpath,'$ORIGIN/../lib' || test_failed app
  # A zip behind a prefix: a binary in front of the archive (FILE@0x0).
  cat lib/a.so pkg.pt2 >poly.pt2
  json_of check LG check --json --portable --provided /opt/vendor/libprov.dylib mt
  python3 - doc$n.json <<'PY' || test_failed "the Mach-O tree's outcomes"
import json, sys
d = json.load(open(sys.argv[1]))
places = {p["placement"] for f in d["files"] for p in f["placements"]}
assert places == {"system", "shipped", "provided", "unresolved", "non-portable", "unknown"}, places
rules = {x["rule"] for f in d["files"] for x in f["findings"]}
want = {"portable", "unique openmp", "install-name"}
assert want <= rules, rules
assert d["summary"]["undecided"] > 0, d["summary"]
PY
  if [ -e mt/lib/libdup.dylib ]; then
    expect_contains "$(cat doc$n.json)" '"rule": "dyld duplicate-rpath"'
  fi
  json_of check LG check --json --unique openmp mt/bin/runner
  expect_contains "$(cat doc$n.json)" '"rule": "unique openmp"'
  python3 - doc$n.json <<'PY' || test_failed "the contract names --unique"
import json, sys
c = json.load(open(sys.argv[1]))["contract"]
assert c["unique"] == ["openmp"] and c["executable"] is None, c
PY
  json_of check LG check --json --portable --executable mt/bin/runner mt/plugins
  json_of check LG check --json --portable et
  # A portable finding about a search carries the paths ld.so tried (--why).
  python3 - doc$n.json <<'PY' || test_failed "liba.so's libb.so: the paths tried"
import json, sys
d = json.load(open(sys.argv[1]))
f = [x for f in d["files"] for x in f["findings"] if x["dependency"] == "libb.so"][0]
assert "tried" not in f, f  # liba.so has no DT_RUNPATH: nothing was searched
PY
  json_of check LG check --json --portable --search nolib et
  python3 - doc$n.json <<'PY' || test_failed "liba.so's libb.so under --search nolib: the paths tried"
import json, sys
d = json.load(open(sys.argv[1]))
f = [x for f in d["files"] for x in f["findings"] if x["dependency"] == "libb.so"][0]
# nolib was found missing for an earlier name (the C library's): not tried again.
assert [(t["reason"], t["via"]) for t in f["tried"]] == [("missing-directory", "--search nolib")], f
assert f["triedNotListed"] == 0 and "no --search" not in f["message"], f
PY
  json_of inspect-tree LG inspect --tree --why --json mt et
  python3 - doc$n.json <<'PY' || test_failed "inspect --tree --why: the paths tried"
import json, sys
d = json.load(open(sys.argv[1]))
app = [r for r in d["files"] if r["path"] == "et/bin/app"][0]
a = [x for x in app["dependencies"] if x["dependency"] == "liba.so"][0]
assert a["tried"][-1]["reason"] == "accepted", a["tried"]
assert a["tried"][-1]["via"] == "DT_RUNPATH $ORIGIN/../lib", a["tried"]
PY
  json_of check LG check --json --unique openmp --forbid libgomp et
  json_of check LG check --json --portable poly.pt2
  python3 - doc$n.json <<'PY' || test_failed "the binary in front of the zip keeps its name"
import json, sys
d = json.load(open(sys.argv[1]))
c = {f["path"]: f["container"] for f in d["files"]}
assert c["poly.pt2@0x0"] == {"path": "poly.pt2", "kind": "embedded", "member": None, "offset": 0}, c
assert c["poly.pt2!lib/a.so"]["kind"] == "zip", c
PY
  json_of check LG check --json --forbid x poly.pt2
  json_of check LG check --json --portable --scan poly.pt2
  json_of inspect LG inspect --json et poly.pt2
  json_of inspect LG inspect --json --arch arm64 lib/a.so
  # A tree past the walk's bounds: undecided (92).
  d=deep; for _ in $(seq 66); do d=$d/d; done
  mkdir -p "$d" && cp lib/a.so deep/
  json_of check LG check --json --portable deep
  expect_contains "$(cat doc$n.json)" '"kind": "undecided"'
  json_of inspect-tree LG inspect --tree --json mt et poly.pt2 missing deep
  python3 - doc$n.json <<'PY' || test_failed "inspect --tree: roots, nesting, conflicts, errors"
import json, sys
d = json.load(open(sys.argv[1]))
roots = [r["path"] for r in d["files"]]
assert "mt/bin/runner" in roots and "et/bin/app" in roots and "poly.pt2@0x0" in roots, roots
app = d["files"][roots.index("et/bin/app")]
a = [x for x in app["dependencies"] if x["dependency"] == "liba.so"][0]
assert [x["placement"] for x in a["dependencies"] if x["dependency"] == "libb.so"] == ["unresolved"], a
assert len(d["conflicts"]) >= 2 and d["errors"][0]["path"] == "missing", d
PY
  # The build record: a compile, an injected and verified Mach-O link, an
  # ELF link (each line), and its summary.
  wrap=$(dirname "$LINKGUARD_BIN")/linkguard-clang++
  # shellcheck disable=SC2046
  LINKGUARD_REPORT=$PWD/rec.jsonl LINKGUARD_CXX=$CLANGXX "$wrap" $(macho_flags sdk) -c k.cpp -o k.o 2>/dev/null ||
    test_failed "a compile step"
  # shellcheck disable=SC2046
  LINKGUARD_REPORT=$PWD/rec.jsonl LINKGUARD_CXX=$CLANGXX "$wrap" $(macho_flags sdk) -DUSE_MPS \
    -shared -nostdlib++ k.o -o m.dylib -Lsdk/omp -lomp || test_failed "an MPS link"
  LINKGUARD_REPORT=$PWD/rec.jsonl LINKGUARD_MODE=enforce LINKGUARD_CXX=$CLANGXX "$wrap" \
    -shared -fPIC lib.cpp -o r.so || test_failed "an ELF link"
  expect_equal "$(wc -l <rec.jsonl)" 3 "lines in the record"
  i=0
  while IFS= read -r line; do
    i=$((i + 1))
    printf '%s\n' "$line" >line$i.json
    printf '%s\t%s\t%s\n' report line$i.json "line $i of rec.jsonl" >>documents.txt
  done <rec.jsonl
  python3 - rec.jsonl <<'PY' || test_failed "the record's steps"
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
assert [x["phase"] for x in r] == ["compile", "link", "link"], r
assert r[1]["injected"] and r[1]["verdict"] == "holds", r[1]
assert r[2]["verdict"] == "holds" and r[2]["verifyCpuMicros"] is not None, r[2]
PY
  json_of report-summary LG report --json rec.jsonl
  { cat rec.jsonl; printf '{"torn\n'; } >torn.jsonl
  json_of report-summary LG report --json torn.jsonl
  expect_contains "$(cat doc$n.json)" '"linesNotUnderstood": 1'
  # explain of a link whose compiler is not here (exit 69), and of an -o
  # that is not UTF-8 (its exact bytes beside).
  json_of explain LG explain --json -- /nonexistent/clang++ -shared lib.cpp -o x.so
  json_of explain LG explain --json -- "$CLANGXX" -shared lib.cpp -o "$(printf 'x\xff.so')"
  # Every document names its schema and is valid against it, and against
  # the frozen schema of its version (docs/schema/baseline/vN/, issue 35
  # item 5): a CI that pinned a schema keeps validating what linkguard
  # prints under that version. Every schema, current and frozen, has an
  # $id naming its kind and version. (One Python: the test stays quick.)
  python3 - "$LINKGUARD_SOURCE_DIR/docs/schema" documents.txt <<'PY' || test_failed "documents against their schemas"
import glob, json, os, re, sys, jsonschema
root, bad, frozen, advised = sys.argv[1], 0, 0, 0
def err(msg):
    global bad
    print("  " + msg, file=sys.stderr); bad = 1
paths = sorted(glob.glob(root + "/*.json")) + sorted(glob.glob(root + "/baseline/v*/*.json"))
assert len(glob.glob(root + "/baseline/v1/*.json")) == len(glob.glob(root + "/*.json")), "baseline v1 is every schema"
ids = {}
for p in paths:
    s = json.load(open(p))
    jsonschema.Draft202012Validator.check_schema(s)
    name = os.path.basename(p)[:-5]
    m = re.fullmatch(r"linkguard-(.+)/([0-9]+)", s["properties"]["schema"]["const"])
    if not m or m.group(1) != name:
        err("%s: its schema.const does not name %s" % (p, name)); continue
    if s.get("$id") != "urn:linkguard:schema:%s:%s" % (name, m.group(2)):
        err("%s: $id %r is not urn:linkguard:schema:%s:%s" % (p, s.get("$id"), name, m.group(2)))
    d = re.search(r"/baseline/v([0-9]+)/", p)
    if d and d.group(1) != m.group(2):
        err("%s: a schema of version %s under v%s" % (p, m.group(2), d.group(1)))
    if not d and int(m.group(2)) > 1 and not os.path.exists("%s/baseline/v%d/%s.json" % (root, int(m.group(2)) - 1, name)):
        err("%s: version %s, and the version before it is not frozen" % (p, m.group(2)))
for line in open(sys.argv[2], errors="backslashreplace"):
    name, path, what = line.rstrip("\n").split("\t")
    schema = json.load(open("%s/%s.json" % (root, name)))
    try:
        doc = json.load(open(path))
    except ValueError as e:
        err("[%s]: not JSON: %s" % (what, e)); continue
    const = schema["properties"]["schema"]["const"]
    if doc.get("schema") != const:
        err("[%s]: schema is %r, not %s" % (what, doc.get("schema"), const))
    for e in sorted(jsonschema.Draft202012Validator(schema).iter_errors(doc), key=str):
        err("[%s] %s: %s" % (what, "/".join(map(str, e.absolute_path)), e.message[:400]))
    version = const.rsplit("/", 1)[1]
    base = "%s/baseline/v%s/%s.json" % (root, version, name)
    if os.path.exists(base):
        frozen += 1
        for e in sorted(jsonschema.Draft202012Validator(json.load(open(base))).iter_errors(doc), key=str):
            err("[%s] against the frozen %s: %s: %s" % (what, base, "/".join(map(str, e.absolute_path)), e.message[:400]))
    # Every finding names its fix (issue 35 item 3).
    for f in (x for g in doc.get("files", []) for x in g.get("findings", [])) if name == "check" else \
             (doc.get("findings") or [] if name == "try-load" else []):
        advised += 1
        if not f.get("advice") or "knows no fix" in f["advice"]:
            err("[%s]: a finding without its fix: %s" % (what, f))
if not frozen:
    err("no document was checked against a frozen schema")
if advised < 10:
    err("only %d findings in the documents: the advice check saw too few" % advised)
sys.exit(bad)
PY
  # The schemas are strict: a field no schema names is drift, and fails.
  python3 - doc1.json <<'PY' >drift.json || test_failed "making drift.json"
import json, sys
d = json.load(open(sys.argv[1])); d["files"][0]["newField"] = 1; print(json.dumps(d))
PY
  if python3 - "$LINKGUARD_SOURCE_DIR/docs/schema/check.json" drift.json 2>/dev/null <<'PY'; then
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))
PY
    test_failed "check.json accepts a field it does not name"
  fi
}
