//===- OutputIdentity.cpp - lstat identities and careful removal -----------===//
#include "driver/OutputIdentity.h"

#include "flags/BoundedRead.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <unistd.h>
#include <sys/stat.h>
#include <vector>

namespace linkguard::driver {

namespace fs = llvm::sys::fs;

FileIdentity identify(const std::string &Path) {
  FileIdentity Id;
  fs::file_status St;
  if (fs::status(Path, St, /*Follow=*/false))
    return Id;
  Id.Exists = fs::exists(St);
  Id.Regular = St.type() == fs::file_type::regular_file;
  Id.Directory = St.type() == fs::file_type::directory_file;
  Id.Symlink = St.type() == fs::file_type::symlink_file;
  fs::UniqueID U = St.getUniqueID();
  Id.Device = U.getDevice();
  Id.Inode = U.getFile();
  Id.Size = St.getSize();
  Id.ModifiedNs = St.getLastModificationTime().time_since_epoch().count();
  return Id;
}

bool operator==(const FileIdentity &A, const FileIdentity &B) {
  return A.Exists == B.Exists && A.Regular == B.Regular && A.Directory == B.Directory &&
         A.Symlink == B.Symlink &&
         A.Device == B.Device && A.Inode == B.Inode && A.Size == B.Size &&
         A.ModifiedNs == B.ModifiedNs;
}

/// Where Path's chain of symbolic links ends, "" when it ends nowhere.
static std::string resolvedTarget(const std::string &Path) {
  char Buf[PATH_MAX];
  if (::realpath(Path.c_str(), Buf) == nullptr)
    return {};
  return Buf;
}

/// The file a write through Path's dangling chain of symbolic links
/// creates: each link read in turn (a relative one from its own directory,
/// as the kernel does), up to the kernel's 40 hops, to the first name that
/// does not exist; that name in the real path of its directory. "" when the
/// chain loops or the directory does not resolve (a write would fail).
static std::string danglingEnd(const std::string &Path) {
  std::string Cur = Path;
  for (int Hop = 0;; ++Hop) {
    if (Hop > 40)
      return {};
    char Buf[PATH_MAX];
    ssize_t N = ::readlink(Cur.c_str(), Buf, sizeof(Buf) - 1);
    if (N < 0) {
      if (errno != ENOENT)
        return {}; // exists and is no link: the chain did not dangle
      break;
    }
    std::string Next(Buf, static_cast<size_t>(N));
    if (Next.empty())
      return {};
    if (Next.front() != '/') {
      llvm::StringRef Dir = llvm::sys::path::parent_path(Cur);
      Next = (Dir.empty() ? std::string(".") : Dir.str()) + "/" + Next;
    }
    Cur = std::move(Next);
  }
  llvm::StringRef Name = llvm::sys::path::filename(Cur);
  if (Name.empty() || Name == "." || Name == ".." || llvm::StringRef(Cur).ends_with("/"))
    return {};
  llvm::StringRef Dir = llvm::sys::path::parent_path(Cur);
  std::string RealDir = resolvedTarget(Dir.empty() ? std::string(".") : Dir.str());
  if (RealDir.empty())
    return {};
  return RealDir + (RealDir == "/" ? "" : "/") + Name.str();
}

OutputState recordOutputState(const std::string &Path) {
  OutputState S;
  S.Entry = identify(Path);
  if (S.Entry.Symlink) {
    S.TargetPath = resolvedTarget(Path);
    if (!S.TargetPath.empty())
      S.Target = identify(S.TargetPath);
    else
      S.DanglingEnd = danglingEnd(Path);
  }
  return S;
}

std::string fileKindOf(const std::string &Path) {
  struct stat St {};
  if (::lstat(Path.c_str(), &St) != 0)
    return "missing";
  return flags::fileKindName(St.st_mode);
}

static WrittenFile notWritten(std::string Why) {
  WrittenFile W;
  W.Why = std::move(Why);
  return W;
}

WrittenFile writtenByLink(const std::string &Path, const OutputState &Before) {
  FileIdentity After = identify(Path);
  if (!After.Exists)
    return notWritten("the link wrote no " + Path);
  if (After.Regular) {
    // New, or replacing what was there (a symbolic link included): this
    // link's file.
    if (Before.Entry.Exists && Before.Entry == After)
      return notWritten("the link did not write " + Path +
                        " (it is unchanged since before the link)");
    return {"", Path, After, false};
  }
  if (!After.Symlink)
    return notWritten(Path + " is " + fileKindOf(Path) + ", not a regular file");
  // Still a symbolic link: only the one that was there, unchanged, may have
  // been written through.
  if (!Before.Entry.Symlink || Before.Entry != After)
    return notWritten(Path + " is a symbolic link the link did not leave there unchanged");
  std::string Target = resolvedTarget(Path);
  if (Target.empty())
    return notWritten(Path + " is a symbolic link to nothing: the link wrote no file there");
  // Where the chain led, or where a write through it would go: a chain
  // that leads elsewhere now was pointed there, not written through.
  const std::string &Expected =
      Before.TargetPath.empty() ? Before.DanglingEnd : Before.TargetPath;
  if (Expected.empty())
    return notWritten(Path + " now leads to " + Target +
                      ", where no write through it could have gone before the link");
  if (Target != Expected)
    return notWritten(Path + " now leads to " + Target + ", not to " + Expected +
                      " as before the link");
  FileIdentity T = identify(Target);
  if (!T.Regular)
    return notWritten(Path + " is a symbolic link to " + Target + ", which is " +
                      fileKindOf(Target) + ", not a regular file");
  if (Before.Target.Exists && Before.Target == T)
    return notWritten("the link did not write " + Target + ", the target of " + Path +
                      " (it is unchanged since before the link)");
  return {"", Target, T, true};
}

bool removeIfStill(const std::string &Path, const FileIdentity &Judged) {
  if (identify(Path) != Judged)
    return false;
  return !fs::remove(Path, /*IgnoreNonExisting=*/false);
}

bool removeTree(const std::string &Dir) {
  // Depth-first over real directories only; a symlink is an entry to remove,
  // never a directory to enter. Bounded by what the tree holds.
  std::error_code EC;
  std::vector<std::string> Entries;
  for (fs::directory_iterator It(Dir, EC, /*follow_symlinks=*/false), End;
       It != End && !EC; It.increment(EC))
    Entries.push_back(It->path());
  if (EC)
    return false;
  bool AllGone = true;
  for (const std::string &E : Entries) {
    FileIdentity Id = identify(E);
    if (Id.Directory)
      AllGone &= removeTree(E);
    else
      AllGone &= !fs::remove(E);
  }
  return AllGone && !fs::remove(Dir);
}

} // namespace linkguard::driver
