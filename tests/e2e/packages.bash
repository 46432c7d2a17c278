# Containers in `inspect` and `check`: what ships is judged as it ships.
# Models are really built here: an AOTI-shaped MPS model cross-linked as a
# Mach-O dylib by the plain compiler (keeps PyTorch's baked libomp) and
# through linkguard-clang++ (drops it), and the ELF model linked by
# clang++-14 -fopenmp with and without -Wl,--as-needed. They are packed the
# way the real writers pack them (scripts/lib/containers.py): a .pt2 as
# PyTorchStreamWriter writes it (stored, 64-byte aligned, zip64 end
# records), deflated as a wheel is, stored without alignment, with zip64
# extras; and a .pte program holding the library as named data at an odd
# offset. Every verdict has a control that reads the bare files.

SUITE_packages_PROBE() {
  local tool
  for tool in clang++ clang ld64.lld llvm-readelf; do
    [ -x "$LLVM_BIN/$tool" ] || { echo "$LLVM_BIN/$tool not found"; return; }
  done
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "linkguard not built"; return; }
  [ -x /usr/bin/clang++-14 ] || { echo "clang++-14 not installed (ELF models)"; return; }
  [ -e /usr/lib/llvm-14/lib/libomp.so.5 ] || { echo "libomp-dev (LLVM 14) not installed"; return; }
  command -v python3 >/dev/null || echo "python3 not found (zip writer)"
}

