# Trees as inputs and their load closure (issue 29): real Mach-O trees
# cross-linked with clang++-19 + ld64.lld against .tbd stubs, real ELF trees
# linked with clang-19 and run, wheels written by Python's zipfile. Each
# passing check has a failing control; the ELF closure rules are checked
# against what ld.so really does with the same tree.

SUITE_shipment_PROBE() {
  local tool
  for tool in clang++ clang ld64.lld llvm-otool llvm-readelf; do
    [ -x "$LLVM_BIN/$tool" ] || { echo "$LLVM_BIN/$tool not found"; return; }
  done
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  command -v python3 >/dev/null || { echo "python3 not found (JSON checks, wheels)"; return; }
}

SUITE_shipment_SETUP() {
  write_sdk sdk
}

LG() { "$LINKGUARD_BIN" "$@"; }

# mac ARGS...: a cross-linked arm64 Mach-O link or compile.
mac() {
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk) -nostdlib++ "$@" || test_failed "clang++ $*"
}

# app_tree DIR: bin/app (LC_RPATH @executable_path/../lib) -> lib/libA.dylib
# (no LC_RPATH of its own) -> @rpath/libB.dylib: the issue's repro.
app_tree() {
  local d=$1
  mkdir -p "$d/bin" "$d/lib"
  echo 'extern "C" int b() { return 1; }' >b.cpp
  echo 'extern "C" int b(); extern "C" int a() { return b(); }' >a.cpp
  echo 'extern "C" int a(); int main() { return a(); }' >main.cpp
  mac -shared b.cpp -o "$d/lib/libB.dylib" -Wl,-install_name,@rpath/libB.dylib
  mac -shared a.cpp -o "$d/lib/libA.dylib" -Wl,-install_name,@rpath/libA.dylib "$d/lib/libB.dylib"
  mac main.cpp -o "$d/bin/app" "$d/lib/libA.dylib" -Wl,-rpath,@executable_path/../lib
  echo "not a binary" >"$d/README"
}

# elf_tree DIR DTAGS: bin/app (DT_RPATH or DT_RUNPATH $ORIGIN/../lib) ->
# lib/liba.so (no search path) -> libb.so. DTAGS: --disable-new-dtags
# (DT_RPATH) or --enable-new-dtags (DT_RUNPATH).
elf_tree() {
  local d=$1 tags=$2
  mkdir -p "$d/bin" "$d/lib"
  echo 'int b(void) { return 7; }' >b.c
  echo 'int b(void); int a(void) { return b(); }' >a.c
  echo 'int a(void); int main(void) { return a() == 7 ? 0 : 1; }' >main.c
  "$CLANG" -shared -fPIC b.c -o "$d/lib/libb.so" -Wl,-soname,libb.so || test_failed libb.so
  "$CLANG" -shared -fPIC a.c -o "$d/lib/liba.so" -Wl,-soname,liba.so -L"$d/lib" -lb ||
    test_failed liba.so
  "$CLANG" main.c -o "$d/bin/app" -L"$d/lib" -la -Wl,"$tags" -Wl,-rpath,'$ORIGIN/../lib' ||
    test_failed app
}

# same_verdict WANT DIR FILE [ARGS...]: check --portable FILE (a file at the
# top of DIR, so its bundle root is DIR) and check --portable DIR agree, and
# both exit WANT: one expansion of load paths (contract/LoaderRules.cpp).
same_verdict() {
  local want=$1 dir=$2 file=$3 fs ts out_file out_tree
  shift 3
  out_file=$(LG check --portable "$@" "$dir/$file" 2>&1); fs=$?
  out_tree=$(LG check --portable "$@" "$dir" 2>&1); ts=$?
  expect_equal "$fs/$ts" "$want/$want" "check --portable $dir/$file ($fs) and $dir ($ts): $out_file
--- $out_tree"
}

