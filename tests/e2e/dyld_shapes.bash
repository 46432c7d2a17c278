# dyld's own algorithm (issue 37 part 3, shipment/Dyld.cpp): each shape is
# judged by `check --portable` on the tree and on the executable alone
# (--bundle-root: one resolver for both), cross-linked with clang++-19 and
# ld64.lld against .tbd stubs (obj2yaml/yaml2obj for what a linker will not
# make). No dyld runs here: the evidence beside each verdict is dyld-1378's
# source, cited at each test (../shared/third_party/dyld-1378.tar.gz). Each
# failed on 6ef4d08, whose Mach-O closure was a walker of its own.

SUITE_dyld_shapes_PROBE() {
  local tool
  for tool in clang++ ld64.lld llvm-otool obj2yaml yaml2obj llvm-lipo; do
    [ -x "$LLVM_BIN/$tool" ] || { echo "$LLVM_BIN/$tool not found"; return; }
  done
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  command -v python3 >/dev/null || echo "python3 not found (JSON checks)"
}

SUITE_dyld_shapes_SETUP() {
  write_sdk sdk
}

LG() { "$LINKGUARD_BIN" "$@"; }

# dmac SDK_VERSION ARGS...: a cross-linked arm64 Mach-O image built against
# SDK_VERSION (14.0 and later: no classic fallback paths).
dmac() {
  local sdkv=$1; shift
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk) -nostdlib++ "$@" -Wl,-platform_version,macos,11.0,"$sdkv" ||
    test_failed "clang++ $*"
}

# dlib DIR NAME [ARGS...]: DIR/NAME.dylib, install name @rpath/NAME.dylib,
# defining f_NAME, SDK 14.0.
dlib() {
  local dir=$1 name=$2; shift 2
  mkdir -p "$dir"
  echo "extern \"C\" int f_$name() { return 1; }" >"$name.cpp"
  dmac 14.0 -shared "$name.cpp" -o "$dir/$name.dylib" -Wl,-install_name,@rpath/"$name".dylib "$@"
}

# dapp DIR SDK ARGS...: DIR/bin/app.
dapp() {
  local dir=$1 sdkv=$2; shift 2
  mkdir -p "$dir/bin"
  echo 'int main() { return 0; }' >main.cpp
  dmac "$sdkv" main.cpp -o "$dir/bin/app" "$@"
}

# reshape IN OUT SED_EXPR: IN through obj2yaml, one sed edit, yaml2obj.
reshape() {
  "$LLVM_BIN/obj2yaml" "$1" >"$1.yaml" || test_failed "obj2yaml $1"
  sed -e "$3" "$1.yaml" | "$LLVM_BIN/yaml2obj" -o "$2" || test_failed "yaml2obj $2"
}

# verdict TREE: check --portable's exit status on the tree, and on bin/app
# alone in the tree's bundle root; both must be the same (one resolver).
verdict() {
  local tree=$1 a b
  LG check --portable "$tree" >tree.out 2>&1; a=$?
  LG check --portable --bundle-root "$tree" "$tree/bin/app" >file.out 2>&1; b=$?
  expect_equal "$b" "$a" "the file's verdict equals the tree's ($(cat tree.out file.out))"
  echo "$a"
}

# xmac ARGS...: a cross-linked x86_64 image, SDK 14.0.
xmac() {
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk x86_64) -nostdlib++ "$@" -Wl,-platform_version,macos,11.0,14.0 ||
    test_failed "clang++ (x86_64) $*"
}

