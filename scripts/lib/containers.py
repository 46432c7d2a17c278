#!/usr/bin/env python3
"""Write model containers shaped like the real ones, for tests and fuzz seeds.

  containers.py pt2 OUT.pt2 [--deflated|--zipfile] [--zip64] NAME=FILE...
      An AOTInductor package as torch.export.pt2_archive writes it through
      PyTorchStreamWriter (pytorch/pytorch: caffe2/serialize/
      inline_container.cc): every record under "<archive name>/", stored,
      its data 64-byte aligned by an "FB" extra field in the local header
      only, "archive_format" = "pt2" and "archive_version" = "0"
      (torch/csrc/export/pt2_archive_constants.h), then ".data/version",
      "byteorder" and ".data/serialization_id", and the zip64 end records
      miniz writes under MZ_ZIP_FLAG_WRITE_ZIP64. NAME is the record name
      (e.g. data/aotinductor/model/model.wrapper.so); weights and metadata
      records are added beside it. --deflated writes the same records
      deflated (a wheel's way) with Python's zipfile; --zipfile stored but
      without the alignment padding; --zip64 adds zip64 extra fields to
      every entry as well.

  containers.py pte OUT.pte [--offset N] FILE
      An ExecuTorch program shaped as exir/_serialize/_program.py
      serialize_pte_binary lays it out (pytorch/executorch): a flatbuffer
      head (root offset, "ET12"), the 32-byte "eh00" extended header
      (program size, segment base offset, segment data size), segments
      after the program aligned to 128, the first a constant segment of
      odd length. FILE is the named-data blob "forward_so_blob"
      (backends/aoti/aoti_backend.py). The real serializer aligns every
      segment to 128; --offset N (default 13) places the library N bytes
      past that boundary, so the scan is shown to need no alignment.
"""
import os
import struct
import sys
import zipfile
import zlib


def _local(name, data, crc, extra, zip64):
    size = 0xFFFFFFFF if zip64 else len(data)
    if zip64:
        extra = struct.pack("<HHQQ", 1, 16, len(data), len(data)) + extra
    return struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0, 0, 0, 0, crc, size,
                       size, len(name), len(extra)) + name + extra


def _central(name, data, crc, offset, zip64):
    extra = b""
    size, off = len(data), offset
    if zip64:
        extra = struct.pack("<HHQQQ", 1, 24, len(data), len(data), offset)
        size, off = 0xFFFFFFFF, 0xFFFFFFFF
    return struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45, 45, 0, 0, 0, 0,
                       crc, size, size, len(name), len(extra), 0, 0, 0, 0,
                       off) + name + extra


def write_stream_writer_zip(out, records, zip64_entries):
    """PyTorchStreamWriter's layout: stored, 64-byte aligned, zip64 end."""
    blob, central = bytearray(), bytearray()
    for name, data in records:
        name = name.encode()
        crc = zlib.crc32(data)
        # getPadding(): data must start on a 64-byte boundary; the "FB"
        # field itself takes 4 bytes.
        start = len(blob) + 30 + len(name) + 4 + (20 if zip64_entries else 0)
        pad = (64 - start % 64) % 64
        extra = b"FB" + struct.pack("<H", pad) + b"Z" * pad
        offset = len(blob)
        blob += _local(name, data, crc, extra, zip64_entries) + data
        assert (len(blob) - len(data)) % 64 == 0
        central += _central(name, data, crc, offset, zip64_entries)
    dir_offset, n = len(blob), len(records)
    blob += central
    end64 = len(blob)
    blob += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, n, n,
                        len(central), dir_offset)
    blob += struct.pack("<IIQI", 0x07064B50, 0, end64, 1)
    # miniz fills the classic record with whatever fits (MZ_MIN).
    blob += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, min(n, 0xFFFF),
                        min(n, 0xFFFF), min(len(central), 0xFFFFFFFF),
                        min(dir_offset, 0xFFFFFFFF), 0)
    with open(out, "wb") as f:
        f.write(blob)


def pt2(args):
    out, mode, zip64, members = args[0], "stream", False, []
    for a in args[1:]:
        if a == "--deflated":
            mode = "deflated"
        elif a == "--zipfile":
            mode = "zipfile"
        elif a == "--zip64":
            zip64 = True
        else:
            name, path = a.split("=", 1)
            with open(path, "rb") as f:
                members.append((name, f.read()))
    root = os.path.splitext(os.path.basename(out))[0]
    records = [("archive_format", b"pt2"), ("archive_version", b"0")]
    for name, data in members:
        records.append((name, data))
        stem = name.rsplit(".", 1)[0]
        records.append((stem + ".cpp", b"// AOTInductor wrapper source\n"))
        records.append((stem + "_metadata.json", b'{"AOTI_DEVICE_KEY": "mps"}'))
    records.append(("data/weights/weight_0", os.urandom(4097)))
    records += [(".data/version", b"6\n"), ("byteorder", b"little"),
                (".data/serialization_id", b"0" * 40)]
    records = [(root + "/" + n, d) for n, d in records]
    if mode == "stream":
        write_stream_writer_zip(out, records, zip64)
        return
    method = zipfile.ZIP_DEFLATED if mode == "deflated" else zipfile.ZIP_STORED
    with zipfile.ZipFile(out, "w", method) as z:
        for name, data in records:
            z.writestr(name, data)


def pte(args):
    offset, rest = 13, []
    it = iter(args[1:])
    for a in it:
        if a == "--offset":
            offset = int(next(it))
        else:
            rest.append(a)
    with open(rest[0], "rb") as f:
        library = f.read()
    # The flatbuffer: root offset, file identifier, the extended header
    # inserted after the identifier, then tables (here, opaque bytes naming
    # the named data, as a real program's would).
    body = b"forward_so_blob\0forward_weights_blob\0" + os.urandom(501)
    constants = os.urandom(77)  # a constant segment of odd length
    program_size = 8 + 32 + len(body)
    base = (program_size + 127) // 128 * 128
    second = (len(constants) + 127) // 128 * 128 + offset
    segments = constants + b"\0" * (second - len(constants)) + library
    head = struct.pack("<I4s", 8 + 32 + 16, b"ET12")
    header = struct.pack("<4sIQQQ", b"eh00", 32, program_size, base,
                         len(segments))
    program = head + header + body
    data = program + b"\0" * (base - len(program)) + segments
    with open(args[0], "wb") as f:
        f.write(data)
    print(base + second)  # where the library starts


if __name__ == "__main__":
    {"pt2": pt2, "pte": pte}[sys.argv[1]](sys.argv[2:])
