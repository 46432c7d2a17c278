# `check --portable`'s code signatures (issue 36 item 2, rule
# code-signature, signature/): Apple silicon refuses an arm64 image without
# a signature and kills a process that maps a page changed after signing.
# Real files: lld signs arm64 ad hoc by default (llvm-otool shows its
# LC_CODE_SIGNATURE); a byte flipped in __text after the link; an unsigned
# link (-no_adhoc_codesign); a signature made malformed byte by byte; the
# test helper that re-signs (tests/tools/adhoc_resign.py), checked to
# reproduce lld's own signature byte for byte.

SUITE_signatures_PROBE() {
  local tool
  for tool in clang++ ld64.lld llvm-otool llvm-lipo; do
    [ -x "$LLVM_BIN/$tool" ] || { echo "$LLVM_BIN/$tool not found"; return; }
  done
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
}

SUITE_signatures_SETUP() {
  write_sdk sdk
  echo 'extern "C" int k(int x) { return x * 3 + 1; }' >k.cpp
  echo 'int main() { return 0; }' >m.cpp
}

LG() { "$LINKGUARD_BIN" "$@"; }

# link OUT ARCH ARGS...: a cross-linked image for macOS 11.
link() {
  local out=$1 arch=$2; shift 2
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk "$arch") -nostdlib++ "$@" -o "$out" || test_failed "linking $out"
}

# text_offset FILE: the file offset of __text (llvm-otool, not linkguard).
text_offset() {
  "$LLVM_BIN/llvm-otool" -l "$1" | awk '/sectname __text/ {f = 1} f && $1 == "offset" {print $2; exit}'
}
# sig_field FILE FIELD: LC_CODE_SIGNATURE's dataoff or datasize.
sig_field() {
  "$LLVM_BIN/llvm-otool" -l "$1" | grep -A3 'cmd LC_CODE_SIGNATURE' | awk -v f="$2" '$1 == f {print $2}'
}
# poke FILE OFFSET BYTE(octal escape): one byte overwritten in place.
poke() { printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null; }
# flip FILE OFFSET: one byte's bits inverted in place.
flip() {
  python3 -c 'import sys
f = open(sys.argv[1], "r+b"); o = int(sys.argv[2]); f.seek(o); b = f.read(1)
f.seek(o); f.write(bytes([b[0] ^ 0xFF]))' "$1" "$2"
}

