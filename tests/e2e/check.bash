# `linkguard check`: real cross-linked Mach-O and native ELF files judged
# against dependency contracts. The seed's proof comes first: an AOTI-shaped
# MPS model linked by the plain compiler names PyTorch's baked
# /opt/llvm-openmp/lib/libomp.dylib and is non-portable -- even when a file
# really sits at the path it names (the "passes for the wrong reason" trap);
# the same link through linkguard-clang++ is portable. Every passing check
# has a failing control, and llvm-otool / llvm-readelf confirm what the
# binary actually holds, independently of linkguard's reader.

SUITE_check_PROBE() {
  local tool
  for tool in clang++ ld64.lld llvm-otool llvm-readelf llvm-lipo; do
    [ -x "$LLVM_BIN/$tool" ] || { echo "$LLVM_BIN/$tool not found"; return; }
  done
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  [ -e "$(dirname "$LINKGUARD_BIN")/linkguard-clang++" ] ||
    { echo "no linkguard-clang++ beside $LINKGUARD_BIN"; return; }
  command -v python3 >/dev/null || { echo "python3 not found (JSON checks)"; return; }
}

SUITE_check_SETUP() {
  write_sdk sdk
}

LG() { "$LINKGUARD_BIN" "$@"; }
WRAPPER() { LINKGUARD_CXX=$CLANGXX "$(dirname "$LINKGUARD_BIN")/linkguard-clang++" "$@"; }

# aoti_objects DIR [omp]: compile the three AOTI translation units as
# cpp_builder does (its MPS flags on every phase).
aoti_objects() {
  local dir=$1 f
  write_aoti_model "$dir" ${2:+1}
  for f in wrapper kernel consts; do
    # shellcheck disable=SC2046
    $CLANGXX $(macho_flags sdk) "${AOTI_MPS_CFLAGS[@]}" -c "$dir/model.$f.cpp" \
      -o "$dir/$f.o" 2>/dev/null || test_failed "compiling model.$f.cpp"
  done
}

# aoti_link CC DIR OUT SDK: the link step cpp_builder renders (-lomp).
aoti_link() {
  local cc=$1 dir=$2 out=$3 s=$4
  # shellcheck disable=SC2046
  $cc $(macho_flags "$s") "${AOTI_MPS_CFLAGS[@]}" "$dir/wrapper.o" "$dir/kernel.o" \
    "$dir/consts.o" -o "$out" -lomp -L"$s/omp" -nostdlib++ 2>/dev/null ||
    test_failed "linking $out with $cc"
}

otool_deps() { "$LLVM_BIN/llvm-otool" -L "$1" | tail -n +2; }

