//===- Roots.h - what starts a load, and where a package puts its files -*- C++ -*-===//
//
// Issue 37 part 4: what ships is judged as it is installed or extracted.
//
// Roots (besides the executables, Closure.cpp): a Python extension module
// (a name ending in one of CPython's extension suffixes, or a plain ".so"
// that exports PyInit_<name>), a .pt2's model library (the one
// AOTIModelPackageLoader loads), and whatever the user names (--root,
// [roots] in linkguard.toml). Each is judged on its own, as the process
// that dlopens it would load it.
//
// Installed names: a wheel's members where pip puts them
// (<dist>.data/scripts -> bin/, purelib and platlib -> site-packages), a
// .pt2's where PyTorch's package loader extracts them (only what it
// extracts is there at load time).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "package/Zip.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <optional>
#include <string>
#include <vector>

namespace linkguard::shipment {

/// CPython's extension-module suffixes, as data (each row cites its source).
struct ExtensionSuffixRow {
  const char *Pattern; // "*" = any run of [A-Za-z0-9_.-] not empty
  const char *Source;
};
const std::vector<ExtensionSuffixRow> &extensionSuffixes();

/// Whether the file name (no directory) ends in a tagged extension suffix
/// (".cpython-311-x86_64-linux-gnu.so", ".abi3.so", ".cpython-311-darwin.so").
bool hasTaggedExtensionSuffix(llvm::StringRef FileName);
/// The module name a plain ".so" would be imported as ("foo" for foo.so),
/// empty when the name does not end in ".so".
std::string plainExtensionModuleName(llvm::StringRef FileName);
/// Whether Bytes (ELF or Mach-O, thin or universal) export a defined
/// symbol Name (Mach-O: with the leading '_').
bool exportsSymbol(llvm::MemoryBufferRef Bytes, llvm::StringRef Name);

/// Where a package's member is at load time.
struct Placement {
  bool Present = true;     // false: the loader does not put it anywhere
  std::string Rel;         // its installed path under the shipment's root
  bool ModelLibrary = false; // a .pt2 model's library: a root
};

/// How an archive is laid out when it is used: a wheel as pip installs it,
/// a .pt2 as AOTIModelPackageLoader extracts it, anything else as stored.
class ArchiveLayout {
public:
  enum class Kind { Plain, Wheel, Pt2 };
  ArchiveLayout() = default;
  /// Path: the archive's file name decides a wheel (".whl") or a .pt2
  /// (".pt2", or an "archive_format" record holding "pt2" is not needed:
  /// the name is what torch.export and pip are given).
  static ArchiveLayout of(llvm::StringRef Path, const std::vector<package::ZipEntry> &Entries);

  Kind kind() const { return K; }
  Placement place(llvm::StringRef Member) const;
  /// What cannot be judged (a model the loader would compile from its
  /// .cpp at load time): undecided, never "holds".
  const std::vector<std::string> &undecided() const { return Undecided; }

private:
  Kind K = Kind::Plain;
  // Wheel
  std::string DataDir;     // "<dist>-<version>.data/"
  std::string SitePackages; // "lib/python3.11/site-packages/"
  // Pt2
  std::string Prefix;                      // "<archive name>/" or ""
  std::vector<std::string> ModelDirs;      // "<prefix>data/aotinductor/<model>"
  std::vector<std::string> ModelLibraries; // the member each model loads
  std::vector<std::string> Undecided;
};

} // namespace linkguard::shipment
