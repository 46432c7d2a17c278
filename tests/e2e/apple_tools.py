#!/usr/bin/env python3
"""Helpers for the suites that run Apple's own tools (label `apple`).

  apple_tools.py imports OTOOL LINKGUARD FILE
      Each symbol FILE imports, with the library it binds to, as Apple's
      otool reads it and as `linkguard inspect --json` reads it; prints both
      lists' differences and exits 1 when they differ, else prints
      "N imports agree (FORMAT)" and exits 0. otool's side: the ordinal of
      each bind from `-chained_fixups` (chained fixups) or `-dyld_opcodes`
      (bind, lazy_bind and weak_bind opcodes: this port's `-dyld_info`
      prints neither lazy nor weak binds), checked against the dylib `-dyld_info` names
      for every row it prints. Ordinals name the library (`otool -L`'s
      order); -2 is a flat-namespace (dynamic) lookup, -3 a weak lookup,
      -1 the main executable.

  apple_tools.py sigcheck FILE
      Compares every code slot of FILE's ad hoc code signatures (each slice
      of a universal file) with the hash of its page; prints "signature ok (N pages)" or the stale pages, exits
      0 / 1 (2: no signature). Re-signing is tests/tools/adhoc_resign.py's
      (tests/e2e/lib.sh adhoc_resign); this is the independent check of it.
"""
import hashlib
import json
import re
import struct
import subprocess
import sys

LC_CODE_SIGNATURE = 0x1D
MH_MAGIC_64 = 0xFEEDFACF
CSMAGIC_EMBEDDED_SIGNATURE = 0xFADE0CC0
CSMAGIC_CODEDIRECTORY = 0xFADE0C02
HASHES = {1: hashlib.sha1, 2: hashlib.sha256}


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


# --- imports ---------------------------------------------------------------

def otool_chained(otool, path):
    out = run(otool, "-chained_fixups", path)
    pairs = []
    for m in re.finditer(r"lib_ordinal = (-?\d+)[^\n]*\n\s*weak_import = (\d)\n\s*name_offset = \d+ \((.*)\)", out):
        pairs.append((int(m.group(1)), m.group(3), m.group(2) == "1"))
    return pairs


def otool_opcodes(otool, path):
    out = run(otool, "-dyld_opcodes", path)
    pairs, section, ordinal, symbol, weak = [], None, 0, None, False
    for line in out.splitlines():
        if line.endswith(" opcodes:"):
            section, ordinal, symbol, weak = line.split()[0], 0, None, False
            continue
        if section not in ("bind", "weak_bind", "lazy_bind"):
            continue
        m = re.search(r"BIND_OPCODE_SET_DYLIB_(ORDINAL_IMM|ORDINAL_ULEB|SPECIAL_IMM)\((-?\d+)\)", line)
        if m:
            n = int(m.group(2))
            # The special ordinals are stored as a signed 4-bit immediate.
            ordinal = n - 16 if m.group(1) == "SPECIAL_IMM" and n > 0 else n
            continue
        m = re.search(r"BIND_OPCODE_SET_SYMBOL_TRAILING_FLAGS_IMM\((\d+), (.*)\)$", line)
        if m:
            symbol, weak = m.group(2), bool(int(m.group(1)) & 1)  # BIND_SYMBOL_FLAGS_WEAK_IMPORT
            continue
        if "BIND_OPCODE_DO_BIND" in line and symbol is not None:
            # A weak_bind entry has no ordinal: dyld binds it to the first
            # weak or strong definition of any image (coalescing), what
            # chained fixups spell as ordinal -3 and otool names "weak".
            pairs.append((-3 if section == "weak_bind" else ordinal, symbol, weak))
    return pairs


def otool_dyld_info_rows(otool, path):
    """(dylib short name, symbol) for every row `otool -dyld_info` prints."""
    rows = []
    for line in run(otool, "-dyld_info", path).splitlines():
        f = line.removesuffix(" (weak import)").split()
        if len(f) >= 7 and f[0].startswith("__"):
            rows.append((f[-2], f[-1]))
    return rows


def linkguard_pairs(lg, path):
    doc = json.loads(run(lg, "inspect", "--json", path))
    (file,) = doc["files"]
    (sl,) = file["slices"]
    names = {d["ordinal"]: d["name"] for d in sl["dependencies"]}
    pairs = [(d["ordinal"], i["symbol"], i["weak"]) for d in sl["dependencies"] for i in d["imports"]]
    for key, ordinal in (("dynamicLookupImports", -2), ("weakLookupImports", -3), ("executableImports", -1)):
        pairs += [(ordinal, i["symbol"], i["weak"]) for i in sl[key]]
    if sl["unattributedImports"]:
        pairs += [("unattributed", i["symbol"], i["weak"]) for i in sl["unattributedImports"]]
    return pairs, names


