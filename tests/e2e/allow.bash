# [[allow]] in linkguard.toml (issue 36 item 5; commands/AllowList.h):
# a dependency, runpath or symbol entry, scoped to files by a glob, with a
# required reason. Each test asserts that the verdict and the exit status
# flip for exactly the finding an entry names and for no other, that the
# reason is printed (text and JSON, the JSON valid against
# docs/schema/check.json), that an unknown finding stays unknown, that a
# stale entry warns without changing the exit status, and that a bad entry
# is one line naming file:line and exit 78. Real files: ELF trees built by
# clang-19, Mach-O cross-linked with lld against the tests' .tbd stubs.
# Every test failed on a3a5d7e (linkguard.toml had no [[allow]]: "unknown
# key 'allow'", exit 78 in every test that writes one).

SUITE_allow_PROBE() {
  [ "$(uname -s)" = Linux ] || { echo "needs ELF built here"; return; }
  local tool
  for tool in clang clang++ ld64.lld; do
    [ -x "$LLVM_BIN/$tool" ] || { echo "$LLVM_BIN/$tool not found"; return; }
  done
  python3 -c 'import jsonschema' 2>/dev/null ||
    { echo "python3-jsonschema not installed (scripts/lib/common.sh lists it)"; return; }
  [ -x "${LINKGUARD_BIN:-}" ] || echo "LINKGUARD_BIN is not set to the built linkguard"
}

LG() { "$LINKGUARD_BIN" "$@"; }


# The ELF tree t/: bin/app finds the shipped lib/libdep.so through
# $ORIGIN/../lib but has DT_RUNPATH /opt/vendor/lib before it (host-dependent,
# blamed on that entry); bin/tool needs libgone.so, which ships nowhere
# (unresolved).
elf_tree() {
  c_so t/lib/libdep.so 'int f_dep(void){return 1;}' -Wl,-soname,libdep.so
  c_so gone/libgone.so 'int f_gone(void){return 2;}' -Wl,-soname,libgone.so
  echo 'int f_dep(void); int main(void){return f_dep();}' >app.c
  echo 'int f_gone(void); int main(void){return f_gone();}' >tool.c
  mkdir -p t/bin
  "$CLANG" -o t/bin/app app.c -Lt/lib -ldep -Wl,-rpath,/opt/vendor/lib \
    -Wl,-rpath,'$ORIGIN/../lib' || test_failed "building app"
  "$CLANG" -o t/bin/tool tool.c -Lgone -lgone -Wl,-rpath,'$ORIGIN/../lib' ||
    test_failed "building tool"
}

