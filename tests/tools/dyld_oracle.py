#!/usr/bin/env python3
"""dyld's own validator beside contract/DyldRules (issue 34).

  dyld_oracle.py compare --bin DIR --cli CLI [--show N] FILE...
      run dyld-validate-<release> (scripts/dyld-validator) and dyld_rules_cli
      on FILEs; print the agreement per release; exit 1 on any difference.
  dyld_oracle.py fuzz --bin DIR --cli CLI --count N [--seed S] [--keep DIR]
                      [--batch B] [--json OUT] SEED_FILE...
      N mutants of the thin 64-bit seeds, made in this process from the
      seeds' bytes (duplicated, removed, reordered and truncated load
      commands; SDK, platform, file-type and flag variants; segment, rpath,
      dylib, UUID, entry-point edits), judged by both in batches of B;
      differing files are kept in DIR.
  dyld_oracle.py craft KIND SEED OUT
      one named shape from a seed (the regression tests' files):
      two-macos-build-versions[-reversed], second-text, command-past-sizeofcmds

"The same": per file, slice and release, the same decision (refused or not)
and the same rule; dyld's message is mapped to linkguard's rule id by
tests/data/dyld_error_rules.tsv. A slice dyld does not validate (a file type
the loader refuses before, a main executable in dyld-1284.13) is "not
refused" for both. A structural fault (rule read-error) agrees when
linkguard's reader refused the file (check says damaged, 65); where linkguard's reader refuses
a file dyld's code reads on, the slice is counted apart ("unread"), never
as agreement.
"""
import argparse
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile

RELEASES = ["dyld-1284.13", "dyld-1323.3", "dyld-1378"]
HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.join(HERE, "..", "data", "dyld_error_rules.tsv")


def load_table(path=TABLE):
    rows = []
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        msg, rule, _src = line.rstrip("\n").split("\t")
        rx = re.escape(msg)
        rx = re.sub(r"%(?:0?\d*)(?:l{0,2})[sduxXp]", ".*", rx.replace("\\%", "%"))
        rows.append((re.compile("^" + rx + "$", re.S), rule, msg))
    return rows


def rule_of(msg, table):
    for rx, rule, fmt in table:
        if rx.match(msg):
            return rule, fmt
    return "UNMAPPED", msg


def unescape(s):
    return re.sub(r"\\x([0-9A-F]{2})", lambda m: chr(int(m.group(1), 16)), s)


def run_lines(cmd, paths):
    out = subprocess.run(cmd + ["-"], input="\n".join(paths) + "\n", capture_output=True,
                         text=True, errors="replace")
    if out.returncode not in (0, 1):
        sys.exit("%s failed (%d): %s" % (cmd[0], out.returncode, out.stderr[-2000:]))
    return out.stdout.splitlines()


def judge(bindir, cli, paths, table):
    """{(path, slice, release): (dyld, lg)} with dyld/lg = (rule|None, message)."""
    dy = {}
    for rel in RELEASES:
        for line in run_lines([os.path.join(bindir, "dyld-validate-" + rel.split("-", 1)[1])], paths):
            f = line.split("\t")
            path, sl, r, verdict, msg = f[0], f[1], f[2], f[3], "\t".join(f[4:])
            msg = unescape(msg)
            if verdict == "refused":
                dy[(path, sl, r)] = rule_of(msg, table)[0], msg
            elif verdict in ("valid", "not-validated"):
                dy[(path, sl, r)] = None, verdict
            else:  # not-macho, unreadable: not a Mach-O slice for dyld
                dy[(path, sl, r)] = "read-error", verdict + " " + msg
    lg = {}
    read_error = {}
    for line in run_lines([cli], paths):
        f = line.split("\t")
        path, sl, r, verdict, rule, msg = f[0], f[1], f[2], f[3], f[4], "\t".join(f[5:])
        if verdict == "refused":
            lg[(path, sl, r)] = rule, msg
        elif verdict == "ok":
            lg[(path, sl, r)] = None, ""
        else:
            read_error[(path, r)] = verdict + ": " + msg
    out = {}
    for key, d in dy.items():
        path, sl, r = key
        if key in lg:
            out[key] = d, lg[key]
        elif (path, r) in read_error:
            out[key] = d, ("read-error", read_error[(path, r)])
        else:
            out[key] = d, ("MISSING", "")
    for key, l in lg.items():
        if key not in dy:
            out[key] = ("MISSING", ""), l
    return out