def short_name_matches(short, ordinal, names):
    if ordinal == -2:
        return short == "flat-namespace"
    if ordinal == -3:
        return short == "weak"
    if ordinal == -1:
        return short == "main-executable"
    leaf = names.get(ordinal, "").rsplit("/", 1)[-1]
    return leaf.startswith(short)


def imports(otool, lg, path):
    header = run(otool, "-l", path)
    chained = "LC_DYLD_CHAINED_FIXUPS" in header
    fmt = "chained fixups" if chained else "LC_DYLD_INFO_ONLY" if "LC_DYLD_INFO_ONLY" in header else "?"
    theirs = otool_chained(otool, path) if chained else otool_opcodes(otool, path)
    ours, names = linkguard_pairs(lg, path)
    status = 0
    # Each row otool -dyld_info prints names the dylib of one of the binds read above.
    by_symbol = {}
    for ordinal, symbol, _ in theirs:
        by_symbol.setdefault(symbol, set()).add(ordinal)
    for short, symbol in otool_dyld_info_rows(otool, path):
        if not any(short_name_matches(short, o, names) for o in by_symbol.get(symbol, ())):
            print(f"otool -dyld_info names {short} for {symbol}; the binds say {sorted(by_symbol.get(symbol, []))}")
            status = 1
    a, b = set(theirs), set(ours)
    for p in sorted(a - b, key=str):
        print(f"otool only:     ordinal {p[0]} {p[1]}{' (weak)' if p[2] else ''}")
    for p in sorted(b - a, key=str):
        print(f"linkguard only: ordinal {p[0]} {p[1]}{' (weak)' if p[2] else ''}")
    if a != b or not a:
        status = 1
    if status == 0:
        print(f"{len(a)} imports agree ({fmt})")
    return status


# --- code signature ----------------------------------------------------------

FAT_MAGIC = 0xCAFEBABE


def slices_of(data):
    """(offset, size) of each thin image: the file, or a universal file's slices."""
    if struct.unpack_from(">I", data, 0)[0] == FAT_MAGIC:
        n = struct.unpack_from(">I", data, 4)[0]
        return [struct.unpack_from(">IIIII", data, 8 + 20 * i)[2:4] for i in range(n)]
    return [(0, len(data))]


def code_directories(data, base):
    """Absolute offsets of the CodeDirectories of the thin image at base."""
    magic, ncmds = struct.unpack_from("<I", data, base)[0], struct.unpack_from("<I", data, base + 16)[0]
    if magic != MH_MAGIC_64:
        raise SystemExit("not a 64-bit little-endian Mach-O")
    off = base + 32
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, off)
        if cmd == LC_CODE_SIGNATURE:
            sig = base + struct.unpack_from("<I", data, off + 8)[0]
            smagic, _, count = struct.unpack_from(">III", data, sig)
            if smagic != CSMAGIC_EMBEDDED_SIGNATURE:
                raise SystemExit("LC_CODE_SIGNATURE points at no embedded signature")
            for i in range(count):
                _, boff = struct.unpack_from(">II", data, sig + 12 + 8 * i)
                if struct.unpack_from(">I", data, sig + boff)[0] == CSMAGIC_CODEDIRECTORY:
                    yield sig + boff
            return
        off += size


def slots(data, base, cd):
    (_, _, _, _, hash_off, _, _, n_code, code_limit, hash_size, hash_type, _, page_log) = \
        struct.unpack_from(">IIIIIIIIIBBBB", data, cd)
    page = 1 << page_log
    for i in range(n_code):
        start = base + i * page
        end = base + min((i + 1) * page, code_limit)
        yield cd + hash_off + i * hash_size, HASHES[hash_type](data[start:end]).digest()


def signed(data):
    """(slice offset, CodeDirectory offset) of every signed slice."""
    return [(base, cd) for base, _ in slices_of(data) for cd in code_directories(data, base)]


def sigcheck(path):
    data = open(path, "rb").read()
    cds = signed(data)
    if not cds:
        print("no code signature")
        return 2
    stale, n = [], 0
    for base, cd in cds:
        for i, (at, want) in enumerate(slots(data, base, cd)):
            n += 1
            if data[at:at + len(want)] != want:
                stale.append((base, i))
    if stale:
        print(f"stale pages (slice offset, page): {sorted(set(stale))}")
        return 1
    print(f"signature ok ({n} pages)")
    return 0


def main(argv):
    if argv[:1] == ["imports"] and len(argv) == 4:
        return imports(*argv[1:])
    if argv[:1] == ["sigcheck"] and len(argv) == 2:
        return sigcheck(argv[1])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
