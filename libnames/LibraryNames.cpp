//===- LibraryNames.cpp - library file names and families ------------------===//
#include "libnames/LibraryNames.h"

#include <algorithm>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
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
  // A family is named in any case: "OpenMP" is what people write.
  for (const Family &F : Families)
    if (Name.equals_insensitive(F.Name))
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

/// A version component of a Mach-O file name: all digits ("5" in
/// libomp.5.dylib) or one letter ("B" in libSystem.B.dylib).
static bool isVersionComponent(llvm::StringRef C) {
  if (C.empty())
    return false;
  if (C.size() == 1 && llvm::isAlpha(C[0]))
    return true;
  return llvm::all_of(C, llvm::isDigit);
}

/// What may follow ".so" in an ELF file name: nothing, or ".N[.N...]".
static bool isSonameTail(llvm::StringRef T) {
  if (T.empty())
    return true;
  if (!T.consume_front("."))
    return false;
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  T.split(Parts, '.');
  return llvm::all_of(Parts, [](llvm::StringRef P) {
    return !P.empty() && llvm::all_of(P, llvm::isDigit);
  });
}

std::vector<std::string> nameStems(llvm::StringRef InstallName) {
  const std::string File = fileNameOf(InstallName);
  llvm::StringRef S(File);
  std::vector<std::string> Out{File};
  auto push = [&Out](llvm::StringRef Stem) {
    if (!Stem.empty() && Out.back() != Stem)
      Out.push_back(Stem.str());
  };
  // ELF: libfoo.so.1.2 -> libfoo.so.1 -> libfoo.so -> libfoo.
  size_t So = S.rfind(".so");
  if (So != llvm::StringRef::npos && So > 0 &&
      isSonameTail(S.drop_front(So + 3))) {
    for (llvm::StringRef Cur = S; Cur.size() > So + 3;) {
      Cur = Cur.take_front(Cur.rfind('.'));
      push(Cur);
    }
    push(S.take_front(So));
    return Out;
  }
  llvm::StringRef Cur;
  for (llvm::StringRef Suffix : {".dylib", ".tbd"})
    if (S.ends_with(Suffix) && S.size() > Suffix.size())
      Cur = S.drop_back(Suffix.size());
  if (Cur.empty())
    return Out;
  push(Cur);
  // libfoo.1.2.dylib -> libfoo.1.2 -> libfoo.1 -> libfoo.
  for (size_t Dot = Cur.rfind('.'); Dot != llvm::StringRef::npos && Dot > 0;
       Dot = Cur.rfind('.')) {
    if (!isVersionComponent(Cur.drop_front(Dot + 1)))
      break;
    Cur = Cur.take_front(Dot);
    push(Cur);
  }
  return Out;
}

bool namesLibrary(llvm::StringRef Word, llvm::StringRef InstallName) {
  if (Word.empty())
    return false;
  for (const std::string &Stem : nameStems(InstallName))
    if (Stem == Word)
      return true;
  return false;
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

namespace {
/// The KMP runtime (LLVM's libomp, Intel's libiomp5) first: it also
/// defines GOMP_parallel, for code GCC compiled.
constexpr RuntimeMarker Markers[] = {
    {"openmp", "__kmpc_fork_call", {"libomp", "kmp", Omp15},
     "llvm-project openmp/runtime/src/kmp_csupport.cpp (__kmpc_fork_call: what clang's "
     "#pragma omp parallel calls)"},
    {"openmp", "GOMP_parallel", {"libgomp", "", nullptr},
     "gcc libgomp/parallel.c (GOMP_parallel: what GCC's #pragma omp parallel calls; "
     "libomp's kmp_gsupport.cpp defines it too, for code GCC compiled)"},
};
} // namespace

llvm::ArrayRef<RuntimeMarker> runtimeMarkers() { return Markers; }

std::vector<std::string> runtimeMarkerNames() {
  std::vector<std::string> Out;
  for (const RuntimeMarker &M : Markers) {
    Out.push_back(M.Symbol);
    Out.push_back(std::string("_") + M.Symbol);
  }
  return Out;
}

bool isRuntimeMarker(llvm::StringRef Name) {
  Name.consume_front("_"); // Mach-O's prefix; the markers start with no '_' of their own
  for (const RuntimeMarker &M : Markers)
    if (Name == M.Symbol || ("_" + Name).str() == M.Symbol)
      return true;
  return false;
}

std::optional<FamilyMember> familyMemberByExports(llvm::StringRef Group,
                                                  const std::vector<std::string> &Exports,
                                                  std::string *Marker) {
  for (const RuntimeMarker &M : Markers) {
    if (!Group.equals_insensitive(M.Group))
      continue;
    for (const std::string &Name : {std::string(M.Symbol), "_" + std::string(M.Symbol)})
      if (std::binary_search(Exports.begin(), Exports.end(), Name)) {
        if (Marker)
          *Marker = Name;
        return M.Member;
      }
  }
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