SUITE_check() {
  TEST "seed proof: the plain MPS link is non-portable, the linkguard link is portable"
  aoti_objects m
  aoti_link "$CLANGXX" m plain.dylib sdk
  aoti_link WRAPPER m guarded.dylib sdk
  expect_contains "$(otool_deps plain.dylib)" /opt/llvm-openmp/lib/libomp.dylib "otool -L plain.dylib"
  expect_not_contains "$(otool_deps guarded.dylib)" libomp "otool -L guarded.dylib"
  out=$(LG check --portable plain.dylib); status=$?
  expect_equal "$status" 1 "check --portable plain.dylib"
  expect_contains "$out" "plain.dylib: violation: LC_LOAD_DYLIB /opt/llvm-openmp/lib/libomp.dylib (arm64) is an absolute path"
  expect_contains "$out" "linkguard check: 1 file, 1 violation, 0 kept, 0 unknown, 0 errors: broken"
  out=$(LG check --portable guarded.dylib); status=$?
  expect_equal "$status" 0 "check --portable guarded.dylib: $out"
  expect_contains "$out" "linkguard check: 1 file, 0 violations, 0 kept, 0 unknown, 0 errors: holds"

  TEST "seed proof: a real file at the baked path does not make it portable"
  # The build machine is the one place where a baked absolute path resolves.
  baked=$PWD/opt/llvm-openmp/lib/libomp.dylib
  write_sdk here-sdk
  write_tbd here-sdk/omp/libomp.tbd "$baked" _omp_get_num_threads _omp_get_max_threads
  echo 'extern "C" int omp_get_num_threads() { return 1; }' >omp.cpp
  mkdir -p "$(dirname "$baked")"
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk) -shared -nostdlib++ omp.cpp -o "$baked" \
    -Wl,-install_name,"$baked" || test_failed "building $baked"
  aoti_objects m
  aoti_link "$CLANGXX" m plain.dylib here-sdk
  aoti_link WRAPPER m guarded.dylib here-sdk
  expect_exists "$baked"
  expect_contains "$(otool_deps plain.dylib)" "$baked" "otool -L plain.dylib"
  out=$(LG check --portable --bundle-root "$PWD" plain.dylib); status=$?
  expect_equal "$status" 1 "check --portable plain.dylib with $baked present"
  expect_contains "$out" "LC_LOAD_DYLIB $baked (arm64) is an absolute path"
  expect_contains "$out" "the file exists on this machine"
  expect_status 0 LG check --portable --bundle-root "$PWD" guarded.dylib >/dev/null

  TEST "universal file: each slice is judged and named"
  echo 'extern "C" int k() { return 1; }' >k.cpp
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk arm64) -shared -nostdlib++ k.cpp -o k_arm64.dylib \
    -Lsdk/omp -Wl,-dead_strip_dylibs -lomp || test_failed "arm64 slice"
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk x86_64) -shared -nostdlib++ k.cpp -o k_x86_64.dylib \
    -Lsdk/omp -lomp || test_failed "x86_64 slice"
  "$LLVM_BIN/llvm-lipo" -create k_arm64.dylib k_x86_64.dylib -output fat.dylib ||
    test_failed "llvm-lipo"
  out=$(LG check --portable fat.dylib); status=$?
  expect_equal "$status" 1 "check --portable fat.dylib"
  expect_contains "$out" "fat.dylib (x86_64): violation: LC_LOAD_DYLIB /opt/llvm-openmp/lib/libomp.dylib is an absolute"
  expect_not_contains "$out" "arm64"

  TEST "@rpath: shipped under the bundle root, missing, provided, --search"
  echo 'extern "C" int foo_fn() { return 7; }' >foo.cpp
  echo 'extern "C" int foo_fn(); extern "C" int k() { return foo_fn(); }' >model.cpp
  mkdir -p root/lib root/models
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk) -shared -nostdlib++ foo.cpp -o root/lib/libfoo.dylib \
    -Wl,-install_name,@rpath/libfoo.dylib || test_failed "building libfoo.dylib"
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk) -shared -nostdlib++ model.cpp -o root/models/model.dylib \
    -Lroot/lib -lfoo -Wl,-rpath,@loader_path/../lib || test_failed "linking model.dylib"
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk) -shared -nostdlib++ model.cpp -o root/models/norpath.dylib \
    -Lroot/lib -lfoo || test_failed "linking norpath.dylib"
  expect_contains "$(otool_deps root/models/model.dylib)" "@rpath/libfoo.dylib"
  expect_contains "$("$LLVM_BIN/llvm-otool" -l root/models/model.dylib)" "path @loader_path/../lib"
  out=$(LG check --portable --bundle-root root root/models/model.dylib); status=$?
  expect_equal "$status" 0 "shipped @rpath lib: $out"
  json=$(LG check --portable --bundle-root root --json root/models/model.dylib)
  placement=$(printf '%s' "$json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
p = [p for p in d["files"][0]["placements"] if p["dependency"] == "@rpath/libfoo.dylib"][0]
print(p["placement"], p["via"], p["resolvedPath"])')
  expect_equal "$placement" "shipped LC_RPATH @loader_path/../lib $PWD/root/lib/libfoo.dylib"
  # The default bundle root is the binary's own directory: ../lib is outside.
  out=$(LG check --portable root/models/model.dylib); status=$?
  expect_equal "$status" 1 "default bundle root"
  expect_contains "$out" "LC_RPATH @loader_path/../lib -> $PWD/root/lib/libfoo.dylib (outside the tree"
  # No LC_RPATH: the @rpath name resolves nowhere until the application's
  # directory is named.
  expect_status 1 LG check --portable --bundle-root root root/models/norpath.dylib >/dev/null
  expect_status 0 LG check --portable --bundle-root root --search lib root/models/norpath.dylib >/dev/null
  rm root/lib/libfoo.dylib
  out=$(LG check --portable --bundle-root root root/models/model.dylib); status=$?
  expect_equal "$status" 1 "@rpath lib not shipped"
  expect_contains "$out" "LC_LOAD_DYLIB @rpath/libfoo.dylib (arm64) is an @rpath name that resolves to no file of the tree"
  expect_contains "$out" "LC_RPATH @loader_path/../lib -> $PWD/root/lib/libfoo.dylib"
  expect_status 0 LG check --portable --bundle-root root --provided libfoo.dylib root/models/model.dylib >/dev/null

  TEST "--forbid, --require, --unused, --forbid-unreferenced"
  aoti_objects m
  aoti_link "$CLANGXX" m plain.dylib sdk
  aoti_link WRAPPER m guarded.dylib sdk
  expect_status 1 LG check --forbid openmp plain.dylib >/dev/null
  expect_status 0 LG check --forbid openmp guarded.dylib >/dev/null
  expect_status 0 LG check --require libsystem guarded.dylib >/dev/null
  out=$(LG check --require 'libfoo*' guarded.dylib); status=$?
  expect_equal "$status" 1 "--require libfoo*"
  expect_contains "$out" "guarded.dylib: violation: no dependency matches 'libfoo*'"
  # --unused: -needed-l keeps an unused library under -dead_strip_dylibs.
  write_tbd bar/libbar.tbd @rpath/libbar.dylib _bar_fn
  echo 'extern "C" int k() { return 1; }' >k.cpp
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk) -shared -nostdlib++ k.cpp -o needed.dylib -Lbar \
    -Wl,-dead_strip_dylibs -Wl,-needed-lbar || test_failed "linking needed.dylib"
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk) -shared -nostdlib++ k.cpp -o stripped.dylib -Lbar \
    -Wl,-dead_strip_dylibs -lbar || test_failed "linking stripped.dylib"
  expect_contains "$(otool_deps needed.dylib)" "@rpath/libbar.dylib"
  expect_not_contains "$(otool_deps stripped.dylib)" "libbar"
  out=$(LG check --unused needed.dylib); status=$?
  expect_equal "$status" 1 "--unused needed.dylib"
  expect_contains "$out" "needed.dylib: violation: @rpath/libbar.dylib is a dependency that no imported symbol binds to"
  expect_status 0 LG check --unused stripped.dylib >/dev/null
  # With chained fixups nothing binds to libSystem (no dyld_stub_binder),
  # yet ld64 always keeps it: --unused must not fail on it.
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk) -shared -nostdlib++ k.cpp -o chained.dylib \
    -Wl,-fixup_chains || test_failed "linking chained.dylib"
  out=$(LG check --unused chained.dylib); status=$?
  expect_equal "$status" 0 "--unused chained.dylib: $out"
  expect_contains "$out" "chained.dylib: kept: /usr/lib/libSystem.B.dylib binds no symbol but stays"
  # A model that really calls OpenMP keeps libomp, and that is allowed.
  cat >omp_model.cpp <<'CPP'