SUITE_shipment() {
  TEST "the issue's repro: bin/app -> lib/libA.dylib -> @rpath/libB.dylib holds as a tree"
  app_tree app
  expect_contains "$("$LLVM_BIN/llvm-otool" -l app/lib/libA.dylib)" "@rpath/libB.dylib"
  expect_not_contains "$("$LLVM_BIN/llvm-otool" -l app/lib/libA.dylib)" "LC_RPATH"
  out=$(LG check --portable app 2>&1); status=$?
  expect_equal "$status" 0 "check --portable app: $out"
  expect_contains "$out" "linkguard check: 3 files, 0 violations, 0 kept, 0 unknown, 0 errors: holds"
  LG check --json --portable app | python3 -c '
import json, sys
d = json.load(sys.stdin)
p = [p for f in d["files"] if f["path"] == "app/lib/libA.dylib" for p in f["placements"]
     if p["dependency"] == "@rpath/libB.dylib"][0]
assert p["placement"] == "shipped", p
assert p["file"] == "app/lib/libB.dylib", p
assert p["via"] == "LC_RPATH @executable_path/../lib of app/bin/app", p
assert p["root"] == "app/bin/app", p
' || test_failed "libB's placement names the LC_RPATH of bin/app"
  # The control: one file at a time, libA has no rpath of its own.
  out=$(LG check --portable app/lib/libA.dylib); status=$?
  expect_equal "$status" 1 "check --portable app/lib/libA.dylib"
  # Without the executable nothing lends libA an rpath: a violation.
  rm app/bin/app
  out=$(LG check --portable app); status=$?
  expect_equal "$status" 1 "the tree without bin/app: $out"
  expect_contains "$out" "app/lib/libA.dylib: violation: LC_LOAD_DYLIB @rpath/libB.dylib (arm64) is an @rpath name that resolves to no file of the tree"

  TEST "an inherited LC_RPATH's @loader_path is the directory of the image that holds it"
  mkdir -p t/bin t/lib/sub
  echo 'extern "C" int b() { return 1; }' >b.cpp
  echo 'extern "C" int b(); extern "C" int a() { return b(); }' >a.cpp
  echo 'extern "C" int a(); int main() { return a(); }' >main.cpp
  mac -shared b.cpp -o t/lib/libB.dylib -Wl,-install_name,@rpath/libB.dylib
  mac -shared a.cpp -o t/lib/sub/libA.dylib -Wl,-install_name,@rpath/libA.dylib t/lib/libB.dylib
  # bin/app: @loader_path/../lib (-> t/lib, where libB is) and
  # @loader_path/../lib/sub (-> libA). Expanded against libA's directory
  # instead, the first would be t/lib/lib, where nothing is.
  mac main.cpp -o t/bin/app t/lib/sub/libA.dylib -Wl,-rpath,@loader_path/../lib/sub \
    -Wl,-rpath,@loader_path/../lib
  out=$(LG check --portable t); status=$?
  expect_equal "$status" 0 "check --portable t: $out"
  out=$(LG inspect --tree t)
  expect_contains "$out" "@rpath/libB.dylib => t/lib/libB.dylib [shipped: LC_RPATH @loader_path/../lib of t/bin/app]"

  TEST "@executable_path in an image no executable loads is undecided (92), --executable decides"
  mkdir -p p/plugins p/Frameworks
  echo 'extern "C" int f() { return 1; }' >f.cpp
  echo 'extern "C" int f(); extern "C" int plug() { return f(); }' >plug.cpp
  mac -shared f.cpp -o p/Frameworks/libF.dylib -Wl,-install_name,@executable_path/../Frameworks/libF.dylib
  mac -shared plug.cpp -o p/plugins/plug.dylib p/Frameworks/libF.dylib
  out=$(LG check --portable p 2>&1); status=$?
  expect_equal "$status" 92 "check --portable p: $out"
  expect_contains "$out" "p/plugins/plug.dylib: unknown: LC_LOAD_DYLIB @executable_path/../Frameworks/libF.dylib (arm64) @executable_path is unknown"
  expect_contains "$out" ": undecided"
  mkdir -p p/MacOS
  out=$(LG check --portable --executable p/MacOS/Host p 2>&1); status=$?
  expect_equal "$status" 0 "with --executable p/MacOS/Host: $out"

  TEST "a weak dylib may be missing; a strong one may not"
  mkdir -p w/lib
  echo 'extern "C" int wk() __attribute__((weak_import)); extern "C" int lib() { return wk ? wk() : 0; }' >w.cpp
  echo 'extern "C" int wk() { return 1; }' >wk.cpp
  mac -shared wk.cpp -o libW.dylib -Wl,-install_name,@rpath/libW.dylib
  # Built against SDK 14.0: dyld tries no classic fallback directories for
  # it (an older SDK's weak dylib is host-dependent: e2e/dyld_shapes.bash).
  mac -shared w.cpp -o w/lib/libuser.dylib -Wl,-weak_library,libW.dylib -Wl,-rpath,@loader_path \
    -Wl,-platform_version,macos,11.0,14.0
  expect_contains "$("$LLVM_BIN/llvm-otool" -L w/lib/libuser.dylib)" "libW.dylib (compatibility version 0.0.0, current version 0.0.0, weak)"
  out=$(LG check --portable w); status=$?
  expect_equal "$status" 0 "weak and missing: $out"
  LG check --json --portable w | python3 -c '
import json, sys
p = json.load(sys.stdin)["files"][0]["placements"]
p = [x for x in p if x["dependency"] == "@rpath/libW.dylib"][0]
assert p["placement"] == "unresolved" and p["allowed"] and p["kind"] == "LC_LOAD_WEAK_DYLIB", p
' || test_failed "the weak dylib is unresolved and allowed"
  echo 'extern "C" int wk(); extern "C" int lib() { return wk(); }' >ws.cpp
  mac -shared ws.cpp -o w/lib/libuser.dylib libW.dylib -Wl,-rpath,@loader_path
  expect_not_contains "$("$LLVM_BIN/llvm-otool" -L w/lib/libuser.dylib)" "weak)"
  out=$(LG check --portable w); status=$?
  expect_equal "$status" 1 "strong and missing: $out"

  TEST "an @rpath name an image already loaded has as its install name needs no LC_RPATH (dyld reuses it)"
  mkdir -p r
  echo 'extern "C" int h() { return 1; }' >h.cpp
  echo 'extern "C" int h(); extern "C" int core() { return h(); }' >core.cpp
  echo 'extern "C" int h(); extern "C" int core(); extern "C" int plug() { return h() + core(); }' >plug.cpp
  mac -shared h.cpp -o r/libhelper.dylib -Wl,-install_name,@rpath/libhelper.dylib
  mac -shared core.cpp -o r/libcore.dylib -Wl,-install_name,@rpath/libcore.dylib r/libhelper.dylib
  mac -shared plug.cpp -o r/plugin.dylib r/libhelper.dylib r/libcore.dylib
  "$LLVM_BIN/llvm-install-name-tool" -change @rpath/libhelper.dylib @loader_path/libhelper.dylib \
    -change @rpath/libcore.dylib @loader_path/libcore.dylib r/plugin.dylib ||
    test_failed "llvm-install-name-tool"
  expect_not_contains "$("$LLVM_BIN/llvm-otool" -l r/plugin.dylib r/libcore.dylib)" LC_RPATH
  out=$(LG check --portable r); status=$?
  expect_equal "$status" 0 "plugin.dylib loads libhelper, libcore reuses it: $out"
  out=$(LG inspect --tree r)
  expect_contains "$out" "@rpath/libhelper.dylib => r/libhelper.dylib [shipped: already loaded: the LC_ID_DYLIB of r/libhelper.dylib]"
  # The control: loaded alone, libcore finds no libhelper.
  out=$(LG check --portable r/libcore.dylib); status=$?
  expect_equal "$status" 1 "libcore.dylib alone: $out"

  TEST "a re-exported dylib loads like any dependency; an image without the process's slice does not load"
  mkdir -p x/bin x/lib
  echo 'extern "C" int inner() { return 1; }' >inner.cpp
  echo 'extern "C" int outer() { return 2; }' >outer.cpp
  echo 'extern "C" int inner(); int main() { return inner(); }' >main.cpp
  # ld64.lld finds a re-export by its install name, and not through an
  # @rpath: @loader_path it expands.
  mac -shared inner.cpp -o x/lib/libinner.dylib -Wl,-install_name,@loader_path/libinner.dylib
  mac -shared outer.cpp -o x/lib/libouter.dylib -Wl,-install_name,@rpath/libouter.dylib \
    -Wl,-reexport_library,x/lib/libinner.dylib
  mac main.cpp -o x/bin/app x/lib/libouter.dylib -Wl,-rpath,@executable_path/../lib
  expect_contains "$("$LLVM_BIN/llvm-otool" -L x/lib/libouter.dylib)" "libinner.dylib (compatibility version 0.0.0, current version 0.0.0, reexport)"
  out=$(LG check --portable x); status=$?
  expect_equal "$status" 0 "re-export: $out"
  LG check --json --portable x | python3 -c '
import json, sys
p = [p for f in json.load(sys.stdin)["files"] for p in f["placements"]
     if p["kind"] == "LC_REEXPORT_DYLIB"][0]
assert p["placement"] == "shipped" and p["file"] == "x/lib/libinner.dylib", p
assert p["root"] == "x/bin/app", p
' || test_failed "the re-export is loaded under bin/app"
  # The re-exported library rebuilt for x86_64 only: an arm64 process
  # cannot load it.
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk x86_64) -nostdlib++ -shared inner.cpp -o x/lib/libinner.dylib \
    -Wl,-install_name,@loader_path/libinner.dylib || test_failed "x86_64 libinner"
  out=$(LG check --portable x); status=$?
  expect_equal "$status" 1 "x86_64-only libinner: $out"
  expect_contains "$out" "libinner.dylib (mach-o file, but is an incompatible architecture (have 'x86_64', need 'arm64e or arm64'))"

  TEST "a symlinked library is a shipped name only if it resolves inside the tree"
  mkdir -p s/lib outside
  echo 'extern "C" int v() { return 1; }' >v.cpp
  echo 'extern "C" int v(); extern "C" int u() { return v(); }' >u.cpp
  mac -shared v.cpp -o s/lib/libv.1.dylib -Wl,-install_name,@rpath/libv.dylib
  mac -shared u.cpp -o s/lib/libu.dylib s/lib/libv.1.dylib -Wl,-rpath,@loader_path
  ln -s libv.1.dylib s/lib/libv.dylib
  out=$(LG check --portable s); status=$?
  expect_equal "$status" 0 "libv.dylib -> libv.1.dylib: $out"
  out=$(LG inspect --tree s)
  expect_contains "$out" "@rpath/libv.dylib => s/lib/libv.1.dylib [shipped: LC_RPATH @loader_path]"
  # A link out of the tree ships nothing, even though the file exists here.
  mv s/lib/libv.1.dylib outside/
  rm s/lib/libv.dylib
  ln -s "$PWD/outside/libv.1.dylib" s/lib/libv.dylib
  out=$(LG check --portable s); status=$?
  expect_equal "$status" 1 "a link out of the tree: $out"
  expect_contains "$out" "s/lib/libu.dylib: violation: LC_LOAD_DYLIB @rpath/libv.dylib (arm64) is an @rpath name that resolves to no file of the tree"
  # A loop of links, and a directory link to the tree's parent: no hang.
  ln -s loop1 s/lib/loop2
  ln -s loop2 s/lib/loop1
  ln -s .. s/lib/up
  mac -shared u.cpp -o s/lib/libu.dylib outside/libv.1.dylib -Wl,-rpath,@loader_path \
    -Wl,-install_name,@rpath/libu.dylib
  "$LLVM_BIN/llvm-install-name-tool" -change @rpath/libv.dylib @rpath/loop1 s/lib/libu.dylib 2>/dev/null ||
    mac -shared u.cpp -o s/lib/libu.dylib -Wl,-rpath,@loader_path outside/libv.1.dylib
  lg_timeout 20 "$LINKGUARD_BIN" check --portable s >out.txt 2>&1; status=$?
  expect_equal "$status" 1 "links that loop: $(cat out.txt)"
  out=$(LG inspect s); status=$?
  expect_equal "$status" 0 "inspect s"
  expect_not_contains "$out" "outside" "the walk follows no link"

  TEST "names that are not UTF-8 keep the JSON valid and print escaped"
  mkdir -p u/lib
  echo 'extern "C" int q() { return 1; }' >q.cpp
  echo 'extern "C" int q(); extern "C" int p() { return q(); }' >p.cpp
  name=$(printf 'lib\377q.dylib')
  mac -shared q.cpp -o "u/lib/$name" -Wl,-install_name,"@rpath/$name"
  mac -shared p.cpp -o u/lib/libp.dylib "u/lib/$name" -Wl,-rpath,@loader_path
  out=$(LG check --portable u); status=$?
  expect_equal "$status" 0 "check --portable u: $out"
  LG check --portable --json u | python3 -c '
