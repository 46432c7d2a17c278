//===- TreeWalk.cpp - a directory tree's entries, one descriptor a level --===//
#include "shipment/TreeWalk.h"

#include "objlib/Reader.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <vector>
#ifdef __linux__
#include <sys/syscall.h>
#endif

using namespace llvm;

namespace linkguard::shipment {
namespace {

struct Entry {
  std::string Name;
  unsigned char DType;
};

Error unreadable(StringRef Path, int Errno) {
  return make_error<objlib::ReadError>(
      objlib::ReadErrorKind::Unreadable,
      (Path + ": " + std::error_code(Errno, std::generic_category()).message()).str());
}

bool skipName(const char *N) {
  return N[0] == '.' && (N[1] == 0 || (N[1] == '.' && N[2] == 0));
}

/// Listed past the walk's bound on names (listDirectory's Room).
constexpr int TooManyNames = -1;

/// The entries of the directory open at FD, in the file system's order;
/// errno when it cannot be listed, TooManyNames when it holds more than
/// Room names (the listing stops there: one directory of a million names
/// is not read into memory to be refused).
int listDirectory(int FD, std::vector<Entry> &Out, size_t Room) {
#ifdef __linux__
  // getdents64 into one buffer for the whole walk: opendir would stat the
  // directory and allocate a buffer of its own for each.
  struct Dirent64 {
    uint64_t Ino;
    int64_t Off;
    unsigned short RecLen;
    unsigned char Type;
    char Name[1];
  };
  alignas(8) static thread_local char Buf[32768];
  for (;;) {
    long N = ::syscall(SYS_getdents64, FD, Buf, sizeof Buf);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      return errno;
    if (N == 0)
      return 0;
    for (long P = 0; P < N;) {
      const auto *D = reinterpret_cast<const Dirent64 *>(Buf + P);
      if (D->RecLen == 0 || D->RecLen > N - P)
        return EIO; // not what the kernel writes
      P += D->RecLen;
      if (skipName(D->Name))
        continue;
      if (Out.size() == Room)
        return TooManyNames;
      Out.push_back({D->Name, D->Type});
    }
  }
#else
  // Elsewhere readdir, on a descriptor of its own (closedir closes it).
  int Own = ::dup(FD);
  if (Own < 0)
    return errno;
  DIR *D = ::fdopendir(Own);
  if (!D) {
    int E = errno;
    ::close(Own);
    return E;
  }
  ::rewinddir(D);
  errno = 0;
  while (struct dirent *E = ::readdir(D)) {
    if (!skipName(E->d_name)) {
      if (Out.size() == Room) {
        ::closedir(D);
        return TooManyNames;
      }
      Out.push_back({E->d_name, E->d_type});
    }
    errno = 0;
  }
  int E = errno;
  ::closedir(D);
  return E;
#endif
}

/// One open directory of the walk, and the entries it has left.
struct Level {
  int FD = -1;
  std::string Rel;  // "" for the root
  std::string Full; // as the kernel resolves it
  std::vector<Entry> Names;
  size_t Next = 0;
};

} // namespace

Error walkTree(const std::string &Root, size_t MaxNames, function_ref<Error()> TooMany,
               function_ref<Error(const WalkEntry &)> Visit,
               function_ref<void(StringRef Rel, std::vector<std::string> &&Names)> Listed) {
  // The root as given: a link there is followed (the user named it).
  int RootFD = ::open(Root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
  if (RootFD < 0)
    return unreadable(Root, errno);
  std::vector<Level> Stack;
  Stack.push_back({RootFD, "", Root, {}, 0});
  auto closeAll = [&] {
    for (Level &L : Stack)
      ::close(L.FD);
  };
  // Every name listed is held until the walk ends (Listed keeps them):
  // Held counts them all, and a listing stops once it would pass MaxNames.
  size_t Held = 0;
  auto list = [&](const std::string &Path) -> Error {
    Level &L = Stack.back();
    if (int E = listDirectory(L.FD, L.Names, MaxNames - Held)) {
      closeAll();
      return E == TooManyNames ? TooMany() : unreadable(Path, E);
    }
    Held += L.Names.size();
    return Error::success();
  };
  if (Error E = list(Root))
    return E;
  std::string Rel, Full;
  while (!Stack.empty()) {
    Level &L = Stack.back();
    if (L.Next == L.Names.size()) {
      ::close(L.FD);
      std::vector<std::string> Names;
      Names.reserve(L.Names.size());
      for (Entry &N : L.Names)
        Names.push_back(std::move(N.Name));
      Listed(L.Rel, std::move(Names));
      Stack.pop_back();
      continue;
    }
    const Entry &En = L.Names[L.Next++];
    Rel = L.Rel.empty() ? En.Name : L.Rel + "/" + En.Name;
    Full = L.Full;
    if (Full.empty() || Full.back() != '/')
      Full += '/';
    Full += En.Name;
    WalkEntry W;
    W.DirFD = L.FD;
    W.Name = En.Name.c_str();
    W.Rel = Rel;
    W.Full = Full;
    W.Level = unsigned(Stack.size() - 1);
    unsigned char T = En.DType;
    if (T == DT_UNKNOWN) {
      struct stat St;
      if (::fstatat(L.FD, En.Name.c_str(), &St, AT_SYMLINK_NOFOLLOW) != 0)
        continue; // vanished while walked
      T = S_ISDIR(St.st_mode)   ? DT_DIR
          : S_ISLNK(St.st_mode) ? DT_LNK
          : S_ISREG(St.st_mode) ? DT_REG
                                : DT_FIFO;
    }
    W.T = T == DT_DIR   ? WalkEntry::Type::Directory
          : T == DT_LNK ? WalkEntry::Type::Link
          : T == DT_REG ? WalkEntry::Type::Regular
                        : WalkEntry::Type::Special;
    if (Error E = Visit(W)) {
      closeAll();
      return E;
    }
    if (W.T != WalkEntry::Type::Directory)
      continue;
    // O_NOFOLLOW: a directory swapped for a link since it was listed is
    // not entered (ELOOP/ENOTDIR: unreadable, as any directory that cannot
    // be opened: a file put in its place would go unjudged). One that is
    // gone (ENOENT) held nothing to judge: left out, as a file that is.
    int FD = ::openat(L.FD, En.Name.c_str(),
                      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (FD < 0 && errno == ENOENT)
      continue; // vanished while walked
    if (FD < 0) {
      int Err = errno;
      closeAll();
      return unreadable(Full, Err);
    }
    Level Sub;
    Sub.FD = FD;
    Sub.Rel = Rel;
    Sub.Full = Full;
    Stack.push_back(std::move(Sub)); // L is not used past here
    if (Error E = list(Full))
      return E;
  }
  return Error::success();
}

} // namespace linkguard::shipment
