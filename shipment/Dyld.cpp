//===- Dyld.cpp - a root's load closure as dyld computes it ---------------===//
//
// dyld-1378 (apple-oss-distributions/dyld, tag dyld-1378; the steps are the
// same in the tags docs/check.md lists), step by step in dyld's own order.
// Each step names the function it restates:
//
//  1. dyld/JustInTimeLoader.cpp JustInTimeLoader::loadDependents: every
//     dependent of an image is resolved first (forEachLinkedDylib, each
//     through getLoader with the rpath stack {the image, its chain}); then
//     each resolved dependent is expanded in order, depth-first, with the
//     chain extended by the image. An image whose dependents are set
//     ("dependentsSet") is not expanded again: the chain of its first
//     expansion is its @rpath stack, whichever image loaded it. The first
//     failure ends the launch; linkguard goes on to report every
//     dependency, each judged with what was loaded before it.
//  2. Same function: an absolute load path is first compared with every
//     loaded image (Loader::matchesPath: the path it was loaded from, or
//     its install name when that differs).
//  3. dyld/Loader.cpp Loader::getLoader: an @rpath name already loaded as
//     that install name is reused ("already-loaded-by-rpath"); then each
//     possible path (Loader::forEachPath -> forEachResolvedAtPathVar:
//     @loader_path against the requester's real path, @executable_path,
//     or for @rpath each LC_RPATH of the stack, the requester's first and
//     the main executable's last, each expanded against the image holding
//     it; an absolute LC_RPATH as it stands; then, for a requester built
//     with an SDK before the 2022 releases (JustInTimeLoader: pre2022Binary,
//     MachOFile::enforceFormat sdkOnOrAfter2022: macOS SDK < 14.0), the
//     classic fallback directories /usr/local/lib and /usr/lib
//     (DyldProcessConfig.cpp forEachDylibFallback)). For each:
//       - an image loaded from that path or file (matchesPath, inode) is
//         reused;
//       - not a regular file: "no such file" / "not a file", next path;
//       - JustInTimeLoader::makeJustInTimeLoaderDisk ->
//         MachOFile::compatibleSlice: not Mach-O, no slice the process's
//         GradedArchitectures takes ("fat file, but missing compatible
//         architecture", "incompatible architecture"), another platform
//         ("incompatible platform"); a bundle ("cannot link against
//         bundle") or main executable ("cannot link against a main
//         executable") as a dependency; a validation error
//         (mach_o::Header::valid, contract::dyldRefusals): recorded as
//         tried, and dyld goes on to the next path;
//       - otherwise it loads.
//     Only when no path loads is the name missing ("tried: ..."), and a
//     weak one (LC_LOAD_WEAK_DYLIB, options.canBeMissing) may be.
//  4. mach_o/GradedArchitectures.cpp: the slice dyld maps from a universal
//     file is the best-graded one for the process (hasCompatibleSlice):
//     DyldProcessConfig.cpp getMainArchs -> currentLoad. On Apple silicon
//     (an arm64e dyld) an arm64 program runs with its pointer-auth keys
//     off and takes arm64e, then arm64 (load_arm64e_keysOff); an arm64e
//     one arm64e only (load_arm64e); on an Intel Mac a Haswell CPU takes
//     x86_64h, then x86_64 (load_macHaswell), others x86_64 (load_mac).
//     Each root slice is judged with its process's grading, an x86_64 one
//     also with a Haswell CPU's where the tree holds an x86_64h slice.
//
// Host-dependent: an absolute LC_RPATH (outside /usr/lib and
// /System/Library, which are the platform's) or a relative one tried before
// the entry that finds the tree's copy (that machine's file would load
// instead), or, when none finds one, any such entry; a weak dependency that
// no entry finds while a classic fallback directory may hold it (a pre-2022
// image). A file whose path differs from another's of the tree only in case
// is one file on macOS's default, case-insensitive file system: broken
// there.
//
//===----------------------------------------------------------------------===//
#include "shipment/Closure.h"
#include "shipment/SearchReport.h"

#include "contract/DyldRules.h"
#include "contract/LoaderRules.h"

#include "libnames/LibraryNames.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace linkguard::shipment {