import json, sys
d = json.load(sys.stdin)
p = [p for f in d["files"] for p in f["placements"] if "dependencyEscaped" in p][0]
assert p["dependencyEscaped"] == "@rpath/lib\\xffq.dylib", p
assert p["fileEscaped"] == "u/lib/lib\\xffq.dylib", p
' || test_failed "the JSON of a name that is not UTF-8"
  out=$(LG inspect --tree u)
  expect_contains "$out" '@rpath/lib\xffq.dylib => u/lib/lib\xffq.dylib [shipped: LC_RPATH @loader_path]'

  TEST "the walk is bounded: a tree deeper than 64 levels is undecided (92), not a hang"
  d=deep
  for _ in $(seq 70); do d=$d/d; done
  mkdir -p "$d"
  cp s/lib/libu.dylib deep/
  LG check --portable deep >out.txt 2>&1; status=$?
  expect_equal "$status" 92 "deep tree: $(cat out.txt)"
  expect_contains "$(cat out.txt)" "deeper than 64 levels"

  TEST "70 binaries: each is judged as itself, also when the walk may hold few descriptors (ulimit -n 32)"
  # The walk hands each binary's descriptor to the read (at most 64, and an
  # eighth of the descriptor limit): those past it are opened by name. Four
  # of 70 copies need a library nobody ships; exactly those four are named.
  mkdir -p many
  echo 'int m(void) { return 1; }' >m.c
  "$CLANG" -shared -fPIC m.c -o libmissing.so -Wl,-soname,libmissing.so || test_failed libmissing.so
  "$CLANG" -shared -fPIC m.c -o good.so || test_failed good.so
  "$CLANG" -shared -fPIC m.c -o bad.so -L. -lmissing || test_failed bad.so
  for i in $(seq 70); do
    case $i in 3 | 40 | 66 | 69) cp bad.so "many/lib$i.so" ;; *) cp good.so "many/lib$i.so" ;; esac
  done
  for limit in unlimited 32; do
    out=$( (ulimit -n "$([ $limit = unlimited ] && ulimit -Hn || echo $limit)" &&
      LG check --portable many) 2>&1); st=$?
    expect_equal "$st" 1 "70 binaries (ulimit -n $limit): $out"
    expect_equal "$(printf '%s\n' "$out" | grep -c 'libmissing.so')" 4 "four findings (ulimit -n $limit): $out"
    for i in 3 40 66 69; do expect_contains "$out" "many/lib$i.so: violation: DT_NEEDED libmissing.so"; done
    expect_contains "$out" "70 files, 4 violations, 0 kept, 0 unknown, 0 errors"
  done

  TEST "a directory of more than 200,000 names is undecided (92) as soon as it is listed"
  # The walk holds at most 200,000 names in all (TreeLimits::MaxEntries):
  # past them it stops listing, so one huge directory does not fill memory.
  # big holds a directory 70 levels deep and 200,000 other names: read to
  # its end before the entries were counted, the listing went on to the
  # depth limit first ("deeper than 64 levels") unless the file system
  # listed d among the last 65 names. Hard links: 200,000 new inodes take a minute on a loaded
  # machine, links a few seconds (ext4 allows 65,000 links to one file).
  d=big/d
  for _ in $(seq 69); do d=$d/d; done
  mkdir -p "$d"
  python3 -c '
