# `linkguard inspect`, differentially: every fixture is a real cross-link
# (../shared/README.md recipe) or a yaml2obj description, and what
# linkguard prints is compared with LLVM's own tools:
#   dependencies  = llvm-otool -L (llvm-objdump --macho --arch all
#                   --dylibs-used for universal files), llvm-readelf -d
#   import owners = llvm-objdump --macho --bind --lazy-bind --weak-bind for
#                   opcode files, --chained-fixups for -fixup_chains files.
# Each Mach-O fixture is linked twice: default opcodes and -fixup_chains.

SUITE_inspect_PROBE() {
  local tool
  for tool in clang++ ld64.lld llvm-otool llvm-objdump llvm-lipo yaml2obj llvm-readelf; do
    [ -x "$LLVM_BIN/$tool" ] || { echo "$LLVM_BIN/$tool not found"; return; }
  done
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  probe_chained_fixups
}

SUITE_inspect_SETUP() {
  write_sdk sdk
  write_tbd foo/libfoo.tbd /usr/local/lib/libfoo.1.dylib _foo_fn _foo_data
  write_tbd bar/libbar.tbd @rpath/libbar.dylib _bar_fn
  cat >use_omp.cpp <<'EOF'
extern "C" int omp_get_num_threads();
extern "C" int k() { return omp_get_num_threads(); }
EOF
  cat >plain.cpp <<'EOF'
extern "C" int k() { return 42; }
EOF
  cat >use_all.cpp <<'EOF'
extern "C" int omp_get_num_threads();
extern "C" int foo_fn();
extern "C" int bar_fn();
extern "C" int k() { return omp_get_num_threads() + foo_fn() + bar_fn(); }
EOF
  cat >use_foo.cpp <<'EOF'
extern "C" int foo_fn();
extern "C" int k() { return foo_fn(); }
EOF
  cat >use_bar.cpp <<'EOF'
extern "C" int bar_fn();
extern "C" int k() { return bar_fn(); }
EOF
  cat >dyn.cpp <<'EOF'
extern "C" int dyn_a();
extern "C" int dyn_b();
extern "C" int omp_get_num_threads();
extern "C" int k() { return dyn_a() + dyn_b() + omp_get_num_threads(); }
EOF
}

# link OUT SOURCE [ARCH] -- LINK_FLAGS...: a Mach-O link with the stubs.
link() {
  local out=$1 src=$2 arch=arm64
  shift 2
  if [ "${1:-}" != "--" ]; then arch=$1; shift; fi
  shift
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk "$arch") -nostdlib++ "$src" -o "$out" \
      -Lsdk/omp -Lfoo -Lbar "$@" 2>link.err \
    || test_failed "link of $out failed: $(cat link.err)"
}

# Text dependency list must equal llvm-otool -L byte for byte.
expect_deps_match_otool() {
  local f=$1 ours theirs
  ours=$("$LINKGUARD_BIN" inspect "$f") || test_failed "inspect $f exited $?"
  if "$LLVM_BIN/llvm-lipo" -info "$f" 2>/dev/null | grep -q '^Architectures in the fat file'; then
    theirs=$("$LLVM_BIN/llvm-objdump" --macho --arch all --dylibs-used "$f")
  else
    theirs=$("$LLVM_BIN/llvm-otool" -L "$f")
  fi
  expect_equal "$ours" "$theirs" "inspect $f vs otool -L"
}

