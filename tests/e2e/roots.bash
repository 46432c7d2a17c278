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
  c_so t/lib/libdep.so 'int f_dep(void){return 1;}' -Wl,-soname,libdep.so
  c_so t/lib/mod.cpython-311-x86_64-linux-gnu.so "$(pyinit mod)" -Lt/lib -l:libdep.so
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
  c_so t/lib/libdep.so 'int f_dep(void){return 1;}' -Wl,-soname,libdep.so
  c_so t/lib/fast.so "$(pyinit fast)" -Lt/lib -l:libdep.so
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
  c_so t/lib/fast.so "int f_dep(void); int g_fast(void){return f_dep();}" -Lt/lib -l:libdep.so
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

  TEST "a Mach-O fast.so exporting _PyInit_fast is a module (dyld info and chained fixups alike)"
  # app (LC_RPATHs for pkg/ and pkg/libs/) loads @rpath/fast.so, which
  # needs @rpath/libdep.dylib and has no LC_RPATH: fine under app, not
  # when Python imports it. Without the export it is an ordinary library.
  write_sdk sdk
  read -r -a MACHO <<<"$(macho_flags sdk)"
  mkdir -p w/pkg/libs
  echo 'extern "C" int f_dep() { return 1; }' >dep.cpp
  "$CLANGXX" "${MACHO[@]}" -shared -nostdlib++ dep.cpp -o w/pkg/libs/libdep.dylib \
    -Wl,-install_name,@rpath/libdep.dylib || test_failed "libdep.dylib"
  echo 'extern "C" int f_dep(); extern "C" void *PyInit_fast() { f_dep(); return 0; }' >m.cpp
  echo 'extern "C" int f_dep(); extern "C" void *Init_fast() { f_dep(); return 0; }' >n.cpp
  echo 'extern "C" int main() { return 0; }' >a.cpp
  for fixups in "" -Wl,-fixup_chains; do
    for src in m n; do
      "$CLANGXX" "${MACHO[@]}" -shared -nostdlib++ $src.cpp -o w/pkg/fast.so w/pkg/libs/libdep.dylib \
        -Wl,-install_name,@rpath/fast.so $fixups || test_failed "fast.so $fixups"
      "$CLANGXX" "${MACHO[@]}" -nostdlib++ a.cpp -o w/app w/pkg/fast.so $fixups \
        -Wl,-rpath,@executable_path/pkg/libs -Wl,-rpath,@executable_path/pkg || test_failed "app"
      out=$(LG check --portable w 2>&1); status=$?
      if [ $src = m ]; then
        expect_equal "$status" 1 "with _PyInit_fast ${fixups:-(dyld info)}: $out"
        expect_contains "$out" "w/pkg/fast.so: violation: LC_LOAD_DYLIB @rpath/libdep.dylib"
      else
        expect_equal "$status" 0 "without it ${fixups:-(dyld info)}: $out"
      fi
    done
  done

  TEST "an extension module marked -z nodlopen is refused though an executable loads it fine"
  # python3's import dlopens it: "shared object cannot be dlopen()ed";
  # app's DT_NEEDED load is no dlopen and runs. (h-roots-onmain: main's
  # ld.so refuses DF_1_NOOPEN for a dlopen root, which a module now is.)
  echo 'void *PyInit__n(void){return 0;}' >n.c
  mkdir -p t/pkg
  "$CLANG" -shared -fPIC -Wl,-z,nodlopen -o t/pkg/_n.cpython-311-x86_64-linux-gnu.so n.c ||
    test_failed "_n"
  echo 'int main(void){return 0;}' >a.c
  "$CLANG" -o t/app a.c -Lt/pkg -Wl,--no-as-needed -l:_n.cpython-311-x86_64-linux-gnu.so \
    -Wl,-rpath,'$ORIGIN/pkg' || test_failed "app"
  expect_status 0 t/app
  expect_contains "$(try_import t/pkg _n)" "cannot be dlopen()ed" "python3's import"
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 1 "check --portable t: $out"
  expect_contains "$out" "t/pkg/_n.cpython-311-x86_64-linux-gnu.so: violation: is marked -z nodlopen"

  SUITE_roots_wheels
  SUITE_roots_models
  SUITE_roots_named
}

