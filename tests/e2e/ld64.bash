# Apple's own linker and tools as the judge (issue 34, ctest label `apple`):
# ld64 951.9 links, cctools 1010.6's otool reads, install_name_tool
# rewrites, all built from ../shared/third_party by scripts/apple-tools
# (cached under the build directory). Beside them, linkguard's driver,
# verify, inspect and check must say what Apple's code says:
#  - the MPS rule end to end in inductor's macOS shapes through ld64;
#  - each imported symbol's library, in both fixup formats, as otool reads it;
#  - install_name_tool's rewrites followed by check --portable and inspect;
#  - `linkguard inspect` equal to `otool -L` on every file linked here.
# ld64 links against stub dylibs made with lld from the .tbd symbol lists
# the other suites use (scripts/lib/macho_sdk.sh), so it needs no TAPI.
# Without ../shared/third_party (a user's clone) the suite skips.

SUITE_ld64_PROBE() {
  local tp=${LINKGUARD_THIRD_PARTY:-$LINKGUARD_SOURCE_DIR/../shared/third_party}
  [ -f "$tp/cctools-port-1010.6-ld64-951.9.tar.gz" ] ||
    { echo "$tp has no cctools-port archive (../shared is not beside this clone): Apple's ld64 and otool cannot be built"; return; }
  [ -x "$CLANGXX" ] || { echo "$CLANGXX not installed"; return; }
  [ -x "$LLVM_BIN/ld64.lld" ] || { echo "ld64.lld-19 not installed (it makes the stub dylibs)"; return; }
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  [ -d "${LINKGUARD_BUILD_DIR:-}" ] || echo "LINKGUARD_BUILD_DIR is not set (the tools' cache lives there)"
}

SUITE_ld64_SETUP() {
  WRAP=$(dirname "$LINKGUARD_BIN")/linkguard-clang++
}

LG() { "$LINKGUARD_BIN" "$@"; }
APPLE_TOOLS_PY=$LINKGUARD_SOURCE_DIR/tests/e2e/apple_tools.py

# stub_dylib TBD OUT: a dylib made with lld exporting exactly the symbols
# and install name of the TAPI stub TBD (the names as written: libSystem's
# `dyld_stub_binder` has no leading underscore, and ld64 looks it up so).
stub_dylib() {
  local name syms
  name=$(sed -n "s/^install-name: *'\(.*\)'/\1/p" "$1")
  syms=$(sed -n 's/^ *symbols: *\[ *\(.*\) *\]/\1/p' "$1" | tr -d ' ' | tr , ' ')
  { echo .text; for s in $syms; do printf '.globl %s\n%s:\n  ret\n' "$s" "$s"; done; } >"$2.s"
  # Both of the stub's targets (arm64-macos, x86_64-macos), one universal file.
  for arch in arm64 x86_64; do
    "$CLANG" -target $arch-apple-macos11 -fuse-ld=lld -dynamiclib -nostdlib "$2.s" -o "$2.$arch" \
      -install_name "$name" -compatibility_version 1 -current_version 1311 ||
      test_failed "making the stub $2 ($arch)"
  done
  "$APPLE_BIN/lipo" -create "$2.arm64" "$2.x86_64" -output "$2" || test_failed "lipo -create $2"
  rm -f "$2.s" "$2.arm64" "$2.x86_64"
}