# "owner symbol" pairs from `inspect --symbols`, owner spelled the way
# llvm-objdump spells it (libfoo.1.dylib -> libfoo; flat-namespace).
our_bindings() {
  "$LINKGUARD_BIN" inspect --symbols "$1" | awk -v want="$2" '
    /^\t[^\t]/ {
      line = substr($0, 2)
      if (line == "dynamic lookup:") owner = "flat-namespace"
      else if (line == "weak lookup:") owner = "weak"
      else if (line == "executable:") owner = "main-executable"
      else if (line ~ /:$/) owner = "?"
      else { n = line; sub(/ \(compat.*$/, "", n); sub(/.*\//, "", n)
             sub(/\.dylib$/, "", n); sub(/\..*$/, "", n); owner = n }
      next
    }
    /^\t\t/ {
      l = substr($0, 3)
      if (l ~ /^referenced:/) next
      split(l, a, " "); src = a[2]; gsub(/[(),]/, "", src)
      if (want == "opcodes" && src != "bind" && src != "lazy-bind" && src != "weak-bind") next
      if (want == "chained" && src != "chained-fixup") next
      print owner, a[1]
    }' | sort -u
}

objdump_opcode_bindings() {
  "$LLVM_BIN/llvm-objdump" --macho --bind --lazy-bind --weak-bind "$1" | awk '
    /^Bind table:/ { t = "bind"; next }
    /^Lazy bind table:/ { t = "lazy"; next }
    /^Weak bind table:/ { t = "weak"; next }
    /^segment/ || NF < 4 { next }
    {
      sym = $NF
      if (sym == "(weak_import)") { sym = $(NF-1); lib = $(NF-2) } else lib = $(NF-1)
      if (t == "weak") { if ($0 ~ /strong/) next; lib = "weak" }
      print lib, sym
    }' | sort -u
}

objdump_chained_bindings() {
  "$LLVM_BIN/llvm-objdump" --macho --chained-fixups "$1" | awk '
    /lib_ordinal =/ { lib = $0; sub(/.*\(/, "", lib); sub(/\).*/, "", lib) }
    /name_offset =/ { sym = $0; sub(/.*\(/, "", sym); sub(/\).*/, "", sym)
                      if (lib == "weak") print "weak", sym; else print lib, sym }' | sort -u
}

expect_bindings_match_objdump() { # FILE opcodes|chained
  local ours theirs
  ours=$(our_bindings "$1" "$2")
  if [ "$2" = chained ]; then theirs=$(objdump_chained_bindings "$1")
  else theirs=$(objdump_opcode_bindings "$1"); fi
  expect_equal "$ours" "$theirs" "symbol owners of $1 vs llvm-objdump ($2)"
}

# referenced FILE NAME_SUBSTRING: yes / no / unknown / absent
referenced() {
  "$LINKGUARD_BIN" inspect --symbols "$1" 2>/dev/null | awk -v n="$2" '
    /^\t[^\t]/ { cur = index($0, n) > 0 ? 1 : 0; next }
    cur && /^\t\treferenced:/ { print $2; found = 1; exit }
    END { if (!found) print "absent" }'
}

# Both link styles, with every check that applies.
check_macho() { # FILE
  expect_deps_match_otool "$1"
  case $1 in
    *.chained.*) expect_bindings_match_objdump "$1" chained ;;
    *) expect_bindings_match_objdump "$1" opcodes ;;
  esac
}

