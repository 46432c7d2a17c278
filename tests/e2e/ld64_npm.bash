# Apple's otool (cctools 1010.6, built by scripts/apple-tools from
# ../shared/third_party) and `linkguard inspect` on real Apple-linked files:
# the darwin builds of npm packages (the ones scripts/bench and
# docs/reliability.md's dyld section use, and six small Node-API modules
# linked by Apple's ld: Rust, C++, Go), at pinned versions (npm pack, the
# registry scripts/bench already fetches from; cached under the build
# directory, fetched once). Label `apple`.
# Skips, saying so, without ../shared/third_party or when npm cannot fetch.

NPM_DARWIN_PKGS=(fsevents@2.3.3 @img/sharp-darwin-arm64@0.35.6 @img/sharp-libvips-darwin-arm64@1.3.5
  @img/sharp-darwin-x64@0.35.6 @img/sharp-libvips-darwin-x64@1.3.5 @esbuild/darwin-arm64@0.28.2
  @esbuild/darwin-x64@0.28.2 @rollup/rollup-darwin-arm64@4.69.3 lightningcss-darwin-arm64@1.33.0
  @parcel/watcher-darwin-arm64@2.6.0 @swc/core-darwin-arm64@1.16.22 @tailwindcss/oxide-darwin-arm64@4.3.5)

# npm_corpus: the unpacked packages' directory, fetched once per version list.
npm_corpus() {
  local key dir
  key=$(printf '%s\n' "${NPM_DARWIN_PKGS[@]}" | cksum | cut -d' ' -f1)
  dir=$LINKGUARD_BUILD_DIR/apple/npm/$key
  if [ ! -f "$dir/complete" ]; then
    rm -rf "$dir" && mkdir -p "$dir/tgz" &&
      (cd "$dir/tgz" && timeout 300 npm pack --silent "${NPM_DARWIN_PKGS[@]}" >../npm.log 2>&1) || return 1
    local t
    for t in "$dir"/tgz/*.tgz; do
      mkdir -p "$dir/x/$(basename "$t" .tgz)" && tar xzf "$t" -C "$dir/x/$(basename "$t" .tgz)" || return 1
    done
    rm -rf "$dir/tgz" && touch "$dir/complete"
  fi
  echo "$dir/x"
}

SUITE_ld64_npm_PROBE() {
  local tp=${LINKGUARD_THIRD_PARTY:-$LINKGUARD_SOURCE_DIR/../shared/third_party}
  [ -f "$tp/cctools-port-1010.6-ld64-951.9.tar.gz" ] ||
    { echo "$tp has no cctools-port archive (../shared is not beside this clone): Apple's otool cannot be built"; return; }
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  [ -d "${LINKGUARD_BUILD_DIR:-}" ] || { echo "LINKGUARD_BUILD_DIR is not set (the caches live there)"; return; }
  command -v npm >/dev/null || { echo "npm is not installed (it fetches the darwin packages)"; return; }
  npm_corpus >/dev/null ||
    echo "npm pack ${NPM_DARWIN_PKGS[*]} failed (offline?): $(tail -n 1 "$LINKGUARD_BUILD_DIR"/apple/npm/*/npm.log 2>/dev/null)"
}

SUITE_ld64_npm() {
  TEST "linkguard inspect prints what otool -L prints, line for line, on every Mach-O file of the npm darwin packages"
  APPLE_BIN=$("$LINKGUARD_SOURCE_DIR/scripts/apple-tools" "$LINKGUARD_BUILD_DIR") ||
    test_failed "scripts/apple-tools failed"
  corpus=$(npm_corpus) || test_failed "the npm corpus, fetched by the probe, is gone"
  n=0 universal=0
  while IFS= read -r -d '' f; do
    magic=$(od -An -tx1 -N4 "$f" | tr -d ' ')
    case $magic in cffaedfe | cefaedfe | cafebabe) ;; *) continue ;; esac
    [ "$magic" = cafebabe ] && universal=$((universal + 1))
    n=$((n + 1))
    "$APPLE_BIN/otool" -L "$f" >otool.txt 2>otool.err || test_failed "otool -L $f: $(cat otool.err)"
    "$LINKGUARD_BIN" inspect "$f" >inspect.txt 2>inspect.err || test_failed "linkguard inspect $f: $(cat inspect.err)"
    diff otool.txt inspect.txt >d.txt || test_failed "inspect and otool -L differ on $f: $(cat d.txt)"
  done < <(find "$corpus" -type f -print0 | sort -z)
  echo "  ($n Mach-O files, $universal universal, equal line for line)"
  expect_equal "$((n >= 12))" 1 "Mach-O files found in the corpus ($n)"
  expect_equal "$((universal >= 1))" 1 "universal files in the corpus ($universal)"
  CORPUS_FILES=$n

  TEST "each import's library as otool reads it equals inspect --json's, slice by slice (lipo -thin)"
  n=0 imports=0
  while IFS= read -r -d '' f; do
    magic=$(od -An -tx1 -N4 "$f" | tr -d ' ')
    case $magic in cffaedfe | cefaedfe) slices=("$f") ;;
      cafebabe)
        slices=()
        for arch in $("$APPLE_BIN/lipo" -archs "$f"); do
          "$APPLE_BIN/lipo" -thin "$arch" "$f" -output "slice.$n.$arch" || test_failed "lipo -thin $arch $f"
          slices+=("slice.$n.$arch")
        done ;;
      *) continue ;;
    esac
    for s in "${slices[@]}"; do
      n=$((n + 1))
      python3 "$LINKGUARD_SOURCE_DIR/tests/e2e/apple_tools.py" imports "$APPLE_BIN/otool" "$LINKGUARD_BIN" "$s" \
        >imports.txt 2>&1 || test_failed "imports of $f ($s): $(head -n 20 imports.txt)"
      imports=$((imports + $(sed -n 's/^\([0-9]*\) imports agree.*/\1/p' imports.txt)))
    done
  done < <(find "$corpus" -type f -print0 | sort -z)
  echo "  ($n slices, $imports imports, each attributed alike)"
  expect_equal "$((n > CORPUS_FILES))" 1 "slices compared ($n)"
}
