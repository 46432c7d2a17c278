//===- Reader.cpp - open an input and hand it to its format's reader ------===//
//
// The factory: decides Unreadable (the file cannot be read at all) versus
// Malformed (it can, but is not a valid object) versus Unsupported (a valid
// file of a kind linkguard does not inspect, such as an archive), then
// dispatches universal Mach-O (every slice), thin Mach-O and ELF, as
// llvm-readobj's createDumper does.
//
// The input is an Image (objlib/Image.h): before each libObject call that
// parses headers, the bytes that call reads are loaded, and nothing else.
// The format is told from the first bytes with identify_magic, the function
// createBinary itself uses; kinds other than Mach-O and ELF are reported
// without being parsed (an archive's members are never read). createBinary
// itself is not called: objlib/Universal.h says why.
//
//===----------------------------------------------------------------------===//
#include "objlib/Reader.h"
#include "objlib/FormatReaders.h"
#include "objlib/Image.h"
#include "objlib/Universal.h"

#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/MachO.h"
#include "llvm/Support/Endian.h"

using namespace llvm;
using namespace llvm::object;

namespace linkguard::objlib {

char ReadError::ID = 0;

namespace {

/// A universal file names each slice's architecture; no two may be the
/// same, so real files have a handful. libObject compares every pair.
constexpr uint32_t MaxFatArchs = 1024;

/// MachOObjectFile::create checks every section against every other one
/// for overlap: 20 000 sections take a second, 200 000 minutes. An nlist
/// can name only 255 sections, and linkers emit far fewer.
constexpr uint64_t MaxSections = 4096;

Error malformed(StringRef Path, const Twine &Why) {
  return makeReadError(ReadErrorKind::Malformed, Path + ": " + Why);
}

/// Loads a thin Mach-O header and its load commands: all that
/// MachOObjectFile::create reads (it checks the other offsets and sizes
/// against the file's size without reading what they point at). Refuses an
/// image with more sections than create() can check in reasonable time.
Error loadMachOHeaders(const SliceBytes &B, StringRef Path) {
  if (Error E = B.load(0, sizeof(MachO::mach_header_64)))
    return E;
  if (B.Size < sizeof(MachO::mach_header))
    return Error::success(); // create() says it is too small
  const uint8_t *P = B.data();
  uint32_t Magic = support::endian::read32le(P);
  bool Little = Magic == MachO::MH_MAGIC || Magic == MachO::MH_MAGIC_64;
  bool Is64 = Magic == MachO::MH_MAGIC_64 || Magic == MachO::MH_CIGAM_64;
  auto read32 = [&](uint64_t At) {
    return Little ? support::endian::read32le(B.data() + At)
                  : support::endian::read32be(B.data() + At);
  };
  uint64_t NCmds = read32(16), SizeOfCmds = read32(20);
  uint64_t HeaderSize =
      Is64 ? sizeof(MachO::mach_header_64) : sizeof(MachO::mach_header);
  if (Error E = B.load(0, HeaderSize + SizeOfCmds))
    return E;
  uint64_t End = std::min(B.Size, HeaderSize + SizeOfCmds), Sections = 0;
  uint64_t At = HeaderSize;
  for (uint64_t I = 0; I < NCmds && At + 8 <= End; ++I) {
    uint32_t Cmd = read32(At), CmdSize = read32(At + 4);
    if (Cmd == MachO::LC_SEGMENT_64 && At + 68 <= End)
      Sections += read32(At + 64);
    else if (Cmd == MachO::LC_SEGMENT && At + 52 <= End)
      Sections += read32(At + 48);
    if (CmdSize < 8)
      break; // create() reports it
    At += CmdSize;
  }
  if (Sections > MaxSections)
    return makeReadError(ReadErrorKind::Unsupported,
                         Path + ": " + Twine(Sections) +
                             " sections (linkguard reads images with up to " +
                             Twine(MaxSections) + ")");
  return Error::success();
}

/// The fat header and its fat_arch table, refusing before libObject what it
/// would mishandle: a table past the end of the file (its 32-bit size
/// arithmetic can wrap and read past the buffer) or so many slices that its
/// pairwise overlap check would not end.
Error loadFatHeaders(Image &Img) {
  if (Img.size() < sizeof(MachO::fat_header))
    return Error::success();
  const uint8_t *P = Img.data();
  uint32_t Magic = support::endian::read32be(P);
  uint64_t NFat = support::endian::read32be(P + 4);
  uint64_t ArchSize = Magic == MachO::FAT_MAGIC_64 ? sizeof(MachO::fat_arch_64)
                                                   : sizeof(MachO::fat_arch);
  uint64_t TableEnd = sizeof(MachO::fat_header) + NFat * ArchSize;
  if (TableEnd > Img.size())
    return malformed(Img.name(), "truncated or malformed fat file (" +
                                     Twine(NFat) +
                                     " fat_arch structs would extend past "
                                     "the end of the file)");
  if (NFat > MaxFatArchs)
    return malformed(Img.name(), "universal file claims " + Twine(NFat) +
                                     " architectures (at most " +
                                     Twine(MaxFatArchs) + " are read)");
  return Img.load(0, TableEnd);
}

/// The message of a factory's error. libObject reports a file it does not
/// recognize through object_error::invalid_file_type ("The file was not
/// recognized as a valid object file"): that is "not an object file".
std::string whyNotAnObject(Error E) {
  std::string Msg;
  bool NotObject = false;
  handleAllErrors(std::move(E), [&](const ErrorInfoBase &EI) {
    if (EI.convertToErrorCode() == object_error::invalid_file_type)
      NotObject = true;
    Msg = EI.message();
  });
  return NotObject ? "not an object file" : Msg;
}

Error readUniversal(Image &Img, BinaryInfo &Info, const ReadOptions &Options) {
  Expected<FatHeader> Fat = parseFatHeader(Img.buffer().getBuffer());
  if (!Fat)
    return malformed(Info.Path, whyNotAnObject(Fat.takeError()));
  for (uint32_t Index = 0; Index < Fat->Archs.size(); ++Index) {
    const FatArch &Arch = Fat->Archs[Index];
    std::string ArchName = fatArchName(Arch);
    if (ArchName.empty())
      ArchName = "cputype " + std::to_string(Arch.CpuType);
    // parseFatHeader checked that every slice lies inside the file.
    SliceBytes Bytes{&Img, Arch.Offset, Arch.Size};
    if (Error E = loadMachOHeaders(Bytes, Info.Path))
      return E;
    StringRef Start(reinterpret_cast<const char *>(Bytes.data()),
                    std::min<uint64_t>(Bytes.Size, 8));
    // A slice holding an archive is valid, just not something we inspect.
    if (identify_magic(Start) == file_magic::archive)
      return makeReadError(ReadErrorKind::Unsupported,
                           Info.Path + " (architecture " + ArchName +
                               "): an archive, not a linked image");
    Expected<std::unique_ptr<MachOObjectFile>> Obj =
        fatSliceObject(Img.buffer().getBuffer(), Img.name(), Arch, Index);
    if (!Obj)
      return malformed(Info.Path, "slice for architecture " + ArchName + ": " +
                                      toString(Obj.takeError()));
    Expected<Slice> S = readMachOSlice(**Obj, Bytes, Info.Path, Options);
    if (!S)
      return S.takeError();
    // Trust the fat header's arch name over the slice's own when they
    // disagree, but say so: lipo would not produce that.
    if (S->Arch != ArchName)
      S->Warnings.push_back("fat header says " + ArchName +
                            ", the slice's header says " + S->Arch);
    Info.Slices.push_back(std::move(*S));
  }
  if (Info.Slices.empty())
    return malformed(Info.Path, "universal file with no slices");
  return Error::success();
}

/// Loads what the format's factory reads, or says why not to call it.
Error loadHeaders(Image &Img, file_magic Magic) {
  if (Magic == file_magic::macho_universal_binary)
    return loadFatHeaders(Img);
  if (isMachOMagic(Magic))
    return loadMachOHeaders(SliceBytes{&Img, 0, Img.size()}, Img.name());
  if (isELFMagic(Magic))
    return loadELFHeaders(Img);
  if (Magic == file_magic::unknown)
    return malformed(Img.name(), "not an object file");
  if (Magic == file_magic::archive)
    return makeReadError(ReadErrorKind::Unsupported,
                         Img.name() + ": an archive, not a linked image");
  return makeReadError(ReadErrorKind::Unsupported,
                       Img.name() + ": neither Mach-O nor ELF");
}

Expected<BinaryInfo> readImage(Image &Img, const ReadOptions &Options) {
  const std::string &Path = Img.name();
  // identify_magic reads the first bytes (a PE header's offset can point
  // further); the first page costs the same one read.
  if (Error E = Img.load(0, 4096))
    return std::move(E);
  file_magic Magic = identify_magic(Img.buffer().getBuffer());
  if (Error E = loadHeaders(Img, Magic))
    return std::move(E);

  BinaryInfo Info;
  Info.Path = Path;
  if (Magic == file_magic::macho_universal_binary) {
    Info.Fmt = Format::MachO;
    Info.Universal = true;
    if (Error E = readUniversal(Img, Info, Options))
      return std::move(E);
    return Info;
  }
  Expected<std::unique_ptr<ObjectFile>> Obj =
      openObjectFile(Img.buffer(), Magic);
  if (!Obj)
    return malformed(Path, whyNotAnObject(Obj.takeError()));
  if (auto *MachO = dyn_cast<MachOObjectFile>(Obj->get())) {
    Info.Fmt = Format::MachO;
    Expected<Slice> S =
        readMachOSlice(*MachO, SliceBytes{&Img, 0, Img.size()}, Path, Options);
    if (!S)
      return S.takeError();
    Info.Slices.push_back(std::move(*S));
    return Info;
  }
  if (auto *ELF = dyn_cast<ELFObjectFileBase>(Obj->get())) {
    Info.Fmt = Format::ELF;
    if (Error E = loadELFTables(Img, *ELF, Options))
      return std::move(E);
    Expected<Slice> S = readELFFile(*ELF, Path, Options);
    if (!S)
      return S.takeError();
    Info.Slices.push_back(std::move(*S));
    return Info;
  }
  return makeReadError(ReadErrorKind::Unsupported,
                       Path + ": neither Mach-O nor ELF");
}

} // namespace

bool isBinaryMagic(file_magic M) {
  return M == file_magic::macho_universal_binary || isMachOMagic(M) ||
         isELFMagic(M);
}

Expected<BinaryInfo> readBinary(const std::string &Path,
                                const ReadOptions &Options) {
  Expected<std::unique_ptr<Image>> Img = Image::open(Path);
  if (!Img)
    return Img.takeError();
  return readImage(**Img, Options);
}

Expected<BinaryInfo> readBinary(int FD, const std::string &Path, const ReadOptions &Options) {
  Expected<std::unique_ptr<Image>> Img = Image::adopt(FD, Path);
  if (!Img)
    return Img.takeError();
  return readImage(**Img, Options);
}

Expected<BinaryInfo> readBinary(MemoryBufferRef Buffer, StringRef Name,
                                const ReadOptions &Options) {
  std::unique_ptr<Image> Img =
      Image::view(MemoryBufferRef(Buffer.getBuffer(), Name));
  return readImage(*Img, Options);
}

} // namespace linkguard::objlib
