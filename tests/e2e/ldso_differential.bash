# Differential test of the ELF load closure against the real ld.so (issue 37,
# "Tests"). tests/ldso/ldso_diff.py generates random ELF trees from a pool of
# prebuilt images, runs every program of a tree under /lib64/ld-linux-x86-64.so.2
# with an empty environment (twice, in a private mount namespace, where a
# search entry is absolute or empty or a link absolute; through
# --glibc-hwcaps-mask where a tree has glibc-hwcaps/ copies), and compares what
# ld.so mapped, image by image, with `linkguard inspect --tree --json` and the
# verdict of `linkguard check --portable`. The agreement is defined in the
# header of ldso_diff.py.
#
# Here: every named regression case (tests/regression/ldso/*.json, one tree
# spec each: the smallest tree of a disagreement once found) and a smoke run
# of fixed seeds. The long run is `scripts/fuzz ldso` (>= 10,000 trees).

LDSO_DIFF=$LINKGUARD_SOURCE_DIR/tests/ldso/ldso_diff.py
LDSO_CASES=$LINKGUARD_SOURCE_DIR/tests/regression/ldso
LDSO_SMOKE_SEEDS=${LDSO_SMOKE_SEEDS:-1-150}

SUITE_ldso_differential_PROBE() {
  if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
    echo "not x86-64 Linux: the oracle is this machine's ld.so"
  elif [ ! -x /lib64/ld-linux-x86-64.so.2 ]; then
    echo "no /lib64/ld-linux-x86-64.so.2"
  elif [ ! -x "$CLANG" ]; then
    echo "$CLANG not found (the pool of images is built with LLVM 19)"
  elif [ ! -x "${LINKGUARD_BIN:-}" ]; then
    echo "LINKGUARD_BIN is not set to the built linkguard"
  elif ! command -v patchelf >/dev/null; then
    echo "patchelf not found (it reads the rewritten images back)"
  elif ! unshare -m --propagation private true 2>/dev/null; then
    echo "cannot make a private mount namespace (unshare -m; run as root): the host-path runs need one"
  fi
}

SUITE_ldso_differential_SETUP() {
  export LDSO_POOL=$E2E_ROOT/pool LDSO_CLANG=$CLANG LDSO_TMP=$PWD
}

ldso() { "$LG_PYTHON3" "$LDSO_DIFF" "$@"; }

SUITE_ldso_differential() {
  TEST "the tree's images say what the spec says (read back by patchelf)"
  ldso build "$LDSO_CASES/control_rpath_ignored_with_runpath.json" tree || test_failed "building a tree"
  expect_equal "$(patchelf --print-soname tree/lib/libB.so.2)" libB.so.2 "soname"
  expect_equal "$(patchelf --print-needed tree/lib/libB.so.2 | tr '\n' ' ')" "libC.so " "needed"
  expect_equal "$(patchelf --print-rpath tree/lib/libB.so.2)" '$ORIGIN/../d' "DT_RUNPATH (patchelf shows it before DT_RPATH)"
  expect_equal "$(patchelf --print-rpath tree/bin/app0)" '$ORIGIN/../lib' "rpath"
  # what ld.so itself says of it (the oracle's evidence, no linkguard involved)
  out=$(env -i tree/bin/app0 2>&1)
  expect_contains "$out" "libC.so: cannot open shared object file" "ld.so"

  TEST "the oracle sees ld.so refuse an empty candidate before the shipped copy"
  out=$(ldso judge "$LDSO_CASES/open_verify_empty.json")
  expect_contains "$out" "file too short" "oracle"

  # One test, both parts always run (a failed expect ends the suite): the
  # named cases, then the smoke; the reports say every disagreement.
  TEST "every named regression case and the smoke seeds $LDSO_SMOKE_SEEDS: linkguard agrees with ld.so"
  ldso case "$LDSO_CASES"/*.json >cases.txt 2>&1
  cases=$?
  sed -n '/^disagreements by kind/,$p' cases.txt
  ldso run --seeds "$LDSO_SMOKE_SEEDS" --jobs 2 --limit 2 >smoke.txt 2>&1
  smoke=$?
  cat smoke.txt
  expect_equal "$cases/$smoke" 0/0 "exit status of the named cases/the smoke run (reports above)"
}
