# dyld's own validator as the judge of contract/DyldRules (issue 34 part 2,
# label `apple`). scripts/dyld-validator builds mach_o::Header::valid
# (dyld-1284.13, dyld-1323.3) and UnsafeHeader::valid (dyld-1378) from
# ../shared/third_party into dyld-validate-<release>; dyld_rules_cli prints
# linkguard's first refusal per file, slice and release; dyld_oracle.py maps
# dyld's message to a rule id (tests/data/dyld_error_rules.tsv) and compares.
# "The same": per file, slice and release, the same decision and the same
# rule. Fed: real lld links (dylibs, bundles, executables, x86_64 and arm64,
# universal, SDKs 10.15 .. 26.0), the yaml2obj fixtures of tests/yaml, the
# loadability suite's reshaped shapes, the issue's two crafted shapes, the
# npm darwin packages ld64_npm.bash fetches (the same cache), and a smoke
# run of the in-process mutator (scripts/fuzz dyld-oracle runs >= 100,000).
# Skips, saying so, without ../shared/third_party.

DYLD_ORACLE_SMOKE=${DYLD_ORACLE_SMOKE:-3000}
NPM_DARWIN_PKGS=(fsevents@2.3.3 @img/sharp-darwin-arm64@0.35.6 @img/sharp-libvips-darwin-arm64@1.3.5
  @img/sharp-darwin-x64@0.35.6 @img/sharp-libvips-darwin-x64@1.3.5 @esbuild/darwin-arm64@0.28.2
  @esbuild/darwin-x64@0.28.2 @rollup/rollup-darwin-arm64@4.69.3 lightningcss-darwin-arm64@1.33.0
  @parcel/watcher-darwin-arm64@2.6.0 @swc/core-darwin-arm64@1.16.22 @tailwindcss/oxide-darwin-arm64@4.3.5)