extern "C" int omp_get_num_threads(void);
extern "C" int model_threads() { return omp_get_num_threads(); }
CPP
  # shellcheck disable=SC2046
  WRAPPER $(macho_flags sdk) "${AOTI_MPS_CFLAGS[@]}" -c omp_model.cpp -o omp_model.o 2>/dev/null
  # shellcheck disable=SC2046
  WRAPPER $(macho_flags sdk) "${AOTI_MPS_CFLAGS[@]}" omp_model.o -o uses_omp.dylib \
    -lomp -Lsdk/omp -nostdlib++ 2>/dev/null || test_failed "linking uses_omp.dylib"
  expect_contains "$(otool_deps uses_omp.dylib)" /opt/llvm-openmp/lib/libomp.dylib
  out=$(LG check --forbid-unreferenced openmp uses_omp.dylib); status=$?
  expect_equal "$status" 0 "--forbid-unreferenced openmp uses_omp.dylib: $out"
  expect_contains "$out" "uses_omp.dylib: kept: /opt/llvm-openmp/lib/libomp.dylib is kept: 1 imported symbol(s) bind to it (_omp_get_num_threads)"
  expect_status 1 LG check --forbid-unreferenced openmp plain.dylib >/dev/null
  expect_status 1 LG check --forbid openmp uses_omp.dylib >/dev/null
  # The driver's contract, from the command line.
  expect_status 0 LG check --mps-aot guarded.dylib uses_omp.dylib >/dev/null
  expect_status 1 LG check --mps-aot plain.dylib >/dev/null

  TEST "a file whose verdict cannot be decided is undecided (92), never holds (fail closed)"
  # ELF: a dependency found only through a RUNPATH holding \$PLATFORM depends
  # on the machine that loads it: unknown. Before, one file's unknown exited 0.
  mkdir -p undecided && echo 'int dep(void) { return 0; }' >undecided/dep.c
  echo 'int dep(void); int use(void) { return dep(); }' >undecided/use.c
  "$CLANG" -shared -fPIC undecided/dep.c -o undecided/libdep.so -Wl,-soname,libdep.so || test_failed libdep
  "$CLANG" -shared -fPIC undecided/use.c -o undecided/libuse.so undecided/libdep.so \
    -Wl,-rpath,'/opt/$PLATFORM/lib' || test_failed libuse
  out=$(LG check --portable undecided/libuse.so); status=$?
  expect_equal "$status" 92 "\$PLATFORM runpath: $out"
  expect_contains "$out" "unknown"
  expect_contains "$out" "linkguard check: 1 file, 0 violations, 0 kept, 1 unknown, 0 errors: undecided"
  # A violation still wins over it.
  out=$(LG check --portable --forbid libdep undecided/libuse.so); status=$?
  expect_equal "$status" 1 "a violation beside the unknown: $out"

  TEST "ELF: -fopenmp's RUNPATH is non-portable, a \$ORIGIN-shipped library is portable"
  if ! command -v clang++-14 >/dev/null; then
    echo "  (clang++-14 not found: ELF part not run)"
  else
    cat >par.cpp <<'CPP'
