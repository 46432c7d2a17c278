# inspect --tree --why and check --why (issue 36 item 4): under each
# dependency, every path the loader tries, in its order, with why each was
# passed over or taken, as the resolvers (shipment/LdSo.cpp, Dyld.cpp)
# recorded them while placing the edge. ELF trees are run under the real
# ld.so with LD_DEBUG=libs, whose "trying file=" lines must be linkguard's
# list (tests/e2e/why_ldso.py: differential, nothing hard-coded). Each
# test fails on a3a5d7e (no --why: usage error, no "tried" in JSON).

SUITE_inspect_why_PROBE() {
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  command -v python3 >/dev/null || { echo "python3 not found"; return; }
  local tool
  for tool in clang clang++ ld.lld ld64.lld obj2yaml yaml2obj; do
    [ -x "$LLVM_BIN/$tool" ] || { echo "$LLVM_BIN/$tool not found"; return; }
  done
}

LG() { "$LINKGUARD_BIN" "$@"; }

# The ELF tests need this machine's ld.so (x86-64: the glibc-hwcaps levels).
why_ldso_ok() {
  [ "$(uname -s)" = Linux ] && [ "$(uname -m)" = x86_64 ] && [ -x /lib64/ld-linux-x86-64.so.2 ]
}

# wlib DIR NAME [ARGS...]: DIR/NAME, an x86-64 shared library defining f_NAME.
wlib() {
  local dir=$1 name=$2; shift 2
  mkdir -p "$dir"
  echo "int f_${name//[^a-zA-Z0-9]/_}(void){return 0;}" >"$name.c"
  "$CLANG" -shared -fPIC -o "$dir/$name" "$name.c" "$@" || test_failed "building $dir/$name"
}

# wapp TREE RUNPATH NEEDED...: TREE/bin/app with DT_RUNPATH RUNPATH.
wapp() {
  local tree=$1 rp=$2; shift 2
  mkdir -p "$tree/bin"
  echo 'int main(void){return 0;}' >main.c
  local needed=() n
  for n in "$@"; do needed+=(-l:"$n"); done
  "$CLANG" -o "$tree/bin/app" main.c -L"$tree/lib" -Wl,--no-as-needed "${needed[@]}" \
    -Wl,--enable-new-dtags -Wl,-rpath,"$rp" || test_failed "building $tree/bin/app"
}

# differential TREE: bin/app under ld.so (LD_DEBUG=libs, an empty
# environment) against inspect --tree --why --json; prints ld.so's status.
differential() {
  local tree=$1 st
  env -i LD_DEBUG=libs "$tree/bin/app" 2>trace.txt >/dev/null; st=$?
  /lib64/ld-linux-x86-64.so.2 --help >ldso-help.txt
  LG inspect --tree --why --json "$tree" >why.json || true
  python3 "$LINKGUARD_SOURCE_DIR/tests/e2e/why_ldso.py" why.json trace.txt ldso-help.txt \
    >diff.txt 2>&1 || test_failed "linkguard's tried list is not ld.so's: $(cat diff.txt)"
  echo "$st"
}

# tried_of JSON NAME: "reason path [detail]" lines of bin/app's dependency NAME.
tried_of() {
  python3 - "$1" "$2" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
def walk(deps):
    for d in deps:
        if d["dependency"] == sys.argv[2] and "tried" in d:
            for t in d["tried"]:
                print(t["reason"], t["path"], "[" + t["detail"] + "]")
            print("notListed", d["triedNotListed"])
            sys.exit(0)
        walk(d.get("dependencies", []))
for r in doc["files"]:
    walk(r["dependencies"])
PY
}