# stub_sdk DIR: write_sdk's .tbd files (DIR/usr/lib, DIR/omp) and, beside
# them, the stub dylibs ld64 links against; usr/lib/libSystem.dylib and
# libc++.dylib are links to them, as in Apple's SDK.
stub_sdk() {
  write_sdk "$1"
  stub_dylib "$1/usr/lib/libSystem.tbd" "$1/usr/lib/libSystem.B.dylib"
  stub_dylib "$1/usr/lib/libc++.tbd" "$1/usr/lib/libc++.1.dylib"
  stub_dylib "$1/omp/libomp.tbd" "$1/omp/libomp.dylib"
  # The libtorch a cpp_builder fixture names (-ltorch -ltorch_cpu), as
  # mps_rule.bash writes them, in a directory of their own: a -L directory
  # holding a libtorch dylib means libtorch is linked, and the rule stays out.
  write_tbd "$1/torch/libtorch.tbd" @rpath/libtorch.dylib __ZN5torch4initEv
  write_tbd "$1/torch/libtorch_cpu.tbd" @rpath/libtorch_cpu.dylib __ZN5torch3cpuEv
  stub_dylib "$1/torch/libtorch.tbd" "$1/torch/libtorch.dylib"
  stub_dylib "$1/torch/libtorch_cpu.tbd" "$1/torch/libtorch_cpu.dylib"
  ln -sf libSystem.B.dylib "$1/usr/lib/libSystem.dylib"
  ln -sf libc++.1.dylib "$1/usr/lib/libc++.dylib"
  # ld64 must link against the dylibs, not read the .tbd files (it has no TAPI here).
  rm "$1"/usr/lib/*.tbd "$1"/omp/*.tbd "$1"/torch/*.tbd
}

# How clang 19 drives ld64: -fuse-ld=PATH and the linker's version, so that
# it passes -platform_version (without -mlinker-version it falls back to
# -macosx_version_min, as for an old ld64).
ld64_flags() { # [DEPLOYMENT]
  echo "-target arm64-apple-macos${1:-11} -isysroot $SDK -fuse-ld=$APPLE_BIN/ld -mlinker-version=951.9"
}

otool_deps() { "$APPLE_BIN/otool" -L "$1" | tail -n +2 | sed 's/^[[:space:]]*//; s/ (compat.*//'; }

# same_as_otool FILE: `linkguard inspect FILE` equals `otool -L FILE` line for line.
same_as_otool() {
  "$APPLE_BIN/otool" -L "$1" >otool-L.txt 2>otool.err || test_failed "otool -L $1: $(cat otool.err)"
  LG inspect "$1" >inspect.txt 2>inspect.err || test_failed "linkguard inspect $1: $(cat inspect.err)"
  diff otool-L.txt inspect.txt >inspect.diff || test_failed "inspect and otool -L differ on $1: $(cat inspect.diff)"
  INSPECTED=$((INSPECTED + 1))
}

# imports_agree FILE: each import's library as otool reads it equals inspect --json's.
imports_agree() {
  python3 "$APPLE_TOOLS_PY" imports "$APPLE_BIN/otool" "$LINKGUARD_BIN" "$1" >imports.txt 2>&1 ||
    test_failed "imports of $1: $(cat imports.txt)"
  COMPARED_FILES=$((COMPARED_FILES + 1))
  COMPARED_IMPORTS=$((COMPARED_IMPORTS + $(sed -n 's/^\([0-9]*\) imports agree.*/\1/p' imports.txt)))
}

fixups_of() { "$APPLE_BIN/otool" -l "$1" | grep -oE 'LC_DYLD_(INFO_ONLY|CHAINED_FIXUPS)' | head -1; }

# holds ARGS...: `linkguard check ARGS` says holds (exit 0).
holds() { LG check "$@" >check.txt 2>&1 || test_failed "check $*: $(cat check.txt)"; }

# resign FILE: re-signed ad hoc by the tests' one re-signer (lib.sh's
# adhoc_resign), then checked by apple_tools.py's own reading of the hashes.
resign() {
  adhoc_resign "$1"
  python3 "$APPLE_TOOLS_PY" sigcheck "$1" >/dev/null || test_failed "$1 re-signed but stale"
}

SUITE_ld64() {
  INSPECTED=0 COMPARED_FILES=0 COMPARED_IMPORTS=0
  TEST "scripts/apple-tools builds ld64 951.9 and cctools 1010.6 once; a second run is its cache"
  APPLE_BIN=$("$LINKGUARD_SOURCE_DIR/scripts/apple-tools" "$LINKGUARD_BUILD_DIR") ||
    test_failed "scripts/apple-tools failed"
  for t in ld otool install_name_tool lipo codesign_allocate; do
    [ -x "$APPLE_BIN/$t" ] || test_failed "$APPLE_BIN/$t was not built"
  done
  expect_contains "$("$APPLE_BIN/ld" -v 2>&1)" "PROJECT:ld64-951.9" "ld -v"
  expect_contains "$("$APPLE_BIN/otool" --version 2>&1)" "cctools-1010.6" "otool --version"
  start=$(date +%s)
  again=$("$LINKGUARD_SOURCE_DIR/scripts/apple-tools" "$LINKGUARD_BUILD_DIR") || test_failed "second run"
  expect_equal "$again" "$APPLE_BIN" "the cached tools' directory"
  expect_equal "$(($(date +%s) - start <= 5))" 1 "a cached run takes at most 5 s"
  # What every later test links against, made once.
  SDK=$E2E_ROOT/sdk
  stub_sdk "$SDK"
  expect_contains "$("$LLVM_BIN/llvm-nm" -gU "$SDK/usr/lib/libSystem.B.dylib")" " T dyld_stub_binder" \
    "libSystem stub's exports"
  MODELS=$E2E_ROOT/models
  write_aoti_model "$MODELS/unused"
  write_aoti_model "$MODELS/used" uses_openmp
  for m in unused used; do
    # A real AOTI wrapper allocates and copies through libSystem; the toy one
    # of write_aoti_model does not, and then ld64 951.9 drops libSystem too
    # where nothing binds dyld_stub_binder (chained fixups): see the last test.
    cat >"$MODELS/$m/model.runtime.cpp" <<'CPP'
extern "C" void *malloc(unsigned long);
extern "C" void free(void *);
extern "C" void *aoti_model_alloc(unsigned long n) { return malloc(n); }
extern "C" void aoti_model_free(void *p) { free(p); }
CPP
    for tu in wrapper kernel consts runtime; do
      # Separate compiles, inductor's flags on every phase (cpp_builder does so).
      "$CLANGXX" -target arm64-apple-macos11 -isysroot "$SDK" "$MODELS/$m/model.$tu.cpp" \
        "${AOTI_MPS_CFLAGS[@]}" -c -o "$MODELS/$m/$tu.o" 2>/dev/null || test_failed "compiling $m/$tu"
    done
  done
  # A library that calls libSystem, libc++ and libomp (one weak import), no dynamic lookup.
  cat >"$MODELS/lib.cpp" <<'CPP'
extern "C" void *malloc(unsigned long);
extern "C" void free(void *);
extern "C" int omp_get_max_threads(void);
extern "C" __attribute__((weak_import)) int omp_in_parallel(void);
extern "C" int lib_entry(int n) {
  int *p = new int(n);
  int r = omp_get_max_threads() + (omp_in_parallel ? omp_in_parallel() : 0);
  delete p;
  void *q = malloc(16); free(q);
  return r;
}
CPP
  "$CLANGXX" -target arm64-apple-macos11 -isysroot "$SDK" -fPIC -fno-sized-deallocation -c "$MODELS/lib.cpp" -o "$MODELS/lib.o" || test_failed "compiling lib.cpp"

  TEST "ld64 links inductor's shape: the plain compiler keeps the baked libomp (the control)"
  for m in unused used; do
    # shellcheck disable=SC2046
    "$CLANGXX" $(ld64_flags) "$MODELS/$m"/*.o "${AOTI_MPS_CFLAGS[@]}" -lomp -L"$SDK/omp" \
      -o "$m.so" 2>err.txt || test_failed "plain ld64 link of $m: $(cat err.txt)"
    expect_contains "$(otool_deps "$m.so")" /opt/llvm-openmp/lib/libomp.dylib "$m: otool -L"
    same_as_otool "$m.so"
  done
  # The control's verdict: a libomp nothing binds to is what the rule forbids.
  LG check --mps-aot unused.so >check.txt 2>&1
  expect_equal "$?" 1 "check --mps-aot on the plain, unused link: $(cat check.txt)"
  holds --mps-aot used.so

  TEST "through linkguard-clang++ with ld64: the unused libomp dropped, a used one and libSystem kept"
  for fix in classic chained; do
    extra=()
    [ $fix = chained ] && extra=("-Wl,-fixup_chains")
    for m in unused used; do
      out=$m.$fix.so
      # shellcheck disable=SC2046
      LINKGUARD_MODE=enforce LINKGUARD_CXX=$CLANGXX "$WRAP" $(ld64_flags) "$MODELS/$m"/*.o \
        "${AOTI_MPS_CFLAGS[@]}" "${extra[@]}" -lomp -L"$SDK/omp" -o "$out" 2>err.txt ||
        test_failed "$out: linkguard with ld64 failed: $(cat err.txt)"
      expect_not_contains "$(cat err.txt)" "linkguard:" "$out: the verdict (holds, nothing said)"
      expect_equal "$(fixups_of "$out")" "$([ $fix = chained ] && echo LC_DYLD_CHAINED_FIXUPS || echo LC_DYLD_INFO_ONLY)" \
        "$out: fixup format"
      deps=$(otool_deps "$out")
      expect_contains "$deps" /usr/lib/libSystem.B.dylib "$out: otool -L"
      if [ $m = used ]; then
        expect_contains "$deps" /opt/llvm-openmp/lib/libomp.dylib "$out: otool -L"
      else
        expect_not_contains "$deps" libomp "$out: otool -L"
      fi
      same_as_otool "$out"
      imports_agree "$out"
      holds --mps-aot "$out"
    done
  done

  TEST "every cpp_builder link fixture through ld64: inject=yes drops libomp, inject=no links as the plain compiler does"
  mkdir model plain
  write_aoti_model model
  echo '#pragma once' >model/hdr.h
  for tu in wrapper kernel consts; do
    "$CLANGXX" -target arm64-apple-macos11 -isysroot "$SDK" "model/model.$tu.cpp" "${AOTI_MPS_CFLAGS[@]}" \
      -c -o "model/model.$tu.o" 2>/dev/null || test_failed "compiling model.$tu"
  done
  python3 "$LINKGUARD_SOURCE_DIR/tests/e2e/fixture_commands.py" \
    "$LINKGUARD_SOURCE_DIR/tests/data/cpp_builder_darwin_mps.txt" "$PWD/model" "$SDK" "$PWD/plain" >fixtures.txt ||
    test_failed "reading fixtures"
  n=0
  while read -r name phase inject; do
    [ "$phase" = link ] || continue
    n=$((n + 1))
    mapfile -d '' ARGS <"plain/$name.args"
    # The fixture's lld cross-link flags, with ld64 as the linker.
    ARGS=("${ARGS[@]/#-fuse-ld=lld/-fuse-ld=$APPLE_BIN/ld}" -mlinker-version=951.9)
    case " ${ARGS[*]} " in *" -ltorch "*) ARGS+=(-L"$SDK/torch") ;; esac
    out=plain/$name.so
    "$CLANGXX" "${ARGS[@]}" 2>err.txt || test_failed "$name: plain ld64 link: $(cat err.txt)"
    mv "$out" "plain/$name.control.so"
    LINKGUARD_CXX=$CLANGXX "$WRAP" "${ARGS[@]}" 2>err.txt || test_failed "$name: through linkguard: $(cat err.txt)"
    same_as_otool "$out"
    imports_agree "$out"
    expect_contains "$(otool_deps "$out")" /usr/lib/libSystem.B.dylib "$name: otool -L"
    if [ "$inject" = yes ]; then
      expect_contains "$(otool_deps "plain/$name.control.so")" /opt/llvm-openmp/lib/libomp.dylib "$name: control"
      expect_not_contains "$(otool_deps "$out")" libomp "$name: otool -L through linkguard"
      expect_not_contains "$(cat err.txt)" "linkguard:" "$name: the verdict"
    else
      expect_equal "$(otool_deps "$out")" "$(otool_deps "plain/$name.control.so" | sed "s|$name.control.so|$name.so|")" \
        "$name: the same load commands as the plain link"
    fi
  done <fixtures.txt
  expect_equal "$((n >= 4))" 1 "link fixtures run ($n)"

  TEST "verify and otool -L agree on a forced violation through ld64 (-needed-lomp)"
  # shellcheck disable=SC2046
  LINKGUARD_MODE=verify LINKGUARD_CXX=$CLANGXX "$WRAP" $(ld64_flags) "$MODELS/unused"/*.o \
    "${AOTI_MPS_CFLAGS[@]}" -Wl,-needed-lomp -L"$SDK/omp" -o needed.so 2>err.txt ||
    test_failed "verify mode link failed: $(cat err.txt)"
  expect_contains "$(otool_deps needed.so)" /opt/llvm-openmp/lib/libomp.dylib "otool -L (ld64 kept it: -needed-l wins)"
  expect_contains "$(cat err.txt)" "linkguard: warning:" "verify's verdict"
  expect_contains "$(cat err.txt)" /opt/llvm-openmp/lib/libomp.dylib "verify's verdict"
  same_as_otool needed.so
  # shellcheck disable=SC2046
  LINKGUARD_MODE=enforce LINKGUARD_CXX=$CLANGXX "$WRAP" $(ld64_flags) "$MODELS/unused"/*.o \
    "${AOTI_MPS_CFLAGS[@]}" -Wl,-needed-lomp -L"$SDK/omp" -o enforced.so 2>err.txt
  expect_equal "$?" 86 "enforce's status: $(cat err.txt)"
  expect_missing enforced.so

  TEST "ld64 found through -B (the name ld) links the same and the rule holds"
  mkdir bin && ln -s "$APPLE_BIN/ld" bin/ld
  LINKGUARD_MODE=enforce LINKGUARD_CXX=$CLANGXX "$WRAP" -target arm64-apple-macos11 -isysroot "$SDK" \
    -B "$PWD/bin" -mlinker-version=951.9 "$MODELS/unused"/*.o "${AOTI_MPS_CFLAGS[@]}" -lomp -L"$SDK/omp" \
    -o b.so 2>err.txt || test_failed "link through -B: $(cat err.txt)"
  expect_contains "$("$APPLE_BIN/otool" -l b.so)" "LC_CODE_SIGNATURE" "an ld64 (linker-signed) output"
  expect_not_contains "$(otool_deps b.so)" libomp "otool -L"
  same_as_otool b.so

  TEST "macOS 12+: ld64 makes chained fixups by default, but not with -undefined dynamic_lookup"
  # ld64-951.9 Options.cpp: rdar://102088753, "chained fixups and
  # undefined_dynamic_lookup aren't compatible": inductor's shape gets the
  # classic format unless -fixup_chains forces it.
  for v in 11 12 14; do
    # shellcheck disable=SC2046
    "$CLANGXX" $(ld64_flags $v) -shared "$MODELS/lib.o" -lomp -L"$SDK/omp" -o lib$v.dylib 2>err.txt ||
      test_failed "ld64 link for macOS $v: $(cat err.txt)"
    # shellcheck disable=SC2046
    "$CLANGXX" $(ld64_flags $v) -shared "$MODELS/lib.o" -undefined dynamic_lookup -lomp -L"$SDK/omp" -o dl$v.dylib 2>err.txt ||
      test_failed "ld64 link for macOS $v: $(cat err.txt)"
    want=LC_DYLD_CHAINED_FIXUPS
    [ $v = 11 ] && want=LC_DYLD_INFO_ONLY
    expect_equal "$(fixups_of lib$v.dylib)" $want "macOS $v: fixup format"
    expect_equal "$(fixups_of dl$v.dylib)" LC_DYLD_INFO_ONLY "macOS $v, -undefined dynamic_lookup: fixup format"
    for f in lib$v.dylib dl$v.dylib; do
      imports_agree "$f"
      same_as_otool "$f"
    done
  done
  # The weak import is weak on both sides (the comparison includes the flag).
  expect_contains "$("$APPLE_BIN/otool" -dyld_info lib14.dylib)" "_omp_in_parallel" "otool -dyld_info"
  expect_contains "$(python3 "$APPLE_TOOLS_PY" imports "$APPLE_BIN/otool" "$LINKGUARD_BIN" lib14.dylib)" \
    "imports agree (chained fixups)"

  TEST "x86_64 through ld64 in both formats, and a universal file made by lipo: inspect and otool agree slice by slice"
  "$CLANGXX" -target x86_64-apple-macos11 -isysroot "$SDK" -fPIC -fno-sized-deallocation -c "$MODELS/lib.cpp" -o lib.x86_64.o ||
    test_failed "compiling lib.cpp for x86_64"
  for v in 11 13; do
    # shellcheck disable=SC2046
    "$CLANGXX" $(ld64_flags $v | sed 's/arm64-apple/x86_64-apple/') -shared lib.x86_64.o -lomp -L"$SDK/omp" \
      -o lib$v.x86_64.dylib 2>err.txt || test_failed "ld64 x86_64 link for macOS $v: $(cat err.txt)"
    imports_agree lib$v.x86_64.dylib
    same_as_otool lib$v.x86_64.dylib
  done
  # (For a dylib ld64 makes chained fixups from macOS 12 on either architecture, ld.hpp supportsChainedFixups.)
  expect_equal "$(fixups_of lib11.x86_64.dylib)" LC_DYLD_INFO_ONLY "x86_64, macOS 11"
  expect_equal "$(fixups_of lib13.x86_64.dylib)" LC_DYLD_CHAINED_FIXUPS "x86_64, macOS 13"
  # shellcheck disable=SC2046
  "$CLANGXX" $(ld64_flags) -shared "$MODELS/lib.o" -lomp -L"$SDK/omp" -o lib.arm64.dylib 2>/dev/null ||
    test_failed "arm64 link"
  "$APPLE_BIN/lipo" -create lib.arm64.dylib lib13.x86_64.dylib -output lib.dylib || test_failed "lipo -create"
  expect_equal "$("$APPLE_BIN/lipo" -archs lib.dylib)" "x86_64 arm64" "lipo -archs"
  same_as_otool lib.dylib
  expect_contains "$(cat inspect.txt)" "lib.dylib (architecture arm64):" "inspect of the universal file"
  holds --mps-aot lib.dylib

  TEST "install_name_tool -change, -id, -add_rpath: check --portable and inspect follow the rewritten commands"
  # shellcheck disable=SC2046
  "$CLANGXX" $(ld64_flags) "$MODELS/used"/*.o "${AOTI_MPS_CFLAGS[@]}" -lomp -L"$SDK/omp" \
    -install_name /usr/local/lib/model.so -o model.so 2>/dev/null || test_failed "linking model.so"
  mkdir -p pkg && cp model.so pkg/ && cp "$SDK/omp/libomp.dylib" pkg/
  # The shipped libomp carries a relative id, as delocate leaves it (the stub is lld's, signed too).
  "$APPLE_BIN/install_name_tool" -id @rpath/libomp.dylib pkg/libomp.dylib 2>/dev/null || test_failed "-id on libomp"
  resign pkg/libomp.dylib
  same_as_otool pkg/libomp.dylib
  LG check --portable pkg/model.so >check.txt 2>&1
  expect_equal "$?" 1 "before: $(cat check.txt)"
  expect_contains "$(cat check.txt)" /opt/llvm-openmp/lib/libomp.dylib "before"
  expect_contains "$(cat check.txt)" /usr/local/lib/model.so "before: the absolute install name"
  # -change: the baked path becomes @rpath, which nothing resolves yet.
  "$APPLE_BIN/install_name_tool" -change /opt/llvm-openmp/lib/libomp.dylib @rpath/libomp.dylib pkg/model.so 2>itool.txt ||
    test_failed "install_name_tool -change: $(cat itool.txt)"
  # The port's tool says the signature is now stale, and it is: re-signed, so
  # the verdicts below are about the load commands only.
  expect_contains "$(cat itool.txt)" "invalidate the code signature"
  expect_status 1 python3 "$APPLE_TOOLS_PY" sigcheck pkg/model.so
  resign pkg/model.so
  expect_status 0 python3 "$APPLE_TOOLS_PY" sigcheck pkg/model.so
  expect_contains "$(otool_deps pkg/model.so)" @rpath/libomp.dylib "otool -L after -change"
  same_as_otool pkg/model.so
  LG check --portable pkg/model.so >check.txt 2>&1
  expect_equal "$?" 1 "after -change: $(cat check.txt)"
  expect_not_contains "$(cat check.txt)" /opt/llvm-openmp "after -change"
  expect_contains "$(cat check.txt)" @rpath/libomp.dylib "after -change: unresolved"
  # -id: the install name is no longer absolute.
  "$APPLE_BIN/install_name_tool" -id @rpath/model.so pkg/model.so 2>/dev/null || test_failed "install_name_tool -id"
  resign pkg/model.so
  expect_equal "$("$APPLE_BIN/otool" -D pkg/model.so | tail -n 1)" @rpath/model.so "otool -D after -id"
  same_as_otool pkg/model.so
  LG check --portable pkg/model.so >check.txt 2>&1
  expect_equal "$?" 1 "after -id: $(cat check.txt)"
  expect_not_contains "$(cat check.txt)" /usr/local/lib/model.so "after -id"
  # -add_rpath @loader_path: the libomp shipped beside it is found.
  "$APPLE_BIN/install_name_tool" -add_rpath @loader_path pkg/model.so 2>/dev/null || test_failed "install_name_tool -add_rpath"
  resign pkg/model.so
  expect_contains "$("$APPLE_BIN/otool" -l pkg/model.so | grep -A2 LC_RPATH)" "path @loader_path"
  same_as_otool pkg/model.so
  LG check --portable pkg/model.so >check.txt 2>&1
  expect_equal "$?" 0 "after -add_rpath: $(cat check.txt)"
  expect_contains "$(LG inspect --json pkg/model.so)" '"@loader_path"' "inspect's search paths"
  imports_agree pkg/model.so
  # And the same tree judged as a directory (the closure reads the same commands).
  holds --portable pkg
  rm pkg/libomp.dylib
  LG check --portable pkg >check.txt 2>&1
  expect_equal "$?" 1 "the tree without its libomp: $(cat check.txt)"

  TEST "the re-sign helper agrees with ld64's own signature"
  # An ld64 output verifies as signed; changed by install_name_tool it does
  # not; re-signed it does again, and its signature is ld64's own for the
  # same commands (both links name the same output leaf, no UUID).
  mkdir a b
  # shellcheck disable=SC2046
  "$CLANGXX" $(ld64_flags) -shared "$MODELS/lib.o" -lomp -L"$SDK/omp" -Wl,-no_uuid \
    -install_name /aaaa/lib.dylib -o a/lib.dylib 2>/dev/null || test_failed "link a"
  # shellcheck disable=SC2046
  "$CLANGXX" $(ld64_flags) -shared "$MODELS/lib.o" -lomp -L"$SDK/omp" -Wl,-no_uuid \
    -install_name /bbbb/lib.dylib -o b/lib.dylib 2>/dev/null || test_failed "link b"
  expect_status 0 python3 "$APPLE_TOOLS_PY" sigcheck a/lib.dylib
  "$APPLE_BIN/install_name_tool" -id /aaaa/lib.dylib b/lib.dylib 2>/dev/null || test_failed "install_name_tool -id"
  expect_status 1 python3 "$APPLE_TOOLS_PY" sigcheck b/lib.dylib
  resign b/lib.dylib
  expect_same_file b/lib.dylib a/lib.dylib

  TEST "a known disagreement: ld64 drops libSystem where nothing binds to it; the MPS contract requires it"
  # ld64-951.9 passes/dylibs.cpp removes every dylib that provided no
  # symbol under -dead_strip_dylibs, libSystem included; in the classic
  # format its lazy-binding helper resolves dyld_stub_binder there
  # (Resolver.cpp), so libSystem stays; with chained fixups nothing does. The toy model (no libSystem call) linked
  # with -fixup_chains: ld64 drops libSystem, inspect and otool -L agree,
  # and the rule's contract (flags/BuiltinRules.cpp: require libsystem, "ld64
  # keeps libSystem") calls the output broken. Verify keeps the file.
  # shellcheck disable=SC2046
  LINKGUARD_MODE=verify LINKGUARD_CXX=$CLANGXX "$WRAP" $(ld64_flags) "$MODELS"/unused/{wrapper,kernel,consts}.o \
    "${AOTI_MPS_CFLAGS[@]}" -Wl,-fixup_chains -lomp -L"$SDK/omp" -o toy.so 2>err.txt ||
    test_failed "toy link: $(cat err.txt)"
  expect_equal "$(otool_deps toy.so)" toy.so "otool -L: its own id, no dependency"
  same_as_otool toy.so
  expect_contains "$(cat err.txt)" "no dependency matches 'libsystem'" "verify's verdict"
  expect_exists toy.so
  # The same objects in the classic format: dyld_stub_binder keeps libSystem.
  # shellcheck disable=SC2046
  LINKGUARD_MODE=enforce LINKGUARD_CXX=$CLANGXX "$WRAP" $(ld64_flags) "$MODELS"/unused/{wrapper,kernel,consts}.o \
    "${AOTI_MPS_CFLAGS[@]}" -lomp -L"$SDK/omp" -o toy-classic.so 2>err.txt ||
    test_failed "classic toy link: $(cat err.txt)"
  expect_equal "$(otool_deps toy-classic.so)" "toy-classic.so
/usr/lib/libSystem.B.dylib" "otool -L (classic)"
  expect_contains "$(cat imports.txt 2>/dev/null; python3 "$APPLE_TOOLS_PY" imports "$APPLE_BIN/otool" "$LINKGUARD_BIN" toy-classic.so)" \
    "imports agree (LC_DYLD_INFO_ONLY)"

  echo "  (inspect equalled otool -L on $INSPECTED files; $COMPARED_IMPORTS imports of $COMPARED_FILES files attributed alike)"
}