std::vector<std::string> dyldGrading(StringRef Arch, bool Haswell) {
  // dyld/DyldProcessConfig.cpp Process::getMainArchs -> SyscallDelegate::
  // getGradedArchs -> mach_o/GradedArchitectures.cpp currentLoad: macOS's
  // arm64 dyld is arm64e; an arm64 main program runs with its keys off
  // (load_arm64e_keysOff: arm64e, then arm64), an arm64e one with them on
  // (load_arm64e: arm64e only); an x86-64 dyld grades by the CPU
  // (load_macHaswell: x86_64h, then x86_64; load_mac: x86_64).
  if (Arch == "arm64")
    return {"arm64e", "arm64"};
  if (Arch == "arm64e")
    return {"arm64e"};
  if (Arch == "x86_64h" || (Arch == "x86_64" && Haswell))
    return {"x86_64h", "x86_64"};
  return {Arch.str()};
}

namespace {

using contract::Expansion;
using contract::LoaderRules;
using objlib::DependencyKind;
using objlib::Slice;
constexpr sys::path::Style Posix = sys::path::Style::posix;

/// Entries of one directory read to find names that differ only in case.
constexpr size_t MaxDirEntries = 100000;

/// The classic fallback directories (DyldProcessConfig.cpp
/// forEachDylibFallback, FallbackPathMode::classic).
constexpr const char *FallbackDirs[] = {"/usr/local/lib", "/usr/lib"};

std::string parentOf(StringRef P) {
  StringRef D = sys::path::parent_path(P, Posix);
  return D.empty() ? "/" : D.str();
}

std::string joinedArchs(const std::vector<std::string> &A) { return llvm::join(A, " or "); }

/// JustInTimeLoader: pre2022Binary = !enforceFormat(sdkOnOrAfter2022);
/// common/MachOFile.cpp (dyld-1378) enforces it on macOS from SDK 14.0.
bool pre2022(const Slice &Sl) {
  if (!Sl.MachO)
    return false;
  objlib::MachOPlatform P = contract::dyldPlatform(*Sl.MachO);
  return P.Platform == 1 && P.SDK < 0x000E0000;
}

struct Dyld : ResolverState {
  Dyld(Shipment &S, const ClosureOptions &O, Closure &C, size_t &Budget, size_t RI)
      : ResolverState(S, O, C, Budget, RI) {
    Log.RootLeft = &WhyRoot;
    Log.ClosureLeft = &C.WhyLeft;
  }
  std::vector<std::string> Grading; // the process's GradedArchitectures
  uint32_t Platform = 0;            // the process's (the root's) platform
  const LoaderRules &LR = contract::rulesFor(objlib::Format::MachO);

  // Per root: what dyld holds while it loads.
  DenseMap<size_t, size_t> Mapped;        // image -> slice index dyld mapped
  DenseMap<size_t, size_t> ChainParent;   // the image whose expansion expanded it first
  DenseSet<size_t> Expanded;              // dependentsSet
  /// The possible paths of the dependency being resolved, with their
  /// reasons (Edge::Tried), and the root's share of the bound.
  TryLog Log;
  size_t WhyRoot = MaxWhyPerRoot;
  const Slice &sliceOf(size_t I) const {
    return S.images()[I].Info.Slices[Mapped.lookup(I)];
  }
  /// @loader_path of image I: the directory of the file dyld mapped, its
  /// real path (JustInTimeLoader keeps it); a root named through a link
  /// (a File shipment's) is taken at the file the link names.
  std::string RootDir;
  std::string dirOf(size_t I) const {
    return I == C.Roots[RI].Image ? RootDir : parentOf(S.absPath(I));
  }


  std::optional<std::string> relOf(StringRef Raw) const { return S.relOf(Raw); }

  /// GradedArchitectures::hasCompatibleSlice: the best-graded slice.
  std::optional<size_t> bestSlice(const objlib::BinaryInfo &B) const {
    for (const std::string &A : Grading)
      for (size_t I = 0; I < B.Slices.size(); ++I)
        if (B.Slices[I].Arch == A)
          return I;
    return std::nullopt;
  }