SUITE_signatures() {
  TEST "lld's ad-hoc signatures verify: a dylib and an executable hold"
  link k.dylib arm64 -shared k.cpp
  link m arm64 m.cpp
  for f in k.dylib m; do
    expect_contains "$("$LLVM_BIN/llvm-otool" -l $f)" "cmd LC_CODE_SIGNATURE" "lld signs $f"
    out=$(LG check --portable $f); status=$?
    expect_equal "$status" 0 "check --portable $f: $out"
  done
  # The re-signing helper writes lld's own hashes back: same bytes.
  cp k.dylib again.dylib
  adhoc_resign again.dylib
  expect_same_file k.dylib again.dylib

  TEST "a byte changed in __text after signing: a violation that names the page and the fix"
  link k.dylib arm64 -shared k.cpp
  off=$(text_offset k.dylib)
  [ -n "$off" ] || test_failed "no __text offset"
  flip k.dylib "$off"
  page=$((off / 4096))
  out=$(LG check --portable k.dylib); status=$?
  expect_equal "$status" 1 "check --portable on a patched dylib: $out"
  expect_contains "$out" "changed after signing: 1 of"
  expect_contains "$out" "(page $page at $(printf '0x%x' $((page * 4096))))"
  expect_contains "$out" "Killed: 9"
  expect_contains "$out" "codesign -f -s - k.dylib"
  json=$(LG check --portable --json k.dylib)
  expect_contains "$json" '"rule": "code-signature"'
  # --no-signatures: the other rules' verdict alone.
  expect_status 0 LG check --portable --no-signatures k.dylib
  # Re-signed after the change (codesign -f -s - on a Mac): it holds.
  adhoc_resign k.dylib
  expect_status 0 LG check --portable k.dylib
  # The header's page too: the padding after the load commands, which no
  # reader looks at.
  link h.dylib arm64 -shared k.cpp
  flip h.dylib $(($(text_offset h.dylib) - 1))
  expect_status 0 LG check --portable --no-signatures h.dylib
  out=$(LG check --portable h.dylib)
  expect_contains "$out" "(page 0 at 0x0)"

  TEST "many pages changed: the count is whole, the list bounded"
  # 64 KiB of data in __const: 17+ pages; every one of them flipped.
  printf 'extern "C" const char blob[65536] = {1};\n' >b.cpp
  link b.dylib arm64 -shared b.cpp
  limit=$(sig_field b.dylib dataoff)
  python3 - b.dylib "$limit" <<'PY'
import sys
path, limit = sys.argv[1], int(sys.argv[2])
b = bytearray(open(path, "rb").read())
for p in range(0, limit, 4096):
    b[p + 4095 if p + 4095 < limit else limit - 1] ^= 0xFF
open(path, "wb").write(b)
PY
  pages=$(((limit + 4095) / 4096))
  out=$(LG check --portable b.dylib); status=$?
  expect_equal "$status" 1 "$out"
  expect_contains "$out" "$pages of $pages code pages"
  expect_contains "$out" "pages 0 at 0x0, 1 at 0x1000, 2 at 0x2000, 3 at 0x3000, 4 at 0x4000, 5 at 0x5000, 6 at 0x6000, 7 at 0x7000, ...)"

  TEST "unsigned: arm64 is refused, x86_64 only under --signatures=all"
  link u.dylib arm64 -shared k.cpp -Wl,-no_adhoc_codesign
  expect_not_contains "$("$LLVM_BIN/llvm-otool" -l u.dylib)" "LC_CODE_SIGNATURE" "-no_adhoc_codesign"
  out=$(LG check --portable u.dylib); status=$?
  expect_equal "$status" 1 "$out"
  expect_contains "$out" "unsigned (no LC_CODE_SIGNATURE): Apple silicon refuses"
  expect_contains "$out" "codesign -f -s - u.dylib"
  expect_status 0 LG check --portable --no-signatures u.dylib
  # The last of --signatures and --no-signatures wins.
  expect_status 1 LG check --portable --no-signatures --signatures=arm64 u.dylib
  link x.dylib x86_64 -shared k.cpp
  expect_not_contains "$("$LLVM_BIN/llvm-otool" -l x.dylib)" "LC_CODE_SIGNATURE" "x86_64 unsigned"
  expect_status 0 LG check --portable x.dylib
  out=$(LG check --portable --signatures=all x.dylib); status=$?
  expect_equal "$status" 1 "$out"
  expect_contains "$out" "unsigned"
  # Options: a word it does not take, and without --portable.
  expect_status 64 LG check --portable --signatures=most x.dylib
  expect_status 64 LG check --forbid libfoo --no-signatures x.dylib

  TEST "a universal file: the changed arm64 slice is named"
  link a.dylib arm64 -shared k.cpp
  link x.dylib x86_64 -shared k.cpp
  "$LLVM_BIN/llvm-lipo" -create a.dylib x.dylib -output fat.dylib || test_failed lipo
  expect_status 0 LG check --portable fat.dylib
  out=$(LG check --portable --signatures=all fat.dylib)
  expect_contains "$out" "fat.dylib (x86_64): violation: unsigned"
  # The arm64 slice's offset, from the fat header (big-endian, 20-byte entries).
  at=$(python3 -c '
import struct, sys
b = open(sys.argv[1], "rb").read()
for i in range(struct.unpack_from(">I", b, 4)[0]):
    cpu, _, off, _, _ = struct.unpack_from(">IIIII", b, 8 + 20 * i)
    if cpu == 0x0100000C: print(off)' fat.dylib)
  flip fat.dylib $((at + $(text_offset a.dylib)))
  out=$(LG check --portable fat.dylib); status=$?
  expect_equal "$status" 1 "$out"
  expect_contains "$out" "fat.dylib (arm64): violation: changed after signing"
  adhoc_resign fat.dylib
  expect_status 0 LG check --portable fat.dylib

  TEST "a malformed or truncated signature is undecided (92), never holds"
  link k.dylib arm64 -shared k.cpp
  dataoff=$(sig_field k.dylib dataoff)
  datasize=$(sig_field k.dylib datasize)
  # Not a SuperBlob.
  cp k.dylib bad-magic.dylib; poke bad-magic.dylib "$dataoff" '\000'
  # A SuperBlob that claims 2^32-1 index entries.
  cp k.dylib bad-count.dylib; poke bad-count.dylib $((dataoff + 8)) '\377\377\377\377'
  # The CodeDirectory's hash slots past its blob (nCodeSlots 0x00ffffff).
  cp k.dylib bad-slots.dylib; poke bad-slots.dylib $((dataoff + 20 + 28)) '\000\377\377\377'
  # A hash type the kernel does not know.
  cp k.dylib bad-type.dylib; poke bad-type.dylib $((dataoff + 20 + 37)) '\011'
  for f in bad-magic bad-count bad-slots bad-type; do
    out=$(LG check --portable $f.dylib); status=$?
    expect_equal "$status" 92 "$f: $out"
    expect_contains "$out" "its code signature cannot be read"
  done
  # Truncated: the file cut inside the signature (objlib still reads it).
  head -c $((dataoff + datasize / 2)) k.dylib >cut.dylib
  out=$(LG check --portable cut.dylib); status=$?
  [ "$status" = 92 ] || [ "$status" = 65 ] || test_failed "truncated: $status: $out"
  expect_not_contains "$out" "holds"

  TEST "a tree and a wheel: each changed arm64 file is a violation"
  mkdir -p app/lib
  link app/lib/libk.dylib arm64 -shared k.cpp -Wl,-install_name,@rpath/libk.dylib
  link app/m arm64 m.cpp -Lapp/lib -lk -Wl,-rpath,@executable_path/lib
  expect_status 0 LG check --portable app
  flip app/lib/libk.dylib "$(text_offset app/lib/libk.dylib)"
  out=$(LG check --portable app); status=$?
  expect_equal "$status" 1 "$out"
  expect_contains "$out" "app/lib/libk.dylib: violation: changed after signing"
  expect_not_contains "$out" "app/m: violation"
  (cd app && python3 -c '
import sys, zipfile
with zipfile.ZipFile("../w.whl", "w", zipfile.ZIP_DEFLATED) as z:
    for f in ("m", "lib/libk.dylib"): z.write(f)')
  out=$(LG check --portable w.whl); status=$?
  expect_equal "$status" 1 "$out"
  expect_contains "$out" "w.whl!lib/libk.dylib: violation: changed after signing"
  out=$(LG check --portable w.whl!lib/libk.dylib); status=$?
  expect_equal "$status" 1 "$out"
  expect_contains "$out" "changed after signing"
  adhoc_resign app/lib/libk.dylib
  expect_status 0 LG check --portable app
}