SUITE_dyld_shapes() {
  TEST "loadDependents: an image's @rpath stack is the chain of its first expansion"
  # app (LC_RPATH @executable_path/../lib) -> libA, libB; libA (LC_RPATH
  # @loader_path/a) -> libB; libB (no LC_RPATH) -> @rpath/libC, shipped
  # only in lib/a/. JustInTimeLoader::loadDependents: app resolves libA and
  # libB, then expands libA, whose dependents (libB, already loaded) it
  # expands in turn with the chain {libB, libA, app}: libB's @rpath/libC is
  # found through libA's @loader_path/a. 6ef4d08 took libB's chain as
  # {libB, app} (the image that first loaded it): unresolved.
  dlib t/lib/a libC
  dlib t/lib libB t/lib/a/libC.dylib
  dlib t/lib libA t/lib/libB.dylib -Wl,-rpath,@loader_path/a
  dapp t 14.0 t/lib/libA.dylib t/lib/libB.dylib -Wl,-rpath,@executable_path/../lib
  expect_equal "$(verdict t)" 0 "check --portable t"
  expect_contains "$(LG inspect --tree t)" \
    "@rpath/libC.dylib => t/lib/a/libC.dylib [shipped: LC_RPATH @loader_path/a of t/lib/libA.dylib]"
  rm -rf t

  TEST "getLoader: a wrong-architecture candidate is tried and dyld goes on"
  # Loader::getLoader -> makeJustInTimeLoaderDisk -> MachOFile::
  # compatibleSlice: "mach-o file, but is an incompatible architecture"
  # is recorded as tried, and the next LC_RPATH is tried. 6ef4d08 ended the
  # search at the x86_64 copy ("no arm64 slice").
  dlib t/lib libB
  mkdir -p t/x86
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk x86_64) -nostdlib++ -shared libB.cpp -o t/x86/libB.dylib \
    -Wl,-install_name,@rpath/libB.dylib || test_failed "x86_64 libB"
  dapp t 14.0 t/lib/libB.dylib -Wl,-rpath,@executable_path/../x86 -Wl,-rpath,@executable_path/../lib
  expect_equal "$(verdict t)" 0 "check --portable t"
  out=$(LG inspect --tree t)
  expect_contains "$out" "@rpath/libB.dylib => t/lib/libB.dylib [shipped: LC_RPATH @executable_path/../lib]"
  rm -rf t

  TEST "getLoader: a bundle, an executable, a non-Mach-O file, another platform and a refused file are no dependency; the finding names each"
  # makeJustInTimeLoaderDisk: "cannot link against bundle", "cannot link
  # against a main executable"; compatibleSlice: "not a mach-o file",
  # "incompatible platform"; mach_o::Header::valid (dyld >= 1284.13): a
  # missing LC_UUID from SDK 12.0. Each is tried and dyld goes on; with no
  # other copy the name is missing. 6ef4d08 took the first as shipped.
  dlib real libB
  mkdir -p t/p t/e t/n t/i t/u
  dmac 14.0 -bundle libB.cpp -o t/p/libB.dylib
  echo 'int main() { return 0; }' >m2.cpp
  dmac 14.0 m2.cpp -o t/e/libB.dylib
  echo "not a binary" >t/n/libB.dylib
  reshape real/libB.dylib t/i/libB.dylib 's/platform: *1$/platform:        2/'
  expect_contains "$("$LLVM_BIN/llvm-otool" -l t/i/libB.dylib)" "platform 2" "otool: iOS"
  dmac 14.0 -shared libB.cpp -o t/u/libB.dylib -Wl,-install_name,@rpath/libB.dylib -Wl,-no_uuid
  dapp t 14.0 real/libB.dylib -Wl,-rpath,@executable_path/../p -Wl,-rpath,@executable_path/../e \
    -Wl,-rpath,@executable_path/../n -Wl,-rpath,@executable_path/../i -Wl,-rpath,@executable_path/../u
  expect_equal "$(verdict t)" 1 "check --portable t"
  out=$(cat tree.out)
  expect_contains "$out" "t/bin/app: violation: LC_LOAD_DYLIB @rpath/libB.dylib (arm64) is an @rpath name that resolves to no file of the tree"
  for why in "p/libB.dylib (cannot link against bundle)" \
             "e/libB.dylib (cannot link against a main executable)" \
             "n/libB.dylib (not a mach-o file)" \
             "i/libB.dylib (mach-o file, but incompatible platform" \
             "u/libB.dylib (missing LC_UUID load command"; do
    expect_contains "$out" "$why" "the refusal is named"
  done
  # And with a loadable copy last, dyld goes on to it.
  mkdir -p t/lib && cp real/libB.dylib t/lib/libB.dylib
  dapp t 14.0 real/libB.dylib -Wl,-rpath,@executable_path/../p -Wl,-rpath,@executable_path/../e \
    -Wl,-rpath,@executable_path/../n -Wl,-rpath,@executable_path/../i -Wl,-rpath,@executable_path/../u \
    -Wl,-rpath,@executable_path/../lib
  LG check --portable t >tree.out 2>&1
  expect_contains "$(LG inspect --tree t)" "@rpath/libB.dylib => t/lib/libB.dylib [shipped: LC_RPATH @executable_path/../lib]"
  expect_not_contains "$(grep 't/bin/app' tree.out)" "violation" "app's own dependency holds ($(cat tree.out))"
  rm -rf t real

  TEST "slices: an arm64 program maps a universal library's arm64e slice (GradedArchitectures)"
  # DyldProcessConfig.cpp getMainArchs: an arm64 program runs with its keys
  # off; GradedArchitectures::currentLoad -> load_arm64e_keysOff: arm64e is
  # graded before arm64, so hasCompatibleSlice maps the arm64e slice, whose
  # @rpath/libZ is shipped nowhere. 6ef4d08 judged the arm64 slice only.
  # ld64.lld writes no arm64e header: the arm64 build's cpusubtype is set
  # to CPU_SUBTYPE_ARM64E (2, pointer-auth ABI bit 0x80000000) by yaml2obj.
  mkdir -p t/lib
  dlib z libZ
  echo 'extern "C" int f_libZ(); extern "C" int f_libB() { return f_libZ(); }' >be.cpp
  dmac 14.0 -shared be.cpp -o libB-a.dylib -Wl,-install_name,@rpath/libB.dylib z/libZ.dylib
  reshape libB-a.dylib libB-e.dylib 's/cpusubtype: *0x0$/cpusubtype:      0x80000002/'
  expect_contains "$("$LLVM_BIN/llvm-lipo" -info libB-e.dylib)" "arm64e" "lipo: arm64e"
  dlib . libB
  "$LLVM_BIN/llvm-lipo" -create libB.dylib libB-e.dylib -output t/lib/libB.dylib || test_failed lipo
  dapp t 14.0 t/lib/libB.dylib -Wl,-rpath,@executable_path/../lib
  expect_equal "$(verdict t)" 1 "check --portable t"
  expect_contains "$(cat tree.out)" "@rpath/libZ.dylib (arm64e), loaded under t/bin/app, is an @rpath name that resolves to no file of the tree"
  rm -rf t z

  TEST "slices: an x86_64 program on a Haswell Mac maps the x86_64h slice (load_macHaswell)"
  # The x86_64 build's cpusubtype set to CPU_SUBTYPE_X86_64_H (8).
  mkdir -p t/lib z
  echo 'extern "C" int f_libZ() { return 1; }' >libZ.cpp
  echo 'extern "C" int f_libZ(); extern "C" int f_libB() { return f_libZ(); }' >be.cpp
  echo 'extern "C" int f_libB() { return 1; }' >libB.cpp
  echo 'int main() { return 0; }' >main.cpp
  xmac -shared libZ.cpp -o z/libZ.dylib -Wl,-install_name,@rpath/libZ.dylib
  xmac -shared be.cpp -o libB-x0.dylib -Wl,-install_name,@rpath/libB.dylib z/libZ.dylib
  reshape libB-x0.dylib libB-h.dylib 's/cpusubtype: *0x3$/cpusubtype:      0x8/'
  expect_contains "$("$LLVM_BIN/llvm-lipo" -info libB-h.dylib)" "x86_64h" "lipo: x86_64h"
  xmac -shared libB.cpp -o libB-x.dylib -Wl,-install_name,@rpath/libB.dylib
  "$LLVM_BIN/llvm-lipo" -create libB-x.dylib libB-h.dylib -output t/lib/libB.dylib || test_failed lipo
  mkdir -p t/bin
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk x86_64) -nostdlib++ main.cpp -o t/bin/app t/lib/libB.dylib \
    -Wl,-rpath,@executable_path/../lib || test_failed "x86_64 app"
  expect_equal "$(verdict t)" 1 "check --portable t"
  expect_contains "$(cat tree.out)" "@rpath/libZ.dylib (x86_64h), loaded under t/bin/app, is an @rpath name"
  rm -rf t z

  TEST "an absolute LC_RPATH ahead of the shipped one is host-dependent"
  # forEachResolvedAtPathVar: an absolute LC_RPATH is tried as it stands,
  # before the next: a machine with /opt/hostlib/libB.dylib loads that.
  dlib t/lib libB
  dapp t 14.0 t/lib/libB.dylib -Wl,-rpath,/opt/hostlib -Wl,-rpath,@executable_path/../lib
  expect_equal "$(verdict t)" 1 "check --portable t"
  expect_contains "$(cat tree.out)" "but dyld tries LC_RPATH /opt/hostlib -> /opt/hostlib/libB.dylib (outside the tree) first"
  LG inspect --tree --json t >tree.json
  expect_contains "$(cat tree.json)" '"placement": "host-dependent"'
  # The control: after the shipped one, it is never tried.
  dapp t 14.0 t/lib/libB.dylib -Wl,-rpath,@executable_path/../lib -Wl,-rpath,/opt/hostlib
  expect_equal "$(verdict t)" 0 "check --portable t, the absolute entry last"
  rm -rf t

  TEST "a weak dylib missing from the tree: host-dependent through an absolute LC_RPATH or a pre-2022 image's fallbacks"
  # forEachPath -> forEachPathVariant -> forEachDylibFallback: a requester
  # with pre2022Binary (enforceFormat(sdkOnOrAfter2022): macOS SDK < 14.0)
  # tries /usr/local/lib and /usr/lib after its LC_RPATHs.
  dlib gone libW
  mkdir -p t
  dapp t 13.0 -Wl,-weak_library,gone/libW.dylib -Wl,-rpath,@executable_path/../lib
  expect_equal "$(verdict t)" 1 "SDK 13.0"
  expect_contains "$(cat tree.out)" "classic fallback directories /usr/local/lib/libW.dylib and /usr/lib/libW.dylib"
  dapp t 14.0 -Wl,-weak_library,gone/libW.dylib -Wl,-rpath,@executable_path/../lib
  expect_equal "$(verdict t)" 0 "SDK 14.0: no fallback, the weak dylib may be missing"
  dapp t 14.0 -Wl,-weak_library,gone/libW.dylib -Wl,-rpath,/opt/hostlib
  expect_equal "$(verdict t)" 1 "SDK 14.0, an absolute LC_RPATH"
  expect_contains "$(cat tree.out)" "dyld also tries LC_RPATH /opt/hostlib -> /opt/hostlib/libW.dylib"
  rm -rf t gone

  TEST "names that differ only in case collide on macOS's default file system"
  dlib t/lib libB
  cp t/lib/libB.dylib t/lib/libb.dylib
  dapp t 14.0 t/lib/libB.dylib -Wl,-rpath,@executable_path/../lib
  expect_equal "$(verdict t)" 1 "check --portable t"
  expect_contains "$(cat tree.out)" "but the tree also holds lib/libb.dylib, whose name differs only in case"
  rm t/lib/libb.dylib
  expect_equal "$(verdict t)" 0 "the control: one name"
  rm -rf t
}
