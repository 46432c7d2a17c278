# `check --portable`'s platform policy (issue 36 item 1, rule platform,
# contract/PlatformPolicy.cpp): what a wheel's tag or a deployment target
# promises against the files. Real links: lld's arm64 and x86_64 dylibs for
# macOS 11 and 14 (llvm-otool shows each minos), lipo'd; an ELF library
# linked here against Debian 12's glibc 2.36 and libstdc++ (llvm-readelf
# shows its GLIBC_2.34 and GLIBCXX_3.4.21 needs); wheels zipped from them
# under tags delocate and auditwheel judge the same way.

SUITE_platform_PROBE() {
  local tool
  for tool in clang++ ld64.lld llvm-otool llvm-lipo llvm-readelf; do
    [ -x "$LLVM_BIN/$tool" ] || { echo "$LLVM_BIN/$tool not found"; return; }
  done
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
}

SUITE_platform_SETUP() {
  write_sdk sdk
  echo 'extern "C" int k(int x) { return x * 3 + 1; }' >k.cpp
}

LG() { "$LINKGUARD_BIN" "$@"; }

# macho OUT ARCH MACOS: a dylib for ARCH with minimum macOS MACOS.
macho() {
  $CLANGXX -target "$2-apple-macos$3" -isysroot sdk -fuse-ld=lld -nostdlib++ -shared k.cpp \
    -o "$1" -Wl,-install_name,@rpath/"$(basename "$1")" || test_failed "linking $1"
}
# wheel NAME FILE...: a wheel (a zip) holding the files under pkg/.
wheel() {
  python3 - "$@" <<'PY'
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    for f in sys.argv[2:]:
        z.write(f, "pkg/" + os.path.basename(f))
PY
}
minos() { "$LLVM_BIN/llvm-otool" -l "$1" | grep -A4 'cmd LC_BUILD_VERSION' | awk '$1 == "minos" {print $2}'; }

