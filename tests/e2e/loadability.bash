# `check`: what makes a shipped Mach-O fail to load or load the wrong
# thing, judged from real cross-linked files. Shapes lld will not produce
# (it drops duplicate rpaths and dylibs) are made from the real link by
# obj2yaml -> one edit -> yaml2obj, and llvm-otool confirms each shape
# independently of linkguard's reader.
#  - bare words in patterns (issue 28 item 4): "libomp" is the library;
#  - dyld's load-time refusals, gated on the SDK (issue 29 item 3,
#    contract/DyldRules.cpp);
#  - a shipped dylib's absolute install name (issue 29 item 4).

SUITE_loadability_PROBE() {
  local tool
  for tool in clang++ ld64.lld llvm-otool obj2yaml yaml2obj; do
    [ -x "$LLVM_BIN/$tool" ] || { echo "$LLVM_BIN/$tool not found"; return; }
  done
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
}

SUITE_loadability_SETUP() {
  write_sdk sdk
}

LG() { "$LINKGUARD_BIN" "$@"; }

# link OUT SDK_VERSION ARGS...: a cross-linked arm64 image (a dylib unless
# ARGS say otherwise) built against SDK_VERSION.
link() {
  local out=$1 sdkv=$2; shift 2
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk) -nostdlib++ "$@" -o "$out" \
    -Wl,-platform_version,macos,11.0,"$sdkv" || test_failed "linking $out"
}

# reshape IN OUT SED_EXPR: IN through obj2yaml, one sed edit, yaml2obj,
# re-signed ad hoc.
reshape() {
  "$LLVM_BIN/obj2yaml" "$1" >"$1.yaml" || test_failed "obj2yaml $1"
  sed -e "$3" "$1.yaml" | "$LLVM_BIN/yaml2obj" -o "$2" || test_failed "yaml2obj $2"
  # yaml2obj leaves LC_CODE_SIGNATURE's blob empty: sign it as lld did.
  adhoc_resign "$2"
}

rpaths() { "$LLVM_BIN/llvm-otool" -l "$1" | grep -A2 'cmd LC_RPATH' | grep ' path ' | awk '{print $2}' | tr '\n' ' '; }
sdk_of() { "$LLVM_BIN/llvm-otool" -l "$1" | grep -A4 'cmd LC_BUILD_VERSION' | awk '$1 == "sdk" {print $2}'; }

