//===- OutputIdentity.h - did this link write that file? ---------*- C++ -*-===//
//
// linkguard judges and may remove only a file the link step itself wrote.
// The identity of the output (device, inode, size, modification time, read
// with lstat: a symlink is never followed) is taken before the compiler is
// started and again after it ends, and the decision is made from what the
// link left there:
//  - a regular file at -o that is new or changed: the link created or
//    rewrote it (lld, ld64, mold and GNU ld all replace a symbolic link at
//    -o whose target exists by a regular file: temporary file + rename, or
//    unlink + create); it is judged and, under enforce, removed;
//  - -o still the same symbolic link: GNU ld (bfd, gold) writes through a
//    link whose target does not exist yet. The target (the link's chain
//    resolved) is judged when the chain leads where it did before (or, when
//    it dangled, to the file a write through it creates) and its identity
//    changed across the link, and it
//    is the file removed under enforce: the link wrote it; the symbolic
//    link, which the link did not write, stays;
//  - anything else (no file, unchanged, a directory, a device, a FIFO, a
//    link that changed or points at something the link did not rewrite):
//    not this link's, whatever the command line says (-Wl,--version,
//    -fdriver-only, a previous build's output). "not verified: WHY".
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
  bool Symlink = false;
  std::uint64_t Device = 0, Inode = 0, Size = 0;
  std::chrono::nanoseconds::rep ModifiedNs = 0;
};

/// lstat(Path) as a FileIdentity; Exists is false when there is no entry.
FileIdentity identify(const std::string &Path);

bool operator==(const FileIdentity &A, const FileIdentity &B);
inline bool operator!=(const FileIdentity &A, const FileIdentity &B) { return !(A == B); }

/// What was at an output path before the link: the entry itself and, when
/// it is a symbolic link, where its chain led then (TargetPath: "" when it
/// led nowhere, a dangling link) and what was there. For a dangling chain,
/// DanglingEnd is the file a write through it creates (its last name, in
/// the real path of its directory; "" when there is none: a loop, a
/// missing directory): after the link the chain must lead there, or the
/// file it leads to is not this link's (a link in the chain pointed
/// elsewhere meanwhile).
struct OutputState {
  FileIdentity Entry;
  std::string TargetPath;
  FileIdentity Target;
  std::string DanglingEnd;
};

OutputState recordOutputState(const std::string &Path);

/// The file a link wrote at or through Path, or why there is none.
struct WrittenFile {
  std::string Why;  // "" when Path (or its link's target) is this link's
  std::string Path; // the file to read, judge and, under enforce, remove
  FileIdentity Id;  // its identity when decided
  bool ThroughSymlink = false; // Path is the target of the link at -o
};

/// Decides from what the link left at Path, given what was there before.
WrittenFile writtenByLink(const std::string &Path, const OutputState &Before);

/// The kind of a file that is not a regular one ("a directory", "a FIFO").
std::string fileKindOf(const std::string &Path);

/// Removes Path only if it is still exactly the file that was judged.
bool removeIfStill(const std::string &Path, const FileIdentity &Judged);

/// Removes a directory tree (a .dSYM bundle) without following any symlink:
/// links are removed as links. Returns false when something stayed.
bool removeTree(const std::string &Dir);

} // namespace linkguard::driver
