//===- Buffers.cpp - aligned copies and anonymous spill files -------------===//
#include "package/Buffers.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

using namespace llvm;

namespace linkguard::package {

Expected<int> anonymousFile() {
  SmallString<128> Model;
  sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Model);
  sys::path::append(Model, "linkguard-member-%%%%%%%%");
  int FD = -1;
  SmallString<128> Path;
  if (std::error_code EC =
          sys::fs::createUniqueFile(Model, FD, Path, sys::fs::OF_None, 0600))
    return createStringError(EC, "cannot create a temporary file in " +
                                     sys::path::parent_path(Model) + ": " +
                                     EC.message());
  ::unlink(Path.c_str());
  return FD;
}

Expected<std::unique_ptr<MemoryBuffer>> mapAnonymousFile(int FD, uint64_t Size,
                                                         StringRef Name) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Mapped =
      MemoryBuffer::getOpenFile(sys::fs::convertFDToNativeFile(FD), Name, Size,
                                /*RequiresNullTerminator=*/false);
  if (!Mapped)
    return createStringError(Mapped.getError(),
                             "cannot map a temporary file: " +
                                 Mapped.getError().message());
  return std::move(*Mapped);
}

void releaseFilePages(StringRef Range) {
  const long Page = ::sysconf(_SC_PAGESIZE);
  if (Page <= 0)
    return;
  const auto P = static_cast<size_t>(Page);
  const size_t Skip =
      (P - reinterpret_cast<uintptr_t>(Range.data()) % P) % P; // to a page
  if (Range.size() <= Skip)
    return;
  const size_t Len = (Range.size() - Skip) / P * P; // whole pages only
  // On a private, unmodified file mapping MADV_DONTNEED only unmaps the
  // pages; the next access reads the file again (madvise(2)).
  if (Len > 0)
    ::madvise(const_cast<char *>(Range.data() + Skip), Len, MADV_DONTNEED);
}

Error writeAll(int FD, StringRef Data) {
  while (!Data.empty()) {
    ssize_t N = ::write(FD, Data.data(), Data.size());
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return createStringError(std::error_code(errno, std::generic_category()),
                               Twine("cannot write a temporary file: ") +
                                   std::strerror(errno));
    Data = Data.drop_front(static_cast<size_t>(N));
  }
  return Error::success();
}

Expected<std::unique_ptr<MemoryBuffer>>
alignedCopy(StringRef Data, StringRef Name, uint64_t InMemoryCap) {
  if (Data.size() <= InMemoryCap) {
    // WritableMemoryBuffer aligns its storage to 16 bytes.
    std::unique_ptr<WritableMemoryBuffer> B =
        WritableMemoryBuffer::getNewUninitMemBuffer(Data.size(), Name);
    if (!B)
      return createStringError(inconvertibleErrorCode(),
                               "cannot allocate " + Twine(Data.size()) +
                                   " bytes");
    if (!Data.empty())
      std::memcpy(B->getBufferStart(), Data.data(), Data.size());
    return std::move(B);
  }
  Expected<int> FD = anonymousFile();
  if (!FD)
    return FD.takeError();
  auto Close = make_scope_exit([&] { ::close(*FD); });
  if (Error E = writeAll(*FD, Data))
    return std::move(E);
  return mapAnonymousFile(*FD, Data.size(), Name);
}

} // namespace linkguard::package
