#!/usr/bin/env python3
"""adhoc_resign.py FILE...: re-sign ad hoc, in place, Mach-O files whose
signature a linker wrote (lld, ld64: an ad-hoc CodeDirectory, no CMS), after
a test edited their bytes -- what `codesign -f -s -` does on a Mac, where
the tests' fixtures are patched after linking (a load command rewritten, a
byte flipped). No codesign exists on Linux; this recomputes every
CodeDirectory's code page hashes (and the hashes of the requirements and
entitlements blobs in special slots 2, 5, 7) over the file's bytes as they
are now. The signature's size and place stay: an edit that moves
LC_CODE_SIGNATURE's blob or grows the signed range needs a relink. A blob
that is all zeros (yaml2obj writes LC_CODE_SIGNATURE's space but not its
content) gets a fresh ad-hoc signature in lld's layout: one SHA-256
CodeDirectory, version 0x20400, 4 KiB pages, the file's name as identifier.

Each slice of a universal file is re-signed; a slice without
LC_CODE_SIGNATURE is left alone (lld signs arm64 only); a file with no
signed slice is named on stderr (exit 1). Layouts:
xnu osfmk/kern/cs_blobs.h; lld/MachO/SyntheticSections.cpp
(CodeSignatureSection::writeHashes).
"""
import hashlib
import os
import struct
import sys

HASHES = {1: ("sha1", 20), 2: ("sha256", 32), 3: ("sha256", 20), 4: ("sha384", 48)}
LC_CODE_SIGNATURE = 0x1D
NAME = ""


def digest(kind, data):
    name, size = HASHES[kind]
    return hashlib.new(name, data).digest()[:size]


def write_fresh(buf, base, dataoff, datasize, text):
    """An ad-hoc SuperBlob with one SHA-256 CodeDirectory (hashes zero: the
    caller computes them), laid out as lld's CodeSignatureSection."""
    ident = NAME.encode() + b"\0"
    ncode = (dataoff + 4095) // 4096
    cd_off = 12 + 8
    hash_off = 88 + len(ident)
    cd_len = hash_off + 32 * ncode
    if cd_off + cd_len > datasize:
        raise SystemExit(f"adhoc_resign: {datasize} bytes of LC_CODE_SIGNATURE cannot hold "
                         f"{cd_off + cd_len}")
    sb = base + dataoff
    struct.pack_into(">III", buf, sb, 0xFADE0CC0, cd_off + cd_len, 1)
    struct.pack_into(">II", buf, sb + 12, 0, cd_off)
    cd = sb + cd_off
    struct.pack_into(">IIIIIIIIIBBBBIIIIQQQQ", buf, cd, 0xFADE0C02, cd_len, 0x20400,
                     0x2 | 0x20000, hash_off, 88, 0, ncode, dataoff, 32, 2, 0, 12, 0, 0, 0, 0,
                     0, text[0], text[1], text[2])
    buf[cd + 88:cd + 88 + len(ident)] = ident


def resign_slice(buf, base, size):
    """Re-signs the thin slice at buf[base:base+size]; False if unsigned."""
    magic = struct.unpack_from("<I", buf, base)[0]
    if magic not in (0xFEEDFACF, 0xFEEDFACE):
        raise SystemExit("adhoc_resign: not a little-endian Mach-O slice")
    ncmds, sizeofcmds = struct.unpack_from("<II", buf, base + 16)
    off = base + (32 if magic == 0xFEEDFACF else 28)
    end = off + sizeofcmds
    sig = None
    text = (0, 0, 0)
    filetype = struct.unpack_from("<I", buf, base + 12)[0]
    for _ in range(ncmds):
        if off + 8 > end:
            break
        cmd, cmdsize = struct.unpack_from("<II", buf, off)
        if cmd == LC_CODE_SIGNATURE:
            sig = struct.unpack_from("<II", buf, off + 8)
        if cmd == 0x19 and bytes(buf[off + 8:off + 24]).rstrip(b"\0") == b"__TEXT":
            fileoff, filesize = struct.unpack_from("<QQ", buf, off + 40)
            text = (fileoff, filesize, 1 if filetype == 2 else 0)
        if cmdsize < 8:
            raise SystemExit("adhoc_resign: malformed load command")
        off += cmdsize
    if sig is None:
        return False
    dataoff, datasize = sig
    sb = base + dataoff
    if not any(buf[sb:sb + datasize]):
        write_fresh(buf, base, dataoff, datasize, text)
    smagic, slen, count = struct.unpack_from(">III", buf, sb)
    if smagic != 0xFADE0CC0 or slen > datasize:
        raise SystemExit("adhoc_resign: no embedded-signature SuperBlob")
    blobs = {}
    for i in range(count):
        btype, boff = struct.unpack_from(">II", buf, sb + 12 + 8 * i)
        blen = struct.unpack_from(">I", buf, sb + boff + 4)[0]
        blobs[btype] = (sb + boff, blen)
    for btype, (cd, _) in blobs.items():
        if not (btype == 0 or 0x1000 <= btype < 0x1005):
            continue
        if struct.unpack_from(">I", buf, cd)[0] != 0xFADE0C02:
            continue
        (version, _flags, hash_off, _ident, nspecial, ncode, limit, hsize, htype, _plat,
         pshift) = struct.unpack_from(">IIIIIIIBBBB", buf, cd + 8)
        if version >= 0x20300:
            limit64 = struct.unpack_from(">Q", buf, cd + 56)[0]
            limit = limit64 or limit
        page = 1 << pshift if pshift else limit
        for i in range(ncode):
            start = base + i * page
            stop = base + min((i + 1) * page, limit)
            h = digest(htype, bytes(buf[start:stop]))
            buf[cd + hash_off + i * hsize:cd + hash_off + (i + 1) * hsize] = h
        for slot in (2, 5, 7):
            if slot <= nspecial and slot in blobs:
                at, blen = blobs[slot]
                pos = cd + hash_off - slot * hsize
                buf[pos:pos + hsize] = digest(htype, bytes(buf[at:at + blen]))
    return True


def main(paths):
    status = 0
    global NAME
    for path in paths:
        NAME = os.path.basename(path)
        with open(path, "rb") as f:
            buf = bytearray(f.read())
        magic = struct.unpack_from(">I", buf, 0)[0]
        if magic in (0xCAFEBABE, 0xCAFEBABF):
            n = struct.unpack_from(">I", buf, 4)[0]
            slices = []
            for i in range(n):
                if magic == 0xCAFEBABE:
                    _, _, o, s, _ = struct.unpack_from(">IIIII", buf, 8 + 20 * i)
                else:
                    _, _, o, s, _, _ = struct.unpack_from(">IIQQII", buf, 8 + 32 * i)
                slices.append((o, s))
        else:
            slices = [(0, len(buf))]
        signed = [resign_slice(buf, o, s) for o, s in slices]
        if not any(signed):
            print(f"adhoc_resign: {path}: no slice has LC_CODE_SIGNATURE", file=sys.stderr)
            status = 1
        with open(path, "r+b") as f:
            f.write(buf)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
