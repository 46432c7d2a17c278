//===- BoundedRead.h - read a small regular file only ----------*- C++ -*-===//
//
// How linkguard reads a file someone else may have named or planted (an
// @response file, a rules file): stat first and never open what is not a
// regular file -- opening a FIFO unblocks its writer and closing it drops
// what was written, opening a tape device rewinds it -- then open without
// blocking and without inheriting, check the opened descriptor again
// (fstat, not the path), and pread() at most MaxBytes + 1 bytes from
// offset 0, so a descriptor shared with the compiler (/dev/fd/0 is a dup()
// of stdin on macOS) never moves. Never an mmap: a file truncated while it
// is read is a short read here, not a SIGBUS.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/LargeAlloc.h"

#include <sys/stat.h>

#include <string>

namespace linkguard::flags {

enum class ReadOutcome {
  Ok,         // Text holds the whole file
  Missing,    // no such file (or a dangling symbolic link)
  NotRegular, // Reason names the kind ("a FIFO"); nothing was opened
  TooLarge,   // more than MaxBytes; Text is empty
  Failed,     // open or read failed; Reason has the system's message
};

template <class TextT> struct BasicBoundedFile {
  ReadOutcome Outcome = ReadOutcome::Missing;
  TextT Text;
  std::string Reason;
  /// fstat of the opened descriptor (Ok, TooLarge once opened), else the
  /// stat of the path; valid unless Missing.
  struct stat St {};
};

using BoundedFile = BasicBoundedFile<std::string>;
/// A response file's text, in memory for long texts (support/LargeAlloc.h).
using LargeBoundedFile = BasicBoundedFile<LargeText>;

/// Reads Name relative to the directory DirFd (AT_FDCWD: the working
/// directory), following symbolic links unless NoFollow. (TextT:
/// std::string or LargeText.)
template <class TextT = std::string>
BasicBoundedFile<TextT> readBounded(int DirFd, const char *Name, size_t MaxBytes,
                                    bool NoFollow = false);

/// "a directory", "a FIFO", "a character device", ... for a non-regular
/// st_mode.
const char *fileKindName(mode_t Mode);

} // namespace linkguard::flags
