//===- LibraryNames.h - what a library's name says -----------------*- C++ -*-===//
//
// The one place for the name rules of libraries, used by classification and
// the rules (a library input, -lfoo), by contracts (an install name or
// DT_NEEDED string) and by inspect/check: the "lib" prefix; the suffixes of
// shared objects (.so, versioned .so.N.M, .dylib, versioned .N.dylib, .tbd
// text stubs) and archives (.a); and the named families of libraries a
// contract can name as a group (openmp, libsystem).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace linkguard::libnames {

/// The file name part of an install name, DT_NEEDED string or path
/// ("@rpath/libomp.dylib" -> "libomp.dylib").
std::string fileNameOf(llvm::StringRef Name);

/// A shared-library file name: ".dylib", ".so", ".so.<version>", ".tbd".
bool hasSharedSuffix(llvm::StringRef FileName);

/// "libomp.so.5" -> "omp", "/x/libtorch_cpu.dylib" -> "torch_cpu",
/// "libomp.5.dylib" -> "omp.5" (the name a -l would use), "libSystem.tbd"
/// -> "System"; "" when the file is not a shared library by name.
std::string sharedLibraryName(llvm::StringRef Path);

/// A shared library or an archive (libfoo.a), by name.
bool isLibraryFileName(llvm::StringRef Path);

/// The named families of libraries ("openmp", "libsystem"): true when Name is
/// one of them, in any case ("OpenMP", "libSystem").
bool isGroupName(llvm::StringRef Name);

/// The names a library file answers to when a user writes a bare word (no
/// wildcard, no slash, not a family): the file name itself and its stems,
/// shortest last. "libomp.5.dylib" -> {"libomp.5.dylib", "libomp.5",
/// "libomp"}; "libomp.so.5.0" -> {"libomp.so.5.0", "libomp.so.5",
/// "libomp.so", "libomp"}; "libSystem.B.dylib" -> {..., "libSystem"}. A
/// stem drops the shared suffix (.dylib, .tbd, .so and the soname's numbers
/// after it), then trailing version components one at a time (all digits,
/// or one letter: Apple's "A"/"B" compatibility versions). A file that is
/// not a shared library by name answers to its file name only.
std::vector<std::string> nameStems(llvm::StringRef InstallName);

/// Whether Word, a bare word, names the library InstallName: Word is the
/// file name or one of its stems (nameStems). "libomp" names
/// "/opt/llvm-openmp/lib/libomp.dylib", "@rpath/libomp.5.dylib" and
/// "libomp.so.5"; it does not name "libompx.dylib".
bool namesLibrary(llvm::StringRef Word, llvm::StringRef InstallName);

/// Whether an install name or DT_NEEDED string belongs to the family Group,
/// under any path and spelling. openmp: libomp*, libiomp5*, libgomp* with a
/// shared suffix ("libomp.dylib", "libomp.so.5", "libgomp.so.1",
/// "libiomp5.dylib"). libsystem: libSystem.B.dylib, which ld64 keeps under
/// -dead_strip_dylibs. False for a Group that is not a family. Group is
/// matched in any case.
bool inGroup(llvm::StringRef Group, llvm::StringRef InstallName);

/// One runtime of a family, as the family table holds it: the file-name
/// prefix that makes a name a member ("libomp", "libiomp5", "libgomp") and
/// the runtime it is. Members whose Runtime is equal and non-empty abort
/// when two copies meet in one process: LLVM's libomp and Intel's libiomp5
/// are both the KMP runtime, whose start-up refuses a second copy ("OMP:
/// Error #15: Initializing libomp.dylib, but found libomp.dylib already
/// initialized", llvm-project openmp/runtime/src/kmp_runtime.cpp,
/// __kmp_register_library_startup); GCC's libgomp does not check.
struct FamilyMember {
  const char *Prefix = nullptr;
  const char *Runtime = nullptr; // "kmp" for libomp/libiomp5, "" otherwise
  const char *Abort = nullptr;   // the message the abort prints, if any
};

/// The member of family Group that InstallName is; nullopt when it is none.
std::optional<FamilyMember> familyMember(llvm::StringRef Group,
                                         llvm::StringRef InstallName);

/// A symbol whose strong definition makes an image a runtime of a family,
/// whatever the file is called (a renamed copy: auditwheel's
/// libgomp-a34b3233.so.1, a vendor's libfoo_omp.so): what the runtime's
/// entry points are, not what its users call. A library that only wraps or
/// re-exports omp_* defines none of them.
struct RuntimeMarker {
  const char *Group;   // "openmp"
  const char *Symbol;  // as ELF names it (Mach-O: with one more '_')
  FamilyMember Member; // the runtime it marks
  const char *Source;  // where the runtime defines it
};
llvm::ArrayRef<RuntimeMarker> runtimeMarkers();

/// Whether Name, an ELF or Mach-O symbol, is a marker of some family.
bool isRuntimeMarker(llvm::StringRef Name);
/// Every marker as ELF and as Mach-O spell it (objlib::ReadOptions::
/// ExportsAmong for a reader that needs only them).
std::vector<std::string> runtimeMarkerNames();

/// The member of family Group an image is by the strong definitions it
/// exports (Exports: sorted, as objlib reads them), the first marker of
/// the table it defines; nullopt when it defines none. Marker: that symbol.
std::optional<FamilyMember> familyMemberByExports(llvm::StringRef Group,
                                                  const std::vector<std::string> &Exports,
                                                  std::string *Marker = nullptr);

} // namespace linkguard::libnames