import os
for k in range(4):
    open("f%d" % k, "w").close()
for i in range(200000):
    os.link("f%d" % (i % 4), "big/f%d" % i)
' || test_failed "200,000 links in big"
  LG check --portable big >out.txt 2>&1; status=$?
  rm -rf big
  expect_equal "$status" 92 "check --portable big: $(cat out.txt)"
  expect_contains "$(cat out.txt)" "big: more than 200000 entries; the tree is too big to judge"
  expect_not_contains "$(cat out.txt)" "deeper than"

  TEST "a directory of the tree its user cannot open is an error (66), never skipped"
  # Fail closed: what a directory nobody may open holds is not judged, so
  # the tree is not said to hold. Checked as nobody (root opens anything),
  # in a tree under a directory nobody may enter.
  if ! command -v setpriv >/dev/null || [ "$(id -u)" != 0 ]; then
    echo "  (needs root and setpriv to check as another user: not run)"
  else
    top=$(mktemp -d /tmp/linkguard-walk.XXXXXX) || test_failed "mktemp -d"
    mkdir -p "$top/t/lib" "$top/t/sealed"
    echo 'int u(void) { return 1; }' >u.c
    "$CLANG" -shared -fPIC u.c -o "$top/t/lib/libu.so" || test_failed libu.so
    cp "$top/t/lib/libu.so" "$top/t/sealed/"
    chmod -R a+rX "$top" && chmod 000 "$top/t/sealed"
    out=$(cd "$top" && XDG_CONFIG_HOME=$top/xdg XDG_STATE_HOME=$top/xdg \
      setpriv --reuid=65534 --regid=65534 --clear-groups "$LINKGUARD_BIN" check --portable t 2>&1); status=$?
    rm -rf "$top"
    expect_equal "$status" 66 "check --portable t (t/sealed mode 000) as nobody: $out"
    expect_contains "$out" "t/sealed: Permission denied"
  fi

  TEST "ELF: DT_RPATH is inherited down the chain, DT_RUNPATH is not (and ld.so agrees)"
  elf_tree rp --disable-new-dtags
  elf_tree rn --enable-new-dtags
  expect_contains "$("$LLVM_BIN/llvm-readelf" -d rp/bin/app)" "(RPATH)"
  expect_contains "$("$LLVM_BIN/llvm-readelf" -d rn/bin/app)" "(RUNPATH)"
  # What ld.so does with each tree: the RPATH one runs, the RUNPATH one
  # cannot find libb.so for liba.so.
  rp/bin/app || test_failed "rp/bin/app should run (DT_RPATH is inherited)"
  err=$(rn/bin/app 2>&1); st=$?
  expect_equal "$st" 127 "rn/bin/app: $err"
  expect_contains "$err" "libb.so: cannot open shared object file"
  out=$(LG check --portable rp); status=$?
  expect_equal "$status" 0 "DT_RPATH tree: $out"
  out=$(LG check --portable rn); status=$?
  expect_equal "$status" 1 "DT_RUNPATH tree: $out"
  expect_contains "$out" "rn/lib/liba.so: violation: DT_NEEDED libb.so (x86_64), loaded under rn/bin/app, is a DT_NEEDED name that resolves to no file of the tree"
  out=$(LG inspect --tree rp)
  expect_contains "$out" "libb.so => rp/lib/libb.so [shipped: DT_RPATH \$ORIGIN/../lib of rp/bin/app]"

  TEST "ELF: an object with both DT_RUNPATH and DT_RPATH searches no DT_RPATH (a shape no linker writes)"
  # ld.lld and GNU ld write one or the other. Crafted from a real link: the
  # DT_SONAME entry, whose string is "$ORIGIN/sub", retagged DT_RPATH.
  mkdir -p both/bin both/lib/sub both/lib/other
  echo 'int b(void) { return 7; }' >b.c
  echo 'int b(void); int a(void) { return b(); }' >a.c
  echo 'int a(void); int main(void) { return a() == 7 ? 0 : 1; }' >main.c
  "$CLANG" -shared -fPIC b.c -o both/lib/sub/libb.so -Wl,-soname,libb.so || test_failed libb.so
  "$CLANG" -shared -fPIC a.c -o both/lib/liba.so -Wl,-soname,'$ORIGIN/sub' \
    both/lib/sub/libb.so -Wl,--enable-new-dtags -Wl,-rpath,'$ORIGIN/other' || test_failed liba.so
  python3 - both/lib/liba.so <<'PY' || test_failed "retagging DT_SONAME"
import struct, sys
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
phoff, = struct.unpack_from("<Q", data, 0x20)
phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
for i in range(phnum):
    p_type, _, p_offset, _, _, p_filesz = struct.unpack_from("<IIQQQQ", data, phoff + i * phentsize)
    if p_type == 2:  # PT_DYNAMIC
        for off in range(p_offset, p_offset + p_filesz, 16):
            tag, = struct.unpack_from("<q", data, off)
            if tag == 14:  # DT_SONAME -> DT_RPATH
                struct.pack_into("<q", data, off, 15)
