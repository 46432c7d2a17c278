//===- Portability.cpp - place each dependency: system, shipped, provided -===//
//
// How the loaders look a name up, which is what "resolves" means here:
// contract/LoaderRules.cpp, one table a loader with its source, and its
// expand() and lookupName(), the ones the tree's closure (shipment/) uses,
// so a file and a tree holding it get one verdict. In short:
//  - dyld: "@rpath/X" is tried as R/X for every LC_RPATH R of the loading
//    image (then the application's: --search); "@loader_path" is the
//    directory of the image holding the load command, "@executable_path"
//    that of the main executable: the binary's own when it is one, else
//    --executable's, else unknown (undecided, never "holds"); a name with
//    another '@' prefix is never tried; an LC_RPATH with one is skipped.
//  - ld.so: a DT_NEEDED name without a slash (after its tokens are
//    expanded) is searched in DT_RPATH (only when there is no DT_RUNPATH),
//    LD_LIBRARY_PATH, DT_RUNPATH, ld.so.cache and the default directories;
//    "$ORIGIN" / "${ORIGIN}" is the directory of the object, $LIB and
//    $PLATFORM depend on the machine (Unknown), and any other "$NAME" is
//    no token: the loader takes it as it stands.
// Only binary-relative search paths can ship a library: an absolute
// LC_RPATH / DT_RUNPATH that finds the file names this machine's layout.
//
//===----------------------------------------------------------------------===//
#include "contract/Portability.h"

#include "contract/LoaderRules.h"

#include "support/EnumNames.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <optional>

namespace linkguard::contract {

using llvm::StringRef;
using objlib::BinaryInfo;
using objlib::Dependency;
using objlib::Format;
using objlib::SearchPathKind;
using objlib::Slice;
namespace path = llvm::sys::path;
constexpr path::Style Posix = path::Style::posix;

FileProbe realFileProbe() {
  return [](const std::string &P) {
    llvm::sys::fs::file_status St;
    return !llvm::sys::fs::status(P, St) && llvm::sys::fs::exists(St) &&
           !llvm::sys::fs::is_directory(St);
  };
}

const char *placementName(Placement P) {
  return enumName(P,
                  {"system", "shipped", "provided", "non-portable", "unknown"});
}

std::vector<Pattern> parseSystemList(StringRef Text) {
  std::vector<Pattern> Out;
  llvm::SmallVector<StringRef, 32> Lines;
  Text.split(Lines, '\n');
  for (StringRef L : Lines) {
    L = L.split('#').first.trim();
    if (!L.empty())
      Out.push_back({L.str()});
  }
  return Out;
}

namespace {

/// The system's names, as the loader's table says (contract/LoaderRules.cpp):
/// Mach-O a name under /usr/lib/ or /System/Library/ (not /usr/local/),
/// ELF the C/C++ runtime family, bare or under a default directory.
bool isMachOSystemPath(StringRef Name) {
  return isSystemName(rulesFor(Format::MachO), Name);
}

bool isELFSystemName(StringRef Name) {
  return isSystemName(rulesFor(Format::ELF), Name);
}

/// An absolute name is loaded from that path, so only a whole-name match can
/// declare it; a bare or @rpath name may be declared by its file name.
bool listed(const std::vector<Pattern> &Patterns, const std::string &Name) {
  for (const Pattern &P : Patterns)
    if (StringRef(Name).starts_with("/") ? P.matchesWholeName(Name)
                                         : P.matches(Name))
      return true;
  return false;
}

struct Placer {
  const BinaryInfo &Binary;
  const Slice &S;
  const PortabilityOptions &Options;
  const FileProbe &Exists;
  std::string LoaderDir; // the binary's directory
  std::string Root;      // the bundle root
  /// The main executable's directory (@executable_path): the binary's own
  /// when it is a main program, else --executable's; empty when unknown.
  std::string ExeDir;
  const LoaderRules &Rules = rulesFor(Binary.Fmt);
  size_t *Left = nullptr; // search directories still to try (MaxProbes)

