# Damaged binaries through every reader front end: `linkguard inspect`,
# `linkguard check --forbid openmp` and the driver's verify step (a fake
# compiler that "links" by copying the damaged file to -o, run through
# linkguard-clang++ with LINKGUARD_MODE=enforce and =verify).
#
# The corpus is generated from a real Mach-O dylib (opcodes and chained
# fixups), a universal dylib and an ELF .so: every truncation length through
# the headers and load commands (then every 61st byte), and field edits --
# counts and offsets set to 0, to the maximum and past the end, load command
# sizes that are not multiples of 8, fat headers with overlapping or
# out-of-file slices. All of it (about 7000 files) is replayed in-process
# through objlib::readBinary by the fuzz regression runner; the CLI front
# ends run over an evenly spread sample (every 4th for inspect, 9th for
# check, 31st for the driver) to keep the suite near a minute. inspect_malformed.bash covers inspect's own messages
# for plain truncations; this suite checks the contract for all of it:
#   - never a signal, never a hang (10 s each), never 70 (internal error);
#   - exit 0 (the bytes still make a binary), or 65 (malformed) with exactly
#     one stderr line "linkguard: error: <file>: ...";
#   - check: 0 / 1 (verdict) or 65; verify: enforce 65 / 86 / 0, verify 0;
#   - bounded memory: `ulimit -v` 1 GiB (skipped for ASan builds, whose
#     shadow memory needs terabytes of address space).
# Label "sanitize" (the name contains "malformed"): scripts/test reruns it
# under ASan + UBSan.

SUITE_faults_malformed_PROBE() {
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  command -v python3 >/dev/null || { echo "python3 not found"; return; }
  local tool
  for tool in clang++ ld64.lld llvm-lipo; do
    [ -x "$LLVM_BIN/$tool" ] || { echo "$LLVM_BIN/$tool not found"; return; }
  done
}

SUITE_faults_malformed_SETUP() {
  write_sdk sdk
  cat >omp.cpp <<'EOF'
extern "C" int omp_get_num_threads();
extern "C" int k() { return omp_get_num_threads(); }
EOF
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk) -shared -nostdlib++ omp.cpp -o k.dylib -Lsdk/omp -lomp ||
    test_failed "cross-link of k.dylib"
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk) -shared -nostdlib++ omp.cpp -o kc.dylib -Lsdk/omp -lomp \
    -Wl,-fixup_chains || test_failed "cross-link of kc.dylib"
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk x86_64) -shared -nostdlib++ omp.cpp -o kx.dylib -Lsdk/omp -lomp ||
    test_failed "cross-link of kx.dylib"
  "$LLVM_BIN/llvm-lipo" -create k.dylib kx.dylib -output fat.dylib || test_failed "lipo"
  $CLANGXX -shared -fPIC omp.cpp -o k.so || test_failed "ELF link of k.so"
  SANITIZED=0
  grep -q 'LINKGUARD_SANITIZE:BOOL=ON' "${LINKGUARD_BUILD_DIR:-/nonexistent}/CMakeCache.txt" 2>/dev/null &&
    SANITIZED=1
}

