//===- LibraryNames.cpp - library file names and families ------------------===//
#include "libnames/LibraryNames.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Path.h"

namespace linkguard::libnames {

namespace {

/// A family: file names that start with one of Prefixes and have a shared
/// suffix, or that equal Exact.
struct Family {
  const char *Name;
  llvm::ArrayRef<const char *> Prefixes;
  const char *Exact;
};

constexpr const char *OpenMPPrefixes[] = {"libomp", "libiomp5", "libgomp"};

constexpr const char *Omp15 =
    "OMP: Error #15: Initializing libomp, but found libomp already initialized";

/// The runtimes of the openmp family (FamilyMember in LibraryNames.h).
/// Sources: llvm-project openmp/runtime/src/kmp_runtime.cpp
/// (__kmp_register_library_startup: the KMP runtime, built as libomp or as
/// Intel's libiomp5, registers itself in the environment and aborts with
/// OMP #15 when another copy already did; pytorch#122705, #125856);
/// gcc libgomp/env.c (no such check).
constexpr FamilyMember OpenMPMembers[] = {
    {"libiomp5", "kmp", Omp15},
    {"libomp", "kmp", Omp15},
    {"libgomp", "", nullptr},
};

// "libompstuff.dylib" counts as OpenMP too, on purpose: every spelling of a
// runtime counts, and no other library starts so.
const Family Families[] = {
    {"openmp", OpenMPPrefixes, nullptr},
    {"libsystem", {}, "libSystem.B.dylib"},
};

const Family *familyNamed(llvm::StringRef Name) {
  for (const Family &F : Families)
    if (Name == F.Name)
      return &F;
  return nullptr;
}

} // namespace

std::string fileNameOf(llvm::StringRef Name) {
  size_t Slash = Name.find_last_of('/');
  return (Slash == llvm::StringRef::npos ? Name : Name.substr(Slash + 1)).str();
}

bool hasSharedSuffix(llvm::StringRef File) {
  return File.ends_with(".dylib") || File.ends_with(".so") || File.ends_with(".tbd") ||
         File.contains(".so.");
}

std::string sharedLibraryName(llvm::StringRef Path) {
  llvm::StringRef File = llvm::sys::path::filename(Path);
  // ELF: libfoo.so or libfoo.so.1.2 (the soname's version follows ".so.").
  size_t End = File.find(".so");
  bool Shared = End != llvm::StringRef::npos &&
                (End + 3 == File.size() || File[End + 3] == '.');
  if (!Shared) {
    for (llvm::StringRef Suffix : {".dylib", ".tbd"})
      if (File.ends_with(Suffix)) {
        End = File.size() - Suffix.size();
        Shared = true;
        break;
      }
  }
  if (!Shared)
    return "";
  llvm::StringRef Stem = File.take_front(End);
  Stem.consume_front("lib");
  return Stem.str();
}

bool isLibraryFileName(llvm::StringRef Path) {
  return !sharedLibraryName(Path).empty() ||
         llvm::sys::path::filename(Path).ends_with(".a");
}

std::optional<FamilyMember> familyMember(llvm::StringRef Group,
                                         llvm::StringRef InstallName) {
  if (Group != "openmp" || !inGroup(Group, InstallName))
    return std::nullopt;
  const std::string File = fileNameOf(InstallName);
  for (const FamilyMember &M : OpenMPMembers)
    if (llvm::StringRef(File).starts_with(M.Prefix))
      return M;
  return std::nullopt;
}

bool isGroupName(llvm::StringRef Name) { return familyNamed(Name) != nullptr; }

bool inGroup(llvm::StringRef Group, llvm::StringRef InstallName) {
  const Family *F = familyNamed(Group);
  if (!F)
    return false;
  const std::string File = fileNameOf(InstallName);
  if (F->Exact)
    return File == F->Exact;
  for (const char *Prefix : F->Prefixes)
    if (llvm::StringRef(File).starts_with(Prefix) && hasSharedSuffix(File))
      return true;
  return false;
}

} // namespace linkguard::libnames