SUITE_inspect_why() {
  TEST "ELF: --why lists ld.so's own tries in its order: an absolute entry, a missing directory, \$ORIGIN/.., a wrong machine, the hit"
  if why_ldso_ok; then
    tree=$(pwd -P)/t
    host=$(pwd -P)/hostdir # the machine's directory: outside the tree, empty
    mkdir -p "$host" "$tree/lib/x86_64" "$tree/wrong"
    wlib "$tree/lib/sub" libz.so
    wlib "$tree/lib" libx.so -L"$tree/lib/sub" -l:libz.so -Wl,--enable-new-dtags -Wl,-rpath,'$ORIGIN/sub'
    wlib "$tree/lib" liby.so
    # Another machine's copy first: ld.so skips it (open_verify) and goes on.
    echo 'int f_x(void){return 0;}' >ax.c
    "$CLANG" --target=aarch64-linux-gnu -nostdlib -shared -fuse-ld=lld -o "$tree/wrong/libx.so" ax.c ||
      test_failed "building the aarch64 libx.so"
    wapp "$tree" "$host:\$ORIGIN/../nodir:\$ORIGIN/..:\$ORIGIN/../wrong:\$ORIGIN/../lib" libx.so liby.so
    st=$(differential "$tree")
    expect_equal "$st" 0 "ld.so runs bin/app ($(tail -3 trace.txt))"
    expect_contains "$(cat diff.txt)" "libx.so: " "libx.so compared"
    expect_contains "$(cat diff.txt)" "liby.so: " "liby.so compared (the directories ld.so remembers)"
    expect_contains "$(cat diff.txt)" "libz.so: " "libz.so compared (libx.so's own DT_RUNPATH)"
    x=$(tried_of why.json libx.so)
    expect_contains "$x" "host-dependent $host/libx.so" "the absolute entry"
    expect_contains "$x" "missing $tree/bin/../nodir/libx.so [no such directory]"
    expect_contains "$x" "missing $tree/bin/../nodir/glibc-hwcaps/x86-64-v3/libx.so [no such directory]"
    expect_contains "$x" "missing $tree/bin/../libx.so []" "\$ORIGIN/.. (the tree's top) holds none"
    expect_contains "$x" "wrong-architecture $tree/bin/../wrong/libx.so [another machine (e_machine 183): skipped]"
    expect_equal "$(printf '%s\n' "$x" | tail -2 | head -1)" "accepted $tree/bin/../lib/libx.so []" "the hit is last"
    y=$(tried_of why.json liby.so)
    expect_contains "$y" "missing-directory $tree/bin/../nodir/liby.so" "a directory found missing is not tried again"
    expect_not_contains "$y" "nodir/glibc-hwcaps" "nor its subdirectories"
    expect_contains "$y" "missing $tree/bin/../lib/x86_64/liby.so" "an existing legacy subdirectory is tried every time"
    # Text: one line a candidate, at an indent no dependency line has.
    out=$(LG inspect --tree --why "$tree")
    expect_contains "$out" "      - wrong-architecture: $tree/bin/../wrong/libx.so (DT_RUNPATH \$ORIGIN/../wrong: another machine (e_machine 183): skipped)"
    expect_contains "$out" "      - accepted: $tree/bin/../lib/libx.so (DT_RUNPATH \$ORIGIN/../lib)"
    expect_contains "$out" "          - accepted: $tree/bin/../lib/sub/libz.so (DT_RUNPATH \$ORIGIN/sub)" \
      "libx.so's own search, under it (its \$ORIGIN: the path it was opened by, '..' kept)"
    # Without --why: the tree as it was, no candidate.
    expect_not_contains "$(LG inspect --tree "$tree")" "- accepted:"
    expect_not_contains "$(LG inspect --tree --json "$tree")" '"tried"'
  else
    echo "  (not an x86-64 Linux: ld.so's trace not compared)"
  fi

  TEST "ELF: a too-short file ends ld.so's search there; --why says not-loadable, and so does the violation"
  if why_ldso_ok; then
    tree=$(pwd -P)/t
    wlib "$tree/lib" libx.so
    mkdir -p "$tree/short" && : >"$tree/short/libx.so"
    wapp "$tree" "\$ORIGIN/../short:\$ORIGIN/../lib" libx.so
    st=$(differential "$tree")
    expect_equal "$st" 127 "ld.so stops at the empty file ($(tail -3 trace.txt))"
    x=$(tried_of why.json libx.so)
    expect_contains "$x" "not-loadable $tree/bin/../short/libx.so [file too short; ld.so stops here: the load fails]"
    expect_not_contains "$x" "$tree/bin/../lib/libx.so" "nothing after the file that ends the load"
    # check: one line a finding; --why adds the candidates under it.
    out=$(LG check --portable "$tree"); st=$?
    expect_equal "$st" 1 "check --portable: $out"
    expect_not_contains "$out" "- not-loadable:" "one line a finding without --why"
    out=$(LG check --portable --why "$tree")
    expect_contains "$out" "    - not-loadable: $tree/bin/../short/libx.so (DT_RUNPATH \$ORIGIN/../short: file too short; ld.so stops here: the load fails)"
    # JSON: the finding's tried list is inspect's (one search, one truth).
    LG check --portable --json "$tree" >check.json
    python3 - check.json why.json <<'PY' || test_failed "the finding's tried list is not the tree's"
import json, sys
check, tree = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
f = [x for f in check["files"] for x in f["findings"] if x["dependency"] == "libx.so"][0]
d = [d for r in tree["files"] for d in r["dependencies"] if d["dependency"] == "libx.so"][0]
assert f["tried"] == d["tried"] and f["triedNotListed"] == 0, (f["tried"], d["tried"])
assert all(set(t) == {"path", "via", "reason", "detail"} for t in f["tried"]), f["tried"]
PY
  else
    echo "  (not an x86-64 Linux: ld.so's trace not compared)"
  fi

  TEST "ELF: a PIE, an object file: ld.so stops at each; --why names which"
  if why_ldso_ok; then
    for kind in pie rel; do
      tree=$(pwd -P)/$kind
      wlib "$tree/lib" libx.so
      mkdir -p "$tree/bad"
      echo 'int main(void){return 0;}' >pie.c
      if [ $kind = pie ]; then
        "$CLANG" -fPIE -pie -o "$tree/bad/libx.so" pie.c || test_failed "the PIE"
        want="cannot dynamically load position-independent executable; ld.so stops here: the load fails"
      else
        "$CLANG" -fPIC -c -o "$tree/bad/libx.so" pie.c || test_failed "the object file"
        want="only ET_DYN and ET_EXEC can be loaded; ld.so stops here: the load fails"
      fi
      wapp "$tree" "\$ORIGIN/../bad:\$ORIGIN/../lib" libx.so
      st=$(differential "$tree")
      expect_equal "$st" 127 "ld.so stops at the $kind ($(tail -2 trace.txt))"
      expect_contains "$(tried_of why.json libx.so)" "not-loadable $tree/bin/../bad/libx.so [$want]"
    done
  else
    echo "  (not an x86-64 Linux: ld.so's trace not compared)"
  fi

  TEST "ELF: DT_RPATH is inherited: libb.so of liba.so is searched in bin/app's DT_RPATH, as ld.so does"
  if why_ldso_ok; then
    tree=$(pwd -P)/t
    wlib "$tree/lib" libb.so
    wlib "$tree/lib" liba.so -L"$tree/lib" -l:libb.so
    mkdir -p "$tree/a" "$tree/bin"
    echo 'int main(void){return 0;}' >main.c
    "$CLANG" -o "$tree/bin/app" main.c -L"$tree/lib" -Wl,--no-as-needed -l:liba.so \
      -Wl,--disable-new-dtags -Wl,-rpath,'$ORIGIN/../a:$ORIGIN/../lib' || test_failed "bin/app"
    st=$(differential "$tree")
    expect_equal "$st" 0 "ld.so runs bin/app ($(tail -3 trace.txt))"
    expect_contains "$(cat diff.txt)" "libb.so: " "libb.so compared"
    b=$(LG inspect --tree --why "$tree")
    expect_contains "$b" "- accepted: $tree/bin/../lib/libb.so (DT_RPATH \$ORIGIN/../lib of $tree/bin/app)"
  else
    echo "  (not an x86-64 Linux: ld.so's trace not compared)"
  fi

  TEST "ELF: an unresolved name's violation carries every candidate; names are escaped"
  tree=$(pwd -P)/t
  wlib "$tree/lib" libx.so
  mkdir -p "$tree/bin"
  echo 'int main(void){return 0;}' >main.c
  "$CLANG" -o "$tree/bin/app" main.c -L"$tree/lib" -l:libx.so -Wl,--enable-new-dtags \
    -Wl,-rpath,$'$ORIGIN/../we\nird:$ORIGIN/../none' || test_failed "building bin/app"
  rm "$tree/lib/libx.so"
  out=$(LG check --portable --why "$tree"); st=$?
  expect_equal "$st" 1 "check --portable --why: $out"
  expect_contains "$out" "- missing: $tree/bin/../we\\nird/libx.so (DT_RUNPATH \$ORIGIN/../we\\nird: no such directory)"
  expect_contains "$out" "- missing: $tree/bin/../none/libx.so (DT_RUNPATH \$ORIGIN/../none: no such directory)"
  expect_equal "$(printf '%s\n' "$out" | grep -c '^ird')" 0 "no line forged by the newline"
  LG check --portable --json "$tree" >check.json
  python3 - check.json <<'PY' || test_failed "the finding's JSON: $(cat check.json)"
import json, sys
f = [x for f in json.load(open(sys.argv[1]))["files"] for x in f["findings"]][0]
assert f["kind"] == "violation" and f["dependency"] == "libx.so", f
paths = [t["path"] for t in f["tried"]]
assert paths[-1].endswith("/bin/../none/libx.so") and f["tried"][-1]["reason"] == "missing", paths
assert any("we\nird/libx.so" in p for p in paths), paths
PY

  TEST "Mach-O: the first LC_RPATH's copy is another architecture, the second's loads; --why says which"
  write_sdk sdk
  tree=$(pwd -P)/t
  mkdir -p "$tree/bin" "$tree/x86" "$tree/lib"
  echo 'extern "C" int f_foo() { return 1; }' >foo.cpp
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk x86_64) -nostdlib++ -shared foo.cpp -o "$tree/x86/libfoo.dylib" \
    -Wl,-install_name,@rpath/libfoo.dylib || test_failed "the x86_64 libfoo"
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk) -nostdlib++ -shared foo.cpp -o "$tree/lib/libfoo.dylib" \
    -Wl,-install_name,@rpath/libfoo.dylib || test_failed "the arm64 libfoo"
  echo 'extern "C" int f_foo(); int main() { return f_foo(); }' >main.cpp
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk) -nostdlib++ main.cpp -o "$tree/bin/app" "$tree/lib/libfoo.dylib" \
    -Wl,-rpath,@executable_path/../x86 -Wl,-rpath,@executable_path/../lib || test_failed "bin/app"
  LG inspect --tree --why --json "$tree" >why.json
  x=$(tried_of why.json @rpath/libfoo.dylib)
  expect_equal "$(printf '%s\n' "$x" | head -1)" \
    "wrong-architecture $tree/bin/../x86/libfoo.dylib [mach-o file, but is an incompatible architecture (have 'x86_64', need 'arm64e or arm64')]" \
    "dyld's first path: another architecture"
  expect_equal "$(printf '%s\n' "$x" | sed -n 2p)" "accepted $tree/bin/../lib/libfoo.dylib []" "the second loads"
  expect_equal "$(printf '%s\n' "$x" | wc -l | tr -d ' ')" 3 "two candidates, and the count line"
  out=$(LG check --portable "$tree"); st=$?
  expect_equal "$st" 0 "check --portable holds: $out"
  # Without the right copy: unresolved, and the violation names both.
  rm "$tree/lib/libfoo.dylib"
  out=$(LG check --portable --why "$tree"); st=$?
  expect_equal "$st" 1 "check --portable: $out"
  expect_contains "$out" "    - wrong-architecture: $tree/bin/../x86/libfoo.dylib (LC_RPATH @executable_path/../x86: mach-o file, but is an incompatible architecture"
  expect_contains "$out" "    - missing: $tree/bin/../lib/libfoo.dylib (LC_RPATH @executable_path/../lib: no such file)"

  TEST "Mach-O: a bundle, another platform's dylib, one dyld refuses: --why names each refusal, then the dylib that loads"
  # dyld-1378 Loader::getLoader: each refused candidate is recorded in
  # "tried:" and the next LC_RPATH is tried (JustInTimeLoader::
  # makeJustInTimeLoaderDisk, MachOFile::compatibleSlice, Header::valid).
  write_sdk sdk
  tree=$(pwd -P)/t
  mkdir -p "$tree/bin" "$tree/b" "$tree/i" "$tree/d" "$tree/lib"
  echo 'extern "C" int f_foo() { return 1; }' >foo.cpp
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk) -nostdlib++ -bundle foo.cpp -o "$tree/b/libfoo.dylib" || test_failed "the bundle"
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk) -nostdlib++ -shared foo.cpp -o "$tree/lib/libfoo.dylib" \
    -Wl,-install_name,@rpath/libfoo.dylib || test_failed "libfoo"
  # The same dylib, LC_BUILD_VERSION platform 2 (iOS).
  "$LLVM_BIN/obj2yaml" "$tree/lib/libfoo.dylib" | sed 's/platform:        1$/platform:        2/' |
    "$LLVM_BIN/yaml2obj" -o "$tree/i/libfoo.dylib" || test_failed "the iOS copy"
  # SDK 15.4 and one LC_RPATH twice: dyld refuses it (duplicate LC_RPATH).
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk) -nostdlib++ -shared foo.cpp -o dup.dylib -Wl,-install_name,@rpath/libfoo.dylib \
    -Wl,-rpath,@loader_path/a -Wl,-rpath,@loader_path/b -Wl,-platform_version,macos,11.0,15.4 || test_failed "dup"
  "$LLVM_BIN/obj2yaml" dup.dylib | sed 's#@loader_path/b#@loader_path/a#' |
    "$LLVM_BIN/yaml2obj" -o "$tree/d/libfoo.dylib" || test_failed "the duplicate LC_RPATH copy"
  echo 'extern "C" int f_foo(); int main() { return f_foo(); }' >main.cpp
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk) -nostdlib++ main.cpp -o "$tree/bin/app" "$tree/lib/libfoo.dylib" \
    -Wl,-rpath,@executable_path/../b -Wl,-rpath,@executable_path/../i \
    -Wl,-rpath,@executable_path/../d -Wl,-rpath,@executable_path/../lib || test_failed "bin/app"
  LG inspect --tree --why --json "$tree" >why.json
  x=$(tried_of why.json @rpath/libfoo.dylib)
  expect_equal "$(printf '%s\n' "$x" | sed -n 1p)" "not-loadable $tree/bin/../b/libfoo.dylib [cannot link against bundle]"
  expect_equal "$(printf '%s\n' "$x" | sed -n 2p)" \
    "not-loadable $tree/bin/../i/libfoo.dylib [mach-o file, but incompatible platform (have platform 2, need platform 1)]"
  expect_contains "$(printf '%s\n' "$x" | sed -n 3p)" \
    "not-loadable $tree/bin/../d/libfoo.dylib [duplicate LC_RPATH '@loader_path/a' (mach_o::Header::valid,"
  expect_equal "$(printf '%s\n' "$x" | sed -n 4p)" "accepted $tree/bin/../lib/libfoo.dylib []"

  TEST "bounded: the crafted 4,000-entry DT_RUNPATH x 200 names stays under 1 MB with --why"
  python3 "$LINKGUARD_SOURCE_DIR/scripts/lib/crafted_runpath.py" crafted --clang "$CLANG" >/dev/null ||
    test_failed "crafted_runpath.py"
  LG inspect --tree --why crafted >why.txt 2>why.err
  LG inspect --tree --why --json crafted >why.json 2>>why.err
  LG check --portable --why crafted >check.txt 2>>why.err
  LG check --portable --why --json crafted >check.json 2>>why.err
  for f in why.txt why.json check.txt check.json; do
    size=$(file_size "$f")
    [ "$size" -le 1048576 ] || test_failed "$f is $size bytes, over 1 MB"
    [ "$size" -gt 10000 ] || test_failed "$f is $size bytes: nothing listed? $(head -c 500 "$f")"
  done
  expect_contains "$(cat why.txt)" "more not listed (the bound of --why)"
  python3 - why.json <<'PY' || test_failed "the bounds"
import json, sys
deps = json.load(open(sys.argv[1]))["files"][0]["dependencies"]
listed = [len(d["tried"]) for d in deps if "tried" in d]
assert max(listed) <= 256, max(listed)          # shipment::MaxWhyListed
assert sum(listed) <= 1024, sum(listed)         # shipment::MaxWhyPerRoot
first = [d for d in deps if d["dependency"] == "libcrafted0.so"][0]
# ld.so's first search: 4,000 directories, each after its 32 optional
# subdirectories (3 glibc-hwcaps levels, 29 legacy ones of any x86-64
# machine: LdSo.cpp optionalSubdirs), each counted past the bound.
assert first["triedNotListed"] + len(first["tried"]) == 4000 * 33, first["triedNotListed"]
PY
}
