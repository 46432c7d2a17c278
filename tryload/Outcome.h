//===- Outcome.h - what a try-load run came to -------------------*- C++
//-*-===//
#pragma once

#include "contract/LoadedImages.h"
#include "tryload/Run.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace linkguard::tryload {

enum class Outcome {
  Holds,           // loaded (and the call returned 0); the contract holds
  Broken,          // loaded; an image breaks the contract
  LoadFailed,      // dlopen failed, or the loader died or exited while loading
  CallFailed,      // the symbol is missing, returned non-zero, or died
  HideUnavailable, // --hide could not be done here: nothing was loaded
  Incomplete,      // what the process mapped cannot be known for sure
  Undecided,       // a thread or process asked to run untraced (refused), or
                   // an image's exports cannot be read under --forbid openmp
  // enumName (support/EnumNames.h) names each enumerator up to Last.
  Last = Undecided,
};
const char *outcomeName(Outcome O); // "holds", "broken", "load-failed", ...

enum class Origin {
  BeforeLoad, // mapped before dlopen: the loader's own, or preloaded
  Library,    // the library itself
  Dependency, // mapped by dlopen along with it
  Call,       // mapped while the called function ran
  // enumName (support/EnumNames.h) names each enumerator up to Last.
  Last = Call,
};
const char *originName(Origin O); // "before-load", "library", ...

struct MappedImage {
  contract::LoadedImage Image; // Image.Via: what brought it in, if known
  Origin From = Origin::Dependency;
};

struct TryLoadVerdict {
  Outcome What = Outcome::Holds;
  std::string Problem; // for the failures: one sentence, the loader's words
  std::string Note;    // something odd that does not change the outcome
  std::vector<MappedImage> Images; // the last complete list, in load order
  contract::Verdict Contract;      // over Images (empty if nothing loaded)
};

/// What linkguard knows of the library from the file itself, read before
/// the run: nothing the loading process can change.
struct LibraryFacts {
  std::string Path; // as dlopened (absolute)
  /// The name the user knows it by (pkg.pt2!m.so), for what it brought in
  /// (MappedImage's Via); empty: Path.
  std::string Name;
  uint64_t Major = 0, Minor = 0, Inode = 0; // the file's identity
  /// What its load commands ask the loader for: every DT_NEEDED; Mach-O's
  /// LC_LOAD_DYLIB, LC_REEXPORT_DYLIB, LC_LOAD_UPWARD_DYLIB (a weak one may
  /// be missing).
  std::vector<std::string> Needed;
  /// Why this platform's loader cannot load it at all ("a Mach-O dylib
  /// (arm64); Linux loads ELF only"), or empty.
  std::string NotLoadableHere;
  bool MachO = false; // the file's format (ELF otherwise)
  /// The runtime entry points it defines (libnames::runtimeMarkers), read
  /// with its identity before the run (WithMarkers): the library's own
  /// image is judged by these, not by a read of its path after the run
  /// (a zip member's temporary copy is removed by then). DefinesProblem:
  /// why they could not be read.
  std::vector<std::string> Defines;
  std::string DefinesProblem;
  /// Its SONAME (ELF) or install name (Mach-O), read with its identity.
  std::optional<std::string> Soname;
};

/// Reads Path's identity and its needed libraries (its first slice), and
/// with WithMarkers what it defines among the runtime markers.
llvm::Expected<LibraryFacts> readLibraryFacts(const std::string &Path,
                                              bool WithMarkers = false);

/// The SONAME (ELF) or install name (Mach-O) of a mapped file, read from
/// the file at its path only if that is still the same file; else nothing.
using SonameFn =
    llvm::function_ref<std::optional<std::string>(const MappedFile &)>;
std::optional<std::string> sonameOnDisk(const MappedFile &F);

/// The runtime entry points a mapped file defines (libnames::runtimeMarkers:
/// __kmpc_fork_call, GOMP_parallel), read from the file at its path only if
/// that is still the same file: --forbid openmp matches a renamed runtime.
/// Problem: why they could not be read (Slice::ExportsProblem), when so.
using DefinesFn =
    llvm::function_ref<std::vector<std::string>(const MappedFile &, std::string &Problem)>;
std::vector<std::string> markersOnDisk(const MappedFile &F, std::string &Problem);

/// What a mapped image asks the loader for (its DT_NEEDED, Mach-O's
/// dependencies), read from the file at RealPath; empty when unreadable.
using NeededFn = llvm::function_ref<std::vector<std::string>(const std::string &RealPath)>;
std::vector<std::string> neededOnDisk(const std::string &RealPath);

/// Classifies a run of the loader and judges its images. When the parent
/// watched the process (LoaderRun::Watched), the images are the files the
/// kernel showed mapped with code at any stop (their union: a library
/// unmapped later still counts), and the report is a cross-check: a report
/// that cannot be read, that names an image the maps never showed, or that
/// stops before the library was seen mapped, a needed library absent from
/// the maps, or an image mapped from no file linkguard can name (a memfd, a
/// deleted file) under --forbid, all make the run Incomplete. --forbid also
/// matches each image's SONAME as Soname reads it from the mapped file. Unwatched
/// (macOS), the report is all there is, and any gap in it (no end, a needed
/// library it does not list) is Incomplete too. One file is one image and
/// one finding per pattern, whatever names it was mapped under; each
/// dependency names the image whose needed list brought it in (Needed
/// reads them, in load order, at most MaxNeededReads files). A run in
/// which a thread or process asked to run untraced (LoaderRun::Untraced) is
/// Undecided, whatever it came to otherwise (that, as the Note), unless a
/// violation was certain (Broken, the Untraced sentence as the Note).
TryLoadVerdict judgeRun(const LoaderRun &Run, const LibraryFacts &Library,
                        const std::optional<std::string> &Call,
                        const contract::ContractSpec &Spec,
                        SonameFn Soname = sonameOnDisk, NeededFn Needed = neededOnDisk,
                        DefinesFn Defines = markersOnDisk);

/// How many images' needed lists judgeRun reads to name what brought each
/// image in (past it, an image's Via stays empty).
constexpr size_t MaxNeededReads = 4096;

} // namespace linkguard::tryload