class Tally:
    def __init__(self):
        self.per = {r: {"compared": 0, "agree": 0, "differ": 0, "unread": 0,
                        "dyld_refused": 0, "messages": {}, "differences": {},
                        "unread_by": {}} for r in RELEASES}
        self.examples = []

    def add(self, results, keep=None, show=0):
        for (path, sl, r), (d, l) in sorted(results.items()):
            t = self.per[r]
            t["compared"] += 1
            if d[0] == "read-error" and d[1].startswith(("not-macho", "unreadable")):
                t["not_macho"] = t.get("not_macho", 0) + 1
            elif d[0] is not None:
                t["dyld_refused"] += 1
                fmt = rule_of(d[1], TABLE_ROWS)[1]
                t["messages"][fmt] = t["messages"].get(fmt, 0) + 1
            same = d[0] == l[0]
            if same:
                t["agree"] += 1
                continue
            if l[0] == "read-error":
                # linkguard's reader refused bytes dyld's valid() reads on:
                # check says damaged (65), never "holds". Counted apart.
                t["unread"] += 1
                k = "dyld %s" % (d[0] or "ok")
                t["unread_by"][k] = t["unread_by"].get(k, 0) + 1
                continue
            t["differ"] += 1
            k = "dyld %s / linkguard %s" % (d[0] or "ok", l[0] or "ok")
            t["differences"][k] = t["differences"].get(k, 0) + 1
            if len(self.examples) < 10000:
                self.examples.append((path, sl, r, d, l))
            if keep and l[0] != "read-error":
                os.makedirs(keep, exist_ok=True)
                dst = os.path.join(keep, os.path.basename(path))
                if os.path.exists(path) and not os.path.exists(dst):
                    shutil.copy(path, dst)

    def differences(self):
        return sum(t["differ"] for t in self.per.values())

    def report(self, show=20):
        for r in RELEASES:
            t = self.per[r]
            print("%s: %d slices compared (%d not Mach-O), %d agree, %d differ, %d unread by"
                  " linkguard (its reader refused the file: damaged, 65); dyld refused %d" %
                  (r, t["compared"], t.get("not_macho", 0), t["agree"], t["differ"], t["unread"],
                   t["dyld_refused"]))
            for k, n in sorted(t["differences"].items(), key=lambda x: -x[1]):
                print("   difference %6d  %s" % (n, k))
            for k, n in sorted(t["unread_by"].items(), key=lambda x: -x[1]):
                print("   unread     %6d  %s" % (n, k))
        seen = set()
        shown = 0
        for path, sl, r, d, l in self.examples:
            if l[0] == "read-error":
                continue
            k = (d[0], l[0], r)
            if k in seen or shown >= show:
                continue
            seen.add(k)
            shown += 1
            print("  e.g. %s [%s] %s: dyld %r / linkguard %r" % (path, sl, r, d, l))


TABLE_ROWS = []

# --- Mach-O editing -----------------------------------------------------------
LC_REQ_DYLD = 0x80000000
LC_SEGMENT_64, LC_UUID, LC_ID_DYLIB, LC_LOAD_DYLIB, LC_RPATH = 0x19, 0x1B, 0xD, 0xC, 0x8000001C
LC_BUILD_VERSION, LC_VERSION_MIN_MACOSX, LC_MAIN, LC_UNIXTHREAD = 0x32, 0x24, 0x80000028, 0x5
LC_LINKER_OPTION, LC_LOAD_WEAK_DYLIB, LC_REEXPORT_DYLIB, LC_LAZY_LOAD_DYLIB = 0x2D, 0x80000018, 0x8000001F, 0x20
LC_LOAD_UPWARD_DYLIB, LC_LOAD_DYLINKER, LC_SEGMENT_SPLIT_INFO = 0x80000023, 0xE, 0x1E
VERSION_MINS = [0x24, 0x25, 0x2F, 0x30]
VERSIONS = [0, 0x000A0500, 0x000A0E00, 0x000A0F00, 0x000A0F04, 0x000B0000, 0x000C0000,
            0x000D0300, 0x000E0000, 0x000E0400, 0x000F0000, 0x000F0300, 0x000F0400,
            0x000F0500, 0x00100000, 0x00110000, 0x00120000, 0x00120400, 0x001A0000,
            0x001A0400, 0x001B0000, 0x00090000, 0x00190000, 0x00630000, 0xFFFFFFFF]
