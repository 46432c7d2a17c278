# Where the features of issues 28 and 29 meet (review): trees holding
# archives and blobs, files of a tree that cannot be read, a zip's prefix
# binary inside a tree shipment, and the exit status of several inputs when
# one of them is undecided. Real ELF files linked with clang-19 (one needs
# libgomp), archives written by Python's zipfile.

# shellcheck disable=SC2016 # '$ORIGIN' is the loader's, not the shell's
SUITE_seams_PROBE() {
  [ -x "$CLANG" ] || { echo "$CLANG not found"; return; }
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  command -v python3 >/dev/null || { echo "python3 not found (archives)"; return; }
}

LG() { "$LINKGUARD_BIN" "$@"; }

# expect_lg CODE ARGS...: linkguard ARGS exits CODE (its output in the failure).
expect_lg() {
  local want=$1 out got
  shift
  out=$(LG "$@" 2>&1)
  got=$?
  [ "$got" -eq "$want" ] || test_failed "linkguard $*: expected $want, got $got: $out"
}

# libs: clean.so (libc only) and omp.so (DT_NEEDED libgomp.so.1).
libs() {
  echo 'int f(void) { return 1; }' >m.c
  "$CLANG" -shared -fPIC m.c -o clean.so || test_failed clean.so
  "$CLANG" -shared -fPIC m.c -o omp.so -Wl,--no-as-needed -lgomp || test_failed omp.so
  expect_contains "$("$LLVM_BIN/llvm-readelf" -d omp.so)" "libgomp.so.1"
}

# zip_of ARCHIVE FILE MEMBER: a one-member archive, as zipfile writes it.
zip_of() {
  python3 -c 'import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z: z.write(sys.argv[2], sys.argv[3])' "$@" ||
    test_failed "zip $*"
}

SUITE_seams() {
  TEST "a zip inside a tree is judged, not skipped as a non-binary"
  libs
  # Where AOTIModelPackageLoader extracts and loads it (data/aotinductor/
  # <model>/, the last .so): a member elsewhere is never on disk (roots.bash).
  mkdir -p t && cp clean.so t/ && zip_of t/model.pt2 omp.so model/data/aotinductor/model/omp.so
  python3 -c 'import zipfile
with zipfile.ZipFile("t/model.pt2", "a") as z: z.writestr("model/archive_format", "pt2")' ||
    test_failed "model.pt2's archive_format"
  # The archive on its own is broken: the control.
  expect_lg 1 check --forbid openmp t/model.pt2
  out=$(LG check --forbid openmp t 2>&1); status=$?
  expect_equal "$status" 1 "check --forbid openmp t (t/model.pt2 ships libgomp): $out"
  expect_contains "$out" "t/model.pt2!model/data/aotinductor/model/omp.so: violation"
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 1 "check --portable t: $out"
  expect_contains "$out" "t/model.pt2!model/data/aotinductor/model/omp.so: violation"
  out=$(LG check --unique openmp --forbid openmp t 2>&1); status=$?
  expect_equal "$status" 1 "check --unique openmp --forbid openmp t: $out"
  # The name printed is accepted back and names the same member.
  expect_lg 1 check --forbid openmp 't/model.pt2!model/data/aotinductor/model/omp.so'
  # inspect lists it too.
  expect_contains "$(LG inspect t 2>&1)" "t/model.pt2!model/data/aotinductor/model/omp.so"
  # An archive with no binary in a tree (a .docx, pure-Python wheel) is a
  # non-binary like any other: skipped silently.
  rm t/model.pt2 && echo 'print(1)' >x.py && zip_of t/pure.whl x.py pkg/x.py
  expect_lg 0 check --forbid openmp t
  expect_lg 0 check --portable t

  TEST "a binary with a zip behind it inside a tree: the members are judged too"
  libs
  zip_of m.zip omp.so lib/omp.so
  mkdir -p t && cat clean.so m.zip >t/libpoly.so
  expect_lg 1 check --forbid openmp t/libpoly.so
  out=$(LG check --forbid openmp t 2>&1); status=$?
  expect_equal "$status" 1 "check --forbid openmp t (its libpoly.so carries a zip with libgomp): $out"
  expect_contains "$out" "t/libpoly.so!lib/omp.so: violation"
  # The prefix binary is judged once, under its name in the tree.
  expect_contains "$out" "t/libpoly.so: holds"
  expect_not_contains "$out" "libpoly.so@0x0"
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 1 "check --portable t: $out"

  TEST "--scan reaches blobs inside a tree"
  libs
  mkdir -p t && cp clean.so t/
  { head -c 100 /dev/zero; cat omp.so; head -c 50 /dev/zero; } >t/model.pte
  expect_lg 1 check --scan --forbid openmp t/model.pte
  out=$(LG check --scan --forbid openmp t 2>&1); status=$?
  expect_equal "$status" 1 "check --scan --forbid openmp t: $out"
  expect_contains "$out" "t/model.pte@0x64: violation"
  # A .pte inside a .pt2 inside the tree, judged with the archive's closure:
  # named as check takes it back.
  mv t/model.pte model.pte && zip_of t/model.pt2 model.pte model/data/model.pte
  out=$(LG check --scan --portable t 2>&1); status=$?
  expect_equal "$status" 1 "check --scan --portable t: $out"
  expect_contains "$out" "t/model.pt2!model/data/model.pte@0x64: violation"
  expect_lg 1 check --scan --forbid openmp 't/model.pt2!model/data/model.pte@0x64'
  # The JSON of such a tree is valid against docs/schema/check.json.
  if python3 -c 'import jsonschema' 2>/dev/null; then
    LG check --json --scan --portable t >doc.json
    python3 - "$LINKGUARD_SOURCE_DIR/docs/schema/check.json" doc.json <<'PY' || test_failed "doc.json against check.json"
import json, sys, jsonschema
errors = list(jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).iter_errors(json.load(open(sys.argv[2]))))
for e in errors[:5]:
    print("  ", e.message[:300])
