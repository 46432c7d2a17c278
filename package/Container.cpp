//===- Container.cpp - walk a zip's members or a blob's embedded images ---===//
#include "package/Container.h"

#include "package/Buffers.h"
#include "package/Errors.h"
#include "package/Scan.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace linkguard::package {
namespace {

/// Enough for llvm::identify_magic to tell every object kind apart.
constexpr size_t HeadBytes = 64;

/// Reports each image scanForImages finds in Data (an aligned copy of it
/// when it sits at an odd offset). Returns how many were found.
Expected<size_t>
scanInto(StringRef Data, bool MappedFile, const Image &Where,
         const ContainerOptions &Opts,
         function_ref<void(const Image &)> OnImage,
         function_ref<void(const std::string &, Error)> OnError) {
  // A mapped file's pages behind the scan are dropped as it goes; an image
  // found is read again from the file when it is used.
  ScanResult R = scanForImages(Data, [&](uint64_t UpTo) {
    if (MappedFile)
      releaseFilePages(Data.take_front(UpTo));
  });
  for (const EmbeddedImage &E : R.Images) {
    Image I = Where;
    I.Name = embeddedName(Where.Name, E.Offset);
    I.Offset = E.Offset;
    StringRef Bytes = Data.substr(E.Offset, E.Size);
    std::unique_ptr<MemoryBuffer> Copy;
    if (!isImageAligned(Bytes)) {
      Expected<std::unique_ptr<MemoryBuffer>> C =
          alignedCopy(Bytes, I.Name, Opts.Limits.InMemoryCap);
      if (!C) {
        OnError(I.Name,
                malformedError(I.Name + ": " + toString(C.takeError())));
        continue;
      }
      Copy = std::move(*C);
      Bytes = Copy->getBuffer();
    }
    I.Data = MemoryBufferRef(Bytes, I.Name);
    OnImage(I);
  }
  if (R.Exhausted)
    return malformedError(Where.Name +
                          ": too many plausible image headers to validate "
                          "them all; scanning stopped after " +
                          Twine(R.Images.size()) + " images");
  return R.Images.size();
}

Error walkZip(MemoryBufferRef Bytes, bool MappedFile, const std::string &Path,
              const ContainerOptions &Opts,
              function_ref<void(const Image &)> OnImage,
              function_ref<void(const std::string &, Error)> OnError) {
  Expected<ZipArchive> Z =
      ZipArchive::open(Bytes, Path, Opts.Limits, MappedFile);
  if (!Z)
    return Z.takeError();
  size_t Found = 0, Failed = 0;
  // Bytes before the first entry (`cat lib.so pkg.whl`, a self-extractor):
  // a loader given the file maps them, zipfile and unzip skip them. Both
  // are judged: a binary there is the image FILE@0x0; with --scan, images
  // inside the prefix are found as in any blob.
  if (uint64_t Prefix = Z->prefixSize()) {
    StringRef Head = Bytes.getBuffer().take_front(Prefix);
    Image Whole{Path, Path, "", std::nullopt, MemoryBufferRef(Head, Path),
                nullptr};
    if (hasBinaryMagic(Head)) {
      Whole.Name = embeddedName(Path, 0);
      Whole.Offset = 0;
      std::unique_ptr<MemoryBuffer> Copy; // a file read into the heap
      if (!isImageAligned(Head)) {
        Expected<std::unique_ptr<MemoryBuffer>> C =
            alignedCopy(Head, Whole.Name, Opts.Limits.InMemoryCap);
        if (!C)
          return malformedError(Whole.Name + ": " + toString(C.takeError()));
        Copy = std::move(*C);
        Head = Copy->getBuffer();
      }
      Whole.Data = MemoryBufferRef(Head, Whole.Name);
      OnImage(Whole);
      ++Found;
    } else if (Opts.Scan) {
      Expected<size_t> N =
          scanInto(Head, MappedFile, Whole, Opts, OnImage, OnError);
      if (N) {
        Found += *N;
      } else {
        OnError(Path, N.takeError());
        ++Failed;
      }
    }
  }
  for (const ZipEntry &E : Z->entries()) {
    if (E.isDirectory())
      continue;
    Expected<std::string> Head = Z->peek(E, HeadBytes);
    if (!Head) { // encrypted, or a method we cannot undo: may be a binary
      OnError(Z->memberName(E), Head.takeError());
      ++Failed;
      continue;
    }
    bool IsBinary = hasBinaryMagic(*Head);
    if (!IsBinary && !Opts.Scan)
      continue; // metadata, weights, sources: not ours to judge
    Expected<MemberData> Data = Z->read(E);
    if (!Data) {
      OnError(Z->memberName(E), Data.takeError());
      ++Failed;
      continue;
    }
    Image I{Z->memberName(E), Path, E.Name, std::nullopt, Data->ref(), &*Z};
    if (IsBinary) {
      OnImage(I);
      ++Found;
    } else {
      // A stored member read in place is part of the mapped archive.
      StringRef In = Data->ref().getBuffer();
      bool InPlace = In.begin() >= Bytes.getBufferStart() &&
                     In.end() <= Bytes.getBufferEnd();
      Expected<size_t> N =
          scanInto(In, MappedFile && InPlace, I, Opts, OnImage, OnError);
      if (!N) {
        OnError(I.Name, N.takeError());
        ++Failed;
        continue;
      }
      Found += *N;
    }
  }
  if (Found == 0 && Failed == 0 && !Opts.EmptyIsFine)
    return unsupportedError(Path +
                            ": a zip archive with no Mach-O or ELF member" +
                            (Opts.Scan ? " (every member scanned)" : "") +
                            ", " + Twine(Z->entries().size()) + " entries");
  return Error::success();
}

} // namespace