SUITE_packages_SETUP() {
  CONTAINERS=$LINKGUARD_SOURCE_DIR/scripts/lib/containers.py
  # The models are built once per suite run, then copied into each test.
  if [ ! -d "$E2E_ROOT/models" ]; then
    (mkdir -p "$E2E_ROOT/models" && cd "$E2E_ROOT/models" && build_models) ||
      { rm -rf "$E2E_ROOT/models"; test_failed "building the models"; }
  fi
  cp "$E2E_ROOT"/models/*.dylib "$E2E_ROOT"/models/*.so .
}

build_models() {
  write_sdk sdk
  write_aoti_model m
  local tu
  read -r -a MACHO <<<"$(macho_flags sdk)"
  for tu in wrapper kernel consts; do
    "$CLANGXX" "${MACHO[@]}" "${AOTI_MPS_CFLAGS[@]}" -c "m/model.$tu.cpp" -o "m/$tu.o" 2>/dev/null ||
      return 1
  done
  local link=("${MACHO[@]}" "${AOTI_MPS_CFLAGS[@]}" m/wrapper.o m/kernel.o m/consts.o -Lsdk/omp -lomp -nostdlib++)
  "$CLANGXX" "${link[@]}" -o plain.dylib 2>/dev/null || return 1
  LINKGUARD_CXX=$CLANGXX "$(dirname "$LINKGUARD_BIN")/linkguard-clang++" "${link[@]}" -o guarded.dylib 2>/dev/null ||
    return 1
  echo 'extern "C" float k(float x) { return x * 2; }' >k.cpp
  /usr/bin/clang++-14 -fopenmp -shared -fPIC k.cpp -o plain.so || return 1
  /usr/bin/clang++-14 -fopenmp -shared -fPIC -Wl,--as-needed k.cpp -o guarded.so
}

LG() { "$LINKGUARD_BIN" "$@"; }
# Two AOTI models in one package, as torch.export.pt2_archive writes a dict
# of them: data/aotinductor/<model name>/.
MPS=data/aotinductor/mps/model.wrapper.dylib
CPU=data/aotinductor/cpu/model.wrapper.so

# pack OUT LAYOUT KIND: a .pt2 holding KIND.dylib and KIND.so.
pack() {
  python3 "$CONTAINERS" pt2 "$1" $2 "$MPS=$3.dylib" "$CPU=$3.so" || test_failed "writing $1"
}

SUITE_packages() {
  TEST "control: the bare models, plain and through linkguard"
  expect_status 1 LG check --forbid openmp plain.dylib plain.so >/dev/null
  expect_status 0 LG check --forbid openmp guarded.dylib guarded.so >/dev/null

  TEST "a .pt2 in every layout: each binary member judged and named PKG!member"
  local layout p g
  for layout in "" --deflated --zipfile --zip64; do
    p=plain$layout g=guarded$layout
    pack "$p.pt2" "$layout" plain
    pack "$g.pt2" "$layout" guarded
    out=$(LG check --forbid openmp "$p.pt2"); status=$?
    expect_equal "$status" 1 "check $p.pt2"
    expect_contains "$out" "$p.pt2!$p/$MPS: violation: /opt/llvm-openmp/lib/libomp.dylib is a dependency (LC_LOAD_DYLIB)"
    expect_contains "$out" "$p.pt2!$p/$CPU: violation: libomp.so.5 is a dependency (DT_NEEDED)"
    expect_contains "$out" "2 files, 2 violations"
    out=$(LG check --forbid openmp "$g.pt2"); status=$?
    expect_equal "$status" 0 "check $g.pt2: $out"
    expect_contains "$out" "$g.pt2!$g/$MPS: holds"$'\n'"$g.pt2!$g/$CPU: holds"
    # Metadata, sources and weights are skipped silently.
    expect_not_contains "$out" "weight_0"
    expect_not_contains "$out" "archive_format"
  done
  # The layouts really differ: stored aligned, deflated, stored unaligned.
  python3 - plain.pt2 plain--deflated.pt2 plain--zipfile.pt2 <<'PY' || test_failed "layouts"
import sys, zipfile
def info(p, name):
    z = zipfile.ZipFile(p)
    i = next(i for i in z.infolist() if i.filename.endswith(name))
    return i.compress_type, (i.header_offset + 30 + len(i.filename.encode()) + len(i.extra)) % 64
aligned, deflated, unaligned = (info(p, "model.wrapper.so") for p in sys.argv[1:])
assert aligned[0] == zipfile.ZIP_STORED and deflated[0] == zipfile.ZIP_DEFLATED, (aligned, deflated)
assert unaligned[0] == zipfile.ZIP_STORED
PY

  TEST "inspect lists a member exactly as the bare file"
  pack plain.pt2 "" plain
  pack plain--deflated.pt2 --deflated plain
  out=$(LG inspect plain.pt2)
  expect_contains "$out" "plain.pt2!plain/$MPS:"
  expect_equal "$(LG inspect plain.pt2 | sed -n '2,4p')" "$(LG inspect plain.dylib | tail -n +2)" "member listing"
  expect_equal "$(LG inspect --symbols plain--deflated.pt2 | tail -n +$(( $(LG inspect --symbols plain.dylib | wc -l) + 2 )))" \
    "$(LG inspect --symbols plain.so | tail -n +2)" "deflated ELF member listing"

  TEST "--json names every member and where it came from"
  pack plain--deflated.pt2 --deflated plain
  pack guarded.pt2 "" guarded
  LG check --json --forbid openmp plain--deflated.pt2 >check.json; expect_equal "$?" 1 "check --json"
  LG inspect --json guarded.pt2 >inspect.json || test_failed "inspect --json"
  python3 - <<'PY' || test_failed "JSON: $(cat check.json)"
import json
c = json.load(open("check.json"))
files = {f["path"]: f for f in c["files"]}
base = "plain--deflated.pt2!plain--deflated/data/aotinductor/"
assert set(files) == {base + "mps/model.wrapper.dylib", base + "cpu/model.wrapper.so"}, files.keys()
for f in files.values():
    assert f["holds"] is False
    assert f["container"]["path"] == "plain--deflated.pt2" and f["container"]["kind"] == "zip"
    assert f["container"]["member"].startswith("plain--deflated/data/aotinductor/")
    assert f["container"]["offset"] is None
assert c["summary"]["files"] == 2 and c["summary"]["violations"] == 2
i = json.load(open("inspect.json"))
assert [f["format"] for f in i["files"]] == ["mach-o", "elf"], i["files"]
assert all(f["container"]["kind"] == "zip" for f in i["files"])
PY
  LG inspect --json plain.so | python3 -c 'import json,sys; assert json.load(sys.stdin)["files"][0]["container"] is None' ||
    test_failed "a plain file's container is null"

  TEST "check --mps-aot on packages: the plain model breaks it, linkguard's holds"
  pack plain.pt2 "" plain
  pack guarded.pt2 "" guarded
  expect_status 1 LG check --mps-aot plain.pt2 >/dev/null
  expect_status 0 LG check --mps-aot guarded.pt2 >/dev/null

  TEST "a .pte with the library at an odd offset: found by --scan, named FILE@0xOFFSET"
  off=$(python3 "$CONTAINERS" pte plain.pte --offset 13 plain.dylib) || test_failed "writing plain.pte"
  expect_equal "$((off % 8 != 0))" 1 "library offset $off is unaligned"
  hex=$(printf '0x%x' "$off")
  out=$(LG check --scan --forbid openmp plain.pte); status=$?
  expect_equal "$status" 1 "check --scan plain.pte"
  expect_contains "$out" "plain.pte@$hex: violation: /opt/llvm-openmp/lib/libomp.dylib"
  off=$(python3 "$CONTAINERS" pte guarded.pte --offset 5 guarded.so) || test_failed "writing guarded.pte"
  out=$(LG check --scan --forbid openmp guarded.pte); status=$?
  expect_equal "$status" 0 "check --scan guarded.pte: $out"
  expect_contains "$out" "guarded.pte@$(printf '0x%x' "$off"): holds"
  expect_equal "$(LG inspect --scan plain.pte | tail -n +2)" "$(LG inspect plain.dylib | tail -n +2)" "embedded listing"
  LG inspect --json --scan guarded.pte | python3 -c "
import json, sys
f = json.load(sys.stdin)['files'][0]
assert f['container'] == {'path': 'guarded.pte', 'kind': 'embedded', 'member': None, 'offset': $off}, f['container']
" || test_failed "embedded JSON"
  # Without --scan a .pte is not a binary: one error line, 65.
  LG inspect plain.pte >out.txt 2>err.txt; status=$?
  expect_equal "$status" 65 "inspect plain.pte without --scan"
  expect_equal "$(wc -l <err.txt)" 1 "error lines"

  TEST "a .pt2 carrying a .pte (data/executorch/): --scan reaches the library inside"
  off=$(python3 "$CONTAINERS" pte plain.pte --offset 13 plain.dylib) || test_failed "writing plain.pte"
  hex=$(printf '0x%x' "$off")
  python3 "$CONTAINERS" pt2 et.pt2 --deflated data/executorch/forward.pte=plain.pte || test_failed "writing et.pt2"
  out=$(LG check --scan --forbid openmp et.pt2); status=$?
  expect_equal "$status" 1 "check --scan et.pt2"
  expect_contains "$out" "et.pt2!et/data/executorch/forward.pte@$hex: violation"
  LG check --forbid openmp et.pt2 >/dev/null 2>err.txt; status=$?
  expect_equal "$status" 65 "without --scan the package holds no binary"
  expect_contains "$(cat err.txt)" "et.pt2: a zip archive with no Mach-O or ELF member"

  TEST "damaged, lying and bomb-shaped archives: one error line, exit 65"
  pack plain.pt2 "" plain
  pack plain--deflated.pt2 --deflated plain
  python3 - <<'PY' || test_failed "writing broken zips"
import zipfile, struct
with zipfile.ZipFile("text.zip", "w") as z:
    z.writestr("README", "no binaries here")
data = bytearray(open("plain.pt2", "rb").read())
open("truncated.pt2", "wb").write(data[: len(data) - 200])
# Lying size: the central directory claims more data than the member has.
z = bytearray(open("plain--deflated.pt2", "rb").read())
cd = z.rfind(b"plain--deflated/data/aotinductor/cpu/model.wrapper.so") - 46
assert z[cd:cd + 4] == b"PK\x01\x02"
struct.pack_into("<I", z, cd + 20, 0x7fffffff)  # compressed size
open("lying.zip", "wb").write(z)
# Overlapping entries: two directory records for one local header.
with zipfile.ZipFile("one.zip", "w") as w:
    w.writestr("a.so", open("plain.so", "rb").read())
b = bytearray(open("one.zip", "rb").read())
cd = b.find(b"PK\x01\x02")
end = b.find(b"PK\x05\x06")
rec = bytes(b[cd:end])
out = b[:end] + rec + b[end:]
eocd = out.find(b"PK\x05\x06")
struct.pack_into("<HHI", out, eocd + 8, 2, 2, 2 * len(rec))
open("overlap.zip", "wb").write(out)
PY
  local f
  for f in text.zip truncated.pt2 lying.zip overlap.zip; do
    LG check --forbid openmp "$f" >out.txt 2>err.txt; status=$?
    expect_equal "$status" 65 "check $f: $(cat err.txt)"
    expect_equal "$(grep -c 'linkguard: error: ' err.txt)" 1 "$f: error lines"
    expect_contains "$(cat err.txt)" "linkguard: error: $f" "$f"
  done
  expect_contains "$(LG check --forbid openmp text.zip 2>&1)" "a zip archive with no Mach-O or ELF member"
  expect_contains "$(LG check --forbid openmp lying.zip 2>&1)" \
    "lying.zip!plain--deflated/$CPU: local header declares"
  expect_contains "$(LG check --forbid openmp overlap.zip 2>&1)" "share bytes"
  # A bad archive does not hide the verdict on the next file.
  LG check --forbid openmp truncated.pt2 plain.so >out.txt 2>/dev/null; status=$?
  expect_equal "$status" 65 "a file error wins over a violation"
  expect_contains "$(cat out.txt)" "plain.so: violation"

  TEST "bounded memory: a 160 MiB member, stored or deflated, keeps linkguard small"
  # The AOTI way to make a big library: weights appended, page-aligned.
  python3 - <<'PY' || test_failed "writing big members"
import os, zipfile, subprocess
so = open("plain.so", "rb").read()
so += b"\0" * (-len(so) % 16384)
chunk = os.urandom(1 << 20)  # incompressible, as weights are
with open("big.so", "wb") as f:
    f.write(so)
    for _ in range(160):
        f.write(chunk)
with zipfile.ZipFile("big-deflated.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
    z.write("big.so", "lib/big.so")
PY
  python3 "$CONTAINERS" pt2 big-stored.pt2 "$CPU=big.so" || test_failed "writing big-stored.pt2"
  for f in big-stored.pt2 big-deflated.zip; do
    python3 - "$LINKGUARD_BIN" "$f" <<'PY' || test_failed "memory for $f"
import resource, subprocess, sys
r = subprocess.run([sys.argv[1], "check", "--forbid", "openmp", sys.argv[2]],
                   capture_output=True, text=True)
assert r.returncode == 1 and "violation: libomp.so.5" in r.stdout, (r.returncode, r.stdout, r.stderr)
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB
print(f"  {sys.argv[2]}: max RSS {rss} KiB")
assert rss < 48 * 1024, f"max RSS {rss} KiB for a 160 MiB member"
PY
  done

  TEST "a FIFO is never read, with --scan or without"
  mkfifo pipe.pte
  timeout 10 "$LINKGUARD_BIN" inspect --scan pipe.pte >/dev/null 2>err.txt; status=$?
  expect_equal "$status" 66 "inspect --scan pipe.pte"
  expect_contains "$(cat err.txt)" "pipe.pte: not a regular file"
  timeout 10 "$LINKGUARD_BIN" try-load pipe.pte >/dev/null 2>&1; expect_equal "$?" 66 "try-load pipe.pte"
  # Not even opened: opening it would wake a writer waiting in open(2),
  # which dies of SIGPIPE when the FIFO is closed unread.
  local cmd writer
  for cmd in "inspect" "inspect --scan" "check --forbid openmp" "check --scan --forbid openmp" "try-load"; do
    rm -f woken
    timeout 30 bash -c 'exec 4>pipe.pte; echo woken >woken' &
    writer=$!
    sleep 0.5 # the writer is in open(2), waiting for a reader
    # shellcheck disable=SC2086 # cmd is words
    timeout 10 "$LINKGUARD_BIN" $cmd pipe.pte >/dev/null 2>&1; status=$?
    expect_equal "$status" 66 "$cmd pipe.pte"
    sleep 0.3
    [ ! -e woken ] || test_failed "$cmd opened the FIFO (its writer was woken)"
    timeout 5 cat pipe.pte >/dev/null # release the writer
    wait "$writer"
  done

  TEST "random data with --scan: no phantom image"
  head -c 20000000 /dev/urandom >random.bin
  LG inspect --scan random.bin >out.txt 2>err.txt; status=$?
  expect_equal "$status" 65 "inspect --scan random.bin"
  expect_contains "$(cat err.txt)" "random.bin: no Mach-O or ELF image found in 20000000 bytes"

  TEST "--portable in a wheel: \$ORIGIN resolves inside the archive, not beside it"
  echo 'int b(void) { return 1; }' >b.c
  echo 'int b(void); int a(void) { return b(); }' >a.c
  "$CLANG" -shared -fPIC b.c -o libb.so -Wl,-soname,libb.so || test_failed "libb.so"
  "$CLANG" -shared -fPIC a.c -o liba.so -L. -lb -Wl,-rpath,'$ORIGIN' || test_failed "liba.so"
  python3 - <<'PY' || test_failed "writing wheels"
import zipfile
for name, members in (("whole.whl", ("liba.so", "libb.so")), ("half.whl", ("liba.so",))):
    with zipfile.ZipFile(name, "w", zipfile.ZIP_DEFLATED) as z:
        for m in members:
            z.write(m, "pkg/lib/" + m)
PY
  out=$(LG check --portable whole.whl); status=$?
  expect_equal "$status" 0 "whole wheel: $out"
  LG check --json --portable whole.whl | python3 -c '
import json, sys
d = json.load(sys.stdin)
p = [p for f in d["files"] for p in f["placements"] if p["dependency"] == "libb.so"][0]
# Where pip installs it: site-packages (no cpXY tag in the name: no version).
assert p["placement"] == "shipped" and p["resolvedPath"].endswith("whole.whl!/lib/python/site-packages/pkg/lib/libb.so"), p
' || test_failed "libb.so placement"
  # libb.so sits beside the wheel on this machine, but not in it.
  out=$(LG check --portable half.whl); status=$?
  expect_equal "$status" 1 "half wheel: $out"
  expect_contains "$out" "half.whl!pkg/lib/liba.so: violation: DT_NEEDED libb.so"

  TEST "a zip behind a binary or random bytes: its members are judged, and the binary in front (issue 28)"
  pack plain.pt2 "" plain
  cat guarded.so plain.pt2 >poly.whl
  { head -c 100 /dev/urandom | tr '\177\316\317\376\312PK' 'xxxxxxx'; cat plain.pt2; } >noise.whl
  python3 - <<'PY' || test_failed "zipfile reads the members behind the prefix"
import zipfile
for f in ("poly.whl", "noise.whl"):
    assert any(n.endswith("model.wrapper.so") for n in zipfile.ZipFile(f).namelist()), f
PY
  out=$(LG check --forbid openmp poly.whl); status=$?
  expect_equal "$status" 1 "check poly.whl: $out"
  expect_contains "$out" "poly.whl@0x0: holds"
  expect_contains "$out" "poly.whl!plain/$CPU: violation: libomp.so.5 is a dependency (DT_NEEDED)"
  expect_contains "$out" "poly.whl!plain/$MPS: violation: /opt/llvm-openmp/lib/libomp.dylib"
  expect_contains "$out" "3 files, 2 violations"
  out=$(LG check --forbid openmp noise.whl 2>&1); status=$?
  expect_equal "$status" 1 "check noise.whl: $out"
  expect_contains "$out" "noise.whl!plain/$CPU: violation"
  expect_contains "$out" "2 files, 2 violations"
  # The binary in front is broken too: its verdict is not lost.
  python3 "$CONTAINERS" pt2 guarded.pt2 "$CPU=guarded.so" || test_failed "writing guarded.pt2"
  cat plain.so guarded.pt2 >front.whl
  out=$(LG check --forbid openmp front.whl); status=$?
  expect_equal "$status" 1 "check front.whl: $out"
  expect_contains "$out" "front.whl@0x0: violation: libomp.so.5 is a dependency (DT_NEEDED)"
  expect_contains "$out" "front.whl!guarded/$CPU: holds"
  # Said which: the prefix is an image at offset 0, the members are members.
  LG check --json --forbid openmp front.whl | python3 -c '
import json, sys
files = {f["path"]: f["container"] for f in json.load(sys.stdin)["files"]}
assert files["front.whl@0x0"] == {"path": "front.whl", "kind": "embedded", "member": None, "offset": 0}, files
assert files["front.whl!guarded/data/aotinductor/cpu/model.wrapper.so"]["kind"] == "zip", files
' || test_failed "JSON of front.whl"
  n=$(LG inspect plain.so | wc -l)
  expect_equal "$(LG inspect front.whl | sed -n "1p;2,${n}p" | tail -n +2)" "$(LG inspect plain.so | tail -n +2)" "prefix listing"
  expect_equal "$(LG inspect front.whl | head -1)" "front.whl@0x0:" "prefix name"
  # The names printed are accepted back, by check and inspect as by try-load.
  out=$(LG check --forbid openmp front.whl@0x0); status=$?
  expect_equal "$status" 1 "check front.whl@0x0: $out"
  expect_contains "$out" "front.whl@0x0: violation: libomp.so.5"
  expect_contains "$out" "1 file, 1 violation"
  out=$(LG check --forbid openmp "front.whl!guarded/$CPU"); status=$?
  expect_equal "$status" 0 "check the member alone: $out"
  expect_equal "$(LG inspect front.whl@0x0 | tail -n +2)" "$(LG inspect plain.so | tail -n +2)" "inspect FILE@0x0"
  LG inspect 'front.whl!no/such.so' >/dev/null 2>err.txt; status=$?
  expect_equal "$status" 66 "a member that is not there"
  expect_contains "$(cat err.txt)" "front.whl holds no binary named front.whl!no/such.so"
  LG try-load poly.whl >/dev/null 2>err.txt; status=$?
  expect_equal "$status" 64 "try-load poly.whl names three binaries"
  expect_contains "$(cat err.txt)" "'poly.whl@0x0' 'poly.whl!plain/$MPS' 'poly.whl!plain/$CPU'"
  out=$(LG try-load --forbid openmp poly.whl@0x0 2>&1); status=$?
  expect_equal "$status" 0 "try-load poly.whl@0x0: $out"
  expect_contains "$out" "holds"

  TEST "an archive whose members declare more than max(2 GiB, 100 x its size) is refused before inflating (issue 28)"
  # Three members of 1 GiB each, deflated to 1 MB: every member is within
  # its own limits, 3 GiB together from a 3 MB archive.
  python3 - <<'PY' || test_failed "writing bomb.zip"
import struct, zlib
head = b"\x7fELF\x02\x01\x01" + b"\0" * 57
c = zlib.compressobj(9, zlib.DEFLATED, -15)
data, crc, zeros = c.compress(head), zlib.crc32(head), b"\0" * (1 << 24)
for _ in range(64):
    data += c.compress(zeros)
    crc = zlib.crc32(zeros, crc)
data += c.flush()
size = len(head) + (64 << 24)
out, cd = bytearray(), bytearray()
for i in range(3):
    name = b"lib%d.so" % i
    off = len(out)
    out += struct.pack("<IHHHHHIIIHH", 0x04034b50, 20, 0, 8, 0, 0, crc, len(data), size, len(name), 0) + name + data
    cd += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014b50, 20, 20, 0, 8, 0, 0, crc, len(data), size,
                      len(name), 0, 0, 0, 0, 0, off) + name
out += cd + struct.pack("<IHHHHIIH", 0x06054b50, 0, 0, 3, 3, len(cd), len(out), 0)
open("bomb.zip", "wb").write(out)
PY
  python3 -c 'import zipfile; assert sum(i.file_size for i in zipfile.ZipFile("bomb.zip").infolist()) == 3 * (1 << 30) + 3 * 64' ||
    test_failed "bomb.zip declares 3 GiB"
  size=$(stat -c %s bomb.zip)
  mkdir tmp
  TMPDIR=$PWD/tmp LG check --forbid openmp bomb.zip >out.txt 2>err.txt; status=$?
  expect_equal "$status" 65 "check bomb.zip: $(cat err.txt)"
  expect_equal "$(cat err.txt)" "linkguard: error: bomb.zip: its members declare 3221225664 bytes in all, more than the 2147483648 allowed for a $size-byte archive (the larger of 2 GiB and 100 times its size; --max-inflated raises it)"
  expect_equal "$(ls -A tmp)" "" "nothing was inflated"
  LG check --max-inflated 3G --forbid openmp bomb.zip >/dev/null 2>err.txt; status=$?
  expect_equal "$status" 65 "3G is not enough: $(cat err.txt)"
  expect_contains "$(cat err.txt)" "more than the 3221225472 allowed (--max-inflated)"
  LG check --max-inflated=lots --forbid openmp bomb.zip >/dev/null 2>err.txt; status=$?
  expect_equal "$status" 64 "a bad size: $(cat err.txt)"
  # The limit is the archive's, for inspect and try-load alike; an honest
  # package is far below it.
  expect_status 65 LG inspect bomb.zip >/dev/null 2>&1
  expect_status 65 LG try-load 'bomb.zip!lib0.so' >/dev/null 2>&1
  pack plain.pt2 "" plain
  expect_status 1 LG check --max-inflated 2M --forbid openmp plain.pt2 >/dev/null
}