# npm_corpus: the unpacked packages' directory, fetched once per version list
# (the layout and key of tests/e2e/ld64_npm.bash: one cache for both).
npm_corpus() {
  local key dir
  key=$(printf '%s\n' "${NPM_DARWIN_PKGS[@]}" | cksum | cut -d' ' -f1)
  dir=$LINKGUARD_BUILD_DIR/apple/npm/$key
  if [ ! -f "$dir/complete" ]; then
    rm -rf "$dir" && mkdir -p "$dir/tgz" &&
      (cd "$dir/tgz" && npm pack --silent "${NPM_DARWIN_PKGS[@]}" >../npm.log 2>&1) || return 1
    local t
    for t in "$dir"/tgz/*.tgz; do
      mkdir -p "$dir/x/$(basename "$t" .tgz)" && tar xzf "$t" -C "$dir/x/$(basename "$t" .tgz)" || return 1
    done
    rm -rf "$dir/tgz" && touch "$dir/complete"
  fi
  echo "$dir/x"
}

SUITE_dyld_oracle_PROBE() {
  local tp=${LINKGUARD_THIRD_PARTY:-$LINKGUARD_SOURCE_DIR/../shared/third_party} tool
  [ -f "$tp/dyld-1378.tar.gz" ] ||
    { echo "$tp has no dyld archives (../shared is not beside this clone): dyld's validator cannot be built"; return; }
  [ -x "${LINKGUARD_DYLD_RULES_CLI:-}" ] || { echo "LINKGUARD_DYLD_RULES_CLI is not set to the built dyld_rules_cli"; return; }
  [ -d "${LINKGUARD_BUILD_DIR:-}" ] || { echo "LINKGUARD_BUILD_DIR is not set (the validator is cached there)"; return; }
  for tool in clang++ ld64.lld llvm-lipo obj2yaml yaml2obj; do
    [ -x "$LLVM_BIN/$tool" ] || { echo "$LLVM_BIN/$tool not found"; return; }
  done
}

SUITE_dyld_oracle_SETUP() {
  write_sdk sdk
}

oracle() {
  python3 "$LINKGUARD_SOURCE_DIR/tests/tools/dyld_oracle.py" "$@"
}

# compare WHAT FILE...: both judges agree on every slice and release.
compare() {
  local what=$1 out; shift
  out=$(oracle compare --bin "$DYLD_BIN" --cli "$LINKGUARD_DYLD_RULES_CLI" "$@" 2>&1) ||
    test_failed "$what: dyld's validator and contract/DyldRules differ:
$out"
  echo "$what:"
  printf '%s\n' "$out" | while IFS= read -r l; do echo "  $l"; done
}

# verdicts FILE: "release verdict message" per line, from dyld's own code.
verdicts() {
  local r
  for r in 1284.13 1323.3 1378; do "$DYLD_BIN/dyld-validate-$r" "$1" | cut -f3-5; done
}

lld_link() { # OUT ARCH MINOS SDK ARGS...
  local out=$1 arch=$2 minos=$3 sdkv=$4; shift 4
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk "$arch") -nostdlib++ "$@" -o "$out" \
    -Wl,-platform_version,macos,"$minos","$sdkv" -Wl,-headerpad,0x800 || test_failed "linking $out"
}

reshape() { # IN OUT SED_EXPR
  "$LLVM_BIN/obj2yaml" "$1" >"$1.yaml" || test_failed "obj2yaml $1"
  sed -e "$3" "$1.yaml" | "$LLVM_BIN/yaml2obj" -o "$2" || test_failed "yaml2obj $2"
}

SUITE_dyld_oracle() {
  TEST "dyld's validator builds from the three dyld archives (clang++-19 -fblocks -stdlib=libc++, cctools-port headers, shims)"
  DYLD_BIN=$("$LINKGUARD_SOURCE_DIR/scripts/dyld-validator" "$LINKGUARD_BUILD_DIR") ||
    test_failed "scripts/dyld-validator failed"
  local r
  for r in 1284.13 1323.3 1378; do expect_exists "$DYLD_BIN/dyld-validate-$r"; done

  TEST "real lld links: seeds for the mutator, and both judges agree on them"
  # Every TEST has a fresh directory: the files the later ones use live in W.
  W=$E2E_ROOT/work
  mkdir -p "$W" || test_failed "$W"
  write_sdk "$W/sdk"
  cd "$W" || test_failed "$W"
  mkdir -p seeds
  echo 'extern "C" int k() { return 1; }' >k.cpp
  echo 'int main() { return 0; }' >m.cpp
  lld_link seeds/a154.dylib arm64 11.0 15.4 -shared k.cpp -Wl,-rpath,@loader_path
  lld_link seeds/a26.dylib arm64 11.0 26.0 -shared k.cpp -Wl,-rpath,@loader_path -Wl,-fixup_chains
  lld_link seeds/a14.dylib arm64 11.0 14.0 -shared k.cpp -Wl,-install_name,/usr/lib/system/libk.dylib
  lld_link seeds/x.dylib x86_64 10.15 14.0 -shared k.cpp
  lld_link seeds/m26 arm64 11.0 26.0 m.cpp -Wl,-rpath,@executable_path
  lld_link seeds/m15 x86_64 10.15 15.0 m.cpp
  lld_link seeds/b.bundle x86_64 10.15 15.0 -bundle k.cpp
  "$LLVM_BIN/llvm-lipo" -create seeds/x.dylib seeds/a154.dylib -output fat.dylib || test_failed lipo
  compare "lld links" seeds/* fat.dylib
  # A clean link is valid for dyld's code (a main executable is not
  # validated by dyld-1284.13's loader).
  expect_equal "$(verdicts seeds/a26.dylib | cut -f2 | sort -u)" "valid" "a26.dylib"
  expect_equal "$(verdicts seeds/m26 | cut -f2 | tr '\n' ' ')" "not-validated valid valid " "m26"

  TEST "the yaml2obj fixtures of tests/yaml and the loadability suite's reshaped shapes"
  cd "$W" || test_failed "$W"
  local y
  mkdir -p crafted
  for y in "$LINKGUARD_SOURCE_DIR"/tests/yaml/*.yaml; do
    "$LLVM_BIN/yaml2obj" "$y" -o "crafted/$(basename "$y" .yaml)" 2>/dev/null || true
  done
  lld_link k.dylib arm64 11.0 26.0 -shared k.cpp -Wl,-rpath,@loader_path/a -Wl,-rpath,@loader_path/b
  reshape k.dylib crafted/dup-rpath.dylib 's|@loader_path/b|@loader_path/a|'
  lld_link crafted/nouuid-11.dylib arm64 11.0 11.0 -shared k.cpp -Wl,-no_uuid
  lld_link crafted/nouuid-12.dylib arm64 11.0 12.0 -shared k.cpp -Wl,-no_uuid
  write_tbd two/liba.tbd /usr/lib/liba.dylib _fa
  write_tbd two/libb.tbd /usr/lib/libb.dylib _fb
  echo 'extern "C" int fa(), fb(); extern "C" int k() { return fa() + fb(); }' >ab.cpp
  lld_link ab.dylib arm64 11.0 14.0 -shared ab.cpp -Ltwo -la -lb
  reshape ab.dylib crafted/dup-dylib-14.dylib "s#/usr/lib/libb.dylib#/usr/lib/liba.dylib#"
  reshape ab.dylib crafted/dup-dylib-26.dylib "s#/usr/lib/libb.dylib#/usr/lib/liba.dylib#; s/sdk: *917504/sdk:             1703936/"
  lld_link k15.dylib arm64 11.0 15.0 -shared k.cpp -Wl,-rpath,@loader_path/a -Wl,-rpath,@loader_path/b
  reshape k15.dylib crafted/dup-rpath-15.dylib 's|@loader_path/b|@loader_path/a|'
  compare "crafted fixtures" crafted/*
  expect_contains "$(verdicts crafted/dup-rpath.dylib)" "duplicate LC_RPATH '@loader_path/a'" "dup-rpath at SDK 26"
  expect_not_contains "$(verdicts crafted/dup-rpath-15.dylib)" "refused" "dup-rpath at SDK 15.0"
  expect_contains "$(verdicts crafted/nouuid-12.dylib)" "missing LC_UUID load command" "no LC_UUID at SDK 12.0"
  expect_contains "$(verdicts crafted/dup-dylib-26.dylib)" "duplicate linked dylib '/usr/lib/liba.dylib'" "duplicate dylib at SDK 26"

  TEST "issue 34's shapes: two macOS LC_BUILD_VERSION (dyld keeps the last) and a second __TEXT at a non-zero offset"
  cd "$W" || test_failed "$W"
  oracle craft two-macos-build-versions seeds/a154.dylib two-bv.dylib || test_failed craft
  oracle craft two-macos-build-versions-reversed seeds/a154.dylib two-bv-rev.dylib || test_failed craft
  oracle craft second-text seeds/a154.dylib second-text.dylib || test_failed craft
  oracle craft command-past-sizeofcmds seeds/a154.dylib past-cmds.dylib || test_failed craft
  compare "issue 34 shapes" two-bv.dylib two-bv-rev.dylib second-text.dylib past-cmds.dylib
  # objlib reads on where dyld's forEachLoadCommand refuses: the rule says so.
  expect_contains "$(verdicts past-cmds.dylib)" "is too large, load commands end at" "past sizeofcmds"
  expect_contains "$("$LINKGUARD_DYLD_RULES_CLI" past-cmds.dylib)" "load-command-malformed" "past sizeofcmds"
  # SDK 26.0 then 14.0: dyld compares 14.0, the duplicate LC_RPATH passes.
  expect_equal "$(verdicts two-bv.dylib | cut -f2 | sort -u)" "valid" "26.0 then 14.0"
  expect_equal "$(verdicts two-bv-rev.dylib | cut -f3 | sort -u)" "duplicate LC_RPATH '@loader_path'" "14.0 then 26.0"
  expect_equal "$(verdicts second-text.dylib | cut -f3 | sort -u)" "__TEXT segment fileoffset is not zero" "second __TEXT"
  expect_equal "$("$LINKGUARD_DYLD_RULES_CLI" two-bv.dylib two-bv-rev.dylib second-text.dylib | cut -f4,5 | sort | uniq -c | tr -s ' ' | tr '\n' ';')" \
    " 3 ok	-; 3 refused	duplicate-rpath; 3 refused	text-offset;" "linkguard's rules"

  TEST "the npm darwin packages (ld64_npm.bash's pinned list): every file, both judges"
  cd "$W" || test_failed "$W"
  local corpus
  if command -v npm >/dev/null && corpus=$(npm_corpus); then
    local files=()
    mapfile -t files < <(find "$corpus" -type f | sort)
    compare "npm corpus (${#files[@]} files)" "${files[@]}"
  else
    echo "note: npm pack ${NPM_DARWIN_PKGS[*]} failed (offline?): the corpus was not compared"
  fi

  TEST "the mutator: $DYLD_ORACLE_SMOKE mutants of the seeds (load commands duplicated, removed, reordered, truncated; SDK, platform, file type, flags, segments, rpaths, dylibs, UUID, entry points)"
  cd "$W" || test_failed "$W"
  local out
  out=$(oracle fuzz --bin "$DYLD_BIN" --cli "$LINKGUARD_DYLD_RULES_CLI" --count "$DYLD_ORACLE_SMOKE" \
    --seed 34 --keep differing seeds/* two-bv.dylib second-text.dylib 2>&1) ||
    test_failed "dyld's validator and contract/DyldRules differ on mutants (kept in $PWD/differing):
$out"
  printf '%s\n' "$out" | while IFS= read -r l; do echo "  $l"; done
  expect_contains "$out" "dyld-1378: $DYLD_ORACLE_SMOKE slices compared (0 not Mach-O)"
}
