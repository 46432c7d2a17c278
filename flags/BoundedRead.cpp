//===- BoundedRead.cpp - stat, open, fstat, pread -------------------------===//
#include "flags/BoundedRead.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace linkguard::flags {

namespace {

struct FileKind {
  mode_t Type; // an S_IFMT value
  const char *Name;
};
constexpr FileKind FileKinds[] = {
    {S_IFDIR, "a directory"},        {S_IFIFO, "a pipe or FIFO"},
    {S_IFCHR, "a character device"}, {S_IFBLK, "a block device"},
    {S_IFSOCK, "a socket"},          {S_IFLNK, "a symbolic link"},
    {S_IFREG, "a regular file"}};

} // namespace

const char *fileKindName(mode_t Mode) {
  for (const FileKind &K : FileKinds)
    if ((Mode & S_IFMT) == K.Type)
      return K.Name;
  return "not a regular file";
}

namespace {

bool isMissing(int Err) { return Err == ENOENT || Err == ENOTDIR; }

template <class File> File failed(File F, int Err) {
  F.Outcome = isMissing(Err) ? ReadOutcome::Missing : ReadOutcome::Failed;
  F.Reason = std::strerror(Err);
  return F;
}

/// Whether a stat already decides the outcome (false: go on reading).
template <class File> bool judged(File &F, size_t MaxBytes) {
  if (!S_ISREG(F.St.st_mode)) {
    F.Outcome = ReadOutcome::NotRegular;
    F.Reason = fileKindName(F.St.st_mode);
    return true;
  }
  if (static_cast<unsigned long long>(F.St.st_size) > MaxBytes) {
    F.Outcome = ReadOutcome::TooLarge;
    F.Reason = "larger than " + std::to_string(MaxBytes) + " bytes";
    return true;
  }
  return false;
}

/// pread from offset 0 up to MaxBytes + 1 bytes: one byte past the cap
/// tells a file that grew since fstat from one that is exactly MaxBytes.
/// Straight into the string, sized from fstat: no bounce buffer (64 KB of
/// stack is 16 fresh pages) and no copy.
template <class File> void readAll(int Fd, size_t MaxBytes, File &F) {
  const size_t Cap = MaxBytes + 1;
  F.Text.resize(std::min<size_t>(static_cast<size_t>(F.St.st_size) + 1, Cap));
  size_t Have = 0;
  while (Have < Cap) {
    if (Have == F.Text.size()) // it grew since fstat
      F.Text.resize(std::min(Cap, std::max<size_t>(2 * Have, 4096)));
    ssize_t N = ::pread(Fd, F.Text.data() + Have, F.Text.size() - Have,
                        static_cast<off_t>(Have));
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0) {
      F.Text.clear();
      F = failed(std::move(F), errno);
      F.Outcome = ReadOutcome::Failed;
      return;
    }
    if (N == 0)
      break;
    Have += static_cast<size_t>(N);
  }
  F.Text.resize(Have);
  if (F.Text.size() > MaxBytes) {
    F.Text.clear();
    F.Outcome = ReadOutcome::TooLarge;
    F.Reason = "larger than " + std::to_string(MaxBytes) + " bytes";
    return;
  }
  F.Outcome = ReadOutcome::Ok;
}

} // namespace

template <class TextT>
BasicBoundedFile<TextT> readBounded(int DirFd, const char *Name, size_t MaxBytes,
                                    bool NoFollow) {
  BasicBoundedFile<TextT> F;
  if (::fstatat(DirFd, Name, &F.St, NoFollow ? AT_SYMLINK_NOFOLLOW : 0) != 0)
    return failed(std::move(F), errno);
  if (judged(F, MaxBytes))
    return F;
  int Flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
  if (NoFollow)
    Flags |= O_NOFOLLOW;
  int Fd = ::openat(DirFd, Name, Flags);
  if (Fd < 0)
    return failed(std::move(F), errno);
  // The descriptor, not the path: the name may have been replaced since.
  if (::fstat(Fd, &F.St) != 0) {
    int Err = errno;
    ::close(Fd);
    return failed(std::move(F), Err);
  }
  if (!judged(F, MaxBytes))
    readAll(Fd, MaxBytes, F);
  ::close(Fd);
  return F;
}

template BoundedFile readBounded<std::string>(int, const char *, size_t, bool);
template LargeBoundedFile readBounded<LargeText>(int, const char *, size_t, bool);

} // namespace linkguard::flags