PLATFORMS = [1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 0, 99]
FILETYPES = [1, 2, 3, 5, 6, 7, 8, 9, 0xA, 0xB, 0xC, 0xD, 0x10]
FLAGS = [0x4, 0x80, 0x200000, 0x400, 0x800000, 0x80000000, 0x2000000, 0x1]
SEGNAMES = [b"__TEXT", b"__DATA", b"__DATA_CONST", b"__LINKEDIT", b"__PAGEZERO", b"__AUTH",
            b"__OBJC", b"__TEXT_EXEC"]
RPATHS = [b"@loader_path", b"@loader_path/../lib", b"@executable_path", b"/usr/lib", b"@rpath"]
DYLIBS = [b"/usr/lib/libSystem.B.dylib", b"@rpath/libomp.dylib", b"/usr/lib/libc++.1.dylib",
          b"/usr/lib/system/libsystem_c.dylib"]


def parse(b):
    if len(b) < 32 or struct.unpack_from("<I", b, 0)[0] != 0xFEEDFACF:
        return None
    ncmds, sizeofcmds = struct.unpack_from("<II", b, 16)
    cmds, off = [], 32
    for _ in range(min(ncmds, 4096)):
        if off + 8 > len(b) or off + 8 > 32 + sizeofcmds:
            break
        cmd, size = struct.unpack_from("<II", b, off)
        if size < 8 or off + size > len(b):
            break
        cmds.append(bytearray(b[off:off + size]))
        off += size
    return cmds


def rebuild(b, cmds, ncmds=None, sizeofcmds=None):
    blob = b"".join(bytes(c) for c in cmds)
    out = bytearray(b)
    end = 32 + len(blob)
    if end > len(out):
        out.extend(b"\0" * (end - len(out)))
    out[32:end] = blob
    struct.pack_into("<II", out, 16, len(cmds) if ncmds is None else ncmds,
                     len(blob) if sizeofcmds is None else sizeofcmds)
    return out


def strcmd(cmd, hdr, s):
    body = struct.pack("<II", cmd, 0) + hdr + s + b"\0"
    body += b"\0" * (-len(body) % 8)
    body = bytearray(body)
    struct.pack_into("<I", body, 4, len(body))
    return body


def rpath_cmd(s):
    return strcmd(LC_RPATH, struct.pack("<I", 12), s)


def dylib_cmd(cmd, s):
    return strcmd(cmd, struct.pack("<IIII", 24, 2, 0x10000, 0x10000), s)


def build_version(platform, minos, sdk):
    return bytearray(struct.pack("<IIIIII", LC_BUILD_VERSION, 24, platform, minos, sdk, 0))


def find(cmds, kind):
    return [i for i, c in enumerate(cmds) if struct.unpack_from("<I", c, 0)[0] == kind]


def segs(cmds):
    return find(cmds, LC_SEGMENT_64)


