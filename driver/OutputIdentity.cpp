//===- OutputIdentity.cpp - lstat identities and careful removal -----------===//
#include "driver/OutputIdentity.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

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
  fs::UniqueID U = St.getUniqueID();
  Id.Device = U.getDevice();
  Id.Inode = U.getFile();
  Id.Size = St.getSize();
  Id.ModifiedNs = St.getLastModificationTime().time_since_epoch().count();
  return Id;
}

bool operator==(const FileIdentity &A, const FileIdentity &B) {
  return A.Exists == B.Exists && A.Regular == B.Regular && A.Directory == B.Directory &&
         A.Device == B.Device && A.Inode == B.Inode && A.Size == B.Size &&
         A.ModifiedNs == B.ModifiedNs;
}

std::string whyNotWrittenByLink(const std::string &Path, const FileIdentity &Before,
                                const FileIdentity &After) {
  if (!After.Exists)
    return "the link wrote no " + Path;
  if (!After.Regular)
    return Path + " is not a regular file";
  if (Before.Exists && Before == After)
    return "the link did not write " + Path + " (it is unchanged since before the link)";
  return "";
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
