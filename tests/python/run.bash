#!/usr/bin/env bash
# ctest python.wheel: builds the wheel from this build tree (scripts/wheel
# --from-build: seconds, no second build), installs it offline into a fresh
# venv (python3 -m venv --system-site-packages: Debian's pytest; pip
# install --no-index) and runs tests/python/test_*.py with the venv's python.
# Leaves the wheel in $LINKGUARD_BUILD_DIR/python-wheel/dist for
# tests/python/dogfood.bash. Exit 125 (skipped) when Debian's Python tooling
# is missing, saying which.
set -euo pipefail
src=$LINKGUARD_SOURCE_DIR
build=$LINKGUARD_BUILD_DIR
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
for m in build setuptools wheel venv ensurepip pytest; do
  "$py" -c "import $m" 2>/dev/null ||
    { echo "SKIP: $py has no '$m' module (Debian: python3-build python3-setuptools python3-wheel python3-venv python3-pytest)"; exit 125; }
done
area=$build/python-wheel
rm -rf "$area"
mkdir -p "$area"
wheel=$("$src/scripts/wheel" --from-build "$build" --out "$area/dist" | tail -n 1)
"$py" -m venv --system-site-packages "$area/venv"
"$area/venv/bin/python" -m pip install -q --no-index --no-cache-dir "$wheel"
cd "$area"
# The package is typed (py.typed): its annotations must hold under mypy --strict.
if command -v mypy >/dev/null; then
  mypy --strict --cache-dir "$area/mypy-cache" "$src/python/linkguard"
else
  echo "note: mypy is not installed (Debian: mypy); the type check did not run"
fi
unset LINKGUARD_BINARY LINKGUARD_BIN
export LG_TEST_WHEEL=$wheel LG_TEST_VENV=$area/venv PATH=$area/venv/bin:$PATH
exec "$area/venv/bin/python" -m pytest -q -p no:cacheprovider --basetemp="$area/tmp" "$src/tests/python"