# run_corpus MODE: generates the corpus into corpus/ (once) and runs MODE
# (inspect | check | enforce | verify) over it; prints one line per failure.
run_corpus() {
  python3 - "$1" "$LINKGUARD_BIN" "$FAKE_COMPILERS/copying-compiler" "$SANITIZED" <<'PY'
import os, resource, struct, subprocess, sys

mode, lg, copier, sanitized = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"
lgxx = os.path.join(os.path.dirname(lg), "linkguard-clang++")
os.makedirs("corpus", exist_ok=True)

def put(name, data):
    with open(os.path.join("corpus", name), "wb") as f:
        f.write(data)

def u32(b, o): return struct.unpack_from("<I", b, o)[0]
def be32(b, o): return struct.unpack_from(">I", b, o)[0]
def set32(b, o, v):
    b = bytearray(b); struct.pack_into("<I", b, o, v & 0xffffffff); return bytes(b)
def setbe32(b, o, v):
    b = bytearray(b); struct.pack_into(">I", b, o, v & 0xffffffff); return bytes(b)
def set64(b, o, v):
    b = bytearray(b); struct.pack_into("<Q", b, o, v & 0xffffffffffffffff); return bytes(b)
def set16(b, o, v):
    b = bytearray(b); struct.pack_into("<H", b, o, v & 0xffff); return bytes(b)

def truncations(tag, data, dense):
    for n in list(range(0, min(dense, len(data)))) + list(range(dense, len(data), 61)):
        put("%s-trunc-%05d" % (tag, n), data[:n])

def macho(tag, d):
    size = len(d)
    ncmds, sizeofcmds = u32(d, 16), u32(d, 20)
    truncations(tag, d, 32 + sizeofcmds + 8)
    for v in (0, 0xffffffff, ncmds + 1, 0x10000):
        put("%s-ncmds-%x" % (tag, v), set32(d, 16, v))
    for v in (0, 1, 0xffffffff, size, size + 1, sizeofcmds - 4):
        put("%s-sizeofcmds-%x" % (tag, v), set32(d, 20, v))
    off = 32
    for i in range(ncmds):
        cmd, cmdsize = u32(d, off), u32(d, off + 4)
        for v in (0, 4, cmdsize + 1, cmdsize + 4, cmdsize - 4, 0xffffffff, size):
            put("%s-lc%d-cmd%x-size-%x" % (tag, i, cmd, v), set32(d, off + 4, v))
        for field in range(8, min(cmdsize, 48), 4):
            for v in (0, 0xffffffff, size, size + 0x1000):
                put("%s-lc%d-cmd%x-f%d-%x" % (tag, i, cmd, field, v), set32(d, off + field, v))
        off += cmdsize
    # Load command size not a multiple of 8 and the next one shifted.
    put("%s-lc0-misaligned" % tag, set32(d, 32 + 4, u32(d, 36) + 2))

def elf(tag, d):
    size = len(d)
    phoff, shoff = struct.unpack_from("<QQ", d, 32)
    phentsize, phnum, shentsize, shnum, shstrndx = struct.unpack_from("<HHHHH", d, 54)
    truncations(tag, d, phoff + phnum * phentsize + 8)
    for v in (0, 1, size, size + 8, 0xffffffffffffffff):
        put("%s-phoff-%x" % (tag, v), set64(d, 32, v))
        put("%s-shoff-%x" % (tag, v), set64(d, 40, v))
    for o, name in ((54, "phentsize"), (56, "phnum"), (58, "shentsize"), (60, "shnum"),
                    (62, "shstrndx")):
        for v in (0, 1, 0xffff):
            put("%s-%s-%x" % (tag, name, v), set16(d, o, v))
    for i in range(phnum):
        p = phoff + i * phentsize
        for field, name in ((8, "offset"), (32, "filesz")):
            for v in (0, size, size + 8, 0xffffffffffffffff, 3):
                put("%s-ph%d-%s-%x" % (tag, i, name, v), set64(d, p + field, v))
    for i in range(shnum):
        s = shoff + i * shentsize
        if s + shentsize > size:
            break
        for field, name in ((24, "offset"), (32, "size"), (40, "link")):
            for v in (0, size, 0xffffffff, 0xffffffffffffffff):
                if name == "link":
                    put("%s-sh%d-link-%x" % (tag, i, v & 0xffffffff), set32(d, s + 40, v))
                else:
                    put("%s-sh%d-%s-%x" % (tag, i, name, v), set64(d, s + field, v))

def fat(tag, d):
    size = len(d)
    n = be32(d, 4)
    truncations(tag, d, 8 + 20 * n + 8)
    for v in (0, 0xffffffff, n + 1, 0x10000):
        put("%s-nfat-%x" % (tag, v), setbe32(d, 4, v))
    o0, s0 = be32(d, 8 + 8), be32(d, 8 + 12)
    o1 = be32(d, 28 + 8)
    put("%s-overlap-same" % tag, setbe32(setbe32(d, 28 + 8, o0), 28 + 12, s0))
    put("%s-overlap-partial" % tag, setbe32(d, 28 + 8, o0 + 16))
    put("%s-overlap-header" % tag, setbe32(d, 8 + 8, 0))
    put("%s-slice-past-end" % tag, setbe32(d, 28 + 8, size + 4096))
    put("%s-slice-size-max" % tag, setbe32(d, 28 + 12, 0xffffffff))
    put("%s-slice-size-past-end" % tag, setbe32(d, 28 + 12, size - o1 + 1))
    put("%s-align-max" % tag, setbe32(d, 8 + 16, 0xff))
    put("%s-cputype-same" % tag, setbe32(d, 28, be32(d, 8)))

if not os.listdir("corpus"):
    macho("opcodes", open("k.dylib", "rb").read())
    macho("chained", open("kc.dylib", "rb").read())
    fat("fat", open("fat.dylib", "rb").read())
    elf("elf", open("k.so", "rb").read())
    put("empty", b"")
    put("text", b"not a binary\n")

# The limits go on this process, and its children inherit them: no
# preexec_fn, which is not safe beside the worker threads below.
if not sanitized:
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

if mode == "none":
    sys.exit(0)
env = dict(os.environ, LINKGUARD_CXX=copier)
files = sorted(os.listdir("corpus"))
# Every file goes through objlib in-process (the replay test); each CLI run
# costs a process or two, so the CLI modes take an evenly spread sample.
files = files[::{"inspect": 4, "check": 9}.get(mode, 31)]
bad = 0
codes = {}

def run(name):
    """Runs one input; returns (name, cmd's ok codes, result or None on timeout)."""
    path = os.path.join("corpus", name)
    if mode == "inspect":
        cmd, ok = [lg, "inspect", path], {0, 65}
    elif mode == "check":
        cmd, ok = [lg, "check", "--forbid", "openmp", path], {0, 1, 65}
    else:
        env["LINKGUARD_MODE"] = mode
        env["FAKE_COPY"] = os.path.abspath(path)
        if os.path.exists("out.dylib"):
            os.unlink("out.dylib")
        cmd = [lgxx, "-target", "arm64-apple-macos11", "-shared", "k.o", "-o", "out.dylib"]
        ok = {0, 65, 86} if mode == "enforce" else {0}
    try:
        # A hang guard (CI robustness: 60 s, far above the ~0.1-1 s of a run
        # under ASan, as several run at once on a loaded machine).
        return name, ok, subprocess.run(cmd, capture_output=True, timeout=60, env=env)
    except subprocess.TimeoutExpired:
        return name, ok, None

# inspect and check read their input and write nothing: one process per
# core (under ASan a run costs ~0.1 s of start-up). The driver modes share
# out.dylib and the environment: one at a time.
if mode in ("inspect", "check"):
    import concurrent.futures
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        results = list(pool.map(run, files))
else:
    results = map(run, files)
for name, ok, r in results:
    if r is None:
        print("%s %s: timed out" % (mode, name)); bad += 1; continue
    code = r.returncode
    codes[code] = codes.get(code, 0) + 1
    err = r.stderr.decode("utf-8", "replace")
    lines = err.splitlines()
    why = None
    if code < 0:
        why = "killed by signal %d" % -code
    elif code not in ok:
        why = "exit %d" % code
    elif code == 65:
        want = "linkguard: error: " if mode != "verify" else "linkguard: "
        if len(lines) != 1 or not lines[0].startswith(want):
            why = "exit 65 but stderr is not one error line"
    elif mode == "verify" and len(lines) > 1 and "cannot verify" in err:
        why = "more than one line for an unreadable output"
    elif mode in ("enforce", "verify") and "cannot verify" in err and len(lines) != 1:
        why = "cannot-verify message is not one line"
    if why:
        bad += 1
        print("%s %s: %s; stderr: %s" % (mode, name, why, err.strip()[:300]))
print("%s: %d inputs, exit codes %s, %d failures" % (
    mode, len(files), dict(sorted(codes.items())), bad), file=sys.stderr)
PY
}

