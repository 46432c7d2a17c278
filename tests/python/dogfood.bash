#!/usr/bin/env bash
# ctest python.dogfood: the unpacked wheel, as a directory, passes
# `linkguard check --portable` (the installed wheel's linkguard judges its
# own files; every binary is static or needs only glibc). Control: the same
# directory with a library whose dependency it does not ship fails.
# Needs the wheel python.wheel left in $LINKGUARD_BUILD_DIR/python-wheel/dist.
# Exit 125 (skipped, with the reason) while `check` does not accept a
# directory (directories as inputs: the "Ship-ready" issue).
set -euo pipefail
build=$LINKGUARD_BUILD_DIR
area=$build/python-wheel
lg=$area/venv/bin/linkguard
wheel=$(ls "$area"/dist/linkguard-*.whl 2>/dev/null | head -n 1)
[ -n "$wheel" ] && [ -x "$lg" ] || { echo "SKIP: no wheel from python.wheel in $area"; exit 125; }
work=$(mktemp -d "${TMPDIR:-/tmp}/linkguard-dogfood.XXXXXX")
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 -m zipfile -e "$wheel" "$work/wheel"
st=0
out=$("$lg" check --portable "$work/wheel" 2>&1) || st=$?
if [ "$st" -eq 66 ] && [[ $out == *"is a directory"* ]]; then
  echo "SKIP: linkguard check does not accept a directory yet ($out)"
  exit 125
fi
[ "$st" -eq 0 ] || { echo "FAIL: the unpacked wheel is not portable (exit $st):"; echo "$out"; exit 1; }
for f in linkguard linkguard-clang++ linkguard-clang; do
  [[ $out == *"scripts/$f"* ]] || [[ $out == *"4 files"* ]] ||
    { echo "FAIL: check did not judge .data/scripts/$f:"; echo "$out"; exit 1; }
done
echo "$out"
# Control: a library needing a libneedsm.so that the wheel does not ship.
printf 'double f(double);\ndouble g(double x) { return f(x); }\n' >"$work/g.c"
printf 'double f(double x) { return x; }\n' >"$work/f.c"
cc=${LINKGUARD_LLVM_BINDIR:-/usr/lib/llvm-19/bin}/clang
"$cc" -shared -fPIC "$work/f.c" -o "$work/libneedsm.so"
"$cc" -shared -fPIC "$work/g.c" -L"$work" -lneedsm -o "$work/wheel/linkguard/libg.so"
st=0
out=$("$lg" check --portable "$work/wheel" 2>&1) || st=$?
[ "$st" -eq 1 ] && [[ $out == *libneedsm.so* ]] ||
  { echo "FAIL: the control (libg.so needing an unshipped libneedsm.so) passed (exit $st):"; echo "$out"; exit 1; }
echo "control: a library with an unshipped dependency is not portable"