def mutate_once(b, rng):
    cmds = parse(b)
    if cmds is None:
        return b
    op = rng.randrange(22)
    b = bytearray(b)
    n = len(cmds)
    if op == 0 and n:  # duplicate a load command
        i = rng.randrange(n)
        cmds.insert(rng.randrange(n + 1), bytearray(cmds[i]))
    elif op == 1 and n:  # remove one
        del cmds[rng.randrange(n)]
    elif op == 2 and n > 1:  # reorder: swap two
        i, j = rng.randrange(n), rng.randrange(n)
        cmds[i], cmds[j] = cmds[j], cmds[i]
    elif op == 3 and n:  # truncate: a command's size, ncmds, sizeofcmds or the file
        k = rng.randrange(5)
        if k == 0:
            i = rng.randrange(n)
            struct.pack_into("<I", cmds[i], 4, max(0, len(cmds[i]) - rng.choice([4, 8, 16, 24])))
            return rebuild(b, cmds, sizeofcmds=sum(len(c) for c in cmds))
        if k == 1:
            return rebuild(b, cmds, ncmds=n + rng.choice([-1, 1, 2]))
        if k == 2:
            return rebuild(b, cmds, sizeofcmds=sum(len(c) for c in cmds) + rng.choice([-8, -1, 8, 4096]))
        if k == 3:
            return b[:rng.randrange(32, len(b))]
        return b[:max(32, len(b) - rng.choice([1, 8, 4096, 16384]))]
    elif op == 4:  # SDK / minOS of a platform command
        idx = find(cmds, LC_BUILD_VERSION) + [i for v in VERSION_MINS for i in find(cmds, v)]
        if idx:
            c = cmds[rng.choice(idx)]
            if struct.unpack_from("<I", c, 0)[0] == LC_BUILD_VERSION and len(c) >= 24:
                struct.pack_into("<I", c, rng.choice([12, 16]), rng.choice(VERSIONS))
            elif len(c) >= 16:
                struct.pack_into("<I", c, rng.choice([8, 12]), rng.choice(VERSIONS))
    elif op == 5:  # platform
        idx = find(cmds, LC_BUILD_VERSION)
        if idx and len(cmds[idx[0]]) >= 24:
            struct.pack_into("<I", cmds[rng.choice(idx)], 8, rng.choice(PLATFORMS))
        else:
            idx = [i for v in VERSION_MINS for i in find(cmds, v)]
            if idx:
                struct.pack_into("<I", cmds[rng.choice(idx)], 0, rng.choice(VERSION_MINS))
    elif op == 6:  # another platform command (two LC_BUILD_VERSION, a VERSION_MIN)
        if rng.randrange(3):
            c = build_version(rng.choice(PLATFORMS[:8]), rng.choice(VERSIONS), rng.choice(VERSIONS))
        else:
            c = bytearray(struct.pack("<IIII", rng.choice(VERSION_MINS), 16, rng.choice(VERSIONS),
                                      rng.choice(VERSIONS)))
        cmds.insert(rng.randrange(n + 1), c)
    elif op == 7:  # file type
        struct.pack_into("<I", b, 12, rng.choice(FILETYPES))
        return b
    elif op == 8:  # a header flag
        f = struct.unpack_from("<I", b, 24)[0] ^ rng.choice(FLAGS)
        struct.pack_into("<I", b, 24, f)
        return b
    elif op in (9, 10, 11) and segs(cmds):  # a segment field
        c = cmds[rng.choice(segs(cmds))]
        if len(c) < 72:
            return b
        field = rng.randrange(9)
        others = [cmds[i] for i in segs(cmds) if len(cmds[i]) >= 72]
        o = rng.choice(others)
        if field == 0:
            c[8:24] = rng.choice(SEGNAMES).ljust(16, b"\0")
        elif field in (1, 2, 3, 4):  # vmaddr, vmsize, fileoff, filesize
            pos = 16 + 8 * field
            v = struct.unpack_from("<Q", c, pos)[0]
            choices = [0, v + 0x4000, max(0, v - 0x4000), struct.unpack_from("<Q", o, pos)[0],
                       v * 2, 0xFFFFFFFFFFFFF000, len(b), v + 1]
            struct.pack_into("<Q", c, pos, rng.choice(choices) & 0xFFFFFFFFFFFFFFFF)
        elif field in (5, 6):  # maxprot, initprot
            struct.pack_into("<I", c, 48 + 4 * (field - 5), rng.choice([0, 1, 3, 5, 7, 2, 0x11]))
        elif field == 7:  # flags
            struct.pack_into("<I", c, 64, struct.unpack_from("<I", c, 64)[0] ^ rng.choice([0x10, 0x4, 0x8]))
        else:  # a section's addr or size
            nsects = struct.unpack_from("<I", c, 64 - 4)[0]
            if nsects and len(c) >= 72 + 80:
                s = 72 + 80 * rng.randrange(min(nsects, (len(c) - 72) // 80))
                pos = s + rng.choice([32, 40])
                v = struct.unpack_from("<Q", c, pos)[0]
                struct.pack_into("<Q", c, pos, rng.choice([0, v + 0x10000, v // 2, 1 << 63, v + 1]) & 0xFFFFFFFFFFFFFFFF)
    elif op == 12:  # a second __TEXT (a copy of a segment renamed, at a non-zero offset)
        if segs(cmds):
            c = bytearray(cmds[rng.choice(segs(cmds))])
            if len(c) >= 72:
                c[8:24] = b"__TEXT".ljust(16, b"\0")
                struct.pack_into("<II", c, 56, 5, 5)
                cmds.insert(rng.randrange(n + 1), c)
    elif op == 13:  # an rpath: a duplicate or another
        idx = find(cmds, LC_RPATH)
        if idx and rng.randrange(2):
            cmds.insert(rng.randrange(n + 1), bytearray(cmds[rng.choice(idx)]))
        else:
            cmds.insert(rng.randrange(n + 1), rpath_cmd(rng.choice(RPATHS)))
    elif op == 14:  # a linked dylib: a duplicate, another, or all removed
        k = rng.randrange(3)
        idx = find(cmds, LC_LOAD_DYLIB)
        if k == 0 and idx:
            cmds.insert(rng.randrange(n + 1), bytearray(cmds[rng.choice(idx)]))
        elif k == 1:
            cmds.insert(rng.randrange(n + 1), dylib_cmd(rng.choice(
                [LC_LOAD_DYLIB, LC_LOAD_WEAK_DYLIB, LC_REEXPORT_DYLIB, LC_LAZY_LOAD_DYLIB,
                 LC_LOAD_UPWARD_DYLIB]), rng.choice(DYLIBS)))
        else:
            cmds = [c for c in cmds if struct.unpack_from("<I", c, 0)[0] != LC_LOAD_DYLIB]
    elif op == 15:  # LC_ID_DYLIB added or removed
        idx = find(cmds, LC_ID_DYLIB)
        if idx and rng.randrange(2):
            del cmds[idx[0]]
        else:
            cmds.insert(rng.randrange(n + 1), dylib_cmd(LC_ID_DYLIB, rng.choice(
                [b"@rpath/libk.dylib", b"/usr/lib/system/libk.dylib"])))
    elif op == 16:  # LC_UUID duplicated or removed
        idx = find(cmds, LC_UUID)
        if idx and rng.randrange(2):
            del cmds[idx[0]]
        else:
            cmds.insert(rng.randrange(n + 1), bytearray(struct.pack("<II", LC_UUID, 24) + bytes(16)))
    elif op == 17:  # entry points
        k = rng.randrange(3)
        if k == 0:
            cmds.insert(rng.randrange(n + 1), bytearray(struct.pack("<IIQQ", LC_MAIN, 24, 0x1000, 0)))
        elif k == 1:
            cmds.insert(rng.randrange(n + 1), bytearray(struct.pack("<IIII", LC_UNIXTHREAD, 16, 4, 0)))
        else:
            cmds = [c for c in cmds if struct.unpack_from("<I", c, 0)[0] not in (LC_MAIN, LC_UNIXTHREAD)]
    elif op == 18:  # LC_LINKER_OPTION, well formed or not
        strs = b"-lfoo\0-framework\0Foo\0"
        count = rng.choice([3, 3, 4, 9, 0])
        body = struct.pack("<III", LC_LINKER_OPTION, 0, count) + strs[:rng.choice([len(strs), 10])]
        body += b"\0" * (-len(body) % 8)
        body = bytearray(body)
        struct.pack_into("<I", body, 4, len(body))
        cmds.insert(rng.randrange(n + 1), body)
    elif op == 19:  # a command dyld does not know, required or not
        cmds.insert(rng.randrange(n + 1), bytearray(struct.pack("<IIQ", rng.choice(
            [0x80000099, 0x99, LC_REQ_DYLD | 0x33]), 16, 0)))
    elif op == 20:  # LC_LOAD_DYLINKER removed or added
        idx = find(cmds, LC_LOAD_DYLINKER)
        if idx:
            del cmds[idx[0]]
        else:
            cmds.insert(rng.randrange(n + 1), strcmd(LC_LOAD_DYLINKER, struct.pack("<I", 12), b"/usr/lib/dyld"))
    else:  # a random byte of the load commands
        if n:
            c = cmds[rng.randrange(n)]
            if len(c) > 8:
                p = rng.randrange(8, len(c))
                c[p] = rng.randrange(256)
    return rebuild(b, cmds)


def mutate(b, rng):
    for _ in range(rng.choice([1, 1, 2, 3])):
        b = mutate_once(b, rng)
    return bytes(b)


def craft(kind, b):
    cmds = parse(b)
    if kind == "two-macos-build-versions":
        # dyld keeps the last macOS LC_BUILD_VERSION (PlatformAndVersions::
        # zip): the first says SDK 26.0, the last SDK 14.0, and a duplicate
        # LC_RPATH is refused at 26.0 only.
        i = find(cmds, LC_BUILD_VERSION)[0]
        cmds[i] = build_version(1, 0x000B0000, 0x001A0000)
        cmds.insert(i + 1, build_version(1, 0x000B0000, 0x000E0000))
        cmds.append(rpath_cmd(b"@loader_path"))
        cmds.append(rpath_cmd(b"@loader_path"))
    elif kind == "two-macos-build-versions-reversed":
        i = find(cmds, LC_BUILD_VERSION)[0]
        cmds[i] = build_version(1, 0x000B0000, 0x000E0000)
        cmds.insert(i + 1, build_version(1, 0x000B0000, 0x001A0000))
        cmds.append(rpath_cmd(b"@loader_path"))
        cmds.append(rpath_cmd(b"@loader_path"))
    elif kind == "second-text":
        # A second __TEXT at a non-zero file offset, after the real one:
        # validSemanticsSegments looks at the last __TEXT.
        t = [i for i in segs(cmds) if cmds[i][8:14] == b"__TEXT" and cmds[i][14] == 0][0]
        c = bytearray(cmds[t])
        struct.pack_into("<I", c, 4, 72)
        struct.pack_into("<I", c, 64, 0)  # nsects
        c = c[:72]
        vm_end = max(struct.unpack_from("<Q", cmds[i], 24)[0] + struct.unpack_from("<Q", cmds[i], 32)[0]
                     for i in segs(cmds))
        struct.pack_into("<QQQQ", c, 24, vm_end, 0x4000, 0x4000, 0)
        cmds.insert(t + 1, c)
    elif kind == "command-past-sizeofcmds":
        # sizeofcmds 8 bytes short of the commands: the last one ends past
        # it (dyld's forEachLoadCommand: "size ... is too large"); libObject
        # bounds commands by the file and reads on.
        return bytes(rebuild(b, cmds, sizeofcmds=sum(len(c) for c in cmds) - 8))
    else:
        sys.exit("unknown shape " + kind)
    return bytes(rebuild(b, cmds))


def main():
    global TABLE_ROWS
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("compare")
    c.add_argument("--bin", required=True)
    c.add_argument("--cli", required=True)
    c.add_argument("--show", type=int, default=20)
    c.add_argument("--json")
    c.add_argument("--messages", action="store_true")
    c.add_argument("files", nargs="+")
    f = sub.add_parser("fuzz")
    f.add_argument("--bin", required=True)
    f.add_argument("--cli", required=True)
    f.add_argument("--count", type=int, required=True)
    f.add_argument("--seed", type=int, default=1)
    f.add_argument("--batch", type=int, default=2000)
    f.add_argument("--keep")
    f.add_argument("--json")
    f.add_argument("--messages", action="store_true", help="per release, how many hit each dyld message")
    f.add_argument("seeds", nargs="+")
    k = sub.add_parser("craft")
    k.add_argument("kind")
    k.add_argument("src")
    k.add_argument("out")
    a = ap.parse_args()
    TABLE_ROWS = load_table()
    if a.cmd == "craft":
        open(a.out, "wb").write(craft(a.kind, open(a.src, "rb").read()))
        return 0
    tally = Tally()
    if a.cmd == "compare":
        tally.add(judge(a.bin, a.cli, a.files, TABLE_ROWS))
    else:
        seeds = [open(s, "rb").read() for s in a.seeds]
        seeds = [s for s in seeds if parse(s) is not None]
        if not seeds:
            sys.exit("no thin 64-bit Mach-O seed")
        rng = random.Random(a.seed)
        work = tempfile.mkdtemp(prefix="dyld-oracle-")
        try:
            done = 0
            while done < a.count:
                n = min(a.batch, a.count - done)
                paths = []
                for i in range(n):
                    p = os.path.join(work, "m%07d" % (done + i))
                    with open(p, "wb") as out:
                        out.write(mutate(rng.choice(seeds), rng))
                    paths.append(p)
                tally.add(judge(a.bin, a.cli, paths, TABLE_ROWS), keep=a.keep)
                for p in paths:
                    os.unlink(p)
                done += n
        finally:
            shutil.rmtree(work, ignore_errors=True)
    tally.report(getattr(a, "show", 20))
    if getattr(a, "messages", False):
        for r in RELEASES:
            for fmt, n in sorted(tally.per[r]["messages"].items(), key=lambda x: -x[1]):
                print("%s\t%d\t%s" % (r, n, fmt))
    if a.json:
        json.dump(tally.per, open(a.json, "w"), indent=1, sort_keys=True)
    return 1 if tally.differences() else 0


if __name__ == "__main__":
    sys.exit(main())
