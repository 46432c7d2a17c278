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

# validate SCHEMA JSON-FILE: the document is valid against docs/schema/SCHEMA.
validate() {
  python3 - "$LINKGUARD_SOURCE_DIR/docs/schema/$1" "$2" <<'EOF' || test_failed "$2 against $1"
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
doc = json.load(open(sys.argv[2]))
errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(doc), key=str)
for e in errors:
    print("  %s: %s" % ("/".join(map(str, e.absolute_path)), e.message), file=sys.stderr)
sys.exit(1 if errors else 0)
EOF
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

  TEST "one line per file judged and per finding; --quiet prints the verdict alone"
  elf_lib plain.so
  omp_dylib k_arm64.dylib arm64
  omp_dylib k_x86_64.dylib x86_64
  "$LLVM_BIN/llvm-lipo" -create k_arm64.dylib k_x86_64.dylib -output fat.dylib ||
    test_failed "llvm-lipo"
  out=$(LG check --forbid 'libomp*' plain.so); status=$?
  expect_equal "$status" 0 "check plain.so"
  expect_equal "$out" "plain.so: holds
linkguard check: 1 file, 0 violations, 0 kept, 0 unknown, 0 errors: holds"
  # A universal file: one line for the dependency both slices keep, each arch once.
  out=$(LG check --portable fat.dylib); status=$?
  expect_equal "$status" 1 "check --portable fat.dylib"
  expect_equal "$(printf '%s\n' "$out" | grep -c violation:)" 1 "violation lines: $out"
  expect_contains "$out" "fat.dylib (x86_64, arm64): violation: LC_LOAD_DYLIB /opt/llvm-openmp/lib/libomp.dylib is an absolute path"
  line=$(printf '%s\n' "$out" | grep violation:)
  expect_equal "$(printf '%s' "$line" | grep -o x86_64 | wc -l | tr -d ' ')" 1 "x86_64 once in [$line]"
  # One libomp, four rules: one line.
  out=$(LG check --portable --mps-aot --forbid openmp --unused k_arm64.dylib); status=$?
  expect_equal "$status" 1 "four rules"
  expect_equal "$(printf '%s\n' "$out" | grep -c 'libomp.dylib')" 1 "lines naming libomp: $out"
  expect_contains "$out" "(also: forbid-unreferenced openmp, unused, portable)"
  # The JSON still holds each finding.
  n=$(LG check --json --portable --mps-aot --forbid openmp --unused k_arm64.dylib |
      python3 -c 'import json,sys; print(len(json.load(sys.stdin)["files"][0]["findings"]))')
  expect_equal "$n" 4 "findings in the JSON"
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
}