SUITE_platform() {
  TEST "macOS: a slice's minimum above the wheel tag's is a violation; at or below it holds"
  macho libk14.dylib arm64 14.0
  macho libk11.dylib arm64 11.0
  expect_equal "$(minos libk14.dylib) $(minos libk11.dylib)" "14.0 11.0" "llvm-otool minos"
  wheel pkg-1.0-cp312-cp312-macosx_11_0_arm64.whl libk14.dylib
  out=$(LG check --portable pkg-1.0-cp312-cp312-macosx_11_0_arm64.whl); status=$?
  expect_equal "$status" 1 "$out"
  expect_contains "$out" "pkg/libk14.dylib: violation: needs macOS 14.0 (arm64), newer than 11.0 that the wheel tag macosx_11_0_arm64 promises"
  expect_contains "$out" "MACOSX_DEPLOYMENT_TARGET=11.0 or tag the wheel for 14.0"
  # The member named alone is judged by its wheel's tag too.
  expect_status 1 LG check --portable 'pkg-1.0-cp312-cp312-macosx_11_0_arm64.whl!pkg/libk14.dylib'
  wheel pkg-1.0-cp312-cp312-macosx_14_0_arm64.whl libk14.dylib
  expect_status 0 LG check --portable pkg-1.0-cp312-cp312-macosx_14_0_arm64.whl
  wheel pkg-1.0-cp312-cp312-macosx_11_0_arm64.whl libk11.dylib
  expect_status 0 LG check --portable pkg-1.0-cp312-cp312-macosx_11_0_arm64.whl
  # Not a wheel's name: no tag, no promise.
  wheel pkg.zip libk14.dylib
  expect_status 0 LG check --portable pkg.zip

  TEST "macOS: the tag's architectures: universal2 needs arm64 and x86_64 (delocate --require-archs)"
  macho a.dylib arm64 11.0
  macho x.dylib x86_64 10.13
  "$LLVM_BIN/llvm-lipo" -create a.dylib x.dylib -output libu.dylib || test_failed lipo
  wheel u-1.0-cp312-cp312-macosx_10_13_universal2.whl libu.dylib
  # arm64 at 11.0 in a 10.13 universal2 wheel: no arm64 Mac runs less.
  expect_status 0 LG check --portable u-1.0-cp312-cp312-macosx_10_13_universal2.whl
  wheel a-1.0-cp312-cp312-macosx_10_13_universal2.whl a.dylib
  out=$(LG check --portable a-1.0-cp312-cp312-macosx_10_13_universal2.whl); status=$?
  expect_equal "$status" 1 "$out"
  expect_contains "$out" "no x86_64 slice (it has arm64), which the wheel tag macosx_10_13_universal2 requires"
  wheel x-1.0-cp312-cp312-macosx_10_9_x86_64.whl libu.dylib
  out=$(LG check --portable x-1.0-cp312-cp312-macosx_10_9_x86_64.whl); status=$?
  expect_equal "$status" 1 "$out"
  expect_contains "$out" "(x86_64): violation: needs macOS 10.13 (x86_64), newer than 10.9"
  expect_not_contains "$out" "(arm64)"
  # An ELF file in a macOS wheel loads on no Mac.
  echo 'int e() { return 1; }' >e.c
  "$CLANG" -shared -fPIC e.c -o libe.so || test_failed "linking libe.so"
  wheel m-1.0-cp312-cp312-macosx_11_0_arm64.whl libe.so
  out=$(LG check --portable m-1.0-cp312-cp312-macosx_11_0_arm64.whl)
  expect_contains "$out" "an ELF file, yet the wheel tag macosx_11_0_arm64 promises macOS only"

  TEST "macOS: --macos-min and MACOSX_DEPLOYMENT_TARGET bound every slice of a file or a tree"
  mkdir -p app
  macho app/libk14.dylib arm64 14.0
  expect_status 0 LG check --portable app
  out=$(LG check --portable --macos-min 13.0 app); status=$?
  expect_equal "$status" 1 "$out"
  expect_contains "$out" "needs macOS 14.0 (arm64), newer than 13.0 that --macos-min 13.0 promises: dyld refuses it on macOS 13.0"
  expect_status 0 LG check --portable --macos-min 14.0 app/libk14.dylib
  out=$(MACOSX_DEPLOYMENT_TARGET=12.3 LG check --portable app/libk14.dylib); status=$?
  expect_equal "$status" 1 "$out"
  expect_contains "$out" "that MACOSX_DEPLOYMENT_TARGET=12.3 promises"
  # --macos-min wins over the environment; a word that is no version is a usage error.
  MACOSX_DEPLOYMENT_TARGET=12.3 expect_status 0 LG check --portable --macos-min 14.0 app
  expect_status 64 LG check --portable --macos-min eleven app
  expect_status 64 LG check --forbid libfoo --macos-min 11.0 app

  TEST "Linux: a manylinux tag against the symbol versions and libraries (auditwheel's policy)"
  cat >e.cpp <<'EOF'
#include <pthread.h>
#include <string>
static void *run(void *) { return nullptr; }
extern "C" int start() { pthread_t t; int r = pthread_create(&t, nullptr, run, nullptr); pthread_join(t, nullptr); return r; }
extern "C" int len(const char *s) { return (int)std::string(s).size(); }
EOF
  "$CLANGXX" -shared -fPIC e.cpp -o libe.so || test_failed "linking libe.so"
  needs=$("$LLVM_BIN/llvm-readelf" -V libe.so)
  expect_contains "$needs" "GLIBC_2.34" "pthread_create moved into libc in glibc 2.34"
  glibcxx=$(printf '%s' "$needs" | grep -o 'GLIBCXX_3\.4\.[0-9]*' | sort -t. -k3,3n | tail -1)
  [ -n "$glibcxx" ] || test_failed "no GLIBCXX_ need: $needs"
  wheel e-1.0-cp312-cp312-manylinux_2_17_x86_64.manylinux2014_x86_64.whl libe.so
  out=$(LG check --portable e-1.0-cp312-cp312-manylinux_2_17_x86_64.manylinux2014_x86_64.whl); status=$?
  expect_equal "$status" 1 "$out"
  expect_contains "$out" "needs GLIBC_2.34 (libc.so.6), which manylinux_2_17 does not allow (GLIBC up to 2.17; auditwheel 86154d15d6a5"
  expect_contains "$out" "needs $glibcxx (libstdc++.so.6), which manylinux_2_17 does not allow (GLIBCXX up to 3.4.19"
  # manylinux_2_36 (Debian 12's glibc): every need is allowed, every library promised.
  wheel e-1.0-cp312-cp312-manylinux_2_36_x86_64.whl libe.so
  out=$(LG check --portable e-1.0-cp312-cp312-manylinux_2_36_x86_64.whl); status=$?
  expect_equal "$status" 0 "$out"
  # musllinux promises libc.so and libz.so.1 only: glibc's libraries are not shipped.
  wheel e-1.0-cp312-cp312-musllinux_1_2_x86_64.whl libe.so
  out=$(LG check --portable e-1.0-cp312-cp312-musllinux_1_2_x86_64.whl); status=$?
  expect_equal "$status" 1 "$out"
  expect_contains "$out" "loads libstdc++.so.6, which musllinux_1_2 does not promise"
  expect_contains "$out" "loads libc.so.6, which musllinux_1_2 does not promise"
  # Another architecture's tag; a tag auditwheel's table does not know (92).
  wheel e-1.0-cp312-cp312-manylinux_2_36_aarch64.whl libe.so
  out=$(LG check --portable e-1.0-cp312-cp312-manylinux_2_36_aarch64.whl)
  expect_contains "$out" "a file for x86_64, yet the wheel tag manylinux_2_36_aarch64 promises aarch64"
  wheel e-1.0-cp312-cp312-manylinux_2_99_x86_64.whl libe.so
  out=$(LG check --portable e-1.0-cp312-cp312-manylinux_2_99_x86_64.whl); status=$?
  expect_equal "$status" 92 "$out"
  expect_contains "$out" "the platform tag manylinux_2_99_x86_64 is not one linkguard can judge"

  TEST "Linux: a library the policy does not promise holds when the wheel ships it"
  echo 'int helper(void) { return 2; }' >h.c
  "$CLANG" -shared -fPIC h.c -o libhelper.so.1 -Wl,-soname,libhelper.so.1 || test_failed helper
  echo 'int helper(void); int use(void) { return helper(); }' >u.c
  "$CLANG" -shared -fPIC u.c -o libuse.so -L. -l:libhelper.so.1 -Wl,-rpath,'$ORIGIN' || test_failed use
  wheel s-1.0-cp312-cp312-manylinux_2_17_x86_64.whl libuse.so libhelper.so.1
  out=$(LG check --portable s-1.0-cp312-cp312-manylinux_2_17_x86_64.whl); status=$?
  expect_equal "$status" 0 "$out"
  wheel t-1.0-cp312-cp312-manylinux_2_17_x86_64.whl libuse.so
  out=$(LG check --portable t-1.0-cp312-cp312-manylinux_2_17_x86_64.whl); status=$?
  expect_equal "$status" 1 "$out"
  # One line per dependency: the closure's finding leads, the policy's is "also".
  expect_contains "$out" "(also: platform)"
  json=$(LG check --portable --json t-1.0-cp312-cp312-manylinux_2_17_x86_64.whl)
  expect_contains "$json" "loads libhelper.so.1, which manylinux_2_17 does not promise"

  TEST "a tree or a file given a target: --platform-tag"
  mkdir -p mac elf
  macho mac/libk14.dylib arm64 14.0
  expect_status 0 LG check --portable mac
  out=$(LG check --portable --platform-tag macosx_11_0_arm64 mac); status=$?
  expect_equal "$status" 1 "$out"
  expect_contains "$out" "needs macOS 14.0 (arm64), newer than 11.0 that --platform-tag macosx_11_0_arm64 promises"
  out=$(LG check --portable --platform-tag macosx_14_0_universal2 mac/libk14.dylib); status=$?
  expect_equal "$status" 1 "$out"
  expect_contains "$out" "no x86_64 slice"
  printf '%s\n' '#include <pthread.h>' 'static void *run(void *) { return nullptr; }' \
    'extern "C" int start() { pthread_t t; return pthread_create(&t, nullptr, run, nullptr); }' >e.cpp
  "$CLANGXX" -shared -fPIC e.cpp -o elf/libe.so || test_failed "linking libe.so"
  out=$(LG check --portable --platform-tag manylinux_2_17_x86_64 elf); status=$?
  expect_equal "$status" 1 "$out"
  expect_contains "$out" "needs GLIBC_2.34 (libc.so.6), which manylinux_2_17 does not allow"
  expect_contains "$out" "--platform-tag manylinux_2_17_x86_64 promises it"
  expect_status 0 LG check --portable --platform-tag manylinux_2_36_x86_64 elf/libe.so
  expect_status 64 LG check --portable --platform-tag any elf
  expect_status 64 LG check --portable --platform-tag py3-none-any elf
  expect_status 64 LG check --forbid libfoo --platform-tag manylinux_2_36_x86_64 elf

  TEST "the regenerated table is the committed one (scripts/auditwheel_policy.py)"
  rev=$(sed -n 's/^- revision: `\([0-9a-f]*\)`.*/\1/p' "$LINKGUARD_SOURCE_DIR/data/auditwheel/README.md")
  [ ${#rev} = 40 ] || test_failed "no revision in data/auditwheel/README.md"
  python3 "$LINKGUARD_SOURCE_DIR/scripts/auditwheel_policy.py" "$LINKGUARD_SOURCE_DIR/data/auditwheel" "$rev" >table.inc ||
    test_failed "auditwheel_policy.py"
  expect_same_file table.inc "$LINKGUARD_SOURCE_DIR/contract/LinuxPolicies.inc"
}
