//===- Container.h - the binaries a shipped file holds -----------*- C++
//-*-===//
//
// What `inspect`, `check` and `try-load` ask of a file on their command
// line: is it a binary itself, a zip archive (a .pt2 package, a wheel), or
// something else that may carry images (a .pte program, a blob)? And for a
// container: every Mach-O or ELF image in it, one at a time, as bytes, so
// that memory holds one member at most.
//
// Names: a zip member is "PKG!path/in/archive" (the archive as given, a
// '!', the member's stored name); an image found by scanning is
// "FILE@0xOFFSET" (lower-case hex), also inside a member:
// "PKG!data/executorch/model.pte@0x4c0". A binary in front of a zip
// (`cat lib.so pkg.whl > poly.whl`) is "FILE@0x0", beside the members.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "package/Zip.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace linkguard::package {

enum class InputKind {
  Binary,     // starts with a Mach-O, universal or ELF magic (no zip after)
  Zip,        // starts like a zip archive, or ends with one (endsWithZip)
  Other,      // readable, neither of the above
  Unreadable, // cannot be opened or read (objlib::readBinary says why)
};

/// From the first bytes of the file at Path.
InputKind classifyInput(const std::string &Path);

struct ContainerOptions {
  /// Also scan files (and zip members) that are not binaries themselves
  /// for embedded images.
  bool Scan = false;
  /// A container with no image is no error (a file of a tree: a wheel of
  /// pure Python, a .docx, a blob without images are non-binaries there).
  bool EmptyIsFine = false;
  ZipLimits Limits;
};

/// One image inside a container, valid during the OnImage callback only.
struct Image {
  std::string Name;      // "pkg.pt2!a/b.so", "prog.pte@0x1f3"
  std::string Container; // the file as given
  std::string Member;    // the zip member it is or is in; empty otherwise
  std::optional<uint64_t> Offset; // where a scan found it
  llvm::MemoryBufferRef Data;
  const ZipArchive *Archive = nullptr; // the zip it came from, if any
};

/// Visits every image of the container at Path: the binary members of a
/// zip archive (with Scan, also images inside its other members) and a
/// binary before its first entry (with Scan, images there), or with
/// Scan the images embedded in any other file. A member that cannot be read
/// goes to OnError with its name ("pkg.pt2!m.so") and the walk goes on.
/// Returns an error (objlib::ReadError) when the container cannot be read
/// or holds no image.
llvm::Error forEachImage(
    const std::string &Path, const ContainerOptions &Opts,
    llvm::function_ref<void(const Image &)> OnImage,
    llvm::function_ref<void(const std::string &, llvm::Error)> OnError);

/// What the archives of one tree may declare in all: MaxTotalSize when
/// set (--max-inflated), else the larger of 2 GiB and 100 times the bytes
/// of the Files together, the limit one archive has. A tree of many
/// archives is bounded as one archive of their size would be.
std::shared_ptr<uint64_t> treeBudget(const ZipLimits &Limits,
                                     const std::vector<std::string> &Files);

/// "FILE@0xOFFSET".
std::string embeddedName(llvm::StringRef Container, uint64_t Offset);

/// A name that stands for an image inside a file, taken apart. Every name
/// forEachImage gives ("pkg.pt2!a/b.so", "blob.pte@0x1f3",
/// "pkg.pt2!m.pte@0x4c0") is one, and so is the same name with '/' for the
/// '!' ("pkg.pt2/a/b.so"): Python's zipimport spelling (a path through the
/// archive), which needs no quoting where an interactive shell's history
/// expansion takes "!a" (bash, zsh).
struct ImageName {
  std::string Container; // the file: the longest prefix that is a regular file
  std::string Name;      // as forEachImage names it ('!' after the archive)
  bool Embedded = false; // an "@0x" image: found by a scan
};

/// Arg taken apart at the last '!', '/' or "@0x" whose prefix is a regular
/// file (a path through a directory stays a path); nothing when there is
/// none. Callers ask only for an Arg that does not exist as a file.
std::optional<ImageName> parseImageName(llvm::StringRef Arg);

} // namespace linkguard::package
