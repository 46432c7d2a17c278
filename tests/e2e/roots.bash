# What ships, as it is installed or extracted (issue 37 part 4,
# shipment/Roots.cpp): Python extension modules, a .pt2's model library and
# --root / [roots] are roots of their own, judged also where another root
# reaches them; a wheel is judged as pip installs it, a .pt2 as PyTorch's
# package loader extracts it, a .pte in a tree without --scan. Real files:
# ELF built by clang-19 (python3 imports the modules: the loader's evidence
# beside the verdict), Mach-O cross-linked with lld against the .tbd stubs,
# wheels and .pt2 written by python3's zipfile / scripts/lib/containers.py.
# Each test failed on 6ef4d08.

SUITE_roots_PROBE() {
  [ "$(uname -s)" = Linux ] || { echo "needs Linux's ld.so and ELF"; return; }
  local tool
  for tool in clang clang++ ld64.lld; do
    [ -x "$LLVM_BIN/$tool" ] || { echo "$LLVM_BIN/$tool not found"; return; }
  done
  command -v python3 >/dev/null || { echo "python3 not found (zip writer, importer)"; return; }
  [ -x "${LINKGUARD_BIN:-}" ] || echo "LINKGUARD_BIN is not set to the built linkguard"
}

LG() { "$LINKGUARD_BIN" "$@"; }

# so OUT SRC-BODY [FLAGS...]: an ELF shared library from one line of C.
roots_so() {
  local out=$1 body=$2
  shift 2
  mkdir -p "$(dirname "$out")"
  printf '%s\n' "$body" >"$E2E_ROOT/so.c"
  "$CLANG" -shared -fPIC -o "$out" "$E2E_ROOT/so.c" "$@" || test_failed "building $out"
}

# A module that exports PyInit_NAME returning NULL with no error set: an
# import that reaches it fails with SystemError, one whose dlopen fails
# with ImportError naming the library (the evidence used below).
pyinit() { echo "int f_dep(void); void *PyInit_$1(void){return 0;} int g_$1(void){return f_dep();}"; }

# import DIR MODULE: what python3 says importing MODULE from DIR.
try_import() {
  python3 -c "import sys; sys.path.insert(0, sys.argv[1])
try:
    __import__(sys.argv[2])
except ImportError as e:
    print('ImportError:', e)
except SystemError:
    print('loaded')" "$1" "$2" 2>&1
}