  /// The tokens of P expanded by the loader's table, as the tree's closure
  /// expands them (contract/LoaderRules.cpp: one implementation).
  Expansion expand(StringRef P) const {
    return contract::expand(Rules, P, LoaderDir, ExeDir);
  }

  /// Whether the loader's own concatenation Raw ("." and ".." kept) opens
  /// a file too: the kernel walks "x/.." only when x is a directory, so
  /// "$ORIGIN/nonexistent/../lib" finds nothing where its lexical form
  /// Norm does (contract::Expansion::Raw).
  bool reaches(const std::string &Raw, const std::string &Norm) const {
    return Raw.empty() || Raw == Norm || Exists(Raw);
  }

  /// Whether the file at P (as the loader opens it) stays under the bundle
  /// root once its links are followed (PortabilityOptions::InsideRoot).
  bool inside(const std::string &P) const {
    return !Options.InsideRoot || Options.InsideRoot(P, Root);
  }

  std::string existsHere(const std::string &P) const {
    return Exists(P) ? "; the file exists on this machine, which proves "
                       "nothing about the machines the binary ships to"
                     : "";
  }

  DependencyPlacement place(const Dependency &D) const {
    DependencyPlacement P;
    P.Slice = S.Arch;
    P.Dependency = D.Name;
    P.Kind = D.Kind;
    auto set = [&](Placement W, std::string Reason) {
      P.Where = W;
      P.Reason = std::move(Reason);
      return P;
    };
    StringRef N = D.Name;
    const bool MachO = Binary.Fmt == Format::MachO;

    // An absolute ELF name: only the interpreter this slice's machine fixes.
    if (MachO ? isMachOSystemPath(N)
              : isELFSystemName(N) &&
                    (!N.starts_with("/") ||
                     isSystemInterpreter(rulesFor(Format::ELF), S.Arch, N)))
      return set(Placement::System, MachO ? "is under a macOS system prefix"
                                          : "is part of the C/C++ runtime "
                                            "every Linux system provides");
    if (listed(Options.SystemList, D.Name))
      return set(Placement::System, "is listed in the --system-list file");
    if (listed(Options.Provided, D.Name))
      return set(Placement::Provided,
                 "is declared application-provided (--provided)");

    NameLookup L = lookupName(Rules, N, LoaderDir, ExeDir);
    if (L.Searched)
      return search(P, L.Leaf, MachO ? "an @rpath name" : "a DT_NEEDED name");
    const Expansion &E = L.Path;
    if (!E.Undecidable.empty())
      return set(Placement::Unknown, E.Undecidable);
    if (E.UnknownPrefix)
      return set(Placement::NonPortable,
                 "starts with an @ prefix dyld does not expand");
    if (E.FromToken) {
      P.ResolvedPath = E.Path;
      P.Via = N.starts_with("@executable_path")
                  ? "the executable's directory " + ExeDir
                  : "the binary's directory " + LoaderDir;
      if (!isUnder(E.Path, Root))
        return set(Placement::NonPortable, "resolves to " + E.Path +
                                               ", outside the bundle root " +
                                               Root + existsHere(E.Path));
      if (Exists(E.Path) && reaches(E.Raw, E.Path) && !inside(E.Raw.empty() ? E.Path : E.Raw))
        return set(Placement::NonPortable,
                   "resolves to " + E.Path + ", a symbolic link out of the bundle root " + Root +
                       ": what ships is a link to this machine's file");
      if (Exists(E.Path) && reaches(E.Raw, E.Path))
        return set(Placement::Shipped,
                   "resolves to a file under the bundle root");
      return set(Placement::NonPortable,
                 "resolves to " + E.Path + ", which does not exist" +
                     (Exists(E.Path) ? " as the loader opens it (" + E.Raw +
                                           ": a directory before '..' is missing)"
                                     : ""));
    }
    if (N.starts_with("/"))
      return set(Placement::NonPortable,
                 std::string("is an absolute path outside ") +
                     (MachO ? "/usr/lib/ and /System/Library/"
                            : "the system library family") +
                     ": it loads only where that file exists" +
                     existsHere(D.Name));
    return set(Placement::NonPortable,
               "is a relative path, which the loader resolves against the "
               "current directory of the process");
  }

