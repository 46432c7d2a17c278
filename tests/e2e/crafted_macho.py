#!/usr/bin/env python3
"""Crafted Mach-O files of issue 12, derived from a real cross-linked dylib.

Used by tests/e2e/inspect_crafted_malformed.bash (and by hand: each file is
described where it is made). Little-endian 64-bit Mach-O only.

  chained-imports SRC OUT COUNT  SRC (-fixup_chains) with its chained-fixups
                                 blob moved past the end of the file and
                                 imports_count set to COUNT: the import table
                                 really holds COUNT entries, as a hole in a
                                 sparse file (a few KB on disk)
  lazy-dones SRC OUT N           SRC (opcodes) whose lazy-bind table is N-1
                                 DONE opcodes and one SET_TYPE_IMM: each DONE
                                 made LLVM 19 scan the rest of the table
  many-sections OUT N            a dylib header with one segment of N
                                 one-byte sections (libObject compares every
                                 pair for overlap)
  replace SRC OUT OLD NEW        bytes OLD (hex) replaced by NEW (hex)
"""
import struct
import sys

LC_DYLD_INFO_ONLY, LC_DYLD_INFO = 0x80000022, 0x22
LC_DYLD_CHAINED_FIXUPS = 0x80000034


def load_command(d, wanted):
    ncmds = struct.unpack_from("<I", d, 16)[0]
    off = 32
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", d, off)
        if cmd in wanted:
            return off
        off += size
    sys.exit("no load command %s" % [hex(w) for w in wanted])


def chained_imports(src, out, count):
    d = bytearray(open(src, "rb").read())
    lc = load_command(d, (LC_DYLD_CHAINED_FIXUPS,))
    dataoff, datasize = struct.unpack_from("<II", d, lc + 8)
    blob = d[dataoff:dataoff + datasize]
    ver, starts, imports, symbols, n, fmt, sfmt = struct.unpack_from("<7I", blob)
    pool = blob[symbols:]
    new_symbols = imports + 4 * count
    header = struct.pack("<7I", ver, starts, imports, new_symbols, count, fmt, sfmt)
    moved = header + blob[28:imports] + blob[imports:imports + 4 * n]
    where = (len(d) + 0x3FFF) & ~0x3FFF
    struct.pack_into("<II", d, lc + 8, where, new_symbols + len(pool))
    d += b"\0" * (where - len(d))
    with open(out, "wb") as f:
        f.write(d + moved)
        f.seek(where + new_symbols)  # the rest of the table is a hole
        f.write(pool)


def lazy_dones(src, out, n):
    d = bytearray(open(src, "rb").read())
    lc = load_command(d, (LC_DYLD_INFO_ONLY, LC_DYLD_INFO))
    where = (len(d) + 15) & ~15
    stream = b"\0" * (n - 1) + b"\x30"
    struct.pack_into("<II", d, lc + 32, where, len(stream))  # lazy_bind_off/size
    d += b"\0" * (where - len(d)) + stream
    open(out, "wb").write(d)


def many_sections(out, n):
    seg_size = 72 + 80 * n
    data_off = (32 + seg_size + 4095) & ~4095
    cmds = [struct.pack("<II16sQQQQIIII", 0x19, seg_size, b"__DATA", 0x1000, n,
                        data_off, n, 3, 3, n, 0)]
    for i in range(n):
        cmds.append(struct.pack("<16s16sQQIIIIIIII", b"s%d" % i, b"__DATA",
                                0x1000 + i, 1, data_off + i, 0, 0, 0, 0, 0, 0, 0))
    cmds = b"".join(cmds)
    header = struct.pack("<IiiIIIII", 0xFEEDFACF, 0x100000C, 0, 6, 1, len(cmds),
                         0x85, 0)
    d = header + cmds
    open(out, "wb").write(d + b"\0" * (data_off - len(d)) + b"\1" * n)


def replace(src, out, old, new):
    d = open(src, "rb").read()
    old, new = bytes.fromhex(old), bytes.fromhex(new)
    if old not in d:
        sys.exit("%s does not contain %s" % (src, old.hex()))
    open(out, "wb").write(d.replace(old, new))


def main(argv):
    what = argv[1] if len(argv) > 1 else ""
    if what == "chained-imports" and len(argv) == 5:
        chained_imports(argv[2], argv[3], int(argv[4], 0))
    elif what == "lazy-dones" and len(argv) == 5:
        lazy_dones(argv[2], argv[3], int(argv[4], 0))
    elif what == "many-sections" and len(argv) == 4:
        many_sections(argv[2], int(argv[3], 0))
    elif what == "replace" and len(argv) == 6:
        replace(*argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
