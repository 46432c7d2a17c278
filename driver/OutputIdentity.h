//===- OutputIdentity.h - did this link write that file? ---------*- C++ -*-===//
//
// linkguard judges and may remove only a file the link step itself wrote.
// The identity of the output (device, inode, size, modification time, read
// with lstat: a symlink is never followed) is taken before the compiler is
// started and again after it ends: a file that is absent, unchanged, or not a
// regular file afterwards is not this link's, whatever the command line says
// (-Wl,--version, -fdriver-only, a previous build's output).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace linkguard::driver {

struct FileIdentity {
  bool Exists = false;
  bool Regular = false;
  bool Directory = false;
  std::uint64_t Device = 0, Inode = 0, Size = 0;
  std::chrono::nanoseconds::rep ModifiedNs = 0;
};

/// lstat(Path) as a FileIdentity; Exists is false when there is no entry.
FileIdentity identify(const std::string &Path);

bool operator==(const FileIdentity &A, const FileIdentity &B);
inline bool operator!=(const FileIdentity &A, const FileIdentity &B) { return !(A == B); }

/// What a link did to its output: why it may not be judged, or "" when the
/// file after the link is a regular file this link created or rewrote.
std::string whyNotWrittenByLink(const std::string &Path, const FileIdentity &Before,
                                const FileIdentity &After);

/// Removes Path only if it is still exactly the file that was judged.
bool removeIfStill(const std::string &Path, const FileIdentity &Judged);

/// Removes a directory tree (a .dSYM bundle) without following any symlink:
/// links are removed as links. Returns false when something stayed.
bool removeTree(const std::string &Dir);

} // namespace linkguard::driver
