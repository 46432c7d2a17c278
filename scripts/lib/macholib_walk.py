#!/usr/bin/env python3
"""The peer of `linkguard check --portable TREE` in scripts/bench: a walk of
a tree with python3-macholib (what delocate is built on) that only lists
each Mach-O file's dylibs and rpaths, as delocate-listdeps does, and judges
nothing. Links are not followed; other files are skipped after their magic.
"""
import os
import struct
import sys

from macholib.MachO import MachO
from macholib import mach_o

MAGICS = {0xFEEDFACE, 0xFEEDFACF, 0xCEFAEDFE, 0xCFFAEDFE, 0xCAFEBABE, 0xBEBAFECA}
DYLIB_CMDS = {mach_o.LC_LOAD_DYLIB, mach_o.LC_LOAD_WEAK_DYLIB, mach_o.LC_REEXPORT_DYLIB,
              mach_o.LC_LAZY_LOAD_DYLIB, mach_o.LC_LOAD_UPWARD_DYLIB}


def is_macho(path):
    with open(path, "rb") as f:
        head = f.read(4)
    return len(head) == 4 and struct.unpack(">I", head)[0] in MAGICS


def main(top):
    out = []
    for root, _dirs, files in os.walk(top):
        for name in sorted(files):
            path = os.path.join(root, name)
            if os.path.islink(path) or not is_macho(path):
                continue
            for header in MachO(path).headers:
                for lc, cmd, data in header.commands:
                    if lc.cmd in DYLIB_CMDS or lc.cmd == mach_o.LC_RPATH:
                        text = data.rstrip(b"\0").decode("utf-8", "replace")
                        out.append(path + "\t" + text)
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