  /// One possible path, as getLoader's handler takes it.
  struct Try {
    enum class What {
      Missing, // no such file / not a file: next path
      Refused, // a Mach-O file dyld will not use here: next path (Why)
      Found,   // Image loads (Slice)
      Host,    // a link out of the tree: the machine's file
      Unknown, // a file linkguard could not read
    } Is = What::Missing;
    std::optional<size_t> Image;
    size_t Slice = 0;
    std::string Why;
    bool AbsoluteLink = false;
    /// Missing / Refused: which kind of refusal (--why).
    contract::TryReason Reason = contract::TryReason::Missing;
    std::string Real; // Unknown: the file's real path under the root
  };

  Try tryFile(const std::string &Rel, bool Dependency) {
    Try T;
    PathProbe P = S.probe(Rel);
    switch (P.Is) {
    case PathProbe::What::Missing:
      T.Why = "no such file";
      return T;
    case PathProbe::What::Loop:
      T.Why = "too many levels of symbolic links";
      T.Reason = contract::TryReason::NotLoadable;
      return T;
    case PathProbe::What::Outside:
      T.Is = Try::What::Host;
      T.Why = P.Target == ".." ? "leads above the tree" : "a link to " + P.Target + ", outside the tree";
      T.Reason = contract::TryReason::OutsideRoot;
      return T;
    case PathProbe::What::Directory:
    case PathProbe::What::Special:
      T.Why = "not a file"; // fileExists: ENOTAFILE_NP
      T.Reason = contract::TryReason::NotLoadable;
      return T;
    case PathProbe::What::File:
      break;
    }
    bool Unreadable = false;
    std::optional<size_t> I = S.imageAt(P.Real, &Unreadable);
    if (!I) {
      if (Unreadable) {
        T.Is = Try::What::Unknown;
        T.Why = "linkguard cannot read it";
        T.Reason = contract::TryReason::Unreadable;
        T.Real = P.Real;
        return T;
      }
      T.Is = Try::What::Refused;
      T.Why = "not a mach-o file";
      T.Reason = contract::TryReason::NotLoadable;
      return T;
    }
    T.Image = I;
    T.AbsoluteLink = P.AbsoluteLink;
    // matchesPath / already-loaded-by-inode: the same file is that image.
    if (Mapped.count(*I)) {
      T.Is = Try::What::Found;
      T.Slice = Mapped.lookup(*I);
      return T;
    }
    const objlib::BinaryInfo &B = S.images()[*I].Info;
    T.Is = Try::What::Refused;
    T.Reason = contract::TryReason::NotLoadable;
    if (B.Fmt != objlib::Format::MachO || B.Slices.empty()) {
      T.Why = "not a mach-o file";
      return T;
    }
    std::optional<size_t> Best = bestSlice(B);
    if (!Best) {
      std::vector<std::string> Have;
      Have.reserve(B.Slices.size());
      for (const Slice &Sl : B.Slices)
        Have.push_back(Sl.Arch);
      T.Reason = contract::TryReason::WrongArchitecture;
      T.Why = B.Universal ? "fat file, but missing compatible architecture (have '" +
                                llvm::join(Have, ",") + "', need '" + joinedArchs(Grading) + "')"
                          : "mach-o file, but is an incompatible architecture (have '" +
                                Have[0] + "', need '" + joinedArchs(Grading) + "')";
      return T;
    }
    const Slice &Sl = B.Slices[*Best];
    if (Platform && Sl.MachO) {
      bool Fits = false;
      std::vector<objlib::MachOPlatform> Ps = contract::dyldPlatforms(*Sl.MachO);
      for (const objlib::MachOPlatform &P2 : Ps)
        Fits |= P2.Platform == Platform;
      if (!Fits && !Ps.empty()) {
        T.Why = "mach-o file, but incompatible platform (have platform " +
                std::to_string(Ps[0].Platform) + ", need platform " + std::to_string(Platform) + ")";
        return T;
      }
    }
    if (Dependency) {
      if (Sl.FileType == "bundle") {
        T.Why = "cannot link against bundle";
        return T;
      }
      if (Sl.FileType == "executable") {
        T.Why = "cannot link against a main executable";
        return T;
      }
      if (Sl.FileType != "dylib") {
        T.Why = "unloadable mach-o file type (" + Sl.FileType + ")";
        return T;
      }
    }
    std::vector<contract::DyldRefusal> Refusals = contract::dyldRefusals(Sl);
    if (!Refusals.empty()) {
      T.Why = Refusals[0].DyldMessage + " (mach_o::Header::valid, " + Refusals[0].Releases + ")";
      return T;
    }
    T.Is = Try::What::Found;
    T.Slice = *Best;
    T.Reason = contract::TryReason::Accepted;
    return T;
  }

