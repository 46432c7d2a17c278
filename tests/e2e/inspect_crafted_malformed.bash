# Crafted Mach-O files (issue 12, "Crafted binaries"): each made libObject,
# and so `linkguard inspect` / `check` / the verify step, hang, exhaust
# memory or lie. Each case runs under a clock and, except in ASan builds
# (whose shadow memory needs terabytes of address space), a 4 GiB
# address-space limit, and reports the command's peak RSS (GNU time, the
# Debian package "time"). The files are made
# by tests/e2e/crafted_macho.py from real cross-links, or by yaml2obj from
# tests/yaml. Label "sanitize" (the name contains "malformed"): scripts/test
# reruns the suite under ASan + UBSan.

SUITE_inspect_crafted_malformed_PROBE() {
  local need
  for need in "${LINKGUARD_BIN:-linkguard (LINKGUARD_BIN)}" python3 "$LLVM_BIN/yaml2obj" \
      "$LLVM_BIN/llvm-objdump" /usr/bin/time; do
    command -v "$need" >/dev/null || { echo "$need not found"; return; }
  done
  probe_chained_fixups
}

SUITE_inspect_crafted_malformed_SETUP() {
  write_sdk sdk
  printf '%s\n' 'extern "C" int omp_get_num_threads();' \
    'extern "C" int k() { return omp_get_num_threads(); }' >s.cpp
  CRAFT=$LINKGUARD_SOURCE_DIR/tests/e2e/crafted_macho.py
  SANITIZED=0
  grep -q 'LINKGUARD_SANITIZE:BOOL=ON' "${LINKGUARD_BUILD_DIR:-/nonexistent}/CMakeCache.txt" 2>/dev/null &&
    SANITIZED=1
}

# small_dylib OUT [FLAGS...]: libomp used, arm64.
small_dylib() {
  local out=$1
  shift
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk) -shared -nostdlib++ s.cpp -o "$out" -Lsdk/omp -lomp "$@" \
    2>/dev/null || test_failed "link of $out"
}