sys.exit(1 if errors else 0)
PY
  fi

  TEST "the prefix binary of a zip judged as a shipment prints a name check accepts"
  libs
  zip_of m.zip clean.so lib/clean.so
  cat clean.so m.zip >poly.whl
  out=$(LG check --portable poly.whl 2>&1); status=$?
  expect_equal "$status" 0 "check --portable poly.whl: $out"
  expect_contains "$out" "poly.whl@0x0: holds"
  expect_not_contains "$out" "poly.whl!:"
  expect_lg 0 check --forbid openmp 'poly.whl@0x0'

  TEST "--unique openmp on a zip member named alone: the verdict check gives it in the archive"
  mkdir -p lib
  echo 'int omp_x(void) { return 1; }' >o.c
  echo 'int b(void) { return 2; }' >b.c
  echo 'int a(void) { return 3; }' >a.c
  "$CLANG" -shared -fPIC o.c -o lib/libomp.so -Wl,-soname,libomp.so || test_failed libomp.so
  "$CLANG" -shared -fPIC o.c -o lib/libiomp5.so -Wl,-soname,libiomp5.so || test_failed libiomp5.so
  "$CLANG" -shared -fPIC b.c -o lib/libb.so -Wl,-soname,libb.so -Llib -Wl,--no-as-needed -liomp5 \
    -Wl,-rpath,'$ORIGIN' || test_failed libb.so
  "$CLANG" -shared -fPIC a.c -o lib/liba.so -Wl,-soname,liba.so -Llib -Wl,--no-as-needed -lomp -lb \
    -Wl,-rpath,'$ORIGIN' || test_failed liba.so
  python3 -c 'import zipfile
with zipfile.ZipFile("pkg.whl", "w") as z:
    for f in ["liba.so", "libb.so", "libomp.so", "libiomp5.so"]: z.write("lib/" + f, "lib/" + f)' ||
    test_failed pkg.whl
  # liba.so loads libomp and, through libb.so, libiomp5: OMP #15.
  expect_lg 1 check --unique openmp lib/liba.so
  out=$(LG check --unique openmp pkg.whl 2>&1); status=$?
  expect_equal "$status" 1 "check --unique openmp pkg.whl: $out"
  expect_contains "$out" "pkg.whl!lib/liba.so: violation: the load closure of pkg.whl!lib/liba.so"
  expect_contains "$out" "pkg.whl!lib/libb.so: holds"
  # The names printed, given back, get the same verdicts.
  out=$(LG check --unique openmp 'pkg.whl!lib/liba.so' 2>&1); status=$?
  expect_equal "$status" 1 "check --unique openmp 'pkg.whl!lib/liba.so': $out"
  expect_contains "$out" "holds two openmp runtimes"
  expect_lg 1 check --unique openmp pkg.whl/lib/liba.so
  expect_lg 1 check --portable 'pkg.whl!lib/liba.so'
  expect_lg 0 check --unique openmp 'pkg.whl!lib/libb.so'
  # Past the default archive-wide limit, with --max-inflated raised: the
  # closure reads the archive under the same limit, never drops it.
  python3 -c 'import zipfile