  /// Another entry of the tree whose name differs from a component of Rel
  /// only in case: on macOS's default file system (APFS, case-insensitive)
  /// the two are one entry.
  std::optional<std::string> caseTwin(StringRef Rel) {
    SmallVector<StringRef, 8> Parts;
    Rel.split(Parts, '/', -1, false);
    std::string Dir;
    llvm::StringMap<Shipment::CaseNames> &Cache = S.caseListings();
    for (StringRef Part : Parts) {
      auto It = Cache.find(Dir);
      if (It == Cache.end()) {
        Shipment::CaseNames L;
        if (S.kind() == Shipment::Kind::Zip) {
          // A zip holds no directories of its own: its members' paths.
          for (const ShippedImage &Im : S.images()) {
            StringRef R = Im.Rel;
            if (!Dir.empty() && !(R.starts_with(Dir) && R.drop_front(Dir.size()).starts_with("/")))
              continue;
            R = Dir.empty() ? R : R.drop_front(Dir.size() + 1);
            std::string First = R.split('/').first.str();
            std::vector<std::string> &V = L[StringRef(First).lower()];
            if (!llvm::is_contained(V, First))
              V.push_back(First);
          }
        } else if (const std::vector<std::string> *Walked = S.walkedNames(Dir)) {
          // The walk's listing of the directory: the same names, read once.
          if (!charge())
            return std::nullopt;
          for (size_t N = 0; N < Walked->size() && N < MaxDirEntries; ++N)
            L[StringRef((*Walked)[N]).lower()].push_back((*Walked)[N]);
        } else {
          if (!charge())
            return std::nullopt;
          std::error_code EC;
          std::string Abs = Dir.empty() ? S.root() : S.root() + "/" + Dir;
          size_t N = 0;
          for (sys::fs::directory_iterator DI(Abs, EC), End; !EC && DI != End && N < MaxDirEntries;
               DI.increment(EC), ++N) {
            std::string Name = sys::path::filename(DI->path()).str();
            L[StringRef(Name).lower()].push_back(Name);
          }
        }
        It = Cache.insert({Dir, std::move(L)}).first;
      }
      auto Names = It->second.find(Part.lower());
      if (Names != It->second.end())
        for (const std::string &Nm : Names->second)
          if (Nm != Part)
            return (Dir.empty() ? "" : Dir + "/") + Nm;
      Dir = Dir.empty() ? Part.str() : Dir + "/" + Part.str();
    }
    return std::nullopt;
  }

  struct Search {
    TriedPaths Tried;
    std::vector<std::string> HostEntries; // host paths tried before the hit
    std::string Undecided;
    bool Decided = false;
    Try Hit;
    std::string HitPath, HitLabel;
    std::string SystemLabel, SystemPath; // the first system-prefix path tried
    bool AnyPath = false;
    void tried(std::string T) { Tried.add(std::move(T)); }
  };

  /// getLoader's handler for one possible path (absolute, normalised by
  /// the caller only to tell where it is; Raw as dyld opens it).
  void possiblePath(Search &Se, const std::string &Raw, const std::string &Label) {
    if (Se.Decided || Exhausted || !charge())
      return;
    Se.AnyPath = true;
    std::string Norm = contract::normalizePath(Raw);
    std::optional<std::string> Rel = relOf(Raw);
    if (!Rel || !relOf(Norm)) {
      if (contract::isSystemName(LR, Norm)) {
        // The platform's directory: what is there is the system's.
        if (Se.SystemLabel.empty())
          Se.SystemLabel = Label, Se.SystemPath = Norm;
        Log.add(contract::TryReason::System, Raw, Label,
                "a macOS system prefix: the platform's file");
        return;
      }
      std::string Note;
      if (sys::fs::exists(Norm) && !sys::fs::is_directory(Norm))
        Note = ", which exists on this machine: that proves nothing about the machines the "
               "tree ships to";
      Se.HostEntries.push_back(Label + " -> " + Norm + " (outside the tree" + Note + ")");
      Log.add(contract::TryReason::HostDependent, Raw, Label,
              "outside the tree: the machine's file" + Note);
      return;
    }
    Try T = tryFile(*Rel, true);
    Log.add([&] {
      return contract::TriedCandidate{
          Raw, Label, T.Reason,
          T.AbsoluteLink && T.Is == Try::What::Found
              ? std::string("through an absolute symbolic link into the tree")
              : T.Why};
    });
    switch (T.Is) {
    case Try::What::Missing:
    case Try::What::Refused:
      Se.tried(Label + " -> " + Norm + " (" + T.Why + ")");
      return;
    case Try::What::Host:
      Se.HostEntries.push_back(Label + " -> " + Norm + " (" + T.Why + ")");
      return;
    default:
      break;
    }
    Se.Decided = true;
    Se.Hit = T;
    Se.HitPath = Norm;
    Se.HitLabel = Label;
  }

