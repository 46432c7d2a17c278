# Real code signatures (issue 36 item 2): the darwin builds of npm packages,
# signed by their projects' CI (codesign, Go's and Rust's toolchains), laid
# out as npm installs them. Every arm64 image verifies; fsevents' universal
# file has an unsigned x86_64 slice (Intel Macs load it), which only
# --signatures=all reports; one byte changed in a real signed library is
# found on its page. Skipped (125) when the npm
# registry cannot be reached.

NPM_DARWIN_PKGS=(@img/sharp-darwin-arm64 @img/sharp-libvips-darwin-arm64 fsevents
  @esbuild/darwin-arm64 @rollup/rollup-darwin-arm64 lightningcss-darwin-arm64
  @parcel/watcher-darwin-arm64 @swc/core-darwin-arm64)

SUITE_signatures_npm_PROBE() {
  command -v npm >/dev/null || { echo "npm is not installed"; return; }
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  timeout 60 npm view fsevents@2.3.3 version >/dev/null 2>&1 ||
    echo "the npm registry cannot be reached"
}

LG() { "$LINKGUARD_BIN" "$@"; }

# Mach-O images under DIR with an arm64 slice, counted from their headers
# (not by linkguard).
count_arm64() {
  python3 - "$1" <<'PY'
import os, struct, sys
n = 0
for root, _, files in os.walk(sys.argv[1]):
    for f in files:
        h = open(os.path.join(root, f), "rb").read(4096)
        if len(h) < 8:
            continue
        if struct.unpack("<I", h[:4])[0] == 0xFEEDFACF:
            n += struct.unpack("<I", h[4:8])[0] == 0x0100000C
        elif struct.unpack(">I", h[:4])[0] == 0xCAFEBABE and struct.unpack(">I", h[4:8])[0] < 16:
            k = struct.unpack(">I", h[4:8])[0]
            n += any(struct.unpack_from(">I", h, 8 + 20 * i)[0] == 0x0100000C for i in range(k))
print(n)
PY
}

SUITE_signatures_npm() {
  TEST "every arm64 image of npm's darwin packages verifies; a patched one does not"
  mkdir -p node_modules
  (cd node_modules && timeout 300 npm pack "${NPM_DARWIN_PKGS[@]}" >npm.log 2>&1) ||
    test_failed "npm pack: $(tail -3 node_modules/npm.log)"
  for pkg in "${NPM_DARWIN_PKGS[@]}"; do
    tgz=$(ls node_modules/"$(echo "${pkg#@}" | tr / -)"-[0-9]*.tgz)
    mkdir -p "node_modules/$pkg" &&
      tar xzf "$tgz" -C "node_modules/$pkg" --strip-components=1 && rm "$tgz"
  done
  n=$(count_arm64 node_modules)
  [ "$n" -ge 8 ] || test_failed "only $n arm64 images in the packages"
  json=$(LG check --portable --json node_modules)
  verdict=$(printf '%s' "$json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
bad = [(r["path"], f["message"]) for r in d["files"] for f in r.get("findings", [])
       if f["rule"] == "code-signature"]
macho = [r for r in d["files"] if r.get("format") == "mach-o"]
print(len(macho), bad)')
  expect_equal "$verdict" "$n []" "images judged, signature findings"
  out=$(LG check --portable --signatures=all node_modules/fsevents/fsevents.node)
  expect_contains "$out" "fsevents.node (x86_64): violation: unsigned"
  expect_not_contains "$out" "(arm64)"
  lib=node_modules/@img/sharp-libvips-darwin-arm64/lib/libvips-cpp.8.18.8.dylib
  [ -f "$lib" ] || lib=$(ls node_modules/@img/sharp-libvips-darwin-arm64/lib/libvips-cpp.*.dylib | head -1)
  expect_status 0 LG check --portable --no-signatures "$lib"
  # One byte in the middle of the real library: page 1000 (4 KiB pages).
  python3 -c 'import sys
f = open(sys.argv[1], "r+b"); f.seek(4096 * 1000 + 7); b = f.read(1)
f.seek(4096 * 1000 + 7); f.write(bytes([b[0] ^ 1]))' "$lib"
  out=$(LG check --portable "$lib"); status=$?
  expect_equal "$status" 1 "$out"
  expect_contains "$out" "(page 1000 at 0x3e8000)"
}