InputKind classifyInput(const std::string &Path) {
  // Only a regular file is opened: reading a FIFO would take its data from
  // whoever else waits for it (objlib says "not a regular file").
  sys::fs::file_status Status;
  if (sys::fs::status(Path, Status) ||
      Status.type() != sys::fs::file_type::regular_file)
    return InputKind::Unreadable;
  Expected<sys::fs::file_t> F = sys::fs::openNativeFileForRead(Path);
  if (!F) {
    consumeError(F.takeError());
    return InputKind::Unreadable;
  }
  char Buf[HeadBytes];
  Expected<size_t> N =
      sys::fs::readNativeFile(*F, MutableArrayRef<char>(Buf, sizeof Buf));
  std::error_code Ignored = sys::fs::closeFile(*F); // read-only: no data lost
  (void)Ignored;
  if (!N) {
    consumeError(N.takeError());
    return InputKind::Unreadable;
  }
  StringRef Head(Buf, *N);
  if (looksLikeZip(Head))
    return InputKind::Zip;
  // A zip behind a prefix (`cat lib.so pkg.whl`) is a zip: zipfile, unzip
  // and pip read its members. Its end record is near the end of the file.
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> All = MemoryBuffer::getFile(
          Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
      All && endsWithZip((*All)->getBuffer()))
    return InputKind::Zip;
  if (hasBinaryMagic(Head))
    return InputKind::Binary;
  return InputKind::Other;
}

std::shared_ptr<uint64_t> treeBudget(const ZipLimits &Limits,
                                     const std::vector<std::string> &Files) {
  if (Limits.MaxTotalSize)
    return std::make_shared<uint64_t>(Limits.MaxTotalSize);
  uint64_t Bytes = 0;
  for (const std::string &F : Files) {
    uint64_t Size = 0;
    if (!sys::fs::file_size(F, Size))
      Bytes = Size > UINT64_MAX - Bytes ? UINT64_MAX : Bytes + Size;
  }
  return std::make_shared<uint64_t>(
      std::max(DefaultTotalInflated, Bytes > UINT64_MAX / TotalInflatedRatio
                                         ? UINT64_MAX
                                         : Bytes * TotalInflatedRatio));
}

std::string embeddedName(StringRef Container, uint64_t Offset) {
  return (Container + "@0x" + utohexstr(Offset, /*LowerCase=*/true)).str();
}

std::optional<ImageName> parseImageName(StringRef Arg) {
  for (size_t I = Arg.size(); I-- > 1;) {
    bool Member = Arg[I] == '!' || Arg[I] == '/';
    if (!Member && !Arg.substr(I).starts_with("@0x"))
      continue;
    StringRef Prefix = Arg.take_front(I);
    if (!sys::fs::is_regular_file(Prefix))
      continue;
    ImageName N;
    N.Container = Prefix.str();
    N.Name = Member ? (Prefix + "!" + Arg.drop_front(I + 1)).str() : Arg.str();
    N.Embedded = Arg.drop_front(I).contains("@0x");
    return N;
  }
  return std::nullopt;
}

Error forEachImage(const std::string &Path, const ContainerOptions &Opts,
                   function_ref<void(const Image &)> OnImage,
                   function_ref<void(const std::string &, Error)> OnError) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(
      Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf)
    return make_error<objlib::ReadError>(objlib::ReadErrorKind::Unreadable,
                                         Path + ": " +
                                             Buf.getError().message());
  MemoryBufferRef Bytes = (*Buf)->getMemBufferRef();
  bool Mapped = (*Buf)->getBufferKind() == MemoryBuffer::MemoryBuffer_MMap;
  if (looksLikeZip(Bytes.getBuffer()) || endsWithZip(Bytes.getBuffer()))
    return walkZip(Bytes, Mapped, Path, Opts, OnImage, OnError);
  if (!Opts.Scan)
    return Opts.EmptyIsFine ? Error::success()
                            : unsupportedError(Path + ": neither a binary nor a zip archive");
  Image Whole{Path, Path, "", std::nullopt, Bytes, nullptr};
  Expected<size_t> N =
      scanInto(Bytes.getBuffer(), Mapped, Whole, Opts, OnImage, OnError);
  if (!N)
    return N.takeError();
  if (*N == 0 && !Opts.EmptyIsFine)
    return unsupportedError(Path + ": no Mach-O or ELF image found in " +
                            Twine(Bytes.getBufferSize()) + " bytes");
  return Error::success();
}

} // namespace linkguard::package