with zipfile.ZipFile("big.whl", "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
    for f in ["liba.so", "libb.so", "libomp.so", "libiomp5.so"]: z.write("lib/" + f, "lib/" + f)
    with z.open("data.bin", "w", force_zip64=True) as f:
        for _ in range(34): f.write(bytes(64 << 20))' || test_failed big.whl
  expect_lg 65 check --unique openmp 'big.whl!lib/liba.so'
  out=$(LG check --max-inflated 3G --unique openmp 'big.whl!lib/liba.so' 2>&1); status=$?
  expect_equal "$status" 1 "check --max-inflated 3G --unique openmp 'big.whl!lib/liba.so': $out"
  expect_lg 1 check --max-inflated 3G --unique openmp big.whl
  # --scan walks a zip image by image: the same verdicts.
  out=$(LG check --scan --unique openmp pkg.whl 2>&1); status=$?
  expect_equal "$status" 1 "check --scan --unique openmp pkg.whl: $out"
  expect_contains "$out" "pkg.whl!lib/liba.so: violation: the load closure of pkg.whl!lib/liba.so"
  expect_contains "$out" "pkg.whl!lib/libb.so: holds"

  TEST "--unique openmp: a runtime behind a link out of the tree, or not shipped, still meets the others"
  mkdir -p s/lib outside
  echo 'int omp_x(void) { return 1; }' >o.c
  echo 'int b(void) { return 2; }' >b.c
  echo 'int a(void) { return 3; }' >a.c
  "$CLANG" -shared -fPIC o.c -o s/lib/libomp.so -Wl,-soname,libomp.so || test_failed libomp.so
  "$CLANG" -shared -fPIC o.c -o outside/libiomp5.so -Wl,-soname,libiomp5.so || test_failed libiomp5.so
  "$CLANG" -shared -fPIC b.c -o s/lib/libb.so -Wl,-soname,libb.so -Loutside -Wl,--no-as-needed \
    -liomp5 -Wl,-rpath,'$ORIGIN' || test_failed libb.so
  "$CLANG" -shared -fPIC a.c -o s/lib/liba.so -Wl,-soname,liba.so -Ls/lib -Wl,--no-as-needed -lomp -lb \
    -Wl,-rpath,'$ORIGIN' || test_failed liba.so
  # An absolute link: ld.so follows it, so liba.so's process holds both.
  ln -s "$PWD/outside/libiomp5.so" s/lib/libiomp5.so
  out=$(LG check --unique openmp s/lib/liba.so 2>&1); status=$?
  expect_equal "$status" 1 "check --unique openmp s/lib/liba.so (libiomp5 behind an absolute link): $out"
  expect_contains "$out" "holds two openmp runtimes"
  out=$(LG check --unique openmp s 2>&1); status=$?
  expect_equal "$status" 1 "check --unique openmp s: $out"
  expect_contains "$out" "s/lib/liba.so: violation: the load closure of s/lib/liba.so"
  # Not shipped at all: the machine's libiomp5, if any, meets libomp too.
  rm s/lib/libiomp5.so
  expect_lg 1 check --unique openmp s
  # The control: the second runtime gone, nothing to report.
  "$CLANG" -shared -fPIC b.c -o s/lib/libb.so -Wl,-soname,libb.so || test_failed libb.so
  expect_lg 0 check --unique openmp s
  expect_lg 0 check --unique openmp s/lib/liba.so

  TEST "the archives of a tree share one inflation limit: many archives cost no more than one"
  libs
  mkdir -p t
  # Two archives, each declaring 60 MiB (a binary, then zeros: 60 KiB deflated).
  python3 -c 'import zipfile
head = open("clean.so", "rb").read()
for n in ("a", "b"):
    with zipfile.ZipFile("t/%s.whl" % n, "w", zipfile.ZIP_DEFLATED) as z:
        with z.open("lib/big.so", "w") as f:
            f.write(head)
            f.write(bytes(60 << 20))' || test_failed "the archives"
  # Each one is under the limit on its own...
  expect_lg 0 check --max-inflated 100M --forbid openmp t/a.whl
  expect_lg 0 check --max-inflated 100M --forbid openmp t/b.whl
  # ...the tree's two together are not: refused before the second inflates.
  out=$(LG check --max-inflated 100M --forbid openmp t 2>&1); status=$?
  expect_equal "$status" 65 "check --max-inflated 100M t: $out"
  expect_contains "$out" "the tree's archives may still declare"
  out=$(LG check --max-inflated 100M --portable t 2>&1); status=$?
  expect_equal "$status" 65 "check --max-inflated 100M --portable t: $out"
  out=$(LG inspect --max-inflated 100M t 2>&1); status=$?
  expect_equal "$status" 65 "inspect --max-inflated 100M t: $out"
  expect_lg 0 check --max-inflated 200M --forbid openmp t

  TEST "ELF: \$ORIGIN of a library reached through a link is the link's directory, as ld.so takes it"
  mkdir -p t/bin t/lib t/real
  echo 'int b(void) { return 7; }' >b.c
  echo 'int b(void); int a(void) { return b(); }' >a.c
  echo 'int a(void); int main(void) { return a() == 7 ? 0 : 1; }' >main.c
  "$CLANG" -shared -fPIC b.c -o t/real/libb.so -Wl,-soname,libb.so || test_failed libb.so
  "$CLANG" -shared -fPIC a.c -o t/real/liba.so -Wl,-soname,liba.so -Lt/real -lb \
    -Wl,--enable-new-dtags,-rpath,'$ORIGIN' || test_failed liba.so
  ln -s ../real/liba.so t/lib/liba.so
  "$CLANG" main.c -o t/bin/app -Lt/real -la -Wl,--enable-new-dtags,-rpath,'$ORIGIN/../lib' ||
    test_failed app
  # ld.so: liba.so opened as t/lib/liba.so, its $ORIGIN is t/lib: no libb.so there.
  (cd / && "$OLDPWD/t/bin/app") 2>ld.err
  expect_equal "$?" 127 "t/bin/app runs: $(cat ld.err)"
  expect_contains "$(cat ld.err)" "libb.so: cannot open shared object file"
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 1 "check --portable t (the process does not start): $out"
  expect_contains "$out" "t/real/liba.so: violation: DT_NEEDED libb.so"
  expect_contains "$out" "DT_RUNPATH \$ORIGIN -> $PWD/t/lib/libb.so"
  # The control: a link beside it, and the process starts; the check holds.
  ln -s ../real/libb.so t/lib/libb.so
  (cd / && "$OLDPWD/t/bin/app") || test_failed "t/bin/app with t/lib/libb.so"
  expect_lg 0 check --portable t

  TEST "--portable --bundle-root: a file outside the root still gets its one-runtime check"
  libs
  mkdir -p root out lib
  echo 'int omp_x(void) { return 1; }' >o.c
  "$CLANG" -shared -fPIC o.c -o lib/libomp.so -Wl,-soname,libomp.so || test_failed libomp.so
  "$CLANG" -shared -fPIC m.c -o out/two.so -Wl,--no-as-needed -lgomp -Llib -lomp || test_failed two.so
  # Both runtimes vouched for: portable, but two OpenMP runtimes in one process.
  expect_lg 1 check --portable --provided 'libgomp*' --provided 'libomp*' out/two.so
  out=$(LG check --portable --bundle-root root --provided 'libgomp*' --provided 'libomp*' out/two.so 2>&1)
  status=$?
  expect_equal "$status" 1 "check --portable --bundle-root root ... out/two.so: $out"
  expect_contains "$out" "holds two openmp runtimes"

  TEST "several inputs: a read error wins over a violation, a violation over an undecided tree"
  libs
  d=deep
  for _ in $(seq 70); do d=$d/d; done
  mkdir -p "$d" && cp clean.so deep/
  expect_lg 92 check --portable deep
  expect_lg 66 check --portable deep missing.so
  expect_lg 66 check --forbid openmp deep missing.so
  expect_lg 1 check --forbid openmp deep omp.so
  expect_lg 1 check --portable deep omp.so
  expect_lg 66 check --forbid openmp missing.so deep omp.so

  TEST "a file of a tree that cannot be read is an error, never skipped"
  libs
  if ! command -v setpriv >/dev/null || [ "$(id -u)" != 0 ]; then
    echo "  (needs root and setpriv to read as another user: not run)"
    return 0
  fi
  chmod 755 "$E2E_ROOT" "$PWD"
  mkdir -p t && cp clean.so omp.so t/ && chmod 755 t && chmod 644 t/clean.so && chmod 000 t/omp.so
  nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$LINKGUARD_BIN" "$@"; }
  out=$(nobody check --forbid openmp t/omp.so 2>&1); status=$?
  expect_equal "$status" 66 "the file alone: $out"
  out=$(nobody check --forbid openmp t 2>&1); status=$?
  expect_equal "$status" 66 "check --forbid openmp t (t/omp.so unreadable): $out"
  expect_contains "$out" "t/omp.so"
  out=$(nobody check --portable t 2>&1); status=$?
  expect_equal "$status" 66 "check --portable t: $out"
  out=$(nobody inspect t 2>&1); status=$?
  expect_equal "$status" 66 "inspect t: $out"
}
