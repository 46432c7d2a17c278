//===- LoaderRules.h - how dyld and ld.so find a library, as data -*- C++ -*-===//
//
// One table per loader (LoaderRules.cpp, each row with its source): the
// tokens a load path or a search path may start with and what they stand
// for, the order in which a name that is not a path is searched for, which
// search paths an image lends to the images it loads, and which names are
// the system's. shipment/Closure.cpp walks these tables; it holds no rule
// of its own. contract/Portability.cpp asks them which names are the
// system's.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "objlib/BinaryInfo.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <string>

namespace linkguard::contract {

/// What a token expands to.
enum class TokenMeaning {
  ImageDir,         // the directory of the image that holds the path
  ExecutableDir,    // the directory of the main executable
  MachineDependent, // $LIB, $PLATFORM: known only on the target machine
};

struct Token {
  const char *Spelling;  // "@loader_path", "$ORIGIN", "${ORIGIN}"
  TokenMeaning Meaning;
  /// The token must be followed by '/' or end the path (dyld's rule);
  /// ld.so: by a character that cannot continue a name.
  bool WholeComponent;
  const char *Source;
};

/// One step of the search for a name that is not a path ("@rpath/X", a
/// DT_NEEDED name without '/').
enum class SearchStep {
  /// The search paths of the image, then of the image that loaded it, and
  /// so on up to the executable (each expanded against its own holder).
  ChainSearchPaths,
  /// The image's own DT_RUNPATH only.
  OwnRunPath,
  /// DYLD_LIBRARY_PATH / LD_LIBRARY_PATH: the user's machine, never counted.
  Environment,
  /// --search DIR: the application's directories.
  ApplicationDirs,
  /// ld.so.cache and the default directories: the system's names only.
  SystemDefault,
};

struct SearchRow {
  SearchStep Step;
  const char *Source;
};

/// An interpreter's path as its machine's psABI fixes it.
struct InterpreterPath {
  const char *Arch; // objlib's slice architecture name
  const char *Path;
};

struct LoaderRules {
  const char *Loader; // "dyld", "ld.so"
  const char *Source; // where the rules were read
  llvm::ArrayRef<Token> Tokens;
  /// A name that starts so is searched (dyld: "@rpath/"); "" for ld.so,
  /// which searches any name without a '/'.
  const char *SearchPrefix;
  llvm::ArrayRef<SearchRow> Search;
  /// ld.so: an image with DT_RUNPATH takes no DT_RPATH from anywhere, and
  /// lends none (its own DT_RPATH is ignored).
  bool RunPathStopsInheritance;
  /// A searched name equal to the install name (LC_ID_DYLIB) or DT_SONAME
  /// of an image already loaded is that image, without a search; the
  /// source of the rule.
  const char *ReuseLoaded;
  /// A weak load (LC_LOAD_WEAK_DYLIB) may be missing.
  const char *WeakRule;
  /// Install names under these prefixes are the system's (dyld's shared
  /// cache); empty for ld.so, whose system is a family of names.
  llvm::ArrayRef<const char *> SystemPrefixes;
  /// ld.so: file names of the C/C++ runtime every distribution installs.
  llvm::ArrayRef<const char *> SystemNamePrefixes;
  /// The absolute names of that runtime every system holds (the
  /// interpreters' ABI-fixed paths), compared as written.
  llvm::ArrayRef<InterpreterPath> SystemPaths;
};

const LoaderRules &rulesFor(objlib::Format F);

/// The system library test of the rules: Mach-O a name under a system
/// prefix, ELF a runtime name (bare, or an interpreter's fixed path).
bool isSystemName(const LoaderRules &R, llvm::StringRef Name);

/// Whether Path is the interpreter (PT_INTERP) the psABI of the machine
/// Arch ("x86_64", "aarch64", ...) fixes: a system's own loader.
bool isSystemInterpreter(const LoaderRules &R, llvm::StringRef Arch, llvm::StringRef Path);

/// A load path or search path with its tokens expanded.
struct Expansion {
  std::string Path;          // "." and ".." removed; empty when undecidable
  /// As the loader opens it, "." and ".." kept: the kernel walks "x/.."
  /// only when x is a directory (nonexistent/.. fails), which Path's
  /// lexical form no longer says. ld.so opens the concatenation as it
  /// stands (glibc elf/dl-load.c open_path); dyld too (dyld-1378
  /// Loader::expandAtLoaderPath copies the rest after the directory; only
  /// expandAndNormalizeAtExecutablePath chops leading "/.." off the real
  /// main path), and its last resort, realpath(), fails on the same path.
  std::string Raw;
  bool FromToken = false;    // relative to an image or the executable
  /// Why it cannot be expanded here: @executable_path of an image no
  /// executable loads, $LIB/$PLATFORM; empty when it can.
  std::string Undecidable;
  bool UnknownPrefix = false; // dyld: an '@' prefix it does not expand
};

/// Expands P as R's loader does for an image in ImageDir; ExeDir is the
/// main executable's directory, empty when unknown.
Expansion expand(const LoaderRules &R, llvm::StringRef P, llvm::StringRef ImageDir,
                 llvm::StringRef ExeDir);

/// A dependency name as the loader takes it: searched for, or a path.
/// dyld: a name is searched when it starts with "@rpath/" (dyld/Loader.cpp
/// Loader::forEachResolvedAtPathVar). ld.so: the tokens of a DT_NEEDED name
/// are expanded first (glibc elf/dl-deps.c _dl_map_object_deps, expand_dst)
/// and then a name without '/' is searched (elf/dl-load.c _dl_map_object),
/// so "lib$FOO.so" is searched as it stands and "$ORIGIN/x.so" is a path.
struct NameLookup {
  bool Searched = false;
  std::string Leaf; // Searched: the name looked for in each directory
  Expansion Path;   // not Searched: the name expanded (maybe undecidable)
};
NameLookup lookupName(const LoaderRules &R, llvm::StringRef Name, llvm::StringRef ImageDir,
                      llvm::StringRef ExeDir);

/// The path whose directory is the main program's $ORIGIN / @loader_path /
/// @executable_path: Abs (absolute) with its own symbolic links followed.
/// ld.so takes the main program's origin from /proc/self/exe, links
/// resolved (glibc elf/dl-origin.c _dl_get_origin); dyld from the kernel's
/// executable_file (dyld/DyldProcessConfig.cpp: mainExecutablePath, the
/// real path; mainUnrealPath, the path as launched, only for
/// _NSGetExecutablePath). So bin/app -> ../libexec/app loads from libexec/.
/// dyld does the same for every image (docs/check.md: @loader_path "after
/// links", JustInTimeLoader keeps the real path); ld.so for a library keeps
/// the path it opened it by.
/// Links in the directories above the file are not followed; at most 40
/// links (the kernel's ELOOP bound), then the last path reached.
std::string mainProgramPath(llvm::StringRef Abs);

/// Dir + "/" + Rest as the loader concatenates them, "." and ".." kept.
std::string rawJoin(llvm::StringRef Dir, llvm::StringRef Rest);

/// "." and ".." removed, '/' separated.
std::string normalizePath(llvm::StringRef P);
std::string joinPath(llvm::StringRef Dir, llvm::StringRef Rest);

/// Resolutions and search directories tried for one closure (a tree's, or
/// one file's dependencies): past it the verdict is undecided (92). Search
/// paths x names grows as the square of a file's size; each try is a stat.
constexpr size_t LoaderSearchBound = size_t(1) << 22;

/// Whether the absolute path P is Root or below it, compared by whole
/// components ("/a/bc" is not under "/a/b").
bool isUnder(llvm::StringRef P, llvm::StringRef Root);

} // namespace linkguard::contract