SUITE_faults_malformed() {
  TEST "objlib in-process: every corpus file reads or fails, no crash"
  replay=${LINKGUARD_BUILD_DIR:-}/tests/regression/regression_fuzz_objlib
  if [ -x "$replay" ]; then
    run_corpus none >/dev/null
    n=$(ls corpus | wc -l)
    [ "$n" -gt 5000 ] || test_failed "control: the corpus has only $n files"
    out=$(ulimit -c 0; "$replay" corpus 2>&1 | tail -1)
    expect_equal "$out" "$n inputs replayed" "replay"
  else
    echo "  (no $replay: in-process replay skipped)"
  fi

  TEST "inspect: every damaged binary ends in 0 or one error line and 65"
  out=$(run_corpus inspect)
  expect_equal "$out" "" "failures"
  # Control: the corpus really holds binaries that fail, and ones that read.
  expect_status 65 "$LINKGUARD_BIN" inspect corpus/opcodes-trunc-00040 2>/dev/null
  expect_status 0 "$LINKGUARD_BIN" inspect k.dylib >/dev/null

  TEST "check --forbid openmp: 0, 1 or 65, never a crash"
  out=$(run_corpus check)
  expect_equal "$out" "" "failures"
  # Control: libomp is kept in k.dylib (referenced), so --forbid fires.
  expect_status 1 "$LINKGUARD_BIN" check --forbid openmp k.dylib >/dev/null 2>&1

  TEST "driver verify (enforce): a damaged link output fails with one line"
  echo 'int x;' >k.c && touch k.o
  out=$(run_corpus enforce)
  expect_equal "$out" "" "failures"
  FAKE_COPY=$PWD/corpus/elf-trunc-00010 LINKGUARD_MODE=enforce \
    LINKGUARD_CXX=$FAKE_COMPILERS/copying-compiler "${LINKGUARD_BIN%/*}/linkguard-clang++" \
    -shared k.o -o out.so 2>err
  expect_equal $? 65 "enforce status on a truncated ELF output"
  expect_equal "$(wc -l <err)" 1 "stderr lines"
  expect_contains "$(cat err)" "linkguard: error: cannot verify"

  TEST "driver verify (verify): a damaged link output warns, exit 0"
  touch k.o
  out=$(run_corpus verify)
  expect_equal "$out" "" "failures"
}