# limited SECONDS CMD...: runs CMD (stdout to out.txt, stderr to err.txt)
# with a time limit and the address-space limit; sets STATUS (the exit
# status, -N for signal N, "timeout") and RSS_KB (CMD's peak RSS, measured
# by GNU time: a Python child's own figure would include the interpreter
# it was forked from).
limited() {
  local result
  result=$(python3 - "$SANITIZED" "$@" <<'PY'
import os, resource, signal, subprocess, sys
sanitized, seconds, cmd = sys.argv[1] == "1", float(sys.argv[2]), sys.argv[3:]
def limit():
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if not sanitized:
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
with open("out.txt", "wb") as out, open("err.txt", "wb") as err:
    p = subprocess.Popen(["/usr/bin/time", "-f", "%x %M", "-o", "rss.txt"] + cmd,
                         stdout=out, stderr=err, preexec_fn=limit, start_new_session=True)
    try:
        p.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        print("timeout 0")
        sys.exit()
lines = open("rss.txt").read().split("\n")
code, rss = [l for l in lines if l][-1].split()
signaled = [l for l in lines if l.startswith("Command terminated by signal")]
print(-int(signaled[0].split()[-1]) if signaled else code, rss)
PY
)
  STATUS=${result% *} RSS_KB=${result#* }
  echo "  [$STATUS, peak RSS $((RSS_KB / 1024)) MB: ${*:2}]"
}

expect_warning() { # NEEDLE
  grep -q "^linkguard: warning: .*$1" err.txt || test_failed "no warning with [$1]: $(cat err.txt)"
}

SUITE_inspect_crafted_malformed() {
  TEST "bind table: one opcode binds 2^62 times (tests/yaml/bind_times_skip.yaml)"
  "$LLVM_BIN/yaml2obj" "$LINKGUARD_SOURCE_DIR/tests/yaml/bind_times_skip.yaml" -o bts.dylib ||
    test_failed yaml2obj
  # Control: libObject itself does not come back from this table.
  timeout 3 "$LLVM_BIN/llvm-objdump" --macho --bind bts.dylib >/dev/null 2>&1
  expect_equal $? 124 "llvm-objdump --bind on the crafted table (timeout)"
  limited 20 "$LINKGUARD_BIN" inspect --symbols bts.dylib
  expect_equal "$STATUS" 0 "inspect status"
  expect_warning "BIND_OPCODE_DO_BIND_ULEB_TIMES_SKIPPING_ULEB .*not decoded"
  expect_contains "$(cat out.txt)" "referenced: unknown"
  expect_not_contains "$(cat out.txt)" "referenced: no"
  limited 20 "$LINKGUARD_BIN" check --forbid openmp bts.dylib
  expect_equal "$STATUS" 0 "check status"
  touch k.o
  limited 20 env FAKE_COPY="$PWD/bts.dylib" LINKGUARD_MODE=enforce \
    LINKGUARD_CXX="$FAKE_COMPILERS/copying-compiler" "${LINKGUARD_BIN%/*}/linkguard-clang++" \
    -target arm64-apple-macos11 -shared k.o -o out.dylib
  # The read comes back; the file has no libSystem, which the contract
  # requires, so enforce fails the step (86) and removes the output.
  expect_equal "$STATUS" 86 "verify (enforce) status"
  expect_contains "$(cat err.txt)" "no dependency matches 'libsystem'"

  TEST "chained fixups: 2^26 and 2^28 imports in sparse files"
  small_dylib c.dylib -Wl,-fixup_chains
  local count
  for count in 0x4000000 0x10000000; do
    python3 "$CRAFT" chained-imports c.dylib "cf$count.dylib" "$count" || test_failed craft
    # Before: 8 GB and 80 s for 2^26, an uncaught out-of-memory for 2^28.
    limited 60 "$LINKGUARD_BIN" inspect --symbols "cf$count.dylib"
    expect_equal "$STATUS" 0 "inspect status, $count imports"
    expect_contains "$(cat out.txt)" "_omp_get_num_threads (chained-fixup)"
    if [ "$SANITIZED" -eq 0 ] && [ "$RSS_KB" -gt $((256 * 1024)) ]; then
      test_failed "peak RSS $RSS_KB KB reading $count imports"
    fi
  done
  # Claims the table cannot hold are refused before anything is read.
  python3 - c.dylib <<'PY' || test_failed "patch"
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
off = 32
for _ in range(struct.unpack_from("<I", d, 16)[0]):
    cmd, size = struct.unpack_from("<II", d, off)
    if cmd == 0x80000034:
        data = struct.unpack_from("<I", d, off + 8)[0]
    off += size
struct.pack_into("<I", d, data + 16, 0xFFFFFFFF)
open("cfmax.dylib", "wb").write(d)
PY
  limited 20 "$LINKGUARD_BIN" inspect --symbols cfmax.dylib
  expect_equal "$STATUS" 0 "inspect status, imports_count 2^32-1"
  expect_warning "do not fit"
  expect_not_contains "$(cat out.txt)" "referenced: no"

  TEST "lazy-bind table: 2 MB of DONE opcodes (quadratic in LLVM 19)"
  small_dylib b.dylib
  python3 "$CRAFT" lazy-dones b.dylib lazy.dylib 2000000 || test_failed craft
  limited 20 "$LINKGUARD_BIN" inspect --symbols lazy.dylib
  expect_equal "$STATUS" 0 "inspect status"
  expect_contains "$(cat out.txt)" "dyld_stub_binder (bind)"

  TEST "load commands: 200 000 sections (quadratic overlap check in libObject)"
  python3 "$CRAFT" many-sections sections.dylib 200000 || test_failed craft
  limited 20 "$LINKGUARD_BIN" inspect sections.dylib
  expect_equal "$STATUS" 65 "inspect status"
  expect_equal "$(cat err.txt)" \
    "linkguard: error: sections.dylib: 200000 sections (linkguard reads images with up to 4096)"

  TEST "hostile names: escaped in text, exact in JSON (tests/yaml/hostile_names.yaml)"
  "$LLVM_BIN/yaml2obj" "$LINKGUARD_SOURCE_DIR/tests/yaml/hostile_names.yaml" -o h0.dylib ||
    test_failed yaml2obj
  python3 "$CRAFT" replace h0.dylib hostile.dylib 5151 fffe || test_failed craft
  limited 20 "$LINKGUARD_BIN" inspect --symbols --rpaths hostile.dylib
  expect_equal "$STATUS" 0 "inspect status"
  printf '%s\n' 'hostile.dylib:' \
    $'\t@rpath/libshape.dylib\\n\\tinjected (compatibility version 9.9.9, current version 9.9.9) (compatibility version 1.0.0, current version 1.0.0)' \
    $'\t/usr/lib/libup\\x1b[31mred\\x1b[0m.dylib (compatibility version 1.0.0, current version 1.0.0)' \
    $'\t\treferenced: yes' \
    $'\t\t_up\\nfn (bind)' \
    $'\t/usr/lib/lib\\\\back\\x7f\\x01.dylib (compatibility version 1.0.0, current version 1.0.0)' \
    $'\t\treferenced: yes' \
    $'\t\t_lazy\\x1b]0;title\\x07fn (bind)' \
    $'\tLC_RPATH @loader_path/a\\nb\\rc/caf\xc3\xa9\\xc2\\x9b/\\xff\\xfe' >want.txt
  cmp -s out.txt want.txt || test_failed "text output: $(diff want.txt out.txt | cat -A)"
  # JSON already escaped; it keeps the names exact (invalid UTF-8 aside).
  "$LINKGUARD_BIN" inspect --json hostile.dylib >out.json || test_failed "inspect --json"
  python3 - <<'PY' || test_failed "JSON names"
import json
s = json.load(open("out.json"))["files"][0]["slices"][0]
assert s["installName"].startswith("@rpath/libshape.dylib\n\tinjected"), s["installName"]
assert s["dependencies"][0]["name"] == "/usr/lib/libup\x1b[31mred\x1b[0m.dylib"
assert s["dependencies"][0]["imports"][0]["symbol"] == "_up\nfn"
# A name that is not UTF-8: U+FFFD in the name, the exact bytes beside it.
rp = s["searchPaths"][0]
assert rp["path"].endswith("/\ufffd\ufffd"), rp
assert rp["pathEscaped"].endswith("/\\xff\\xfe"), rp
assert "nameEscaped" not in s["dependencies"][0]
PY
}