SUITE_inspect() {
  local style

  TEST "libomp linked but unused: listed, not referenced; dropped under -dead_strip_dylibs"
  for style in opcodes chained; do
    local fc=; [ $style = chained ] && fc=-Wl,-fixup_chains
    link "keep.$style.dylib" plain.cpp -- -shared -lomp $fc
    link "drop.$style.dylib" plain.cpp -- -shared -lomp -Wl,-dead_strip_dylibs $fc
    check_macho "keep.$style.dylib"
    check_macho "drop.$style.dylib"
    expect_equal "$(referenced "keep.$style.dylib" libomp)" no "libomp in keep.$style"
    expect_equal "$(referenced "drop.$style.dylib" libomp)" absent "libomp in drop.$style"
  done

  TEST "libomp used (omp_get_num_threads): referenced, kept under -dead_strip_dylibs"
  for style in opcodes chained; do
    local fc=; [ $style = chained ] && fc=-Wl,-fixup_chains
    link "used.$style.dylib" use_omp.cpp -- -shared -lomp -Wl,-dead_strip_dylibs $fc
    check_macho "used.$style.dylib"
    expect_equal "$(referenced "used.$style.dylib" libomp)" yes "libomp in used.$style"
    expect_contains "$("$LINKGUARD_BIN" inspect --symbols "used.$style.dylib")" \
      "$(printf '\t\t_omp_get_num_threads')"
  done

  TEST "weak dylib (-weak-lfoo, -weak_library)"
  for style in opcodes chained; do
    local fc=; [ $style = chained ] && fc=-Wl,-fixup_chains
    link "weak.$style.dylib" use_foo.cpp -- -shared -Wl,-weak-lfoo $fc
    link "weaklib.$style.dylib" use_foo.cpp -- -shared -Wl,-weak_library,foo/libfoo.tbd $fc
    check_macho "weak.$style.dylib"
    check_macho "weaklib.$style.dylib"
    expect_contains "$("$LINKGUARD_BIN" inspect "weak.$style.dylib")" "current version 0.0.0, weak)"
    expect_equal "$(referenced "weak.$style.dylib" libfoo)" yes
    expect_contains "$("$LINKGUARD_BIN" inspect --json "weak.$style.dylib")" '"kind": "LC_LOAD_WEAK_DYLIB"'
  done

  TEST "re-exported dylib (-reexport-lbar)"
  for style in opcodes chained; do
    local fc=; [ $style = chained ] && fc=-Wl,-fixup_chains
    link "reexp.$style.dylib" plain.cpp -- -shared -Wl,-reexport-lbar $fc
    check_macho "reexp.$style.dylib"
    expect_contains "$("$LINKGUARD_BIN" inspect "reexp.$style.dylib")" "reexport)"
  done

  TEST "-needed-l keeps an unused library under -dead_strip_dylibs"
  for style in opcodes chained; do
    local fc=; [ $style = chained ] && fc=-Wl,-fixup_chains
    link "needed.$style.dylib" plain.cpp -- -shared -Wl,-needed-lomp -Wl,-dead_strip_dylibs $fc
    check_macho "needed.$style.dylib"
    expect_equal "$(referenced "needed.$style.dylib" libomp)" no "needed libomp"
  done

  TEST "-undefined dynamic_lookup imports are never attributed to a library"
  for style in opcodes chained; do
    local fc=; [ $style = chained ] && fc=-Wl,-fixup_chains
    link "dyn.$style.dylib" dyn.cpp -- -shared -undefined dynamic_lookup -lomp $fc
    check_macho "dyn.$style.dylib"
    local out
    out=$("$LINKGUARD_BIN" inspect --symbols "dyn.$style.dylib")
    expect_contains "$out" "$(printf '\tdynamic lookup:\n')"
    expect_equal "$(our_bindings "dyn.$style.dylib" all | grep _dyn_)" \
      "$(printf 'flat-namespace _dyn_a\nflat-namespace _dyn_b')" "dynamic lookup imports"
    expect_equal "$(referenced "dyn.$style.dylib" libomp)" yes
    # Without -lomp the libomp symbol is dynamic lookup too, and no library
    # may claim it.
    link "dyn_noomp.$style.dylib" dyn.cpp -- -shared -undefined dynamic_lookup $fc
    check_macho "dyn_noomp.$style.dylib"
    expect_contains "$("$LINKGUARD_BIN" inspect --symbols "dyn_noomp.$style.dylib")" \
      "$(printf '\t\t_omp_get_num_threads')"
    expect_equal "$(referenced "dyn_noomp.$style.dylib" libomp)" absent
  done

  TEST "several -rpath: LC_RPATH in order, as otool -l shows them"
  for style in opcodes chained; do
    local fc=; [ $style = chained ] && fc=-Wl,-fixup_chains
    link "rp.$style.dylib" use_bar.cpp -- -shared -lbar -Wl,-rpath,/opt/a \
      -Wl,-rpath,@loader_path/../lib -Wl,-rpath,@executable_path $fc
    check_macho "rp.$style.dylib"
    local ours theirs
    ours=$("$LINKGUARD_BIN" inspect --rpaths "rp.$style.dylib" | sed -n 's/^\tLC_RPATH //p')
    theirs=$("$LLVM_BIN/llvm-otool" -l "rp.$style.dylib" | awk '/cmd LC_RPATH/ { getline; getline; print $2 }')
    expect_equal "$ours" "$theirs" "rpaths"
    expect_equal "$(echo "$ours" | wc -l)" 3 "rpath count"
  done

  TEST "universal x86_64 + arm64 (llvm-lipo): every slice, and --arch"
  for style in opcodes chained; do
    local fc=; [ $style = chained ] && fc=-Wl,-fixup_chains
    link "a.$style.dylib" use_all.cpp arm64 -- -shared -lomp -lfoo -lbar $fc
    link "x.$style.dylib" use_all.cpp x86_64 -- -shared -lomp -lfoo -Wl,-weak-lbar $fc
    "$LLVM_BIN/llvm-lipo" -create "x.$style.dylib" "a.$style.dylib" -output "fat.$style.dylib" \
      || test_failed "lipo"
    expect_deps_match_otool "fat.$style.dylib"
    local arm
    arm=$("$LINKGUARD_BIN" inspect --arch arm64 "fat.$style.dylib")
    expect_contains "$arm" "fat.$style.dylib (architecture arm64):"
    expect_not_contains "$arm" "x86_64"
    expect_equal "$(echo "$arm" | tail -n +2)" "$("$LLVM_BIN/llvm-otool" -L "a.$style.dylib" | tail -n +2)" "arm64 slice"
    expect_status 64 "$LINKGUARD_BIN" inspect --arch armv7 "fat.$style.dylib" 2>/dev/null
  done

  TEST "an object file and a bundle"
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk) -c use_omp.cpp -o k.o 2>/dev/null || test_failed "compile"
  expect_deps_match_otool k.o
  expect_contains "$("$LINKGUARD_BIN" inspect --json k.o)" '"fileType": "object"'
  for style in opcodes chained; do
    local fc=; [ $style = chained ] && fc=-Wl,-fixup_chains
    link "b.$style.bundle" use_omp.cpp -- -bundle -lomp $fc
    check_macho "b.$style.bundle"
    expect_contains "$("$LINKGUARD_BIN" inspect --json "b.$style.bundle")" '"fileType": "bundle"'
    expect_equal "$(referenced "b.$style.bundle" libomp)" yes
  done

  TEST "yaml2obj shapes: upward and lazy dylibs, odd versions"
  "$LLVM_BIN/yaml2obj" "$LINKGUARD_SOURCE_DIR/tests/yaml/upward_lazy.yaml" -o shape.dylib || test_failed yaml2obj
  "$LLVM_BIN/yaml2obj" "$LINKGUARD_SOURCE_DIR/tests/yaml/rpath_only.yaml" -o rpath_only.dylib || test_failed yaml2obj
  check_macho shape.dylib
  expect_deps_match_otool rpath_only.dylib
  local out
  out=$("$LINKGUARD_BIN" inspect shape.dylib)
  expect_contains "$out" "current version 65535.255.255)"
  expect_contains "$out" "current version 10.11.12, upward)"
  expect_contains "$out" "lazy)"
  expect_equal "$(referenced shape.dylib libupward)" yes
  expect_equal "$(referenced shape.dylib liblazy)" yes
  expect_contains "$("$LINKGUARD_BIN" inspect --rpaths rpath_only.dylib)" "$(printf '\tLC_RPATH @loader_path/../lib')"
  # A bind to ordinal 7 of 2: libObject stops the table; linkguard warns,
  # exits 0, and no longer claims "not referenced".
  sed 's/Imm:             2$/Imm:             7/' \
    "$LINKGUARD_SOURCE_DIR/tests/yaml/upward_lazy.yaml" | "$LLVM_BIN/yaml2obj" -o badord.dylib \
    || test_failed yaml2obj
  out=$("$LINKGUARD_BIN" inspect --symbols badord.dylib 2>err.txt) || test_failed "badord exit $?"
  expect_contains "$(cat err.txt)" "linkguard: warning: badord.dylib: bind table:"
  expect_equal "$(referenced badord.dylib liblazy)" unknown

  TEST "ELF: NEEDED equals llvm-readelf -d; libomp referenced only when used"
  local cxx14=/usr/bin/clang++-14
  if [ ! -x $cxx14 ] || ! echo 'int main(){}' | $cxx14 -fopenmp -x c++ - -o /dev/null 2>/dev/null; then
    echo "  (no clang++-14 with libomp-dev: ELF OpenMP fixtures skipped)"
  else
    cat >omp_used.cpp <<'EOF'