#include <omp.h>
extern "C" int threads() {
  int n = 0;
#pragma omp parallel
  n = omp_get_num_threads();
  return n;
}
CPP
    clang++-14 -fopenmp -fPIC -shared par.cpp -o libpar.so || test_failed "clang++-14 -fopenmp"
    dyn=$("$LLVM_BIN/llvm-readelf" -d libpar.so)
    expect_contains "$dyn" "Shared library: [libomp.so.5]"
    expect_contains "$dyn" "Library runpath: [/usr/lib/llvm-14/lib]"
    out=$(LG check --portable libpar.so); status=$?
    expect_equal "$status" 1 "check --portable libpar.so"
    # ld.so's search (shipment/LdSo.cpp): the machine's directory, so which
    # file loads depends on the machine (issue 37: host-dependent).
    expect_contains "$out" "libpar.so: violation: DT_NEEDED libomp.so.5 (x86_64) is a DT_NEEDED name that resolves to no file of the tree; ld.so also tries DT_RUNPATH /usr/lib/llvm-14/lib"
    expect_contains "$out" "it loads only where the machine has it there"
    if [ -e /usr/lib/llvm-14/lib/libomp.so.5 ]; then
      expect_contains "$out" "/usr/lib/llvm-14/lib/libomp.so.5 exists on this machine, which proves nothing"
    fi
    expect_not_contains "$out" "libstdc++" "system libraries"
    mkdir -p bundle/lib bundle/bin
    echo 'extern "C" int foo_fn() { return 7; }' >foo.cpp
    echo 'extern "C" int foo_fn(); extern "C" int k() { return foo_fn(); }' >model.cpp
    clang++-14 -fPIC -shared foo.cpp -o bundle/lib/libfoo.so -Wl,-soname,libfoo.so
    clang++-14 -fPIC -shared model.cpp -o bundle/bin/libmodel.so -Lbundle/lib -lfoo \
      -Wl,-rpath,'$ORIGIN/../lib' || test_failed "linking libmodel.so"
    expect_contains "$("$LLVM_BIN/llvm-readelf" -d bundle/bin/libmodel.so)" '[$ORIGIN/../lib]'
    out=$(LG check --portable --bundle-root bundle bundle/bin/libmodel.so); status=$?
    expect_equal "$status" 0 "shipped libfoo.so: $out"
    rm bundle/lib/libfoo.so
    expect_status 1 LG check --portable --bundle-root bundle bundle/bin/libmodel.so >/dev/null
  fi

  TEST "bad input and usage: 66, 65, 64, --help, --json"
  aoti_objects m
  aoti_link "$CLANGXX" m plain.dylib sdk
  expect_status 66 LG check --portable missing.dylib 2>err
  expect_contains "$(cat err)" "linkguard: error: "
  echo 'not a binary' >text.dylib
  expect_status 65 LG check --portable text.dylib 2>/dev/null
  expect_status 64 LG check 2>err
  expect_contains "$(cat err)" "usage: linkguard check"
  expect_status 64 LG check --portable 2>/dev/null
  expect_status 64 LG check --frobnicate plain.dylib 2>err
  expect_contains "$(cat err)" "unknown option '--frobnicate'"
  expect_status 64 LG check plain.dylib --forbid 2>/dev/null
  expect_status 64 LG check plain.dylib 2>/dev/null  # no contract
  # An empty argument is a file that does not exist (an unset "$LIB" must
  # not vanish and let CI pass); an empty value is a usage error.
  expect_status 66 LG check --mps-aot plain.dylib '' 2>/dev/null
  expect_status 66 LG inspect plain.dylib '' 2>/dev/null
  expect_status 64 LG check --portable --search '' plain.dylib 2>err
  expect_contains "$(cat err)" "--search needs a non-empty value"
  expect_status 64 LG check --portable --bundle-root= plain.dylib 2>/dev/null
  expect_status 64 LG check --provided libfoo.dylib plain.dylib 2>/dev/null
  expect_status 66 LG check --portable --system-list nope.txt plain.dylib 2>/dev/null
  expect_contains "$(LG check --help)" "USAGE: linkguard check"
  # A file error wins over a violation, and every file is still judged.
  out=$(LG check --portable plain.dylib missing.dylib 2>/dev/null); status=$?
  expect_equal "$status" 66 "violation + missing file"
  expect_contains "$out" "plain.dylib: violation:"
  LG check --portable --json plain.dylib missing.dylib text.dylib >out.json 2>/dev/null
  python3 -m json.tool out.json >/dev/null || test_failed "--json output does not parse"
  summary=$(python3 -c '
import json
d = json.load(open("out.json"))
assert d["schema"] == "linkguard-check/2"
f = d["files"][0]
print(d["summary"]["files"], d["summary"]["violations"], d["summary"]["errors"],
      f["holds"], f["findings"][0]["rule"], f["findings"][0]["kind"],
      [e["kind"] for e in d["errors"]])')
  expect_equal "$summary" "3 1 2 False portable violation ['unreadable', 'malformed']"
}