  std::vector<size_t> chainOf(size_t X) const {
    std::vector<size_t> Chain;
    for (std::optional<size_t> P = X; P;) {
      Chain.push_back(*P);
      auto It = ChainParent.find(*P);
      P = It == ChainParent.end() ? std::nullopt : std::optional<size_t>(It->second);
    }
    return Chain;
  }

  static constexpr const char *HostAdvice =
      "drop the absolute or relative LC_RPATH, or order it after the @loader_path / "
      "@executable_path entry that finds the shipped copy (install_name_tool -delete_rpath, "
      "-add_rpath)";

  /// The edge from a finished getLoader of D (What: "an @rpath name", ...).
  void conclude(Edge &E, const Search &Se, const objlib::Dependency &D, StringRef Leaf,
                const std::string &What, bool Pre2022) {
    if (Exhausted) {
      placeEdge(E, Outcome::Unknown,
            "is " + What + " whose search is past the bound (" + std::to_string(O.MaxEdges) +
                " dependencies and search paths tried in all): undecided",
            "judge a smaller tree, or shorten the search paths that make the bound");
      return;
    }
    if (Se.Decided) {
      const Try &T = Se.Hit;
      // What is certain first (an entry that cannot be decided, a hit
      // linkguard cannot read, an absolute link), then a machine's entry
      // tried first.
      if (!Se.Undecided.empty()) {
        placeEdge(E, Outcome::Unknown,
              "resolves to " + Se.HitPath + ", but dyld first tries " + Se.Undecided,
              "name the main program with --executable");
        return;
      }
      if (T.Is == Try::What::Unknown) {
        placeEdge(E, Outcome::Unknown, "dyld would load " + Se.HitPath + ", which linkguard cannot read",
              "see the read error reported for that file");
        E.Unreadable = S.nameOf(T.Real); // one file, whatever path reached it
        return;
      }
      E.Target = T.Image;
      E.ResolvedPath = Se.HitPath;
      E.Via = Se.HitLabel;
      if (T.AbsoluteLink) {
        placeEdge(E, Outcome::NonPortable,
              "resolves to " + Se.HitPath + " through an absolute symbolic link into the tree: "
                  "it breaks where the tree is unpacked elsewhere",
              "make the link relative");
        return;
      }
      if (!Se.HostEntries.empty()) {
        placeEdge(E, Outcome::HostDependent,
              "resolves to " + Se.HitPath + " through " + Se.HitLabel + ", but dyld tries " +
                  listedUpTo(Se.HostEntries) + " first: a machine with the library there loads that copy",
              HostAdvice);
        E.HostEntriesOnly = true;
        return;
      }
      placeEdge(E, Outcome::Shipped, "resolves to " + S.printName(*T.Image) + ", shipped in the tree");
      return;
    }
    if (!Se.SystemLabel.empty()) {
      E.ResolvedPath = Se.SystemPath;
      E.Via = Se.SystemLabel;
      placeEdge(E, Outcome::System, "resolves under a macOS system prefix");
      return;
    }
    if (!Se.Undecided.empty()) {
      placeEdge(E, Outcome::Unknown, "is " + What + " whose search cannot be decided: " + Se.Undecided,
            "name the main program with --executable");
      return;
    }
    if (!Se.HostEntries.empty()) {
      placeEdge(E, Outcome::HostDependent,
            "is " + What + " that resolves to no file of the tree; dyld also tries " +
                listedUpTo(Se.HostEntries) + ": it loads only where the machine has it there" +
                Se.Tried.text(),
            "ship the library and find it through @loader_path, or declare it with --provided");
      E.HostEntriesOnly = true;
      return;
    }
    std::string R = "is " + What + " that resolves to no file of the tree";
    if (!Se.AnyPath)
      R += " (no LC_RPATH in the image or in any image that loads it, and no --search)";
    R += Se.Tried.text();
    // A library shipped under another file name: dyld opens paths.
    for (size_t I = 0; I < S.images().size(); ++I)
      for (const Slice &Sl : S.images()[I].Info.Slices)
        if (Sl.InstallName && libnames::fileNameOf(*Sl.InstallName) == Leaf &&
            sys::path::filename(S.images()[I].Rel, Posix) != Leaf) {
          R += "; " + S.printName(I) + " has LC_ID_DYLIB " + *Sl.InstallName +
               " but no file or link is named " + Leaf.str() + " where the loader looks";
          I = S.images().size() - 1;
          break;
        }
    if (D.Kind == DependencyKind::Weak && Pre2022) {
      // forEachDylibFallback: the requester predates the 2022 SDKs.
      std::vector<std::string> Fb;
      for (const char *Dir : FallbackDirs) {
        Fb.push_back(contract::joinPath(Dir, Leaf));
        Log.add(contract::TryReason::HostDependent, Fb.back(), "dyld's classic fallback",
                "the machine's directory, tried for an image built with an SDK before macOS 14");
      }
      placeEdge(E, Outcome::HostDependent,
            R + "; a weak dylib of an image built with an SDK before macOS 14, so dyld then "
                "tries its classic fallback directories " + llvm::join(Fb, " and ") +
                ": a machine with the library there loads that copy",
            "ship the library and find it through @loader_path, or rebuild the image with a "
            "current SDK");
      return;
    }
    placeEdge(E, Outcome::Unresolved, std::move(R),
          "ship " + Leaf.str() + " in a directory an @loader_path / @executable_path LC_RPATH "
          "names, or declare it with --provided");
  }

