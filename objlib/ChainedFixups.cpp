//===- ChainedFixups.cpp - the import table of LC_DYLD_CHAINED_FIXUPS -----===//
//
// LC_DYLD_CHAINED_FIXUPS points at a blob in __LINKEDIT: a
// dyld_chained_fixups_header, the chain starts per segment, an array of
// imports_count imports (4, 8 or 16 bytes each: library ordinal, weak flag,
// offset of the name in the symbol pool) and the symbol pool. dyld resolves
// every import at load time, used by a chain or not, so the import table
// alone decides attribution.
//
// It is decoded here rather than with libObject's
// getDyldChainedFixupTargets(), which builds a vector of imports_count
// entries before looking at any of them: a header claiming 2^26 imports in
// a sparse file cost 8 GB and 80 s, 2^28 aborted on out-of-memory (issue
// 12). Here every count is first bounded by the blob it lives in (the blob
// itself lies inside the file: MachOObjectFile::create checked), nothing is
// allocated per import, the array is streamed through in windows that are
// released again, and names go through the image's NameReader budget. The
// rules are dyld's (MachOAnalyzer::forEachChainedFixupTarget and
// validChainedFixupsInfo in dyld3): ordinals above 0xF0 (0xFFF0 for
// DYLD_CHAINED_IMPORT_ADDEND64) are the negative special ordinals, and a
// name offset must lie inside the pool. The chains in the data pages are not
// walked: they only say where each import is used.
//
//===----------------------------------------------------------------------===//
#include "objlib/MachOImports.h"

#include "llvm/BinaryFormat/MachO.h"
#include "llvm/Object/MachO.h"
#include "llvm/Support/Endian.h"

using namespace llvm;
using namespace llvm::object;

namespace linkguard::objlib {
namespace {

/// Imports are read this many bytes at a time, then released.
constexpr uint64_t Window = uint64_t(256) << 10;

struct RawImport {
  int Ordinal;
  bool Weak;
  uint32_t NameOffset;
};

RawImport decodeImport(const uint8_t *P, uint32_t Format) {
  using namespace support::endian;
  if (Format == MachO::DYLD_CHAINED_IMPORT_ADDEND64) {
    // lib_ordinal:16, weak_import:1, reserved:15, name_offset:32; addend.
    uint64_t Raw = read64le(P);
    uint16_t Lib = Raw & 0xFFFF;
    return {Lib > 0xFFF0 ? int(int16_t(Lib)) : int(Lib), bool((Raw >> 16) & 1),
            uint32_t(Raw >> 32)};
  }
  // DYLD_CHAINED_IMPORT(_ADDEND): lib_ordinal:8, weak_import:1,
  // name_offset:23 (then a 32-bit addend).
  uint32_t Raw = read32le(P);
  uint8_t Lib = Raw & 0xFF;
  return {Lib > 0xF0 ? int(int8_t(Lib)) : int(Lib), bool((Raw >> 8) & 1),
          Raw >> 9};
}

class ChainedImports {
public:
  ChainedImports(const SliceBytes &B, NameReader &Names, ImportSink &Sink,
                 Slice &S)
      : B(B), Names(Names), Sink(Sink), S(S) {}

  Error read(uint64_t DataOff, uint64_t DataSize, uint64_t Segments);

private:
  void damaged(const Twine &Why) {
    S.Warnings.push_back("LC_DYLD_CHAINED_FIXUPS: " + Why.str());
    Sink.Incomplete = true;
  }
  Error checkStarts(const MachO::dyld_chained_fixups_header &H,
                    uint64_t Segments);
  Error readImports(const MachO::dyld_chained_fixups_header &H,
                    uint64_t ImportSize);