  /// Whether Cand, a path under the bundle root reached through Label, is a
  /// file: then P places the dependency there as shipped, for Reason; if not,
  /// Cand joins the paths Tried.
  bool shipped(DependencyPlacement &P, const std::string &Cand,
               const std::string &Label, const char *Reason,
               std::vector<std::string> &Tried, const std::string &Raw = "") const {
    if (!Exists(Cand)) {
      Tried.push_back(Label + " -> " + Cand);
      return false;
    }
    if (!reaches(Raw, Cand)) {
      Tried.push_back(Label + " -> " + Raw + " (a directory before '..' is missing)");
      return false;
    }
    if (!inside(Raw.empty() ? Cand : Raw)) {
      Tried.push_back(Label + " -> " + Cand + " (a symbolic link out of the bundle root)");
      return false;
    }
    P.ResolvedPath = Cand, P.Via = Label;
    P.Where = Placement::Shipped;
    P.Reason = Reason;
    return true;
  }

  /// @rpath/Rest (Mach-O) or a bare DT_NEEDED name (ELF): try each search
  /// path of the binary, then the application's directories.
  DependencyPlacement search(DependencyPlacement P, StringRef Rest,
                             StringRef What) const {
    std::vector<std::pair<std::string, std::string>> Entries; // path, label
    bool HasRunPath = false;
    for (const objlib::SearchPath &SP : S.SearchPaths)
      HasRunPath |= SP.Kind == SearchPathKind::RunPath;
    for (const objlib::SearchPath &SP : S.SearchPaths) {
      // glibc ignores DT_RPATH when DT_RUNPATH is present.
      if (Binary.Fmt == Format::ELF && HasRunPath &&
          SP.Kind != SearchPathKind::RunPath)
        continue;
      const char *Label = Binary.Fmt == Format::MachO          ? "LC_RPATH "
                          : SP.Kind == SearchPathKind::RunPath ? "DT_RUNPATH "
                                                               : "DT_RPATH ";
      Entries.push_back({SP.Path, Label + SP.Path});
    }

    std::vector<std::string> Tried, Notes;
    bool Unknown = false, Exhausted = false;
    auto charge = [&] {
      if (*Left == 0) {
        Exhausted = true;
        return false;
      }
      --*Left;
      return true;
    };
    for (const auto &[Entry, Label] : Entries) {
      if (!charge())
        break;
      Expansion E = expand(Entry);
      if (!E.Undecidable.empty()) {
        Unknown = true;
        Notes.push_back(Label + ": " + E.Undecidable);
        continue;
      }
      if (E.UnknownPrefix) { // dyld tries it against the current directory
        Notes.push_back(Label + " starts with an @ prefix dyld does not expand");
        continue;
      }
      std::string Cand = joinPath(E.Path, Rest);
      if (!E.FromToken) {
        if (Binary.Fmt == Format::MachO && isMachOSystemPath(Cand)) {
          P.ResolvedPath = Cand, P.Via = Label;
          P.Where = Placement::System;
          P.Reason = "resolves under a macOS system prefix";
          return P;
        }
        if (StringRef(Entry).starts_with("/") && Exists(Cand))
          Notes.push_back("found at " + Cand + " through " + Label +
                          ", an absolute path that exists on this machine, "
                          "which proves nothing about shipping");
        else
          Tried.push_back(Label + " -> " + Cand);
        continue;
      }
      if (!isUnder(Cand, Root)) {
        Notes.push_back(Label + " leads to " + Cand +
                        ", outside the bundle root" +
                        (Exists(Cand) ? " (the file exists there)" : ""));
        continue;
      }
      if (shipped(P, Cand, Label,
                  "resolves to a file shipped under the bundle root", Tried,
                  rawJoin(E.Raw, Rest)))
        return P;
    }
    for (const std::string &Dir : Options.SearchDirs) {
      if (Exhausted || !charge())
        break;
      std::string Abs =
          StringRef(Dir).starts_with("/") ? normalizePath(Dir) : joinPath(Root, Dir);
      std::string Cand = joinPath(Abs, Rest);
      std::string Label = "--search " + Dir;
      if (!isUnder(Cand, Root)) {
        Notes.push_back(Label + " is outside the bundle root");
        continue;
      }
      if (shipped(P, Cand, Label,
                  "resolves to a file in the application's directories", Tried))
        return P;
    }

    if (Exhausted) {
      P.Where = Placement::Unknown;
      P.Reason = "is " + What.str() + " whose search is past the bound (" +
                 std::to_string(Options.MaxProbes) +
                 " search paths tried for the binary's dependencies): undecided";
      return P;
    }
    P.Where = Unknown ? Placement::Unknown : Placement::NonPortable;
    std::string R = "is " + What.str() +
                    " that resolves to no file under the bundle root " + Root;
    if (Entries.empty() && Options.SearchDirs.empty())
      R += Binary.Fmt == Format::MachO
               ? " (the binary has no LC_RPATH and no --search was given)"
               : " (the binary has no DT_RUNPATH/DT_RPATH and no --search "
                 "was given)";
    // At most 8 tries and 8 notes named, the rest counted (issue 37 part 5:
    // thousands of LC_RPATHs must not make a message of megabytes).
    auto listed = [](const std::vector<std::string> &L, const char *Sep) {
      const size_t N = std::min<size_t>(L.size(), 8);
      std::string T = llvm::join(L.begin(), L.begin() + static_cast<std::ptrdiff_t>(N), Sep);
      if (L.size() > N)
        T += std::string(Sep) + "and " + std::to_string(L.size() - N) + " more";
      return T;
    };
    if (!Tried.empty())
      R += " (tried " + listed(Tried, ", ") + ")";
    if (!Notes.empty())
      R += "; " + listed(Notes, "; ");
    P.Reason = std::move(R);
    return P;
  }
};

} // namespace

std::string installNameProblem(const Slice &S, Format Fmt) {
  if (Fmt != Format::MachO || S.FileType != "dylib" || !S.InstallName)
    return "";
  StringRef N = *S.InstallName;
  if (!N.starts_with("/") || isMachOSystemPath(N))
    return "";
  return "is an absolute path outside /usr/lib/ and /System/Library/: "
         "everything linked against it will load " +
         N.str() +
         ", which exists only where this library was installed";
}

std::vector<DependencyPlacement>
placeDependencies(const BinaryInfo &Binary, const PortabilityOptions &Options,
                  const FileProbe &Exists) {
  std::string LoaderDir =
      path::parent_path(normalizePath(Binary.Path), Posix).str();
  if (LoaderDir.empty())
    LoaderDir = ".";
  std::string Root =
      Options.BundleRoot.empty() ? LoaderDir : normalizePath(Options.BundleRoot);
  if (Root.size() > 1 && StringRef(Root).ends_with("/"))
    Root.pop_back();

  std::vector<DependencyPlacement> Out;
  size_t Left = Options.MaxProbes;
  for (const Slice &S : Binary.Slices) {
    Placer Pl{Binary, S, Options, Exists, LoaderDir, Root,
              S.MainProgram ? LoaderDir : Options.ExecutableDir};
    Pl.Left = &Left;
    for (const Dependency &D : S.Dependencies)
      Out.push_back(Pl.place(D));
  }
  return Out;
}

} // namespace linkguard::contract