  /// Loader::getLoader for the dependency D of image X.
  Edge resolve(size_t X, const objlib::Dependency &D) {
    Edge E;
    E.Root = RI;
    E.Image = X;
    E.Slice = sliceOf(X).Arch;
    E.Dependency = D.Name;
    E.Kind = D.Kind;
    StringRef N = D.Name;
    const bool Pre = pre2022(sliceOf(X));
    if (contract::isSystemName(LR, N)) {
      placeEdge(E, Outcome::System, "is under a macOS system prefix");
      return E;
    }
    if (listedIn(O.SystemList, N)) {
      placeEdge(E, Outcome::System, "is listed in the --system-list file");
      return E;
    }
    // loadDependents' quick check, and getLoader's already-loaded-by-rpath:
    // a loaded image whose install name is the name.
    if (N.starts_with("/") || N.starts_with("@rpath/"))
      for (size_t Ld : root().Loaded) {
        const Slice &LS = sliceOf(Ld);
        if (LS.InstallName && *LS.InstallName == N && Ld != X) {
          E.Target = Ld;
          E.ResolvedPath = S.absPath(Ld);
          E.Via = "already loaded: the LC_ID_DYLIB of " + S.printName(Ld);
          placeEdge(E, Outcome::Shipped, "is " + S.printName(Ld) + ", already loaded");
          return E;
        }
      }
    const std::string ExeDir = root().ExecutableDir;
    contract::NameLookup L = contract::lookupName(LR, N, dirOf(X), ExeDir);
    Search Se;
    std::string What;
    StringRef Leaf = sys::path::filename(N, Posix);
    if (L.Searched) {
      What = "an @rpath name";
      Leaf = L.Leaf;
      // forEachResolvedAtPathVar: the LC_RPATHs of the stack, the
      // requester's first.
      std::vector<size_t> Chain = chainOf(X);
      if (const std::optional<size_t> Host = root().Host;
          Host && !llvm::is_contained(Chain, *Host))
        Chain.push_back(*Host);
      for (size_t H : Chain) {
        if (Se.Decided || Exhausted)
          break;
        const Slice *HS = nullptr;
        if (Mapped.count(H)) {
          HS = &sliceOf(H);
        } else {
          const objlib::BinaryInfo &HB = S.images()[H].Info;
          if (std::optional<size_t> B = bestSlice(HB))
            HS = &HB.Slices[*B];
        }
        if (!HS)
          continue;
        // A copy: a File shipment reads images as they are found, which
        // may move images() (and HS) while the paths are tried.
        const std::vector<objlib::SearchPath> Paths = HS->SearchPaths;
        for (const objlib::SearchPath &SP : Paths) {
          if (Se.Decided || Exhausted)
            break;
          std::string Label =
              "LC_RPATH " + SP.Path + (H == X ? "" : " of " + S.printName(H));
          Expansion Ex = contract::expand(LR, SP.Path, dirOf(H), ExeDir);
          if (!Ex.Undecidable.empty()) {
            if (Se.Undecided.empty())
              Se.Undecided = Label + ": " + Ex.Undecidable;
            Log.add(contract::TryReason::Undecided, contract::rawJoin(SP.Path, Leaf), Label,
                    Ex.Undecidable);
            continue;
          }
          if (Ex.UnknownPrefix) {
            Se.tried(Label + " (starts with an @ prefix dyld does not expand)");
            Log.add(contract::TryReason::NotLoadable, contract::rawJoin(SP.Path, Leaf), Label,
                    "starts with an @ prefix dyld does not expand");
            continue;
          }
          if (!Ex.FromToken && !StringRef(Ex.Path).starts_with("/")) {
            if (!charge())
              break;
            Se.AnyPath = true;
            Se.HostEntries.push_back(Label + " (relative: dyld tries it against the current "
                                             "directory of the process)");
            Log.add(contract::TryReason::HostDependent, contract::rawJoin(Ex.Path, Leaf), Label,
                    "relative: dyld tries it against the current directory of the process");
            continue;
          }
          possiblePath(Se, contract::rawJoin(Ex.Raw.empty() ? Ex.Path : Ex.Raw, Leaf), Label);
        }
      }
      for (const std::string &Dir : O.SearchDirs) {
        if (Se.Decided || Exhausted)
          break;
        std::string Abs = StringRef(Dir).starts_with("/") ? contract::normalizePath(Dir)
                                                          : contract::joinPath(S.root(), Dir);
        possiblePath(Se, contract::joinPath(Abs, Leaf), "--search " + Dir);
      }
    } else {
      const Expansion &Ex = L.Path;
      if (!Ex.Undecidable.empty()) {
        placeEdge(E, Outcome::Unknown, Ex.Undecidable, "name the main program with --executable");
        return E;
      }
      if (Ex.UnknownPrefix) {
        placeEdge(E, Outcome::NonPortable, "starts with an @ prefix dyld does not expand",
              "use @rpath/, @loader_path/ or @executable_path/");
        return E;
      }
      if (!Ex.FromToken) {
        if (N.starts_with("/"))
          placeEdge(E, Outcome::NonPortable,
                "is an absolute path outside /usr/lib/ and /System/Library/: it loads only "
                "where that file exists" +
                    std::string(sys::fs::exists(D.Name)
                                    ? "; the file exists on this machine, which proves nothing "
                                      "about the machines the tree ships to"
                                    : ""));  // advice: contract/Advice's table (names the library)
        else
          placeEdge(E, Outcome::NonPortable,
                "is a relative path, which the loader resolves against the current directory "
                "of the process",
                "use @rpath/, @loader_path/ or @executable_path/");
        return E;
      }
      What = N.starts_with("@executable_path") ? "an @executable_path name" : "an @loader_path name";
      std::string Raw = Ex.Raw.empty() ? Ex.Path : Ex.Raw;
      std::string Label =
          "the " + std::string(N.starts_with("@executable_path") ? "executable's" : "image's") +
          " directory";
      if (!relOf(contract::normalizePath(Raw))) {
        if (!charge()) {
          conclude(E, Se, D, Leaf, What, Pre);
          return E;
        }
        Log.add(contract::TryReason::OutsideRoot, Raw, Label, "outside the tree " + S.root());
        placeEdge(E, Outcome::NonPortable,
              "resolves to " + Ex.Path + ", outside the tree " + S.root() +
                  (sys::fs::exists(Ex.Path) ? " (the file exists on this machine)" : ""),
              "ship the library inside the tree");
        return E;
      }
      possiblePath(Se, Raw, Label);
    }
    conclude(E, Se, D, Leaf, What, Pre);
    if (E.Target && (E.Where == Outcome::Shipped || E.Where == Outcome::HostDependent ||
                     E.Where == Outcome::NonPortable)) {
      // Names that differ only in case collide on macOS's file system.
      if (std::optional<std::string> Twin = caseTwin(S.images()[*E.Target].Rel);
          Twin && E.Where == Outcome::Shipped) {
        placeEdge(E, Outcome::NonPortable,
              "resolves to " + S.printName(*E.Target) + ", but the tree also holds " + *Twin +
                  ", whose name differs only in case: on macOS's default (case-insensitive) "
                  "file system they are one entry, so one of them is lost where the tree is "
                  "installed",
              "rename one of them so that no two names differ only in case");
      }
      if (!Mapped.count(*E.Target)) {
        Mapped[*E.Target] = Se.Decided ? Se.Hit.Slice : 0;
        root().Loaded.push_back(*E.Target);
      }
    }
    return E;
  }

