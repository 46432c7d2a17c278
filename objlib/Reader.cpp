//===- Reader.cpp - open a file and hand it to its format's reader --------===//
//
// The factory: decides Unreadable (the file cannot be read at all) versus
// Malformed (it can, but is not a valid object) versus Unsupported (a valid
// file of a kind linkguard does not inspect, such as an archive), then
// dispatches universal Mach-O (every slice), thin Mach-O and ELF, as
// llvm-readobj's createDumper does.
//
//===----------------------------------------------------------------------===//
#include "objlib/Reader.h"
#include "objlib/FormatReaders.h"

#include "llvm/Object/Archive.h"
#include "llvm/Object/Binary.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/MachO.h"
#include "llvm/Object/MachOUniversal.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace llvm::object;

namespace linkguard::objlib {

char ReadError::ID = 0;

namespace {

Error unreadable(const std::string &Path, const Twine &Why) {
  return makeReadError(ReadErrorKind::Unreadable, Path + ": " + Why);
}

Error malformed(const std::string &Path, const Twine &Why) {
  return makeReadError(ReadErrorKind::Malformed, Path + ": " + Why);
}

Expected<std::unique_ptr<MemoryBuffer>> openFile(const std::string &Path) {
  sys::fs::file_status Status;
  if (std::error_code EC = sys::fs::status(Path, Status))
    return unreadable(Path, EC.message());
  if (Status.type() == sys::fs::file_type::directory_file)
    return unreadable(Path, "is a directory");
  if (Status.type() != sys::fs::file_type::regular_file &&
      Status.type() != sys::fs::file_type::symlink_file)
    return unreadable(Path, "not a regular file");
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(
      Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf)
    return unreadable(Path, Buf.getError().message());
  return std::move(*Buf);
}

Error readUniversal(MachOUniversalBinary &Fat, BinaryInfo &Info) {
  for (const MachOUniversalBinary::ObjectForArch &Arch : Fat.objects()) {
    std::string ArchName = Arch.getArchFlagName();
    if (ArchName.empty())
      ArchName = "cputype " + std::to_string(Arch.getCPUType());
    Expected<std::unique_ptr<MachOObjectFile>> Obj = Arch.getAsObjectFile();
    if (!Obj) {
      std::string Msg = toString(Obj.takeError());
      // A slice holding an archive is valid, just not something we inspect.
      Expected<std::unique_ptr<Archive>> Ar = Arch.getAsArchive();
      if (Ar)
        return makeReadError(ReadErrorKind::Unsupported,
                             Info.Path + " (architecture " + ArchName +
                                 "): an archive, not a linked image");
      consumeError(Ar.takeError());
      return malformed(Info.Path,
                       "slice for architecture " + ArchName + ": " + Msg);
    }
    Expected<Slice> S = readMachOSlice(**Obj, Info.Path);
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

} // namespace

Expected<BinaryInfo> readBinary(const std::string &Path) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf = openFile(Path);
  if (!Buf)
    return Buf.takeError();
  return readBinary((*Buf)->getMemBufferRef(), Path);
}

Expected<BinaryInfo> readBinary(MemoryBufferRef Buffer, StringRef Name) {
  const std::string Path = Name.str();
  Expected<std::unique_ptr<Binary>> Bin = createBinary(Buffer);
  if (!Bin) {
    Error E = Bin.takeError();
    // createBinary reports "The file was not recognized as a valid object
    // file" through object_error::invalid_file_type.
    std::string Msg;
    bool NotObject = false;
    handleAllErrors(std::move(E), [&](const ErrorInfoBase &EI) {
      if (EI.convertToErrorCode() == object_error::invalid_file_type)
        NotObject = true;
      Msg = EI.message();
    });
    if (NotObject)
      return malformed(Path, "not an object file");
    return malformed(Path, Msg);
  }

  BinaryInfo Info;
  Info.Path = Path;
  Binary &B = **Bin;
  if (auto *Fat = dyn_cast<MachOUniversalBinary>(&B)) {
    Info.Fmt = Format::MachO;
    Info.Universal = true;
    if (Error E = readUniversal(*Fat, Info))
      return std::move(E);
    return Info;
  }
  if (auto *MachO = dyn_cast<MachOObjectFile>(&B)) {
    Info.Fmt = Format::MachO;
    Expected<Slice> S = readMachOSlice(*MachO, Path);
    if (!S)
      return S.takeError();
    Info.Slices.push_back(std::move(*S));
    return Info;
  }
  if (auto *ELF = dyn_cast<ELFObjectFileBase>(&B)) {
    Info.Fmt = Format::ELF;
    Expected<Slice> S = readELFFile(*ELF, Path);
    if (!S)
      return S.takeError();
    Info.Slices.push_back(std::move(*S));
    return Info;
  }
  if (isa<Archive>(&B))
    return makeReadError(ReadErrorKind::Unsupported,
                         Path + ": an archive, not a linked image");
  return makeReadError(ReadErrorKind::Unsupported,
                       Path + ": neither Mach-O nor ELF");
}

} // namespace linkguard::objlib