SUITE_allow() {
  TEST "a dependency entry allows its file's finding and no other; the reason is printed"
  elf_tree
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 1 "without linkguard.toml: $out"
  expect_contains "$out" "t/bin/tool: violation: DT_NEEDED libgone.so"
  expect_contains "$out" "t/bin/app: violation: DT_NEEDED libdep.so"
  cat >linkguard.toml <<'EOF'
# the vendor's tool
[[allow]]
file = "bin/tool"
dependency = "libgone.so"
reason = "libgone ships in the vendor's runtime image (VENDOR-123)"
EOF
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 1 "app's finding is still a violation: $out"
  expect_contains "$out" "t/bin/tool: allowed: DT_NEEDED libgone.so (x86_64) is a DT_NEEDED name that resolves to no file of the tree"
  expect_contains "$out" "(reason: libgone ships in the vendor's runtime image (VENDOR-123); linkguard.toml:2)"
  expect_contains "$out" "t/bin/app: violation: DT_NEEDED libdep.so"
  expect_contains "$out" "1 violation, 0 kept, 0 unknown, 0 errors, 1 allowed: broken"
  expect_not_contains "$out" "warning"
  # The same entry for another file allows nothing (and is stale).
  sed_i 's|file = "bin/tool"|file = "bin/app"|' linkguard.toml
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 1 "another file's entry: $out"
  expect_contains "$out" "t/bin/tool: violation: DT_NEEDED libgone.so"
  expect_contains "$out" "linkguard: warning: linkguard.toml:2: [[allow]] dependency libgone.so for file bin/app matched no finding"
  # Only the tool in the tree: the exit status flips with the entry.
  rm t/bin/app
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 1 "tool alone, no matching entry: $out"
  sed_i 's|file = "bin/app"|file = "bin/tool"|' linkguard.toml
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 0 "tool alone, allowed: $out"
  expect_contains "$out" "linkguard check: 2 files, 0 violations, 0 kept, 0 unknown, 0 errors, 1 allowed: holds"
  # A plain file, as named on the command line (its bundle root: the tree).
  out=$(LG check --portable --bundle-root t t/bin/tool 2>&1); status=$?
  expect_equal "$status" 1 "t/bin/tool alone: bin/tool does not name t/bin/tool: $out"
  sed_i 's|file = "bin/tool"|file = "t/bin/tool"|' linkguard.toml
  out=$(LG check --portable --bundle-root t t/bin/tool 2>&1); status=$?
  expect_equal "$status" 0 "t/bin/tool alone, named: $out"
  expect_contains "$out" "t/bin/tool: allowed: DT_NEEDED libgone.so"

  TEST "JSON: the allowed finding carries the entry (reason, origin, globs); schema-valid"
  elf_tree
  cat >linkguard.toml <<'EOF'
[[allow]]
file = "bin/tool"
dependency = "libgone*"
reason = "provided by the vendor"
EOF
  LG check --portable --json t >doc.json 2>err.txt; status=$?
  expect_equal "$status" 1 "check --json: $(cat err.txt)"
  validate check.json doc.json
  python3 - doc.json <<'EOF' || test_failed "JSON: $(cat doc.json)"
import json, sys
d = json.load(open(sys.argv[1]))
f = {x["path"]: x for x in d["files"]}
tool = f["t/bin/tool"]["findings"]
assert [g["kind"] for g in tool] == ["allowed"], tool
assert tool[0]["allowedBy"] == [{"file": "bin/tool", "dependency": "libgone*",
                                 "reason": "provided by the vendor",
                                 "origin": "linkguard.toml:1"}], tool[0]
assert tool[0]["advice"], tool[0]  # the fix, should the allowance go
assert f["t/bin/tool"]["holds"] is True
app = f["t/bin/app"]["findings"]
assert [g["kind"] for g in app] == ["violation"] and "allowedBy" not in app[0], app
s = d["summary"]
assert (s["violations"], s["allowed"], s["holds"]) == (1, 1, False), s
EOF

  TEST "a runpath entry allows the findings that entry causes, only when it covers every entry blamed"
  elf_tree
  rm t/bin/tool
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 1 "without linkguard.toml: $out"
  expect_contains "$out" "but ld.so tries DT_RUNPATH /opt/vendor/lib first"
  printf '[[allow]]\nfile = "bin/app"\nrunpath = "/opt/vendor/*"\nreason = "the vendor runtime lives there on every target"\n' >linkguard.toml
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 0 "runpath allowed: $out"
  expect_contains "$out" "t/bin/app: allowed: DT_NEEDED libdep.so (x86_64) resolves to"
  expect_contains "$out" "(reason: the vendor runtime lives there on every target; linkguard.toml:1)"
  # Another runpath entry, and the same entry for another file: nothing.
  printf '[[allow]]\nfile = "bin/app"\nrunpath = "/opt/other"\nreason = "r"\n' >linkguard.toml
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 1 "another runpath: $out"
  expect_contains "$out" "linkguard: warning: linkguard.toml:1: [[allow]] runpath /opt/other for file bin/app matched no finding"
  printf '[[allow]]\nfile = "lib/*"\nrunpath = "/opt/vendor/lib"\nreason = "r"\n' >linkguard.toml
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 1 "another file: $out"
  # Two machine entries blamed: allowing one of them is not enough.
  "$CLANG" -o t/bin/app app.c -Lt/lib -ldep -Wl,-rpath,/opt/a:/opt/b:'$ORIGIN/../lib' ||
    test_failed "app with two"
  printf '[[allow]]\nfile = "bin/app"\nrunpath = "/opt/a"\nreason = "a"\n' >linkguard.toml
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 1 "one of two: $out"
  expect_contains "$out" "t/bin/app: violation: DT_NEEDED libdep.so"
  expect_not_contains "$out" "warning" # it matched, though it did not decide
  printf '[[allow]]\nfile = "bin/app"\nrunpath = "/opt/a"\nreason = "a"\n[[allow]]\nfile = "bin/app"\nrunpath = "/opt/b"\nreason = "b"\n' >linkguard.toml
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 0 "both: $out"
  expect_contains "$out" "(reason: a; linkguard.toml:1; reason: b; linkguard.toml:5)"

  TEST "review: a runpath entry never decides a load that fails, a search that cannot be decided, or a subdirectory copy"
  # Each tree's bin/app has DT_RUNPATH /opt/x first; the entry allows
  # /opt/x. What else decides the verdict is certain (the shipped file ends
  # the load; $LIB cannot be decided) or not the entry's doing (a
  # glibc-hwcaps copy): the entry must not make any of them hold.
  printf '[[allow]]\nfile = "*"\nrunpath = "/opt/x"\nreason = "vendor dir"\n' >linkguard.toml
  echo 'int f_dep(void); int main(void){return f_dep();}' >app.c
  c_so lib/libfoo.so 'int f_dep(void){return 1;}' -Wl,-soname,libfoo.so
  # 1. The shipped libfoo.so is a linker script: ld.so stops there.
  mkdir -p t1/bin t1/lib && printf 'INPUT(-lx)\n' >t1/lib/libfoo.so
  "$CLANG" -o t1/bin/app app.c -Llib -lfoo -Wl,--enable-new-dtags,-rpath,'/opt/x:$ORIGIN/../lib' ||
    test_failed "app 1"
  t1/bin/app 2>ld.err; st=$?
  expect_equal "$st" 127 "ld.so fails ($(cat ld.err))"
  LG check --portable t1 >out.txt 2>&1; st=$?
  expect_equal "$st" 1 "a load that fails is not allowed: $(cat out.txt)"
  expect_contains "$(cat out.txt)" "it stops at"
  # 2. $LIB before the shipped copy: undecided, 92, allow or not.
  mkdir -p t2/bin t2/lib && cp lib/libfoo.so t2/lib/
  "$CLANG" -o t2/bin/app app.c -Llib -lfoo -Wl,--enable-new-dtags,-rpath,'/opt/x:$LIB:$ORIGIN/../lib' ||
    test_failed "app 2"
  LG check --portable t2 >out.txt 2>&1; st=$?
  expect_equal "$st" 92 "undecided stays undecided: $(cat out.txt)"
  # 3. A different copy in glibc-hwcaps/x86-64-v2/: not the entry's doing.
  mkdir -p t3/bin t3/lib/glibc-hwcaps/x86-64-v2 && cp lib/libfoo.so t3/lib/
  c_so t3/lib/glibc-hwcaps/x86-64-v2/libfoo.so 'int f_dep(void){return 2;}' -Wl,-soname,libfoo.so
  "$CLANG" -o t3/bin/app app.c -Llib -lfoo -Wl,--enable-new-dtags,-rpath,'/opt/x:$ORIGIN/../lib' ||
    test_failed "app 3"
  LG check --portable t3 >out.txt 2>&1; st=$?
  expect_equal "$st" 1 "a subdirectory copy is not allowed by a runpath entry: $(cat out.txt)"
  expect_contains "$(cat out.txt)" "only on machines whose ld.so searches that subdirectory"
  rm linkguard.toml

  TEST "review: the file alone and the tree give one verdict: an entry names the image a finding is about"
  # t/bin/main -> lib/liba.so -> libmissing.so (shipped nowhere); liba.so
  # and libb.so both export dup_state. In the tree each finding is on its
  # image; checked alone, bin/main's own closure holds the same findings,
  # about the same images.
  c_so t/lib/libb.so 'int dup_state = 2;' -Wl,-soname,libb.so
  c_so miss/libmissing.so 'int f_m(void){return 0;}' -Wl,-soname,libmissing.so
  c_so t/lib/liba.so 'int dup_state = 1; int f_m(void); int f_a(void){return f_m();}' \
    -Wl,-soname,liba.so -Lmiss -lmissing -Wl,--enable-new-dtags,-rpath,'$ORIGIN'
  echo 'int f_a(void); int main(void){return f_a();}' >main.c
  mkdir -p t/bin
  "$CLANG" -o t/bin/main main.c -Lt/lib -la -lb -Wl,--enable-new-dtags,-rpath,'$ORIGIN/../lib' \
    -Wl,--allow-shlib-undefined || test_failed "main"
  verdicts() {
    LG check --portable t >tree.txt 2>&1; a=$?
    LG check --portable --bundle-root t t/bin/main >file.txt 2>&1; b=$?
    echo "$a $b"
  }
  printf '[[allow]]\nfile = "*liba.so"\ndependency = "libmissing.so"\nreason = "r"\n[[allow]]\nfile = "*libb.so"\nsymbol = "dup_state"\nreason = "r"\n' >linkguard.toml
  expect_equal "$(verdicts)" "0 0" "entries for liba.so and libb.so ($(cat tree.txt file.txt))"
  printf '[[allow]]\nfile = "*main"\ndependency = "libmissing.so"\nreason = "r"\n[[allow]]\nfile = "*main"\nsymbol = "dup_state"\nreason = "r"\n' >linkguard.toml
  expect_equal "$(verdicts)" "1 1" "entries for bin/main decide no finding about liba.so or libb.so ($(cat tree.txt file.txt))"
  rm linkguard.toml

  TEST "an unknown finding stays unknown (92): an allow-list cannot decide what could not be read"
  # ELF without symbol versions: whether anything binds to libdep.so cannot
  # be told from the file (--forbid-unreferenced: unknown).
  c_so t/lib/libdep.so 'int f_dep(void){return 1;}' -Wl,-soname,libdep.so
  c_so t/lib/libuse.so 'int f_dep(void); int u(void){return f_dep();}' -Lt/lib -ldep
  out=$(LG check --forbid-unreferenced libdep t/lib/libuse.so 2>&1); status=$?
  expect_equal "$status" 92 "without linkguard.toml: $out"
  printf '[[allow]]\nfile = "*"\ndependency = "libdep.so"\nreason = "r"\n' >linkguard.toml
  out=$(LG check --forbid-unreferenced libdep t/lib/libuse.so 2>&1); status=$?
  expect_equal "$status" 92 "allowed dependency, unknown finding: $out"
  expect_contains "$out" "t/lib/libuse.so: unknown: libdep.so is a dependency"
  expect_not_contains "$out" "allowed"
  expect_not_contains "$out" "warning" # it matched: not stale
  # The same entry decides the violation --forbid makes of it.
  out=$(LG check --forbid libdep t/lib/libuse.so 2>&1); status=$?
  expect_equal "$status" 0 "--forbid libdep, allowed: $out"
  expect_contains "$out" "t/lib/libuse.so: allowed: libdep.so is a dependency (DT_NEEDED), and 'libdep' is forbidden (reason: r; linkguard.toml:1)"

  TEST "a stale entry warns, with its line; the exit status is the same with and without it"
  elf_tree
  for run in broken holds; do
    [ $run = holds ] && rm -f t/bin/app t/bin/tool
    rm -f linkguard.toml
    LG check --portable t >out0.txt 2>err0.txt; s0=$?
    printf '[roots]\npaths = []\n\n[[allow]]\nfile = "bin/nothere"\nsymbol = "reg_*"\nreason = "old"\n' >linkguard.toml
    LG check --portable t >out1.txt 2>err1.txt; s1=$?
    expect_equal "$s1" "$s0" "$run: the status with a stale entry"
    expect_equal "$(cat out1.txt)" "$(cat out0.txt)" "$run: stdout"
    expect_equal "$(cat err1.txt)" "linkguard: warning: linkguard.toml:4: [[allow]] symbol reg_* for file bin/nothere matched no finding: remove it, or fix its globs" "$run: stderr"
    LG check --portable --json t >j.json 2>errj.txt; sj=$?
    expect_equal "$sj" "$s0" "$run: --json"
    expect_contains "$(cat errj.txt)" "linkguard.toml:4: [[allow]] symbol reg_*"
    validate check.json j.json
  done
  expect_equal "$s0" 0 "the tree without app and tool holds"

  TEST "a bad entry is one line naming file:line and the fault, exit 78, for every check"
  elf_tree
  printf '[[allow]]\nfile = "bin/tool"\ndependency = "libgone.so"\n' >linkguard.toml
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 78 "no reason: $out"
  expect_equal "$out" "linkguard: error: $PWD/linkguard.toml:1: 'allow[0].reason' is required and may not be blank: say why this dependency is accepted (check prints it)"
  # Without the closure too: what is allowed cannot be known.
  out=$(LG check --forbid x t/bin/tool 2>&1); status=$?
  expect_equal "$status" 78 "--forbid: $out"
  printf '[[allow]]\nfile = "bin/tool"\ndependency = "libgone.so"\nrunpath = "/opt"\nreason = "r"\n' >linkguard.toml
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 78 "two kinds: $out"
  expect_contains "$out" "linkguard.toml:1: allow[0] gives both 'dependency' and 'runpath'"
  printf '[[allow]]\nfile = "bin/tool"\nlibrary = "libgone.so"\nreason = "r"\n' >linkguard.toml
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 78 "unknown key: $out"
  expect_contains "$out" "linkguard.toml:3: unknown key 'allow[0].library' (expected one of: file, dependency, runpath, symbol, reason)"
  printf '[[allow]]\nfile = "bin/tool"\ndependency = ""\nreason = "r"\n' >linkguard.toml
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 78 "empty glob: $out"
  expect_contains "$out" "linkguard.toml:3: 'allow[0].dependency' is empty"
  printf '[[allow]]\nfile = ["bin/tool"]\ndependency = "x"\nreason = "r"\n' >linkguard.toml
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 78 "wrong type: $out"
  expect_contains "$out" "linkguard.toml:2: 'allow[0].file' must be a string"
  # The wrapper reads the same file: [[allow]] is no fault there.
  printf '[[allow]]\nfile = "bin/tool"\ndependency = "libgone.so"\nreason = "r"\n' >linkguard.toml
  echo 'int main(void){return 0;}' >w.c
  LG "$CLANG" -o w w.c >wrap.txt 2>&1 || test_failed "a link through linkguard: $(cat wrap.txt)"

  TEST "a wheel: the entry's file glob names the member; the member named on its own too"
  c_so gone/libgone.so 'int f_gone(void){return 2;}' -Wl,-soname,libgone.so
  c_so ext.so 'int f_gone(void); void *PyInit__ext(void){f_gone(); return 0;}' -Lgone -lgone
  python3 - <<'EOF' || test_failed "writing the wheel"
import zipfile
with zipfile.ZipFile("x-1.0-cp311-cp311-linux_x86_64.whl", "w") as z:
    z.write("ext.so", "pkg/_ext.cpython-311-x86_64-linux-gnu.so")
    z.writestr("x-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\nTag: cp311-cp311-linux_x86_64\n")
EOF
  whl=x-1.0-cp311-cp311-linux_x86_64.whl
  out=$(LG check --portable $whl 2>&1); status=$?
  expect_equal "$status" 1 "without linkguard.toml: $out"
  printf '[[allow]]\nfile = "pkg/_ext.*.so"\ndependency = "libgone.so"\nreason = "the host application provides it"\n' >linkguard.toml
  out=$(LG check --portable $whl 2>&1); status=$?
  expect_equal "$status" 0 "the wheel: $out"
  expect_contains "$out" "$whl!pkg/_ext.cpython-311-x86_64-linux-gnu.so: allowed: DT_NEEDED libgone.so"
  out=$(LG check --portable "$whl!pkg/_ext.cpython-311-x86_64-linux-gnu.so" 2>&1); status=$?
  expect_equal "$status" 0 "the member on its own: $out"
  expect_contains "$out" "(reason: the host application provides it; linkguard.toml:1)"

  TEST "Mach-O (lld, .tbd stubs): a runpath entry and a dependency entry, each for its file"
  write_sdk sdk
  read -r -a MACHO <<<"$(macho_flags sdk)"
  mkdir -p w/lib scratch
  echo 'extern "C" int f_dep() { return 1; }' >dep.cpp
  "$CLANGXX" "${MACHO[@]}" -shared -nostdlib++ dep.cpp -o w/lib/libdep.dylib \
    -Wl,-install_name,@rpath/libdep.dylib || test_failed "libdep.dylib"
  echo 'extern "C" int f_gone() { return 2; }' >gone.cpp
  "$CLANGXX" "${MACHO[@]}" -shared -nostdlib++ gone.cpp -o scratch/libgone.dylib \
    -Wl,-install_name,@rpath/libgone.dylib || test_failed "libgone.dylib"
  echo 'extern "C" int f_dep(); int main() { return f_dep(); }' >app.cpp
  "$CLANGXX" "${MACHO[@]}" -nostdlib++ app.cpp -o w/app w/lib/libdep.dylib \
    -Wl,-rpath,/opt/homebrew/lib -Wl,-rpath,@executable_path/lib || test_failed "app"
  echo 'extern "C" int f_gone(); int main() { return f_gone(); }' >tool.cpp
  "$CLANGXX" "${MACHO[@]}" -nostdlib++ tool.cpp -o w/tool scratch/libgone.dylib \
    -Wl,-rpath,@executable_path/lib || test_failed "tool"
  out=$(LG check --portable w 2>&1); status=$?
  expect_equal "$status" 1 "without linkguard.toml: $out"
  expect_contains "$out" "w/app: violation: LC_LOAD_DYLIB @rpath/libdep.dylib (arm64) resolves to"
  expect_contains "$out" "but dyld tries LC_RPATH /opt/homebrew/lib -> /opt/homebrew/lib/libdep.dylib (outside the tree) first"
  expect_contains "$out" "w/tool: violation: LC_LOAD_DYLIB @rpath/libgone.dylib"
  cat >linkguard.toml <<'EOF'
[[allow]]
file = "app"
runpath = "/opt/homebrew/lib"
reason = "Homebrew's libdep is the one we test against"
EOF
  out=$(LG check --portable w 2>&1); status=$?
  expect_equal "$status" 1 "runpath only: $out"
  expect_contains "$out" "w/app: allowed: LC_LOAD_DYLIB @rpath/libdep.dylib"
  expect_contains "$out" "(reason: Homebrew's libdep is the one we test against; linkguard.toml:1)"
  expect_contains "$out" "w/tool: violation: LC_LOAD_DYLIB @rpath/libgone.dylib"
  cat >>linkguard.toml <<'EOF'

[[allow]]
file = "tool"
dependency = "libgone.dylib"
reason = "the host application provides libgone"
EOF
  out=$(LG check --portable w 2>&1); status=$?
  expect_equal "$status" 0 "both: $out"
  expect_contains "$out" "w/tool: allowed: LC_LOAD_DYLIB @rpath/libgone.dylib"
  expect_contains "$out" "(reason: the host application provides libgone; linkguard.toml:6)"
  expect_contains "$out" "0 violations, 0 kept, 0 unknown, 0 errors, 2 allowed: holds"
  LG check --portable --json w >doc.json 2>/dev/null
  validate check.json doc.json
}