  /// JustInTimeLoader::loadDependents, depth-first with an explicit stack.
  void run() {
    Root &R = root();
    Mapped[R.Image] = [&] {
      const auto &Sl = S.images()[R.Image].Info.Slices;
      for (size_t I = 0; I < Sl.size(); ++I)
        if (Sl[I].Arch == R.Arch)
          return I;
      return size_t(0);
    }();
    R.Loaded.push_back(R.Image);
    RootDir = parentOf(contract::mainProgramPath(S.absPath(R.Image)));
    if (const Slice &RS = sliceOf(R.Image); RS.MachO)
      Platform = contract::dyldPlatform(*RS.MachO).Platform;
    struct Frame {
      size_t Image;
      std::vector<size_t> Dependents;
      size_t Next = 0;
    };
    std::vector<Frame> Stack;
    auto expand = [&](size_t X) -> bool {
      if (!Expanded.insert(X).second)
        return false; // dependentsSet
      Frame F{X, {}, 0};
      const std::vector<objlib::Dependency> Deps = sliceOf(X).Dependencies; // see resolve
      for (const objlib::Dependency &D : Deps) {
        if (!charge())
          return false;
        Edge E = resolve(X, D);
        takeTries(E, Log);
        if ((E.Where == Outcome::Unresolved || E.Where == Outcome::NonPortable ||
             E.Where == Outcome::HostDependent) &&
            listedIn(O.Provided, E.Dependency)) {
          E.Target.reset();
          placeEdge(E, Outcome::Provided, "is declared application-provided (--provided)");
        }
        if (E.Where == Outcome::Unresolved && D.Kind == DependencyKind::Weak) {
          E.Allowed = true;
          E.Reason += "; a weak dylib (LC_LOAD_WEAK_DYLIB) may be missing: dyld goes on without it";
        }
        settleTries(E, O, WhyRoot, C.WhyLeft);
        if (E.Target)
          F.Dependents.push_back(*E.Target);
        C.Roots[RI].Edges.push_back(C.Edges.size());
        C.Edges.push_back(std::move(E));
      }
      Stack.push_back(std::move(F));
      return true;
    };
    expand(R.Image);
    while (!Stack.empty() && !Exhausted) {
      Frame &F = Stack.back();
      if (F.Next == F.Dependents.size()) {
        Stack.pop_back();
        continue;
      }
      size_t Child = F.Dependents[F.Next++];
      const size_t Parent = F.Image;
      if (Expanded.count(Child))
        continue;
      ChainParent[Child] = Parent;
      expand(Child); // may reallocate Stack: F is not used after this
    }
  }
};

} // namespace

void closeWithDyld(Shipment &S, const ClosureOptions &O, Closure &C, size_t RI, size_t &Budget,
                   const std::vector<std::string> &Grading) {
  Dyld D(S, O, C, Budget, RI);
  D.Grading = Grading;
  D.run();
}

} // namespace linkguard::shipment