SUITE_roots() {
  TEST "an extension module an executable also loads is judged as python3 imports it"
  # t/bin/app has DT_RPATH $ORIGIN/../lib (inherited by what it loads) and
  # needs lib/mod.cpython-311-x86_64-linux-gnu.so, which needs libdep.so
  # with no search path of its own: through app it loads; imported by
  # python3 (no DT_RPATH above it) it does not.
  roots_so t/lib/libdep.so 'int f_dep(void){return 1;}' -Wl,-soname,libdep.so
  roots_so t/lib/mod.cpython-311-x86_64-linux-gnu.so "$(pyinit mod)" -Lt/lib -l:libdep.so
  echo 'int main(void){return 0;}' >m.c
  mkdir -p t/bin
  "$CLANG" -o t/bin/app m.c -Lt/lib -Wl,--no-as-needed -l:mod.cpython-311-x86_64-linux-gnu.so \
    -Wl,--disable-new-dtags,-rpath,'$ORIGIN/../lib' || test_failed "building app"
  expect_status 0 t/bin/app
  out=$(try_import t/lib mod)
  expect_contains "$out" "ImportError: libdep.so: cannot open shared object file" "python3's import"
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 1 "check --portable t: $out"
  expect_contains "$out" "t/lib/mod.cpython-311-x86_64-linux-gnu.so: violation: DT_NEEDED libdep.so"
  # Control: a plain library in the same place is no root of its own.
  mv t/lib/mod.cpython-311-x86_64-linux-gnu.so t/lib/libmod.so
  patchelf --version >/dev/null 2>&1 && {
    patchelf --replace-needed mod.cpython-311-x86_64-linux-gnu.so libmod.so t/bin/app
    out=$(LG check --portable t 2>&1); status=$?
    expect_equal "$status" 0 "control, libmod.so: $out"
  }

  TEST "a plain .so exporting PyInit_<name> is an extension module; one without is not"
  roots_so t/lib/libdep.so 'int f_dep(void){return 1;}' -Wl,-soname,libdep.so
  roots_so t/lib/fast.so "$(pyinit fast)" -Lt/lib -l:libdep.so
  echo 'int main(void){return 0;}' >m.c
  mkdir -p t/bin
  "$CLANG" -o t/bin/app m.c -Lt/lib -Wl,--no-as-needed -l:fast.so \
    -Wl,--disable-new-dtags,-rpath,'$ORIGIN/../lib' || test_failed "building app"
  expect_contains "$(try_import t/lib fast)" "ImportError: libdep.so: cannot open shared object file"
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 1 "check --portable t: $out"
  expect_contains "$out" "t/lib/fast.so: violation: DT_NEEDED libdep.so"
  # The same library without PyInit_fast: python3 cannot import it, and it
  # is judged through app only.
  roots_so t/lib/fast.so "int f_dep(void); int g_fast(void){return f_dep();}" -Lt/lib -l:libdep.so
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 0 "without PyInit_fast: $out"

  TEST "a macOS extension module (.cpython-311-darwin.so) another module loads is judged on its own"
  # pkg/_a (LC_RPATH @loader_path/libs) loads @rpath/_b.cpython-311-darwin.so,
  # which needs @rpath/libdep.dylib and has no LC_RPATH: through _a's
  # chain dyld finds it; `import pkg._b` alone (Python's chain has no
  # LC_RPATH for it) does not.
  write_sdk sdk
  read -r -a MACHO <<<"$(macho_flags sdk)"
  mkdir -p w/pkg/libs
  echo 'extern "C" int f_dep() { return 1; }' >dep.cpp
  "$CLANGXX" "${MACHO[@]}" -shared -nostdlib++ dep.cpp -o w/pkg/libs/libdep.dylib \
    -Wl,-install_name,@rpath/libdep.dylib || test_failed "libdep.dylib"
  echo 'extern "C" int f_dep(); extern "C" void *PyInit__b() { f_dep(); return 0; }' >b.cpp
  "$CLANGXX" "${MACHO[@]}" -shared -nostdlib++ b.cpp -o w/pkg/_b.cpython-311-darwin.so \
    -Wl,-install_name,@rpath/_b.cpython-311-darwin.so w/pkg/libs/libdep.dylib || test_failed "_b"
  echo 'extern "C" void *PyInit__b(); extern "C" void *PyInit__a() { return PyInit__b(); }' >a.cpp
  "$CLANGXX" "${MACHO[@]}" -shared -nostdlib++ a.cpp -o w/pkg/_a.cpython-311-darwin.so \
    w/pkg/_b.cpython-311-darwin.so -Wl,-rpath,@loader_path/libs -Wl,-rpath,@loader_path ||
    test_failed "_a"
  out=$(LG check --portable w 2>&1); status=$?
  expect_equal "$status" 1 "check --portable w: $out"
  expect_contains "$out" "w/pkg/_b.cpython-311-darwin.so: violation: LC_LOAD_DYLIB @rpath/libdep.dylib"
  # Control: with an LC_RPATH of its own, _b holds on its own too.
  "$CLANGXX" "${MACHO[@]}" -shared -nostdlib++ b.cpp -o w/pkg/_b.cpython-311-darwin.so \
    -Wl,-install_name,@rpath/_b.cpython-311-darwin.so w/pkg/libs/libdep.dylib \
    -Wl,-rpath,@loader_path/libs || test_failed "_b with LC_RPATH"
  out=$(LG check --portable w 2>&1); status=$?
  expect_equal "$status" 0 "control: $out"
}
