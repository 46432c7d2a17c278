# `linkguard try-load --hide PATH`: the "passes for the wrong reason" trap,
# proved away on the build machine itself. clang++-14 -fopenmp bakes
# RUNPATH /usr/lib/llvm-14/lib and NEEDED libomp.so.5 into the model, and
# that path resolves here, so the plain model loads here. Hidden from the
# child alone (a private mount namespace), the same path makes the plain
# model fail as it would on a machine without it, while the model linked
# with --as-needed still loads; outside the child nothing changed. A
# process that may not create namespaces gets the distinct outcome 88.

SUITE_try_load_hide_PROBE() {
  [ "$(uname -s)" = Linux ] || { echo "mount namespaces are Linux only"; return; }
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "linkguard not built"; return; }
  [ -x /usr/bin/clang++-14 ] || { echo "clang++-14 not installed"; return; }
  [ -e /usr/lib/llvm-14/lib/libomp.so.5 ] || { echo "libomp-dev (LLVM 14) not installed"; return; }
  unshare -m true 2>/dev/null || unshare -Urm true 2>/dev/null ||
    { echo "this machine allows no private mount namespace (unshare -m, unshare -Urm)"; return; }
  unshare -Ur true 2>/dev/null || { echo "no user namespaces here (for the 'unavailable' case)"; return; }
  command -v setpriv >/dev/null || echo "setpriv (util-linux) not found"
}

SUITE_try_load_hide_SETUP() {
  echo 'extern "C" int k(void) { return 1; }' >k.cpp
  local flags=(-shared -fPIC -fopenmp -Wno-unused-command-line-argument)
  /usr/bin/clang++-14 "${flags[@]}" k.cpp -o plain.so || test_failed "plain link"
  /usr/bin/clang++-14 "${flags[@]}" -Wl,--as-needed k.cpp -o asneeded.so || test_failed "as-needed link"
}

LG() { "$LINKGUARD_BIN" "$@"; }
BAKED=/usr/lib/llvm-14/lib/libomp.so.5

SUITE_try_load_hide() {
  TEST "the trap: on this machine the plain model loads, its baked runtime resolves"
  expect_contains "$("$LLVM_BIN/llvm-readelf" -d plain.so)" "[/usr/lib/llvm-14/lib]" "plain.so RUNPATH"
  out=$(LG try-load plain.so); status=$?
  expect_equal "$status" 0 "plain.so loads here: $out"
  expect_contains "$out" "plain.so: image: dependency: $BAKED"

  TEST "--hide the baked path: the plain model fails as elsewhere, linkguard's loads"
  LG try-load --hide "$BAKED" plain.so >out.txt 2>err.txt; status=$?
  expect_equal "$status" 87 "plain.so with $BAKED hidden: $(cat out.txt)"
  expect_contains "$(cat out.txt)" "plain.so: hidden: $BAKED"
  expect_contains "$(cat err.txt)" "libomp.so.5: cannot open shared object file: No such file or directory"
  out=$(LG try-load --hide "$BAKED" --forbid openmp asneeded.so); status=$?
  expect_equal "$status" 0 "asneeded.so with $BAKED hidden: $out"
  expect_contains "$out" "asneeded.so: hidden: $BAKED"
  # Only the child saw it: the file, and the plain model, are fine here.
  expect_exists "$BAKED"
  expect_status 0 LG try-load plain.so >/dev/null

  TEST "--hide takes one name away and leaves its directory's other entries"
  mkdir lib
  echo 'int x(void) { return 1; }' >x.c
  echo 'int y(void) { return 2; }' >y.c
  echo 'int x(void); int y(void); int xy(void) { return x() + y() == 3 ? 0 : 1; }' >xy.c
  "$CLANG" -shared -fPIC x.c -o lib/libx.so -Wl,-soname,libx.so || test_failed "libx"
  "$CLANG" -shared -fPIC y.c -o lib/liby.so -Wl,-soname,liby.so || test_failed "liby"
  ln -s libx.so lib/libx-link.so
  "$CLANG" -shared -fPIC xy.c -o xy.so -Llib -lx -ly -Wl,-rpath,"$PWD/lib" || test_failed "xy.so"
  out=$(LG try-load --call xy --hide "$PWD/lib/unrelated" xy.so 2>&1); status=$?
  expect_equal "$status" 66 "hiding a path that does not exist: $out"
  touch lib/unrelated
  out=$(LG try-load --call xy --hide "$PWD/lib/unrelated" xy.so); status=$?
  expect_equal "$status" 0 "siblings still there: $out"
  expect_contains "$out" "xy.so: image: dependency: $PWD/lib/libx.so"
  expect_contains "$out" "xy.so: image: dependency: $PWD/lib/liby.so"
  LG try-load --call xy --hide "$PWD/lib/liby.so" xy.so >out.txt 2>err.txt; status=$?
  expect_equal "$status" 87 "liby.so hidden"
  expect_contains "$(cat err.txt)" "liby.so: cannot open shared object file"
  expect_exists lib/liby.so
  expect_exists lib/libx-link.so

  TEST "where namespaces are not permitted, --hide is unavailable: exit 88, nothing loaded"
  # A user namespace that may create no further one, and no capability left.
  cat >confined.sh <<'SH'
echo 0 >/proc/sys/user/max_user_namespaces || exit 97
exec setpriv --bounding-set=-all --inh-caps=-all "$@"
SH
  unshare -Ur sh confined.sh "$LINKGUARD_BIN" try-load --hide "$BAKED" plain.so >out.txt 2>err.txt
  status=$?
  expect_equal "$status" 88 "confined: $(cat out.txt err.txt)"
  expect_contains "$(cat err.txt)" "linkguard: error: try-load: plain.so: --hide is unavailable here: unshare(CLONE_NEWNS): Operation not permitted"
  expect_not_contains "$(cat out.txt)" "image:"
  # The same confinement without --hide still loads: only --hide needs it.
  unshare -Ur sh confined.sh "$LINKGUARD_BIN" try-load plain.so >out.txt 2>&1
  expect_equal "$?" 0 "confined, no --hide: $(cat out.txt)"
}