open(path, "wb").write(data)
PY
  readelf=$("$LLVM_BIN/llvm-readelf" -d both/lib/liba.so)
  expect_contains "$readelf" "Library rpath: [\$ORIGIN/sub]"
  expect_contains "$readelf" "Library runpath: [\$ORIGIN/other]"
  "$CLANG" main.c -o both/bin/app -Lboth/lib -la -Wl,-rpath-link,both/lib/sub \
    -Wl,-rpath,'$ORIGIN/../lib' || test_failed app
  # ld.so ignores liba.so's DT_RPATH: libb.so in lib/sub is not found.
  err=$(both/bin/app 2>&1); st=$?
  expect_equal "$st" 127 "both/bin/app: $err"
  expect_contains "$err" "libb.so: cannot open shared object file"
  out=$(LG check --portable both); status=$?
  expect_equal "$status" 1 "DT_RPATH beside DT_RUNPATH: $out"
  expect_contains "$out" "both/lib/liba.so: violation: DT_NEEDED libb.so (x86_64), loaded under both/bin/app, is a DT_NEEDED name that resolves to no file of the tree"
  # The same tree with libb.so where DT_RUNPATH points: it runs, and holds.
  mv both/lib/sub/libb.so both/lib/other/
  both/bin/app || test_failed "both/bin/app with libb.so in lib/other"
  out=$(LG check --portable both); status=$?
  expect_equal "$status" 0 "libb.so under DT_RUNPATH: $out"

  TEST "ELF: a library named in DT_NEEDED must be findable under that name, not only its DT_SONAME"
  mkdir -p so/bin so/lib
  echo 'int foo(void) { return 0; }' >foo.c
  echo 'int foo(void); int main(void) { return foo(); }' >main.c
  "$CLANG" -shared -fPIC foo.c -o so/lib/libfoo.so.1.2 -Wl,-soname,libfoo.so.1 || test_failed foo
  "$CLANG" main.c -o so/bin/app so/lib/libfoo.so.1.2 -Wl,-rpath,'$ORIGIN/../lib' || test_failed app
  expect_contains "$("$LLVM_BIN/llvm-readelf" -d so/bin/app)" "Shared library: [libfoo.so.1]"
  # A Python extension: a .so nothing names needs no SONAME.
  "$CLANG" -shared -fPIC foo.c -o so/lib/_ext.so || test_failed _ext.so
  err=$(so/bin/app 2>&1); st=$?
  expect_equal "$st" 127 "so/bin/app without the link: $err"
  out=$(LG check --portable so); status=$?
  expect_equal "$status" 1 "no libfoo.so.1 link: $out"
  expect_contains "$out" "so/lib/libfoo.so.1.2 has DT_SONAME libfoo.so.1 but no file or link is named libfoo.so.1 where the loader looks"
  expect_not_contains "$out" "_ext.so: violation"
  expect_contains "$out" "so/lib/_ext.so: holds"
  ln -s libfoo.so.1.2 so/lib/libfoo.so.1
  so/bin/app || test_failed "so/bin/app with the link"
  out=$(LG check --portable so); status=$?
  expect_equal "$status" 0 "with the link libfoo.so.1: $out"
  expect_contains "$out" "linkguard check: 3 files,"

  TEST "a wheel is a tree; a symlink entry in a zip is installed as a file of its target's name"
  mkdir -p wh/pkg/lib
  echo 'int b(void) { return 1; }' >b.c
  echo 'int b(void); int a(void) { return b(); }' >a.c
  "$CLANG" -shared -fPIC b.c -o wh/pkg/lib/libb.so.1 -Wl,-soname,libb.so.1 || test_failed libb
  "$CLANG" -shared -fPIC a.c -o wh/pkg/_a.so wh/pkg/lib/libb.so.1 -Wl,-rpath,'$ORIGIN/lib' ||
    test_failed _a.so
  python3 - <<'PY' || test_failed "writing wheels"
import zipfile, stat
def link(z, name, target):
    i = zipfile.ZipInfo(name)
    i.create_system = 3
    i.external_attr = (stat.S_IFLNK | 0o777) << 16
    z.writestr(i, target)
with zipfile.ZipFile("good.whl", "w", zipfile.ZIP_DEFLATED) as z:
    z.write("wh/pkg/_a.so", "pkg/_a.so")
    z.write("wh/pkg/lib/libb.so.1", "pkg/lib/libb.so.1")
with zipfile.ZipFile("linked.whl", "w", zipfile.ZIP_DEFLATED) as z:
    z.write("wh/pkg/_a.so", "pkg/_a.so")
    z.write("wh/pkg/lib/libb.so.1", "pkg/lib/libb.so.1.0")
    link(z, "pkg/lib/libb.so.1", "libb.so.1.0")
