//===- Image.cpp - one open, a zero-filled mapping, pread on demand -------===//
#include "objlib/Image.h"
#include "objlib/Reader.h"

#include "llvm/Support/MathExtras.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

using namespace llvm;

namespace linkguard::objlib {
namespace {

constexpr uint64_t PageSize = 4096;

/// The mapping the last Image of a file on this thread gave back (Image.h),
/// all zero; a file larger than it gets a mapping of its own.
struct Spare {
  char *Base = nullptr;
  uint64_t Size = 0;
  uint64_t Kept = 0; // bytes of it cleared by memset: resident zero pages
  Spare() = default;
  Spare(const Spare &) = delete;
  Spare &operator=(const Spare &) = delete;
  ~Spare() {
    if (Base)
      ::munmap(Base, Size);
  }
};
thread_local Spare TheSpare;

/// What a given-back mapping may hold as resident zero pages (cleared by
/// memset rather than given to the kernel): the peak RSS a tree's check
/// pays for not faulting them again.
constexpr uint64_t MaxKept = 4 << 20;

Error unreadable(const std::string &Path, const Twine &Why) {
  return make_error<ReadError>(ReadErrorKind::Unreadable,
                               (Path + ": " + Why).str());
}

std::string errnoMessage(int Errno) {
  return std::error_code(Errno, std::generic_category()).message();
}

} // namespace

Expected<std::unique_ptr<Image>> Image::open(const std::string &Path) {
  // A file that is not regular is never opened (flags/BoundedRead.h):
  // opening a FIFO wakes a writer blocked in its open, which then dies of
  // SIGPIPE when it is closed unread; opening a device can act on it.
  struct stat St;
  if (::stat(Path.c_str(), &St) == 0) {
    if (S_ISDIR(St.st_mode))
      return unreadable(Path, "is a directory");
    if (!S_ISREG(St.st_mode))
      return unreadable(Path, "not a regular file");
  }
  // O_NONBLOCK: a FIFO swapped in since the stat would otherwise block here
  // before fstat could say it is not a regular file. It changes nothing for
  // regular files.
  int FD = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (FD < 0)
    return unreadable(Path, errnoMessage(errno));
  return adopt(FD, Path);
}

Expected<std::unique_ptr<Image>> Image::adopt(int FD, const std::string &Path) {
  struct stat St;
  std::unique_ptr<Image> I(new Image());
  I->FD = FD;
  I->Name = Path;
  if (::fstat(FD, &St) != 0)
    return unreadable(Path, errnoMessage(errno));
  if (S_ISDIR(St.st_mode))
    return unreadable(Path, "is a directory");
  if (!S_ISREG(St.st_mode))
    return unreadable(Path, "not a regular file");
  I->Size = static_cast<uint64_t>(St.st_size);
  if (I->Size == 0)
    return std::move(I);
  if (TheSpare.Base && TheSpare.Size >= I->Size) {
    // The last Image's mapping, zero again (giveBack).
    I->Base = TheSpare.Base;
    I->Reserved = TheSpare.Size;
    I->Kept = TheSpare.Kept;
    TheSpare.Base = nullptr;
    TheSpare.Size = TheSpare.Kept = 0;
    return std::move(I);
  }
  // MAP_NORESERVE: address space only; the kernel hands out zero pages as
  // they are written, so a sparse 1 GB file costs what is read of it.
  void *P = ::mmap(nullptr, I->Size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (P == MAP_FAILED)
    return unreadable(Path,
                      "cannot reserve " + Twine(I->Size) +
                          " bytes of address space: " + errnoMessage(errno));
  I->Base = static_cast<char *>(P);
  I->Reserved = I->Size;
  return std::move(I);
}

std::unique_ptr<Image> Image::view(MemoryBufferRef Buffer) {
  std::unique_ptr<Image> I(new Image());
  I->Base = const_cast<char *>(Buffer.getBufferStart());
  I->Size = Buffer.getBufferSize();
  I->Name = Buffer.getBufferIdentifier().str();
  return I;
}

Image::~Image() {
  if (FD < 0)
    return;
  if (Base)
    giveBack();
  ::close(FD);
}

void Image::giveBack() {
  uint64_t Bytes = 0;
  for (const auto &[B, E] : Written)
    Bytes += E - B;
  // An Image that gave pages back (release: streamed tables) would fault
  // them in again to clear them: the kernel clears it instead.
  if (!Released && Kept + Bytes <= MaxKept) {
    // Few bytes: clearing them keeps their pages, which the next Image
    // then writes without a fault.
    for (const auto &[B, E] : Written)
      std::memset(Base + B, 0, E - B);
    Kept += Bytes;
  } else {
    ::madvise(Base, Reserved, MADV_DONTNEED); // zero pages again, none resident
    Kept = 0;
  }
  if (TheSpare.Base && TheSpare.Size >= Reserved) {
    ::munmap(Base, Reserved); // the spare serves more files
    return;
  }
  if (TheSpare.Base)
    ::munmap(TheSpare.Base, TheSpare.Size);
  TheSpare.Base = Base;
  TheSpare.Size = Reserved;
  TheSpare.Kept = Kept;
}

MemoryBufferRef Image::buffer() const { return {StringRef(Base, Size), Name}; }

Error Image::readPages(uint64_t Begin, uint64_t End) {
  uint64_t At = Begin;
  while (At < End) {
    ssize_t N = ::pread(FD, Base + At, End - At, static_cast<off_t>(At));
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      return unreadable(Name, "read at offset " + Twine(At) + ": " +
                                  errnoMessage(errno));
    if (N == 0)
      return unreadable(Name, "the file shrank to " + Twine(At) +
                                  " bytes while it was being read (it had " +
                                  Twine(Size) + ")");
    if (!Written.empty() && Written.back().second == At)
      Written.back().second = At + static_cast<uint64_t>(N);
    else
      Written.emplace_back(At, At + static_cast<uint64_t>(N));
    At += static_cast<uint64_t>(N);
  }
  return Error::success();
}

Error Image::load(uint64_t Offset, uint64_t Length) {
  if (FD < 0 || Offset >= Size || Length == 0)
    return Error::success();
  uint64_t End = Offset + std::min(Length, Size - Offset);
  if (Offset >= HitBegin && End <= HitEnd)
    return Error::success(); // names read one after the other
  uint64_t Begin = alignDown(Offset, PageSize);
  End = std::min(alignTo(End, PageSize), Size);
  // Read the gaps between the runs already loaded, then merge [Begin, End)
  // and every run it touches into one.
  auto It = Loaded.upper_bound(Begin);
  if (It != Loaded.begin() && std::prev(It)->second >= Begin) {
    --It;
    if (It->second >= End) {
      HitBegin = It->first, HitEnd = It->second;
      return Error::success();
    }
  }
  uint64_t At = Begin, NewBegin = Begin, NewEnd = End;
  while (It != Loaded.end() && It->first <= End) {
    if (It->first > At)
      if (Error E = readPages(At, It->first))
        return E;
    At = std::max(At, It->second);
    NewBegin = std::min(NewBegin, It->first);
    NewEnd = std::max(NewEnd, It->second);
    It = Loaded.erase(It);
  }
  if (At < End)
    if (Error E = readPages(At, End)) {
      Loaded.emplace(NewBegin, At); // what was read stays valid
      return E;
    }
  Loaded.emplace(NewBegin, NewEnd);
  HitBegin = NewBegin, HitEnd = NewEnd;
  return Error::success();
}

void Image::release(uint64_t Offset, uint64_t Length) {
  if (FD < 0 || Offset >= Size)
    return;
  uint64_t Begin = alignTo(Offset, PageSize);
  uint64_t End = alignDown(Offset + std::min(Length, Size - Offset), PageSize);
  if (Begin >= End)
    return;
  // MADV_DONTNEED on a private anonymous mapping: the pages are freed and
  // read as zero afterwards.
  ::madvise(Base + Begin, End - Begin, MADV_DONTNEED);
  Released = true;
  HitBegin = HitEnd = 0;
  auto It = Loaded.upper_bound(Begin);
  if (It != Loaded.begin())
    --It;
  while (It != Loaded.end() && It->first < End) {
    uint64_t RunBegin = It->first, RunEnd = It->second;
    if (RunEnd <= Begin) {
      ++It;
      continue;
    }
    It = Loaded.erase(It);
    if (RunBegin < Begin)
      Loaded.emplace(RunBegin, Begin);
    if (RunEnd > End)
      It = Loaded.emplace(End, RunEnd).first;
  }
}

} // namespace linkguard::objlib
