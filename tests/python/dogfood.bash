#!/usr/bin/env bash
# ctest python.dogfood: the unpacked wheel, as a directory, passes
# `linkguard check --portable` (the installed wheel's linkguard judges its
# own files; every binary is static or needs only glibc). Control: the same
# directory with a library whose dependency it does not ship fails.
# Needs the wheel python.wheel left in $LINKGUARD_BUILD_DIR/python-wheel/dist
# (exit 125, skipped, without it). `check` reads a directory as a tree: a
# refusal is a failure here, not a skip.
set -euo pipefail
build=$LINKGUARD_BUILD_DIR
area=$build/python-wheel
lg=$area/venv/bin/linkguard
wheel=""
for w in "$area"/dist/linkguard-*.whl; do [ -f "$w" ] && wheel=$w; done
if [ -z "$wheel" ] || [ ! -x "$lg" ]; then echo "SKIP: no wheel from python.wheel in $area"; exit 125; fi
work=$(mktemp -d "${TMPDIR:-/tmp}/linkguard-dogfood.XXXXXX")
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 -m zipfile -e "$wheel" "$work/wheel"
st=0
out=$("$lg" check --portable "$work/wheel" 2>&1) || st=$?
[ "$st" -eq 0 ] || { echo "FAIL: the unpacked wheel is not portable (exit $st):"; echo "$out"; exit 1; }
echo "$out"
# Every binary of the wheel was judged, and held.
"$lg" check --json --portable "$work/wheel" | /usr/bin/python3 -c '
import json, sys
doc = json.load(sys.stdin)
paths = [f["path"] for f in doc["files"]]
for rel in ("scripts/linkguard", "scripts/linkguard-clang++", "scripts/linkguard-clang",
            "scripts/linkguard-g++", "scripts/linkguard-gcc",
            "data/libexec/linkguard/linkguard-loader"):
    assert any(p.endswith(rel) for p in paths), f"{rel} was not judged: {paths}"
assert doc["summary"]["holds"] is True and all(f["holds"] for f in doc["files"]), doc["summary"]
'
# Control: a library needing a libneedsm.so that the wheel does not ship.
printf 'double f(double);\ndouble g(double x) { return f(x); }\n' >"$work/g.c"
printf 'double f(double x) { return x; }\n' >"$work/f.c"
cc=${LINKGUARD_LLVM_BINDIR:-/usr/lib/llvm-19/bin}/clang
"$cc" -shared -fPIC "$work/f.c" -o "$work/libneedsm.so"
"$cc" -shared -fPIC "$work/g.c" -L"$work" -lneedsm -o "$work/wheel/libg.so"
st=0
out=$("$lg" check --portable "$work/wheel" 2>&1) || st=$?
if [ "$st" -ne 1 ] || [[ $out != *libneedsm.so* ]]; then
  echo "FAIL: the control (libg.so needing an unshipped libneedsm.so) passed (exit $st):"; echo "$out"; exit 1
fi
echo "control: a library with an unshipped dependency is not portable"
# docs/python.md says what this test does: it runs (above), it is not skipped.
row=$(grep -F '| ctest `python.dogfood`' "$LINKGUARD_SOURCE_DIR/docs/python.md" || true)
[ -n "$row" ] || { echo "FAIL: docs/python.md has no row for python.dogfood"; exit 1; }
case $row in *Skipped\ until*|*"**Skipped**"*)
  echo "FAIL: docs/python.md says python.dogfood is skipped; it runs: $row"; exit 1 ;; esac