PY
  out=$(LG check --portable good.whl); status=$?
  expect_equal "$status" 0 "good.whl: $out"
  out=$(LG check --portable linked.whl); status=$?
  expect_equal "$status" 1 "linked.whl: $out"
  # pip's ZipBackedFile.save copies an entry's bytes whatever its mode: the
  # link is a regular file holding "libb.so.1.0", and ld.so's open_verify
  # stops there ("file too short") before any later directory.
  expect_contains "$out" "linked.whl!pkg/_a.so: violation: DT_NEEDED libb.so.1 (x86_64) ld.so stops at"
  expect_contains "$out" "file too short (an installed member that is no ELF file)"
  if python3 -m venv v >/dev/null 2>&1 && [ -x v/bin/pip ] &&
    cp linked.whl linked-1.0-py3-none-any.whl &&
    python3 - linked-1.0-py3-none-any.whl <<'PY' && v/bin/pip install -q --no-index --no-deps linked-1.0-py3-none-any.whl >pip.log 2>&1; then
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "a") as z:
    z.writestr("linked-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
    z.writestr("linked-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: linked\nVersion: 1.0\n")
    z.writestr("linked-1.0.dist-info/RECORD", "")
PY
    f=$(echo v/lib/python3*/site-packages/pkg/lib/libb.so.1)
    [ -f "$f" ] && [ ! -L "$f" ] || test_failed "pip did not write $f as a regular file"
    expect_equal "$(cat "$f")" "libb.so.1.0" "pip writes the link's entry as its bytes"
    out2=$(v/bin/python -c 'import ctypes, sys; ctypes.CDLL(sys.argv[1])' "$(dirname "$f")/../_a.so" 2>&1)
    expect_contains "$out2" "file too short" "ld.so on pip's install"
  else
    echo "  (no pip evidence here: $(tail -1 pip.log 2>/dev/null))"
  fi

  TEST "one OpenMP runtime per closure: libomp under two install names aborts with OMP #15"
  mkdir -p o/bin o/lib
  echo 'extern "C" int omp_get_num_threads() { return 1; } extern "C" int omp_get_max_threads() { return 1; }' >omp.cpp
  mac -shared omp.cpp -o o/lib/libomp.dylib -Wl,-install_name,@rpath/libomp.dylib
  echo 'extern "C" int omp_get_max_threads(); extern "C" int model() { return omp_get_max_threads(); }' >model.cpp
  mac -shared model.cpp -o o/lib/model.dylib -Wl,-install_name,@rpath/model.dylib -Lsdk/omp -lomp  # PyTorch's baked /opt/llvm-openmp path
  echo 'extern "C" int omp_get_num_threads(); extern "C" int model(); int main() { return omp_get_num_threads() + model(); }' >m.cpp
  mac m.cpp -o o/bin/runner o/lib/libomp.dylib o/lib/model.dylib -Wl,-rpath,@executable_path/../lib
  out=$(LG check --unique openmp o); status=$?
  expect_equal "$status" 1 "--unique openmp o: $out"
  expect_contains "$out" "o/bin/runner: violation: the load closure of o/bin/runner (arm64) holds two openmp runtimes: o/lib/libomp.dylib (loaded by o/bin/runner) and /opt/llvm-openmp/lib/libomp.dylib (loaded by o/lib/model.dylib)"
  expect_contains "$out" "OMP: Error #15"
  # A single file: its closure, followed from where it is.
  out=$(LG check --unique openmp o/bin/runner); status=$?
  expect_equal "$status" 1 "--unique openmp o/bin/runner: $out"
  expect_contains "$out" "OMP: Error #15"
  out=$(LG check --portable --json o); status=$?
  expect_equal "$status" 1 "--portable turns --unique openmp on"
  echo "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
rules = [f["rule"] for x in d["files"] for f in x["findings"]]
assert "unique openmp" in rules and "portable" in rules, rules
' || test_failed "both findings in JSON"
  # The control: one runtime, one closure.
  mac -shared model.cpp -o o/lib/model.dylib -Wl,-install_name,@rpath/model.dylib o/lib/libomp.dylib
  out=$(LG check --unique openmp o); status=$?
  expect_equal "$status" 0 "one libomp: $out"

  TEST "ELF: libgomp with libomp is a conflict too, without the OMP #15 abort"
  mkdir -p g/bin g/lib
  echo 'int omp_get_num_threads(void) { return 1; }' >gomp.c
  "$CLANG" -shared -fPIC gomp.c -o g/lib/libgomp.so.1 -Wl,-soname,libgomp.so.1 || test_failed gomp
  "$CLANG" -shared -fPIC gomp.c -o g/lib/libomp.so -Wl,-soname,libomp.so || test_failed omp
  echo 'int main(void) { return 0; }' >main.c
  "$CLANG" main.c -o g/bin/app -Wl,--no-as-needed g/lib/libgomp.so.1 g/lib/libomp.so \
    -Wl,-rpath,'$ORIGIN/../lib' || test_failed app
  out=$(LG check --unique openmp g); status=$?
  expect_equal "$status" 1 "libgomp + libomp: $out"
  expect_contains "$out" "holds two openmp runtimes: g/lib/libgomp.so.1 (loaded by g/bin/app) and g/lib/libomp.so (loaded by g/bin/app); each keeps its own thread pool"
  expect_not_contains "$out" "OMP: Error #15"

  TEST "check --portable FILE and DIR agree on each load path form, as ld.so and dyld take it"
  # shellcheck disable=SC2016 # '$ORIGIN', '$FOO', '$PLATFORM' are ld.so's
  {
    echo 'int dep(void) { return 7; }' >dep.c
    echo 'int dep(void); int main(void) { return dep() == 7 ? 0 : 1; }' >main.c
    # An unknown $FOO in a runpath is text ld.so keeps (glibc
    # _dl_dst_substitute): the directory named "$FOO" beside the program.
    mkdir -p foo/'$FOO'
    "$CLANG" -shared -fPIC dep.c -o foo/'$FOO'/libdep.so -Wl,-soname,libdep.so || test_failed libdep
    "$CLANG" main.c -o foo/app foo/'$FOO'/libdep.so -Wl,--enable-new-dtags \
      -Wl,-rpath,'$ORIGIN/$FOO' || test_failed app
    expect_contains "$("$LLVM_BIN/llvm-readelf" -d foo/app)" 'Library runpath: [$ORIGIN/$FOO]'
    expect_status 0 foo/app # ld.so really loads foo/$FOO/libdep.so
    same_verdict 0 foo app
    # A DT_NEEDED name's tokens are expanded before ld.so searches it
    # (elf/dl-deps.c expand_dst): a file named libdep-$PLATFORM.so is not
    # what it loads, and what $PLATFORM is depends on the machine.
    mkdir -p plat
    "$CLANG" -shared -fPIC dep.c -o plat/'libdep-$PLATFORM.so' -Wl,-soname,'libdep-$PLATFORM.so' ||
      test_failed libdep-platform
    "$CLANG" main.c -o plat/app plat/'libdep-$PLATFORM.so' -Wl,-rpath,'$ORIGIN' || test_failed app
    expect_contains "$("$LLVM_BIN/llvm-readelf" -d plat/app)" 'Shared library: [libdep-$PLATFORM.so]'
    plat/app 2>err.txt && test_failed "plat/app loaded libdep-\$PLATFORM.so by its literal name"
    expect_not_contains "$(cat err.txt)" '$PLATFORM' "ld.so expanded the name"
    same_verdict 92 plat app
    # A per-file rule's unknown (--unused on an ELF without symbol versions)
    # leaves a tree undecided as it does the file (docs/check.md, 92): the
    # tree printed "unknown" and said "holds", exit 0.
    mkdir -p unv
    "$CLANG" -shared -fPIC dep.c -o unv/libdep.so -Wl,-soname,libdep.so || test_failed libdep
    "$CLANG" main.c -o unv/app unv/libdep.so -Wl,-rpath,'$ORIGIN' || test_failed app
    expect_status 0 unv/app
    same_verdict 92 unv app --unused
    expect_contains "$(LG check --portable --unused unv)" "0 errors: undecided"
  }
  # Mach-O: @executable_path in a dylib is the main executable's directory
  # (dyld Loader::expandAtExecutablePath), not the dylib's: undecided
  # without --executable, decided with it.
  mkdir -p ex
  echo 'extern "C" int f() { return 1; }' >f.cpp
  echo 'extern "C" int f(); extern "C" int plug() { return f(); }' >plug.cpp
  mac -shared f.cpp -o ex/libF.dylib -Wl,-install_name,@rpath/libF.dylib
  mac -shared plug.cpp -o ex/plug.dylib ex/libF.dylib -Wl,-rpath,@executable_path
  same_verdict 92 ex plug.dylib
  same_verdict 0 ex plug.dylib --executable ex/Host
  same_verdict 1 ex plug.dylib --executable elsewhere/Host
  # An LC_RPATH with an @ prefix dyld does not expand is tried only against
  # the current directory (Loader::forEachResolvedAtPathVar): it ships
  # nothing, decidably.
  mkdir -p at
  cp ex/libF.dylib at/
  # (lld reads an argument "@FILE" as a response file when FILE exists.)
  mac -shared plug.cpp -o at/plug.dylib at/libF.dylib -Wl,-rpath,@plugin_dir/lib
  expect_contains "$("$LLVM_BIN/llvm-otool" -l at/plug.dylib)" "path @plugin_dir/lib"
  same_verdict 1 at plug.dylib

  TEST "a '..' after a directory that does not exist finds nothing, as the kernel walks it"
  # ld.so and dyld open the expanded path as it stands: 'nonexistent/..'
  # fails (ENOENT) where its lexical form names a shipped file. Both the
  # file and the tree said "holds".
  # shellcheck disable=SC2016 # '$ORIGIN' is ld.so's
  {
    echo 'int dep(void) { return 7; }' >dep.c
    echo 'int dep(void); int main(void) { return dep() == 7 ? 0 : 1; }' >main.c
    mkdir -p dd nd
    "$CLANG" -shared -fPIC dep.c -o dd/libdep.so -Wl,-soname,libdep.so || test_failed libdep
    "$CLANG" main.c -o dd/app dd/libdep.so -Wl,--enable-new-dtags \
      -Wl,-rpath,'$ORIGIN/nonexistent/..' || test_failed app
    dd/app 2>err.txt && test_failed "ld.so loaded dd/libdep.so through nonexistent/.."
    expect_contains "$(cat err.txt)" "libdep.so: cannot open shared object file"
    same_verdict 1 dd app
    expect_contains "$(LG check --portable dd/app)" "nonexistent/../libdep.so (a directory before '..' is missing)"
    # A DT_NEEDED path: the same.
    "$CLANG" -shared -fPIC dep.c -o nd/libdep.so -Wl,-soname,'$ORIGIN/nonexistent/../libdep.so' ||
      test_failed libdep-path
    "$CLANG" main.c -o nd/app nd/libdep.so || test_failed app-path
    expect_contains "$("$LLVM_BIN/llvm-readelf" -d nd/app)" 'Shared library: [$ORIGIN/nonexistent/../libdep.so]'
    nd/app 2>/dev/null && test_failed "ld.so loaded nd/libdep.so through nonexistent/.."
    same_verdict 1 nd app
    # Through a directory that exists, '..' is what it always was.
    mkdir -p nd/sub
    "$CLANG" -shared -fPIC dep.c -o nd/libdep.so -Wl,-soname,'$ORIGIN/sub/../libdep.so' ||
      test_failed libdep-sub
    "$CLANG" main.c -o nd/app nd/libdep.so || test_failed app-sub
    expect_status 0 nd/app
    same_verdict 0 nd app
  }

  TEST "a library that is a link out of the bundle root ships nothing: the file as the tree"
  # lib/libdep.so -> /elsewhere/libdep.so loads here only; the tree said so
  # ("a link out of the tree names nothing"), check --portable FILE "holds".
  # shellcheck disable=SC2016 # '$ORIGIN' is ld.so's
  {
    echo 'int dep(void) { return 7; }' >dep.c
    echo 'int dep(void); int main(void) { return dep() == 7 ? 0 : 1; }' >main.c
    mkdir -p out lk in
    "$CLANG" -shared -fPIC dep.c -o out/libdep.so -Wl,-soname,libdep.so || test_failed libdep
    ln -s "$PWD/out/libdep.so" lk/libdep.so
    "$CLANG" main.c -o lk/app lk/libdep.so -Wl,-rpath,'$ORIGIN' || test_failed app
    expect_status 0 lk/app # loads here, through the link
    same_verdict 1 lk app
    # ld.so opens the machine's file through the link: host-dependent
    # (issue 37: a link out of the tree is the machine's file, not nothing).
    expect_contains "$(LG check --portable lk/app)" ", outside the tree): it loads only where the machine has it"
    # A link that stays inside is the file it names.
    "$CLANG" -shared -fPIC dep.c -o in/libdep.so.1 -Wl,-soname,libdep.so || test_failed libdep.1
    ln -s libdep.so.1 in/libdep.so
    "$CLANG" main.c -o in/app in/libdep.so -Wl,-rpath,'$ORIGIN' || test_failed app-in
    expect_status 0 in/app
    same_verdict 0 in app
  }

  TEST "a tree whose search paths x names pass the closure's bound is undecided, not 'holds' after minutes"
  # Each directory tried costs what a resolution does (ClosureOptions::MaxEdges,
  # 4 Mi): 300 names x 20,001 DT_RUNPATH entries (a 300 KB file) are 6 M
  # tries; 30 times the file is 180 M, and the search grows as the square of
  # the file's size. Before, only names counted: "holds", whatever it cost.
  # shellcheck disable=SC2016 # '$ORIGIN' is ld.so's
  {
    mkdir -p big
    # hidden: 300 copies of one exported name are rule one-definer's, not this test's
    echo '__attribute__((visibility("hidden"))) int x;' >e.c
    "$CLANG" -c -fPIC e.c -o e.o || test_failed e.o
    local i libs=()
    for i in $(seq 1 300); do
      "$LLVM_BIN/ld.lld" -shared -soname "libm$i.so" e.o -o "big/libm$i.so" || test_failed "libm$i"
      libs+=("big/libm$i.so")
    done
    python3 -c "print('-rpath \'' + ':'.join('\$ORIGIN/d%d' % i for i in range(20000)) + ':\$ORIGIN\'')" >rp.rsp
    echo 'int main(void) { return 0; }' >m.c
    "$CLANG" m.c -o big/app -fuse-ld=lld -Wl,--no-as-needed "${libs[@]}" -Wl,--enable-new-dtags \
      -Wl,@rp.rsp || test_failed app
    expect_status 0 big/app # ld.so loads it
    out=$(LG check --portable big 2>&1); status=$?
    expect_equal "$status" 92 "check --portable big: $(echo "$out" | tail -3)"
    expect_contains "$out" "whose search is past the bound"
  }

  TEST "a runpath directory behind 38 links: its candidates count those links toward ELOOP, as the kernel does (issue 37 part 5)"
  # The search walks each directory once and a candidate from the
  # directory's real path; the links before it still count: 38 + 2 is 40,
  # which the kernel follows (ld.so loads it), 38 + 3 is ELOOP (it does not).
  # shellcheck disable=SC2016 # '$ORIGIN' is ld.so's
  {
    mkdir -p chain/lib
    echo 'int x(void) { return 0; }' >x.c
    "$CLANG" -shared -fPIC x.c -o chain/lib/libx.real.so -Wl,-soname,libx.so || test_failed libx
    ln -s c chain/lib/libx.so && ln -s libx.real.so chain/lib/c
    local k
    for k in $(seq 0 36); do ln -s "l$((k + 1))" "chain/l$k"; done
    ln -s lib chain/l37
    echo 'int x(void); int main(void) { return x(); }' >m.c
    "$CLANG" m.c -o chain/app -Lchain/lib -l:libx.so -Wl,--enable-new-dtags \
      -Wl,-rpath,'$ORIGIN/l0' || test_failed app
    expect_status 0 chain/app # ld.so: 40 links
    LG check --portable chain >out.txt 2>&1
    expect_equal "$?" 0 "check --portable chain, 40 links: $(cat out.txt)"
    LG check --portable chain/app >out.txt 2>&1
    expect_equal "$?" 0 "check --portable chain/app, 40 links: $(cat out.txt)"
    rm chain/lib/c && ln -s d chain/lib/c && ln -s libx.real.so chain/lib/d
    chain/app 2>/dev/null
    expect_equal "$?" 127 "ld.so, 41 links"
    LG check --portable chain >out.txt 2>&1
    expect_equal "$?" 1 "check --portable chain, 41 links: $(cat out.txt)"
    expect_contains "$(cat out.txt)" "l0/libx.so (too many levels of symbolic links)"
  }

  TEST "a message names at most 8 tried paths and counts the rest: Mach-O, as a file and as a tree (issue 37 part 5)"
  # Before, every LC_RPATH tried was named: thousands of them made a crafted
  # executable's output 65 MB. 20 LC_RPATHs, none holding the name.
  {
    mkdir -p many
    printf -- '--- !tapi-tbd\ntbd-version: 4\ntargets: [ arm64-macos ]\ninstall-name: %s\ncurrent-version: 0\n...\n' \
      "'@rpath/libgone.dylib'" >gone.tbd
    echo 'int main(void) { return 0; }' >many.c
    local i rp=()
    for i in $(seq 0 19); do rp+=("-Wl,-rpath,@loader_path/d$i"); done
    mac many.c gone.tbd "${rp[@]}" -o many/app
    local out
    for target in many/app many; do
      out=$(LG check --portable "$target" 2>&1)
      expect_contains "$out" "LC_RPATH @loader_path/d7 -> "
      expect_contains "$out" ", and 12 more)"
      case $out in *d8/libgone*) test_failed "$target: a 9th try is named: $out" ;; esac
    done
  }

  TEST "a main program named through a link: its origin is its real file's, as ld.so and dyld take it"
  # ld.so's $ORIGIN of the main program comes from /proc/self/exe, links
  # resolved (glibc _dl_get_origin); dyld's @executable_path from its
  # mainExecutablePath, the real path. bin/app -> ../opt/real/app looks in
  # opt/lib, not lib/: check --portable through the link said "holds".
  # shellcheck disable=SC2016 # '$ORIGIN' is ld.so's
  {
    echo 'int dep(void) { return 7; }' >dep.c
    echo 'int dep(void); int main(void) { return dep() == 7 ? 0 : 1; }' >main.c
    mkdir -p t/bin t/opt/real t/lib
    "$CLANG" -shared -fPIC dep.c -o t/lib/libdep.so -Wl,-soname,libdep.so || test_failed libdep
    "$CLANG" main.c -o t/opt/real/app t/lib/libdep.so -Wl,--enable-new-dtags \
      -Wl,-rpath,'$ORIGIN/../lib' || test_failed app
    ln -s ../opt/real/app t/bin/app
    t/bin/app 2>err.txt && test_failed "ld.so loaded t/lib/libdep.so through the link"
    expect_contains "$(cat err.txt)" "libdep.so: cannot open shared object file"
    out=$(LG check --portable --bundle-root=t t/bin/app); status=$?
    expect_equal "$status" 1 "check --portable t/bin/app: $out"
    expect_contains "$out" "tried DT_RUNPATH \$ORIGIN/../lib -> $PWD/t/opt/lib/libdep.so"
    same_verdict 1 t bin/app --bundle-root=t
  }
  # Mach-O: --executable names the host through a link; @executable_path is
  # the directory of the file it names.
  mkdir -p ex/bin
  echo 'extern "C" int f() { return 1; }' >f.cpp
  echo 'extern "C" int f(); extern "C" int plug() { return f(); }' >plug.cpp
  echo 'int main() { return 0; }' >host.cpp
  mac -shared f.cpp -o ex/libF.dylib -Wl,-install_name,@rpath/libF.dylib
  mac -shared plug.cpp -o ex/plug.dylib ex/libF.dylib -Wl,-rpath,@executable_path
  mac host.cpp -o ex/Host
  ln -s ../Host ex/bin/Host
  same_verdict 0 ex plug.dylib --executable ex/bin/Host
  # A dylib named through a link: dyld's @loader_path is the directory of
  # the file it mapped (the tree judges that file).
  mkdir -p ml/lib ml/opt/real
  echo 'extern "C" int b() { return 1; }' >b.cpp
  echo 'extern "C" int b(); extern "C" int a() { return b(); }' >a.cpp
  mac -shared b.cpp -o ml/lib/libB.dylib -Wl,-install_name,@rpath/libB.dylib
  mac -shared a.cpp -o ml/opt/real/libA.dylib ml/lib/libB.dylib -Wl,-rpath,@loader_path/../lib
  ln -s ../opt/real/libA.dylib ml/lib/libA.dylib
  out=$(LG check --portable --bundle-root=ml ml/lib/libA.dylib); status=$?
  expect_equal "$status" 1 "check --portable ml/lib/libA.dylib: $out"
  expect_contains "$out" "$PWD/ml/opt/lib/libB.dylib"

  TEST "inspect DIR lists every binary; inspect --tree --json nests the closure; try-load DIR is a usage error"
  app_tree a2
  out=$(LG inspect a2); status=$?
  expect_equal "$status" 0 "inspect a2"
  expect_contains "$out" "a2/bin/app:"
  expect_contains "$out" "a2/lib/libB.dylib:"
  expect_not_contains "$out" "README"
  LG inspect --tree --json a2 | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["schema"] == "linkguard-inspect-tree/2", d["schema"]
roots = [r["path"] for r in d["files"]]
assert roots == ["a2/bin/app"], roots
a = [x for x in d["files"][0]["dependencies"] if x["dependency"] == "@rpath/libA.dylib"][0]
b = [x for x in a["dependencies"] if x["dependency"] == "@rpath/libB.dylib"][0]
assert b["file"] == "a2/lib/libB.dylib" and b["placement"] == "shipped", b
' || test_failed "inspect --tree --json"
  LG try-load a2 >out.txt 2>&1; status=$?
  expect_equal "$status" 64 "try-load a2: $(cat out.txt)"
  expect_contains "$(cat out.txt)" "a directory"
}