#include <omp.h>
#include <cstdio>
extern "C" int e() { std::printf("x"); return omp_get_num_threads(); }
EOF
    $cxx14 -fopenmp -shared -fPIC omp_used.cpp -o libused.so || test_failed build
    $cxx14 -fopenmp -shared -fPIC plain.cpp -o libunused.so || test_failed build
    $cxx14 -fopenmp -shared -fPIC -Wl,--as-needed plain.cpp -o libasneeded.so || test_failed build
    $cxx14 -fopenmp -shared -fPIC plain.cpp -o librpath.so -Wl,--disable-new-dtags -Wl,-rpath,/r1:/r2 || test_failed build
    $cxx14 -fopenmp -shared -fPIC plain.cpp -o librunpath.so -Wl,--enable-new-dtags -Wl,-rpath,/r1 || test_failed build
    local f ours theirs
    for f in libused.so libunused.so libasneeded.so librpath.so librunpath.so; do
      ours=$("$LINKGUARD_BIN" inspect "$f" | tail -n +2 | sed 's/^\t//')
      theirs=$("$LLVM_BIN/llvm-readelf" -d "$f" | sed -n 's/.*(NEEDED).*Shared library: \[\(.*\)\]/\1/p')
      expect_equal "$ours" "$theirs" "NEEDED of $f"
      ours=$("$LINKGUARD_BIN" inspect --rpaths "$f" | sed -n 's/^\tDT_\(RPATH\|RUNPATH\) //p' | paste -sd:)
      theirs=$("$LLVM_BIN/llvm-readelf" -d "$f" | sed -n 's/.*Library r[a-z]*path: \[\(.*\)\]/\1/p' | paste -sd:)
      expect_equal "$ours" "$theirs" "rpath/runpath of $f"
    done
    expect_equal "$(referenced libused.so libomp)" yes
    expect_equal "$(referenced libused.so libc.so)" yes
    # crtbegin's weak hooks (__gmon_start__, _ITM_*) are unversioned but
    # bind nowhere: they do not hide that nothing uses libomp.
    expect_equal "$(referenced libunused.so libomp)" no
    # A strong unversioned import could come from any NEEDED: never guessed.
    printf 'extern "C" int foo() { return 1; }\n' >foo.cpp
    printf 'extern "C" int foo(); extern "C" int bar() { return foo(); }\n' >bar.cpp
    $cxx14 -shared -fPIC foo.cpp -o libfoo.so || test_failed build
    $cxx14 -fopenmp -shared -fPIC bar.cpp -L. -lfoo -o libbar.so || test_failed build
    expect_equal "$(referenced libbar.so libomp)" unknown
    expect_equal "$(referenced libbar.so libfoo)" unknown
    expect_equal "$(referenced libasneeded.so libomp)" absent
    expect_contains "$("$LINKGUARD_BIN" inspect --rpaths librpath.so)" "$(printf '\tDT_RPATH /r1\n\tDT_RPATH /r2')"
    expect_contains "$("$LINKGUARD_BIN" inspect --rpaths librunpath.so)" "$(printf '\tDT_RUNPATH /r1')"
    expect_contains "$("$LINKGUARD_BIN" inspect --symbols libused.so)" "$(printf '\t\tprintf (elf-version)')"
  fi

  TEST "several files: each reported, status of the first failure"
  link ok.dylib plain.cpp -- -shared
  echo "not an object" >text.txt
  local status
  out=$("$LINKGUARD_BIN" inspect ok.dylib missing.dylib text.txt ok.dylib 2>err.txt)
  status=$?
  expect_equal "$status" 66 "status"
  expect_equal "$(grep -c '^ok.dylib:' <<<"$out")" 2 "both good files printed"
  expect_equal "$(cat err.txt)" "$(printf 'linkguard: error: missing.dylib: No such file or directory\nlinkguard: error: text.txt: not an object file (to look for Mach-O/ELF images embedded in it, as in a .pte, add --scan)')"
  out=$("$LINKGUARD_BIN" inspect --json ok.dylib text.txt 2>/dev/null)
  expect_equal "$?" 65 "json status"
  expect_contains "$out" '"schema": "linkguard-inspect/1"'
  expect_contains "$out" '"kind": "malformed"'

  TEST "a file that cannot be read: its name escaped on stderr and in errors[]"
  "$LINKGUARD_BIN" inspect $'no\nsuch\e[31m.dylib' 2>err.txt
  expect_equal "$?" 66 "status"
  expect_equal "$(cat err.txt)" 'linkguard: error: no\nsuch\x1b[31m.dylib: No such file or directory' "one escaped line"
  out=$("$LINKGUARD_BIN" inspect --json $'no\xffsuch.dylib' 2>/dev/null)
  expect_equal "$(python3 -c 'import json,sys; e=json.load(sys.stdin)["errors"][0]; print(e["pathEscaped"], e["kind"])' <<<"$out")" \
    'no\xffsuch.dylib unreadable' "errors[] pathEscaped"
  "$LINKGUARD_BIN" check --mps-aot $'no\nsuch.dylib' 2>err.txt
  expect_equal "$(cat err.txt)" 'linkguard: error: no\nsuch.dylib: No such file or directory' "check: one escaped line"

  TEST "usage errors exit 64; --help exits 0"
  expect_status 64 "$LINKGUARD_BIN" inspect 2>/dev/null
  expect_status 64 "$LINKGUARD_BIN" inspect --frobnicate x 2>/dev/null
  expect_status 64 "$LINKGUARD_BIN" inspect --arch nonsense x 2>/dev/null
  expect_status 64 "$LINKGUARD_BIN" inspect --arch 2>/dev/null
  expect_contains "$("$LINKGUARD_BIN" inspect --help)" "USAGE: linkguard inspect"
}