  const SliceBytes &B;
  NameReader &Names;
  ImportSink &Sink;
  Slice &S;
  uint64_t Off = 0, Size = 0; // the blob, relative to the slice
};

/// The chain starts are not needed for imports; their layout is checked so
/// that damage there is still reported, and, as with any damage to the
/// blob, answers become unknown (dyld would refuse the image). dyld requires
/// one entry per segment, which bounds the walk.
Error ChainedImports::checkStarts(const MachO::dyld_chained_fixups_header &H,
                                  uint64_t Segments) {
  using namespace support::endian;
  auto warn = [&](const Twine &Why) { damaged("chain starts: " + Why); };
  const uint64_t Starts = H.starts_offset;
  if (Starts > Size || Size - Starts < 4) {
    warn("past the end of the data");
    return Error::success();
  }
  if (Error E = B.load(Off + Starts, 4))
    return E;
  const uint8_t *Blob = B.data() + Off;
  uint64_t SegCount = read32le(Blob + Starts);
  if (SegCount > Segments || SegCount > (Size - Starts - 4) / 4) {
    warn(Twine(SegCount) + " segments, the image has " + Twine(Segments));
    return Error::success();
  }
  if (Error E = B.load(Off + Starts + 4, 4 * SegCount))
    return E;
  for (uint64_t I = 0; I < SegCount; ++I) {
    uint64_t At = Starts + read32le(Blob + Starts + 4 + 4 * I);
    if (At == Starts)
      continue; // no fixups in this segment
    // dyld_chained_starts_in_segment: size, page_size, pointer_format,
    // segment_offset, max_valid_pointer, page_count, page_start[].
    const uint64_t Fixed = 22;
    if (At > Size || Size - At < Fixed) {
      warn("segment " + Twine(I) + "'s entry is past the end of the data");
      return Error::success();
    }
    if (Error E = B.load(Off + At, Fixed))
      return E;
    uint16_t Format = read16le(Blob + At + 6);
    uint64_t PageCount = read16le(Blob + At + 20);
    if (Fixed + 2 * PageCount > Size - At || Format < 1 || Format > 13) {
      warn("segment " + Twine(I) + "'s entry is damaged (pointer format " +
           Twine(Format) + ", " + Twine(PageCount) + " pages)");
      return Error::success();
    }
  }
  return Error::success();
}

Error ChainedImports::readImports(const MachO::dyld_chained_fixups_header &H,
                                  uint64_t ImportSize) {
  const uint64_t Count = H.imports_count, First = Off + H.imports_offset;
  const uint64_t Pool = Off + H.symbols_offset, PoolEnd = Off + Size;
  bool HaveLast = false;
  uint64_t LastRaw = 0, ReleaseFrom = First;
  unsigned BadNames = 0;
  for (uint64_t WindowStart = 0; WindowStart < Count;) {
    uint64_t N = std::min(Count - WindowStart, Window / ImportSize);
    uint64_t At = First + WindowStart * ImportSize;
    if (Error E = B.load(At, N * ImportSize))
      return E;
    const uint8_t *Base = B.data() + At;
    for (uint64_t I = 0; I < N; ++I) {
      const uint8_t *P = Base + I * ImportSize;
      // The same import again (a sparse or padded table): nothing new.
      uint64_t Raw = ImportSize == 4 ? support::endian::read32le(P)
                                     : support::endian::read64le(P);
      if (HaveLast && Raw == LastRaw)
        continue;
      HaveLast = true, LastRaw = Raw;
      RawImport Imp = decodeImport(P, H.imports_format);
      if (Imp.NameOffset >= PoolEnd - Pool) {
        if (++BadNames == 1)
          damaged("import " + Twine(WindowStart + I) + ": name offset " +
                  Twine(Imp.NameOffset) + " is past the symbol pool");
        continue;
      }
      Expected<StringRef> Name = Names.read(Pool + Imp.NameOffset, PoolEnd);
      if (!Name)
        return Name.takeError();
      if (Names.spent()) {
        damaged("the import names are more than the file can hold; "
                "stopped at import " +
                Twine(WindowStart + I));
        return Error::success();
      }
      if (Imp.Ordinal == MachO::BIND_SPECIAL_DYLIB_WEAK_LOOKUP) {
        Sink.addWeakLookup(*Name, BindSource::ChainedFixup);
        continue;
      }
      Sink.addBound(Imp.Ordinal, *Name, BindSource::ChainedFixup, Imp.Weak);
    }
    B.releaseRead(ReleaseFrom, At + N * ImportSize);
    WindowStart += N;
  }
  if (BadNames > 1)
    S.Warnings.push_back("LC_DYLD_CHAINED_FIXUPS: " + std::to_string(BadNames) +
                         " imports have a name past the symbol pool");
  return Error::success();
}

Error ChainedImports::read(uint64_t DataOff, uint64_t DataSize,
                           uint64_t Segments) {
  Off = DataOff, Size = DataSize;
  MachO::dyld_chained_fixups_header H;
  if (Size < sizeof(H)) {
    damaged("the header extends past the data (" + Twine(Size) + " bytes)");
    return Error::success();
  }
  if (Error E = B.load(Off, sizeof(H)))
    return E;
  std::memcpy(&H, B.data() + Off, sizeof(H));
  if (!sys::IsLittleEndianHost)
    MachO::swapStruct(H);
  if (H.fixups_version != 0) {
    damaged("unknown version " + Twine(H.fixups_version));
    return Error::success();
  }
  uint64_t ImportSize =
      H.imports_format == MachO::DYLD_CHAINED_IMPORT            ? 4
      : H.imports_format == MachO::DYLD_CHAINED_IMPORT_ADDEND   ? 8
      : H.imports_format == MachO::DYLD_CHAINED_IMPORT_ADDEND64 ? 16
                                                                : 0;
  if (ImportSize == 0) {
    damaged("unknown imports format " + Twine(H.imports_format));
    return Error::success();
  }
  if (H.symbols_format != 0) {
    damaged("compressed symbol pool (format " + Twine(H.symbols_format) +
            ") is not supported");
    return Error::success();
  }
  // Every count is bounded by the bytes that hold it before it is used.
  if (H.starts_offset < sizeof(H) || H.imports_offset < sizeof(H) ||
      H.imports_offset > H.symbols_offset || H.symbols_offset > Size ||
      H.imports_count > (H.symbols_offset - H.imports_offset) / ImportSize) {
    damaged("imports (" + Twine(H.imports_count) + " at " +
            Twine(H.imports_offset) + ", names at " + Twine(H.symbols_offset) +
            ") do not fit in its " + Twine(Size) + " bytes");
    return Error::success();
  }
  if (Error E = checkStarts(H, Segments))
    return E;
  return readImports(H, ImportSize);
}

} // namespace

Error readChainedFixups(const MachOObjectFile &Obj, const SliceBytes &Bytes,
                        NameReader &Names, ImportSink &Sink, Slice &S,
                        bool &Chained) {
  Expected<std::optional<MachO::linkedit_data_command>> Cmd =
      Obj.getChainedFixupsLoadCommand();
  if (!Cmd) {
    S.Warnings.push_back("LC_DYLD_CHAINED_FIXUPS: " +
                         toString(Cmd.takeError()));
    Sink.Incomplete = true;
    Chained = true;
    return Error::success();
  }
  std::optional<MachO::linkedit_data_command> LC = *Cmd;
  if (!LC)
    return Error::success();
  Chained = true;
  // MachOObjectFile::create checked dataoff + datasize against the file.
  uint64_t DataOff = LC->dataoff, DataSize = LC->datasize;
  if (DataOff > Bytes.Size || DataSize > Bytes.Size - DataOff) {
    S.Warnings.push_back("LC_DYLD_CHAINED_FIXUPS: data extends past the file");
    Sink.Incomplete = true;
    return Error::success();
  }
  uint64_t Segments = 0;
  for (const MachOObjectFile::LoadCommandInfo &Load : Obj.load_commands())
    Segments +=
        Load.C.cmd == MachO::LC_SEGMENT || Load.C.cmd == MachO::LC_SEGMENT_64;
  return ChainedImports(Bytes, Names, Sink, S)
      .read(DataOff, DataSize, Segments);
}

} // namespace linkguard::objlib
