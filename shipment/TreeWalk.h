//===- TreeWalk.h - a directory tree's entries, one descriptor a level -*- C++ -*-===//
//
// The walk under Shipment::directory: depth first, each directory's entries
// in the order the file system lists them, a directory's entries right
// after the directory itself (as llvm::sys::fs::recursive_directory_iterator
// visits them). Never follows a link: a link is an entry, not a door.
//
// Each directory is opened once, relative to its parent's descriptor
// (openat, O_NOFOLLOW), and listed with one buffer for the whole walk:
// an entry is opened by its name in the directory that holds it, so the
// kernel resolves one component rather than the whole path, and no stat
// is made where the listing says the type (d_type). A file system that
// does not say costs one fstatat, as it did.
//
// Bounded: at most one descriptor per level (the caller stops the walk at
// its depth limit), and at most MaxNames names held in all: a listing stops
// as soon as it would pass them, also in the middle of one directory.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace linkguard::shipment {

struct WalkEntry {
  enum class Type { Directory, Link, Regular, Special };
  Type T = Type::Special;
  int DirFD = -1;        // the directory holding it, open during the visit
  const char *Name = "";  // its name there (NUL-terminated)
  llvm::StringRef Rel;   // its path under the root ("a/b")
  llvm::StringRef Full;  // the root as given, "/", Rel: a path the kernel resolves
  unsigned Level = 0;    // directories between the root and it
};

/// Walks the tree at Root, calling Visit for every entry but "." and "..";
/// an Error from Visit ends the walk with it. A directory that cannot be
/// opened or listed ends it too, with objlib::ReadError Unreadable
/// ("PATH: why"; also a directory swapped for a link or a file since it
/// was listed); an entry that vanished while walked is left out. Once the
/// names listed pass MaxNames, the walk ends with TooMany's Error (never
/// with a listing cut short). Once a directory's entries are all visited,
/// Listed gets its names in the order the file system listed them (its
/// Rel: "" for the root).
llvm::Error walkTree(const std::string &Root, size_t MaxNames,
                     llvm::function_ref<llvm::Error()> TooMany,
                     llvm::function_ref<llvm::Error(const WalkEntry &)> Visit,
                     llvm::function_ref<void(llvm::StringRef Rel, std::vector<std::string> &&Names)>
                         Listed);

} // namespace linkguard::shipment