# wheel OUT MEMBER=FILE...: a wheel as bdist_wheel lays it out, with its
# .dist-info (WHEEL, METADATA, RECORD with sha256s: pip reads them).
write_wheel() {
  python3 - "$@" <<'PY' || test_failed "writing $1"
import base64, hashlib, os, sys, zipfile
out, pairs = sys.argv[1], [a.split("=", 1) for a in sys.argv[2:]]
dist = "-".join(os.path.basename(out).split("-")[:2])
info = dist + ".dist-info/"
files = [(m, open(f, "rb").read()) for m, f in pairs]
files += [(info + "WHEEL", b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: false\nTag: cp311-cp311-linux_x86_64\n"),
          (info + "METADATA", b"Metadata-Version: 2.1\nName: %s\nVersion: %s\n" % tuple(x.encode() for x in dist.split("-")))]
record = ""
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for name, data in files:
        zi = zipfile.ZipInfo(name)
        zi.external_attr = 0o100755 << 16  # S_IFREG: pip keeps the exec bit (zip_item_is_executable)
        z.writestr(zi, data, zipfile.ZIP_DEFLATED)
        h = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record += "%s,sha256=%s,%d\n" % (name, h, len(data))
    z.writestr(info + "RECORD", record + info + "RECORD,,\n")
PY
}

# pip_install WHEEL: installs it into the venv v/ (offline), when python3
# can make one with pip here; prints why not otherwise.
pip_install() {
  [ -x v/bin/pip ] || python3 -m venv v >/dev/null 2>&1 || { echo "no venv"; return; }
  [ -x v/bin/pip ] || { echo "no pip in the venv"; return; }
  v/bin/pip install -q --no-index --no-deps "$1" >pip.log 2>&1 || echo "pip failed: $(cat pip.log)"
}

SUITE_roots_wheels() {
  TEST "a wheel as pip installs it: .data/scripts in bin/, .data/data at the prefix, platlib in site-packages"
  # scripts/tool (DT_RUNPATH $ORIGIN/../lib) needs libt.so from data/lib/;
  # platlib/pkg/_e (DT_RUNPATH $ORIGIN/../pkg.libs) needs libx.so, which
  # the wheel's root (site-packages) holds in pkg.libs/. Installed, both
  # load; as stored in the zip, neither path leads anywhere.
  c_so libt.so 'int f_dep(void){return 1;}' -Wl,-soname,libt.so
  c_so libx.so 'int f_dep(void){return 1;}' -Wl,-soname,libx.so
  c_so _e.so "$(pyinit _e)" -L. -l:libx.so -Wl,--enable-new-dtags,-rpath,'$ORIGIN/../pkg.libs'
  echo 'int f_dep(void); int main(void){return f_dep() - 1;}' >tool.c
  "$CLANG" -o tool tool.c -L. -l:libt.so -Wl,--enable-new-dtags,-rpath,'$ORIGIN/../lib' ||
    test_failed "tool"
  W=pkg-1.0-cp311-cp311-linux_x86_64.whl
  write_wheel $W pkg-1.0.data/scripts/tool=tool pkg-1.0.data/data/lib/libt.so=libt.so \
    pkg-1.0.data/platlib/pkg/_e.cpython-311-x86_64-linux-gnu.so=_e.so pkg.libs/libx.so=libx.so \
    pkg/__init__.py=/dev/null
  why=$(pip_install $W)
  if [ -z "$why" ]; then
    expect_status 0 v/bin/tool
    out=$(v/bin/python -c 'import pkg._e' 2>&1)
    expect_contains "$out" "SystemError" "pip's install imports pkg._e (its libx.so found)"
  else
    echo "  (no pip evidence here: $why)"
  fi
  out=$(LG check --portable $W 2>&1); status=$?
  expect_equal "$status" 0 "check --portable $W: $out"
  LG check --json --portable $W | python3 -c '
import json, sys
d = json.load(sys.stdin)
p = {p["dependency"]: p for f in d["files"] for p in f["placements"]}
assert p["libt.so"]["resolvedPath"].endswith(".whl!/lib/libt.so"), p["libt.so"]
assert p["libx.so"]["resolvedPath"].endswith(".whl!/lib/python3.11/site-packages/pkg.libs/libx.so"), p["libx.so"]
names = [f["path"] for f in d["files"]]
assert "'$W'!pkg-1.0.data/scripts/tool" in names, names
' || test_failed "installed paths, member names"
  # The same files where the zip's own names would resolve: as installed,
  # tool's $ORIGIN/../data/lib is bin/../data/lib, which pip never makes.
  "$CLANG" -o tool tool.c -L. -l:libt.so -Wl,--enable-new-dtags,-rpath,'$ORIGIN/../data/lib' ||
    test_failed "tool (stored layout)"
  write_wheel stored-1.0-cp311-cp311-linux_x86_64.whl stored-1.0.data/scripts/tool=tool \
    stored-1.0.data/data/lib/libt.so=libt.so
  out=$(LG check --portable stored-1.0-cp311-cp311-linux_x86_64.whl 2>&1); status=$?
  expect_equal "$status" 1 "stored layout: $out"
  expect_contains "$out" "stored-1.0.data/scripts/tool: violation: DT_NEEDED libt.so"

  TEST "a wheel's member linkguard cannot read, first in the archive, is undecided where ld.so's search meets it"
  # w/a/libx.so is bzip2-compressed (a method linkguard does not undo) and
  # comes before every image in the zip; pip inflates it and ld.so loads it.
  # Where the search meets it the dependency is unknown, never a plain file
  # that ends the load (before: the failure came before the layout was
  # known, and the member read as "invalid ELF header").
  c_so libx.so 'int f_dep(void){return 1;}' -Wl,-soname,libx.so
  c_so _w.so "$(pyinit _w)" -L. -l:libx.so -Wl,--enable-new-dtags,-rpath,'$ORIGIN/a'
  python3 - <<'PY' || test_failed "writing w.whl"
import zipfile
with zipfile.ZipFile("w-1.0-cp311-cp311-linux_x86_64.whl", "w") as z:
    z.write("libx.so", "w/a/libx.so", compress_type=zipfile.ZIP_BZIP2)
    z.write("_w.so", "w/_w.cpython-311-x86_64-linux-gnu.so", compress_type=zipfile.ZIP_DEFLATED)
PY
  LG check --portable --json w-1.0-cp311-cp311-linux_x86_64.whl >w.json 2>w.err
  python3 - w.json <<'PY' || test_failed "the dependency's placement: $(cat w.json w.err)"
import json, sys
d = json.load(open(sys.argv[1]))
p = [p for f in d["files"] for p in (f.get("placements") or []) if p["dependency"] == "libx.so"]
assert p and all(x["placement"] == "unknown" for x in p), p
PY

  TEST "a wheel's member that is no ELF file, where ld.so searches first, ends the load"
  # pkg/_s (DT_RUNPATH $ORIGIN/stub:$ORIGIN/../pkg.libs) needs libx.so;
  # pkg/stub/libx.so is a text file pip installs like any member, and
  # ld.so's open_verify stops there ("invalid ELF header") before the real
  # copy in pkg.libs/. Before: the zip's probe saw only images and said
  # "shipped" from pkg.libs.
  c_so libx.so 'int f_dep(void){return 1;}' -Wl,-soname,libx.so
  c_so _s.so "$(pyinit _s)" -L. -l:libx.so -Wl,--enable-new-dtags,-rpath,'$ORIGIN/stub:$ORIGIN/../pkg.libs'
  # A linker script, as Debian's libc.so is one (a short file would be
  # "file too short" instead).
  printf '/* GNU ld script\n   Use the shared library, but some functions are only in\n   the static library.  */\nINPUT(-lx)\n' >stub.txt
  W=stub-1.0-cp311-cp311-linux_x86_64.whl
  write_wheel $W stub/_s.cpython-311-x86_64-linux-gnu.so=_s.so stub/stub/libx.so=stub.txt \
    pkg.libs/libx.so=libx.so stub/__init__.py=/dev/null
  why=$(pip_install $W)
  if [ -z "$why" ]; then
    out=$(v/bin/python -c 'import stub._s' 2>&1)
    expect_contains "$out" "invalid ELF header" "pip's install: ld.so stops at the stub"
  else
    # The evidence without pip: the members where pip puts them.
    mkdir -p inst && (cd inst && python3 -m zipfile -e ../$W .)
    expect_contains "$(try_import inst stub._s)" "invalid ELF header" "ld.so stops at the stub"
  fi
  out=$(LG check --portable $W 2>&1); status=$?
  expect_equal "$status" 1 "check --portable $W: $out"
  expect_contains "$out" "invalid ELF header"
}

SUITE_roots_models() {
  TEST "a .pt2 as the package loader extracts it: a library outside data/aotinductor/<model>/ is not there"
  # model.wrapper.so (DT_RUNPATH $ORIGIN/../../lib) needs libdep.so, stored
  # at <pkg>/data/lib/: AOTIModelPackageLoader extracts only the model's
  # directory (and data/constants), so at load time it is missing.
  c_so libdep.so 'int f_dep(void){return 1;}' -Wl,-soname,libdep.so
  c_so model.so "$(pyinit m)" -L. -l:libdep.so -Wl,--enable-new-dtags,-rpath,'$ORIGIN/../../lib'
  python3 "$LINKGUARD_SOURCE_DIR/scripts/lib/containers.py" pt2 m.pt2 data/lib/libdep.so=libdep.so \
    data/aotinductor/model/model.wrapper.so=model.so || test_failed "m.pt2"
  out=$(LG check --portable m.pt2 2>&1); status=$?
  expect_equal "$status" 1 "check --portable m.pt2: $out"
  expect_contains "$out" "m.pt2!m/data/aotinductor/model/model.wrapper.so: violation: DT_NEEDED libdep.so"
  # Control: beside the model library, it is extracted with it.
  c_so model.so "$(pyinit m)" -L. -l:libdep.so -Wl,--enable-new-dtags,-rpath,'$ORIGIN'
  python3 "$LINKGUARD_SOURCE_DIR/scripts/lib/containers.py" pt2 m.pt2 \
    data/aotinductor/model/libdep.so=libdep.so data/aotinductor/model/model.wrapper.so=model.so ||
    test_failed "m.pt2 (control)"
  out=$(LG check --portable m.pt2 2>&1); status=$?
  expect_equal "$status" 0 "control: $out"

  TEST "a .pt2 whose model the loader compiles at load time is undecided (92)"
  c_so libdep.so 'int f_dep(void){return 1;}' -Wl,-soname,libdep.so
  python3 - <<'PY' || test_failed "c.pt2"
import zipfile
with zipfile.ZipFile("c.pt2", "w") as z:
    z.writestr("c/archive_format", "pt2")
    z.writestr("c/archive_version", "0")
    z.writestr("c/data/aotinductor/model/model.wrapper.cpp", "// AOTInductor wrapper source\n")
    z.write("libdep.so", "c/data/lib/libdep.so")
PY
  out=$(LG check --portable c.pt2 2>&1); status=$?
  expect_equal "$status" 92 "check --portable c.pt2: $out"
  expect_contains "$out" "c.pt2: the model c/data/aotinductor/model has no .so: the package loader compiles"

  TEST "a directory holding a runner and a .pte whose library names /opt/llvm-openmp: judged without --scan"
  write_sdk sdk
  read -r -a MACHO <<<"$(macho_flags sdk)"
  echo 'extern "C" int omp_get_max_threads(); extern "C" int forward() { return omp_get_max_threads(); }' >k.cpp
  "$CLANGXX" "${MACHO[@]}" -shared -nostdlib++ k.cpp -Lsdk/omp -lomp -o plain.dylib || test_failed "plain.dylib"
  echo 'int main() { return 0; }' >r.cpp
  mkdir -p dist
  "$CLANGXX" "${MACHO[@]}" -nostdlib++ r.cpp -o dist/executor_runner || test_failed "runner"
  python3 "$LINKGUARD_SOURCE_DIR/scripts/lib/containers.py" pte dist/model.pte plain.dylib >/dev/null ||
    test_failed "model.pte"
  out=$(LG check --portable dist 2>&1); status=$?
  expect_equal "$status" 1 "check --portable dist: $out"
  expect_contains "$out" "dist/model.pte@0x"
  expect_contains "$out" "/opt/llvm-openmp/lib/libomp.dylib"
}

SUITE_roots_named() {
  TEST "--root and [roots]: a plugin an executable also loads is judged on its own"
  c_so t/lib/libdep.so 'int f_dep(void){return 1;}' -Wl,-soname,libdep.so
  c_so t/lib/libplugin.so 'int f_dep(void); int plug(void){return f_dep();}' -Lt/lib -l:libdep.so
  echo 'int main(void){return 0;}' >m.c
  mkdir -p t/bin
  "$CLANG" -o t/bin/app m.c -Lt/lib -Wl,--no-as-needed -l:libplugin.so \
    -Wl,--disable-new-dtags,-rpath,'$ORIGIN/../lib' || test_failed "building app"
  expect_status 0 t/bin/app
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 0 "without --root: $out"
  out=$(LG check --portable --root lib/libplugin.so t 2>&1); status=$?
  expect_equal "$status" 1 "--root lib/libplugin.so: $out"
  expect_contains "$out" "t/lib/libplugin.so: violation: DT_NEEDED libdep.so"
  out=$(LG check --portable --root 'lib/libplug*.so' t 2>&1); status=$?
  expect_equal "$status" 1 "--root glob: $out"
  out=$(LG inspect --tree --root lib/libplugin.so t 2>&1); status=$?
  expect_contains "$out" "t/lib/libplugin.so (x86_64, root: named by --root lib/libplugin.so)"
  LG inspect --tree --json --root lib/libplugin.so t | python3 -c '
import json, sys
d = json.load(sys.stdin)
r = {f["path"]: f["rootReason"] for f in d["files"]}
assert r["t/lib/libplugin.so"] == "named by --root lib/libplugin.so" and r["t/bin/app"] is None, r
' || test_failed "inspect --tree --json: rootReason"
  # A --root that names nothing is no verdict.
  out=$(LG check --portable --root lib/libnothere.so t 2>&1); status=$?
  expect_equal "$status" 92 "--root naming nothing: $out"
  expect_contains "$out" "--root lib/libnothere.so names no Mach-O or ELF file of the tree: undecided"
  # [roots] in the project's linkguard.toml does what --root does.
  printf '[roots]\npaths = ["lib/libplugin.so"]\n' >linkguard.toml
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 1 "[roots]: $out"
  expect_contains "$out" "t/lib/libplugin.so: violation: DT_NEEDED libdep.so"
  printf '[roots]\npath = ["lib/libplugin.so"]\n' >linkguard.toml
  out=$(LG check --portable t 2>&1); status=$?
  expect_equal "$status" 78 "a misspelt [roots] key: $out"
  expect_contains "$out" "unknown key 'roots.path'"
}