SUITE_loadability() {
  TEST "a bare word names the library: --forbid libomp / OpenMP fail, --require libSystem holds"
  echo 'extern "C" int omp_get_num_threads(); extern "C" int k() { return omp_get_num_threads(); }' >k.cpp
  echo 'extern "C" int k() { return 1; }' >plain.cpp
  link omp.dylib 14.0 -shared k.cpp -Lsdk/omp -lomp
  link plain.dylib 14.0 -shared plain.cpp
  expect_contains "$("$LLVM_BIN/llvm-otool" -L omp.dylib)" /opt/llvm-openmp/lib/libomp.dylib "otool -L omp.dylib"
  for p in libomp OpenMP libomp.dylib; do
    out=$(LG check --forbid "$p" omp.dylib); status=$?
    expect_equal "$status" 1 "check --forbid $p omp.dylib: $out"
    expect_contains "$out" "'$p' is forbidden"
    expect_status 0 LG check --forbid "$p" plain.dylib >/dev/null
  done
  expect_status 0 LG check --require libSystem omp.dylib >/dev/null
  expect_status 1 LG check --require libfoo omp.dylib >/dev/null
  # A bare word declares an @rpath library provided, never an absolute one.
  out=$(LG check --portable --provided libomp omp.dylib); status=$?
  expect_equal "$status" 1 "--provided libomp on an absolute install name: $out"
  expect_contains "$out" "LC_LOAD_DYLIB /opt/llvm-openmp/lib/libomp.dylib (arm64) is an absolute path"
  write_tbd rp/libomp.tbd @rpath/libomp.5.dylib _omp_get_num_threads
  link rpath.dylib 14.0 -shared k.cpp -Lrp -lomp
  expect_status 1 LG check --portable rpath.dylib >/dev/null
  expect_status 0 LG check --portable --provided libomp rpath.dylib >/dev/null
  expect_status 0 LG check --portable --provided libomp.5 rpath.dylib >/dev/null

  TEST "dyld: a duplicate LC_RPATH is refused from SDK 15.4 (dylib) and 26.0 (executable)"
  echo 'extern "C" int k() { return 1; }' >k.cpp
  echo 'int main() { return 0; }' >main.cpp
  link k.dylib 14.0 -shared k.cpp -Wl,-rpath,@loader_path/a -Wl,-rpath,@loader_path/b
  link app 14.0 main.cpp -Wl,-rpath,@loader_path/a -Wl,-rpath,@loader_path/b
  expect_equal "$(rpaths k.dylib)" "@loader_path/a @loader_path/b " "lld's rpaths"
  expect_status 0 LG check --portable k.dylib >/dev/null
  expect_status 0 LG check --portable app >/dev/null
  # sdk 14.0 = 0xE0000 = 917504 in obj2yaml's decimal.
  for v in 14.0:917504:0:0 15.0:983040:0:0 15.3:983808:0:0 15.4:984064:1:0 26.0:1703936:1:1; do
    IFS=: read -r ver num want_dylib want_app <<EOF
$v
EOF
    reshape k.dylib "dup-$ver.dylib" "s#@loader_path/b#@loader_path/a#; s/sdk: *917504/sdk:             $num/"
    reshape app "dup-$ver.app" "s#@loader_path/b#@loader_path/a#; s/sdk: *917504/sdk:             $num/"
    expect_equal "$(rpaths "dup-$ver.dylib")" "@loader_path/a @loader_path/a " "otool: duplicate rpath"
    expect_equal "$(sdk_of "dup-$ver.dylib")" "$ver" "otool: sdk"
    out=$(LG check --portable "dup-$ver.dylib"); status=$?
    expect_equal "$status" "$want_dylib" "dylib, SDK $ver: $out"
    out_app=$(LG check --portable "dup-$ver.app"); status=$?
    expect_equal "$status" "$want_app" "executable, SDK $ver: $out_app"
    if [ "$want_dylib" = 1 ]; then
      expect_contains "$out" "dyld refuses to load this file (arm64): \"duplicate LC_RPATH '@loader_path/a'\""
      expect_contains "$out" "dyld-1284.13..dyld-1286.10 from spring2025 (macOS SDK 15.4)"
      expect_contains "$out" "the file has macOS SDK $ver"
    fi
  done
  out=$(LG check --portable dup-26.0.app)
  expect_contains "$out" "dyld-1323.3..dyld-1340 from fall2025 (macOS SDK 26.0)"
  expect_not_contains "$out" "dyld-1284.13" "the main executable before dyld-1323.3"
  # JSON names the rule.
  LG check --portable --json dup-26.0.dylib | python3 -c '
import json, sys
d = json.load(sys.stdin)
rules = [f["rule"] for f in d["files"][0]["findings"]]
assert rules == ["dyld duplicate-rpath"], rules' || test_failed "JSON rule"

  TEST "dyld: a duplicate linked dylib is refused from SDK 15.0, a missing LC_UUID from 12.0"
  write_tbd two/liba.tbd /usr/lib/liba.dylib _fa
  write_tbd two/libb.tbd /usr/lib/libb.dylib _fb
  echo 'extern "C" int fa(), fb(); extern "C" int k() { return fa() + fb(); }' >ab.cpp
  link ab.dylib 14.0 -shared ab.cpp -Ltwo -la -lb
  for v in 14.0:917504:0 15.0:983040:1; do
    IFS=: read -r ver num want <<EOF
$v
EOF
    reshape ab.dylib "ab-$ver.dylib" "s#/usr/lib/libb.dylib#/usr/lib/liba.dylib#; s/sdk: *917504/sdk:             $num/"
    expect_equal "$("$LLVM_BIN/llvm-otool" -L "ab-$ver.dylib" | grep -c /usr/lib/liba.dylib)" 2 "otool -L ab-$ver.dylib"
    out=$(LG check --portable "ab-$ver.dylib"); status=$?
    expect_equal "$status" "$want" "duplicate dylib, SDK $ver: $out"
  done
  expect_contains "$out" "\"duplicate linked dylib '/usr/lib/liba.dylib'\""
  echo 'extern "C" int k() { return 1; }' >k.cpp
  link nouuid-11.dylib 11.0 -shared k.cpp -Wl,-no_uuid
  link nouuid-12.dylib 12.0 -shared k.cpp -Wl,-no_uuid
  expect_not_contains "$("$LLVM_BIN/llvm-otool" -l nouuid-12.dylib)" LC_UUID "otool -l nouuid-12.dylib"
  expect_status 0 LG check --portable nouuid-11.dylib >/dev/null
  out=$(LG check --portable nouuid-12.dylib); status=$?
  expect_equal "$status" 1 "no LC_UUID, SDK 12.0: $out"
  expect_contains "$out" "\"missing LC_UUID load command\""

  TEST "a shipped dylib with an absolute install name makes its users bake it"
  echo 'extern "C" int omp_get_num_threads() { return 1; }' >omp.cpp
  link libomp.dylib 14.0 -shared omp.cpp -Wl,-install_name,/opt/llvm-openmp/lib/libomp.dylib
  link libomp-rpath.dylib 14.0 -shared omp.cpp -Wl,-install_name,@rpath/libomp.dylib
  link libomp-sys.dylib 14.0 -shared omp.cpp -Wl,-install_name,/usr/lib/libomp.dylib
  expect_contains "$("$LLVM_BIN/llvm-otool" -D libomp.dylib)" /opt/llvm-openmp/lib/libomp.dylib "otool -D"
  out=$(LG check --portable libomp.dylib); status=$?
  expect_equal "$status" 1 "absolute install name: $out"
  expect_contains "$out" "libomp.dylib: violation: LC_ID_DYLIB /opt/llvm-openmp/lib/libomp.dylib (arm64) is an absolute path outside /usr/lib/ and /System/Library/: everything linked against it will load /opt/llvm-openmp/lib/libomp.dylib"
  expect_status 0 LG check --portable libomp-rpath.dylib >/dev/null
  expect_status 0 LG check --portable libomp-sys.dylib >/dev/null
  # Only under --portable: a plain forbid contract does not judge it.
  expect_status 0 LG check --forbid libz libomp.dylib >/dev/null
}
