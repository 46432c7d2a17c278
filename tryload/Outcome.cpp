//===- Outcome.cpp - classify a loader run, judge its images --------------===//
#include "tryload/Outcome.h"

#include "libnames/LibraryNames.h"
#include "objlib/Reader.h"
#include "support/EnumNames.h"
#include "support/StableSort.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <csignal>
#include <cstring>
#include <map>
#include <set>
#include <tuple>
#include <sys/stat.h>
#include <sys/types.h>
#if defined(__linux__)
#include <sys/sysmacros.h>
#endif

namespace linkguard::tryload {

const char *outcomeName(Outcome O) {
  return enumName(O, {"holds", "broken", "load-failed", "call-failed",
                      "hide-unavailable", "report-incomplete", "undecided"});
}

const char *originName(Origin O) {
  return enumName(O, {"before-load", "library", "dependency", "call"});
}

namespace {

bool listed(const std::vector<contract::LoadedImage> &List,
            const contract::LoadedImage &I) {
  for (const contract::LoadedImage &L : List)
    if (L.Path == I.Path)
      return true;
  return false;
}

/// "exited with status 3" / "died by signal 11 (Segmentation fault)".
std::string howItEnded(const LoaderRun &Run) {
  if (Run.TimedOutAfter)
    return "was killed after " + std::to_string(Run.TimedOutAfter) +
           " s (--timeout)";
  if (Run.Signal)
    return "died by signal " + std::to_string(Run.Signal) + " (" +
           strsignal(Run.Signal) + ")";
  return "exited with status " + std::to_string(Run.ExitStatus);
}

/// The slice this machine's loader would use: its own architecture's, else
/// the first.
const objlib::Slice &hostSlice(const objlib::BinaryInfo &B) {
#if defined(__aarch64__)
  const char *Host = "arm64";
#elif defined(__x86_64__)
  const char *Host = "x86_64";
#else
  const char *Host = "";
#endif
  for (const objlib::Slice &S : B.Slices)
    if (S.Arch == Host)
      return S;
  return B.Slices.front();
}

/// A mapped file linkguard cannot name: a memfd, a file deleted since, an
/// anonymous inode. Its bytes may be any library.
bool unnamed(llvm::StringRef Path) {
  return !Path.starts_with("/") || Path.starts_with("/memfd:") ||
         Path.ends_with(" (deleted)");
}

/// One image the parent saw mapped with code, at the first stop that
/// showed it.
struct Seen {
  MappedFile File;
  size_t Stop = 0;
};

} // namespace

llvm::Expected<LibraryFacts> readLibraryFacts(const std::string &Path, bool WithMarkers) {
  LibraryFacts F;
  F.Path = Path;
  struct stat St;
  if (::stat(Path.c_str(), &St) != 0)
    return llvm::make_error<objlib::ReadError>(
        objlib::ReadErrorKind::Unreadable,
        Path + ": " + std::strerror(errno));
#if defined(__linux__)
  F.Major = major(St.st_dev);
  F.Minor = minor(St.st_dev);
#else
  F.Major = static_cast<uint64_t>(St.st_dev);
#endif
  F.Inode = static_cast<uint64_t>(St.st_ino);
  objlib::ReadOptions Opts;
  Opts.ListImportsOf = [](llvm::StringRef) { return false; };
  if (WithMarkers) {
    Opts.Exports = true;
    Opts.ExportsAmong = libnames::runtimeMarkerNames();
  }
  llvm::Expected<objlib::BinaryInfo> B = objlib::readBinary(Path, Opts);
  if (!B)
    return B.takeError();
  if (B->Slices.empty())
    return F;
  F.MachO = B->Fmt == objlib::Format::MachO;
  F.Soname = hostSlice(*B).InstallName;
  if (WithMarkers) {
    F.Defines = hostSlice(*B).Exports;
    F.DefinesProblem = hostSlice(*B).ExportsProblem;
  }
  std::string Archs;
  for (const objlib::Slice &S : B->Slices)
    Archs += (Archs.empty() ? "" : ", ") + S.Arch;
  const std::string What =
      (B->Fmt == objlib::Format::MachO ? "a Mach-O " : "an ELF ") +
      std::string(B->Universal ? "universal " : "") +
      B->Slices.front().FileType + " (" + Archs + ")";
#if defined(__APPLE__)
  if (B->Fmt != objlib::Format::MachO)
    F.NotLoadableHere = What + "; macOS loads Mach-O only";
#else
#if defined(__x86_64__)
  const std::string Host = "x86_64";
#elif defined(__aarch64__)
  const std::string Host = "aarch64";
#else
  const std::string Host;
#endif
  if (B->Fmt != objlib::Format::ELF)
    F.NotLoadableHere = What + "; this platform loads ELF only";
  else if (!Host.empty() && B->Slices.front().Arch != Host)
    F.NotLoadableHere = What + "; this machine is " + Host;
#endif
  for (const objlib::Dependency &D : hostSlice(*B).Dependencies)
    if (D.Kind != objlib::DependencyKind::Weak &&
        D.Kind != objlib::DependencyKind::Lazy)
      F.Needed.push_back(D.Name);
  return F;
}

std::vector<std::string> neededOnDisk(const std::string &RealPath) {
  if (unnamed(RealPath))
    return {};
  llvm::Expected<LibraryFacts> F = readLibraryFacts(RealPath);
  if (!F) {
    llvm::consumeError(F.takeError());
    return {};
  }
  return F->Needed;
}

namespace {

/// Names the image that brought each dependency in: the first image before
/// it, in load order, whose needed list names its file (or its SONAME).
/// Linear: each needed name goes into one map, first loader wins.
void nameLoaders(std::vector<MappedImage> &Images, const LibraryFacts &Lib,
                 const std::vector<std::optional<std::string>> &Sonames, NeededFn Needed) {
  std::map<std::string, size_t> FirstAsker;
  size_t Reads = 0;
  for (size_t I = 0; I < Images.size(); ++I) {
    MappedImage &M = Images[I];
    if (M.From == Origin::Dependency) {
      std::vector<std::string> Names{llvm::sys::path::filename(M.Image.Path).str(),
                                     llvm::sys::path::filename(M.Image.RealPath).str()};
      if (I < Sonames.size())
        if (const std::optional<std::string> &S = Sonames[I])
          Names.push_back(llvm::sys::path::filename(*S).str());
      for (const std::string &N : Names) {
        auto It = FirstAsker.find(N);
        if (It != FirstAsker.end()) {
          const MappedImage &By = Images[It->second];
          M.Image.Via = By.From == Origin::Library && !Lib.Name.empty() ? Lib.Name
                                                                        : By.Image.Path;
          break;
        }
      }
    }
    if (M.From != Origin::Library && M.From != Origin::Dependency)
      continue;
    const std::vector<std::string> Asks =
        M.From == Origin::Library ? Lib.Needed
        : Reads++ < MaxNeededReads ? Needed(M.Image.RealPath)
                                   : std::vector<std::string>();
    for (const std::string &N : Asks)
      FirstAsker.try_emplace(llvm::sys::path::filename(N).str(), I);
  }
}

} // namespace

std::optional<std::string> sonameOnDisk(const MappedFile &F) {
  struct stat St;
  if (unnamed(F.Path) || ::stat(F.Path.c_str(), &St) != 0)
    return std::nullopt;
#if defined(__linux__)
  if (!F.sameFile(major(St.st_dev), minor(St.st_dev), St.st_ino))
    return std::nullopt;
#endif
  objlib::ReadOptions Opts;
  Opts.ListImportsOf = [](llvm::StringRef) { return false; };
  llvm::Expected<objlib::BinaryInfo> B = objlib::readBinary(F.Path, Opts);
  if (!B) {
    llvm::consumeError(B.takeError());
    return std::nullopt;
  }
  if (B->Slices.empty())
    return std::nullopt;
  return hostSlice(*B).InstallName;
}

std::vector<std::string> markersOnDisk(const MappedFile &F, std::string &Problem) {
  // A mapping with no file to read, or whose path names another file or
  // none by now (replaced or removed since it was mapped): what it
  // defines is unknown (fail closed, never "not a runtime"). The library
  // itself is judged by what linkguard read of it before the run
  // (LibraryFacts::Defines).
  // Linux only: there the parent read the mapping's device and inode from
  // the process's maps. macOS's report names dyld's images by path, and
  // its system libraries are in the shared cache, no file at all: they
  // define what the report says of them only, as before.
  struct stat St;
#if defined(__linux__)
  if (unnamed(F.Path)) {
    Problem = "it is mapped from no file linkguard can name (a memfd, a deleted file)";
    return {};
  }
  if (::stat(F.Path.c_str(), &St) != 0) {
    Problem = "it was removed since it was mapped (" + std::string(std::strerror(errno)) + ")";
    return {};
  }
  if (!F.sameFile(major(St.st_dev), minor(St.st_dev), St.st_ino)) {
    Problem = "its path names another file now: it was replaced since it was mapped";
    return {};
  }
#else
  if (unnamed(F.Path) || ::stat(F.Path.c_str(), &St) != 0)
    return {};
#endif
  objlib::ReadOptions Opts;
  Opts.Imports = false;
  Opts.Exports = true;
  Opts.ExportsAmong = libnames::runtimeMarkerNames();
  llvm::Expected<objlib::BinaryInfo> B = objlib::readBinary(F.Path, Opts);
  // The mapped file itself, which linkguard cannot read: what it defines
  // is unknown (fail closed, never "not a runtime").
  if (!B) {
    Problem = llvm::toString(B.takeError());
    return {};
  }
  if (B->Slices.empty()) {
    Problem = F.Path + " holds no image linkguard can read";
    return {};
  }
  Problem = hostSlice(*B).ExportsProblem;
  return hostSlice(*B).Exports;
}

namespace {

TryLoadVerdict judgeLoad(const LoaderRun &Run, const LibraryFacts &Lib,
                         const std::optional<std::string> &Call,
                         const contract::ContractSpec &Spec, SonameFn Soname,
                         NeededFn Needed, DefinesFn Defines) {
  TryLoadVerdict V;
  const LoaderReport &R = Run.Report;
  auto incomplete = [&](std::string Why) {
    V.What = Outcome::Incomplete;
    V.Problem = "report incomplete: " + std::move(Why);
    return V;
  };
  if (R.Hide == HideState::Unavailable || R.Hide == HideState::Failed) {
    V.What = Outcome::HideUnavailable;
    V.Problem =
        R.Hide == HideState::Unavailable
            ? "--hide is unavailable here: " + R.HideProblem
            : "could not hide " + R.HideFailedPath + ": " + R.HideProblem;
    return V;
  }
  for (const MapsSnapshot &S : Run.Stops)
    if (!S.Problem.empty())
      return incomplete(S.Problem);

  // The first stop at which the kernel showed the library mapped.
  std::optional<size_t> LibraryStop;
  for (size_t I = 0; I < Run.Stops.size() && !LibraryStop; ++I)
    for (const MappedFile &F : Run.Stops[I].Files)
      if (F.sameFile(Lib.Major, Lib.Minor, Lib.Inode))
        LibraryStop = I;

  // A report that cannot be read: only what the kernel showed is left. A
  // library seen mapped is still judged (a violation there is certain); a
  // run that holds cannot be vouched for.
  const bool ReportOk = Run.ReportProblem.empty();
  if (!ReportOk && !(Run.Watched && LibraryStop))
    return incomplete(Run.ReportProblem);
  if (R.Load == LoadState::Failed) {
    V.What = Outcome::LoadFailed;
    V.Problem = R.LoadError;
    return V;
  }
  if (Run.Watched && !LibraryStop && R.Load == LoadState::Loaded)
    return incomplete("the loader reports the library loaded, but the "
                      "process never showed it mapped when it stopped (" +
                      howItEnded(Run) + " after " +
                      std::to_string(Run.Stops.size()) + " stops)");
  if (ReportOk && Run.Watched && LibraryStop && R.Load != LoadState::Loaded)
    return incomplete("the library was mapped in the process, but the "
                      "loader's report stops before the load (the loader " +
                      howItEnded(Run) + ")");
  if (ReportOk && R.Load != LoadState::Loaded) {
    V.What = Outcome::LoadFailed;
    V.Problem = "the loader " + howItEnded(Run) + " while loading it";
    return V;
  }

  llvm::SmallString<256> Real;
  std::string LibraryReal =
      llvm::sys::fs::real_path(Lib.Path, Real) ? Lib.Path : std::string(Real);
  // Forbid may match the names the process used (they only add matches);
  // require only the names the parent read itself.
  std::vector<contract::LoadedImage> ForForbid, ForRequire;
  const bool RequireByExports = llvm::any_of(Spec.Require, contract::judgedByExports);
  std::string Gap = Run.ReportProblem; // the first reason it is Incomplete
  if (Run.Watched) {
    // Linear in the maps and the report (a library can map ~65,000 files,
    // and write a 16 MB report): sets and maps, no scan inside a scan.
    std::vector<Seen> Images;
    std::set<std::string> AllPaths;
    using Identity = std::tuple<uint64_t, uint64_t, uint64_t>;
    std::set<Identity> Known;
    // Every other path the kernel showed for an image's file (a hard link
    // mapped under another name): --forbid matches those too.
    std::map<Identity, std::set<std::string>> OtherPaths;
    auto see = [&](const MappedFile &F, size_t Stop) {
      Identity Id{F.Major, F.Minor, F.Inode};
      if (Known.insert(Id).second)
        Images.push_back({F, Stop});
      else
        OtherPaths[Id].insert(F.Path);
    };
    for (size_t I = 0; I < Run.Stops.size(); ++I)
      for (const MappedFile &F : Run.Stops[I].Files) {
        AllPaths.insert(F.Path);
        if (llvm::StringRef(F.Path).ends_with(" (deleted)"))
          AllPaths.insert(
              llvm::StringRef(F.Path).drop_back(strlen(" (deleted)")).str());
        if (F.Executable) // else a data file: no code of it can run
          see(F, I);
      }
    // Traced: every file mapped with code as it was mapped, also one gone
    // again by the next stop (a dlopen and dlclose in a constructor).
    for (const TracedMapping &T : Run.Mapped) {
      AllPaths.insert(T.File.Path);
      if (T.File.Executable)
        see(T.File, T.StopsBefore);
    }
    // Only --forbid needs every mapping (what --require wants is judged on
    // what was there at the stops).
    if (Gap.empty() && !Run.TraceProblem.empty() && !Spec.Forbid.empty())
      Gap = Run.TraceProblem;
    // Each real path the report names: its first place in the report and
    // the name the process used there.
    std::map<std::string, std::pair<size_t, std::string>> Reported;
    size_t Listed = 0;
    for (const auto *List : {&R.Baseline, &R.AfterLoad, &R.AfterCall})
      for (const contract::LoadedImage &I : *List)
        Reported.try_emplace(I.RealPath, Listed++, I.Path);
    // In the order the loader listed them where it did (load order), stop
    // by stop; the others after, in address order.
    auto rank = [&](const Seen &S) {
      auto It = Reported.find(S.File.Path);
      return std::make_pair(S.Stop, It == Reported.end() ? Listed : It->second.first);
    };
    stableSort(Images,
               [&](const Seen &A, const Seen &B) { return rank(A) < rank(B); });
    for (const Seen &S : Images) {
      // The name the process used for it, when the report gives one.
      auto It = Reported.find(S.File.Path);
      std::string Path = It == Reported.end() ? S.File.Path : It->second.second;
      MappedImage M{{Path, S.File.Path}, Origin::Dependency};
      if (S.File.sameFile(Lib.Major, Lib.Minor, Lib.Inode))
        M.From = Origin::Library;
      else if (S.Stop < *LibraryStop)
        M.From = Origin::BeforeLoad;
      else if (S.Stop > *LibraryStop && Call &&
               R.Call == CallState::Returned)
        M.From = Origin::Call;
      else if (Gap.empty() && unnamed(S.File.Path) && !Spec.Forbid.empty())
        Gap = S.File.Path +
              " is mapped with code from no file linkguard can name (a "
              "memfd, a deleted file): whether --forbid matches it cannot be "
              "known";
      V.Images.push_back(M);
      ForRequire.push_back({S.File.Path, S.File.Path});
    }
    // Each image's SONAME, read by linkguard from the mapped file (once,
    // only when needed): the name the loader knows it by, whatever the
    // file is called and whatever the process says.
    std::vector<std::optional<std::string>> SonameOf(Images.size());
    bool SonamesRead = false;
    // The library's own from what linkguard read of it before the run (a
    // zip member's temporary copy is removed by now).
    auto readSonames = [&] {
      for (size_t I = 0; I < Images.size() && !SonamesRead; ++I)
        SonameOf[I] = V.Images[I].From == Origin::Library ? Lib.Soname : Soname(Images[I].File);
      SonamesRead = true;
    };
    // One file is one image: the other paths it was mapped under are
    // more names of it, not more images (a later stop shows it again).
    for (size_t I = 0; I < Images.size(); ++I) {
      const Seen &Im = Images[I];
      auto It = OtherPaths.find({Im.File.Major, Im.File.Minor, Im.File.Inode});
      if (It == OtherPaths.end())
        continue;
      contract::LoadedImage &Named = V.Images[I].Image;
      for (const std::string &Other : It->second)
        if (Other != Named.Path && Other != Named.RealPath)
          Named.OtherNames.push_back(Other);
    }
    // --forbid matches it too: a copy of libgomp named innocent.so, loaded
    // for NEEDED libgomp.so.1 through a link, is libgomp.so.1, even when
    // the library renames it in the loader's list (its link_map's l_name).
    // A runtime under any name is one by what it defines (--forbid
    // openmp: a renamed libgomp; --require openmp: the same copy is one).
    if (!Spec.Forbid.empty() || RequireByExports)
      for (size_t I = 0; I < Images.size(); ++I) {
        contract::LoadedImage &Named = V.Images[I].Image;
        if (V.Images[I].From == Origin::Library) {
          Named.Defines = Lib.Defines;
          Named.DefinesProblem = Lib.DefinesProblem;
        } else {
          Named.Defines = Defines(Images[I].File, Named.DefinesProblem);
        }
        ForRequire[I].Defines = Named.Defines;
        ForRequire[I].DefinesProblem = Named.DefinesProblem;
      }
    if (!Spec.Forbid.empty()) {
      readSonames();
      for (size_t I = 0; I < Images.size(); ++I) {
        if (!SonameOf[I])
          continue;
        contract::LoadedImage &Named = V.Images[I].Image;
        if (*SonameOf[I] != Named.Path && *SonameOf[I] != Named.RealPath)
          Named.OtherNames.push_back(*SonameOf[I]);
      }
    }
    nameLoaders(V.Images, Lib, SonameOf, Needed);
    for (const MappedImage &M : V.Images)
      ForForbid.push_back(M.Image);
    // Every library the file asks for must be there: a loader cannot
    // have loaded the library without them. By file name, or by SONAME
    // (the file has as many DT_NEEDED as it likes: each set built once).
    std::set<std::string> Bases, Sonames;
    bool HaveSonames = false;
    for (const Seen &S : Images)
      Bases.insert(llvm::sys::path::filename(S.File.Path).str());
    for (const std::string &N : Lib.Needed) {
      if (!Gap.empty())
        break;
      if (Bases.count(llvm::sys::path::filename(N).str()))
        continue;
      if (!HaveSonames) {
        readSonames();
        for (const std::optional<std::string> &Name : SonameOf)
          if (Name)
            Sonames.insert(*Name);
        HaveSonames = true;
      }
      if (!Sonames.count(N))
        Gap = "the library needs " + N +
              ", and no image mapped in the process is it";
    }
    // The report, cross-checked: every image it names must be one the
    // kernel showed.
    auto check = [&](const std::vector<contract::LoadedImage> &List) {
      for (const contract::LoadedImage &I : List)
        if (Gap.empty() && llvm::StringRef(I.RealPath).starts_with("/") &&
            !llvm::StringRef(I.RealPath).starts_with("/proc/") &&
            !AllPaths.count(I.RealPath))
          Gap = "the loader's report lists " + I.RealPath +
                ", which the process's maps never showed";
    };
    check(R.Baseline);
    check(R.AfterLoad);
    check(R.AfterCall);
    if (Gap.empty() && Call && R.Call == CallState::Returned &&
        Run.Stops.size() < *LibraryStop + 2)
      Gap = "the loader reports that " + *Call +
            " returned, but the process never stopped after the call";
  } else {
    // One file is one image: a real path listed again under another name
    // (its link name) is another name of the first.
    std::map<std::string, size_t> ByReal;
    for (const contract::LoadedImage &I : R.finalImages()) {
      if (!I.RealPath.empty()) {
        auto [It, New] = ByReal.try_emplace(I.RealPath, V.Images.size());
        if (!New) {
          contract::LoadedImage &First = V.Images[It->second].Image;
          if (I.Path != First.Path && !llvm::is_contained(First.OtherNames, I.Path))
            First.OtherNames.push_back(I.Path);
          continue;
        }
      }
      MappedImage M{I, Origin::Dependency};
      if (I.Path == Lib.Path || I.RealPath == LibraryReal)
        M.From = Origin::Library;
      else if (listed(R.Baseline, I))
        M.From = Origin::BeforeLoad;
      else if (R.Call == CallState::Returned && !listed(R.AfterLoad, I))
        M.From = Origin::Call;
      V.Images.push_back(M);
      ForRequire.push_back(I);
    }
    nameLoaders(V.Images, Lib, {}, Needed);
    // A runtime under any name is one by what its file defines (the
    // file the report names: unwatched, its word is all there is).
    if (!Spec.Forbid.empty() || RequireByExports)
      for (size_t I = 0; I < V.Images.size(); ++I) {
        MappedImage &M = V.Images[I];
        MappedFile F;
        F.Path = M.Image.RealPath.empty() ? M.Image.Path : M.Image.RealPath;
        if (M.From == Origin::Library) {
          M.Image.Defines = Lib.Defines;
          M.Image.DefinesProblem = Lib.DefinesProblem;
        } else {
          M.Image.Defines = Defines(F, M.Image.DefinesProblem);
        }
        ForRequire[I].Defines = M.Image.Defines;
        ForRequire[I].DefinesProblem = M.Image.DefinesProblem;
      }
    for (const MappedImage &M : V.Images)
      ForForbid.push_back(M.Image);
    // The report is all there is: any gap in it fails closed (one without
    // its end record is a load or call failure below).
    for (const std::string &N : Lib.Needed) {
      llvm::StringRef Base = llvm::sys::path::filename(N);
      bool Found = false;
      for (const MappedImage &M : V.Images)
        Found |= llvm::sys::path::filename(M.Image.Path) == Base ||
                 llvm::sys::path::filename(M.Image.RealPath) == Base;
      if (!Found && Gap.empty())
        Gap = "the library needs " + N +
              ", and the loader's report lists no image that is it";
    }
  }
  contract::ContractSpec ForbidOnly, RequireOnly;
  ForbidOnly.Forbid = Spec.Forbid;
  RequireOnly.Require = Spec.Require;
  V.Contract = contract::judgeLoadedImages(ForForbid, ForbidOnly);
  contract::Verdict Req = contract::judgeLoadedImages(ForRequire, RequireOnly);
  V.Contract.Findings.insert(V.Contract.Findings.end(), Req.Findings.begin(),
                             Req.Findings.end());
  V.What = V.Contract.ok() ? Outcome::Holds : Outcome::Broken;

  if (!ReportOk) {
    if (V.What == Outcome::Holds) {
      V.What = Outcome::Incomplete;
      V.Problem = "report incomplete: " + Gap;
    } else {
      V.Note = "report incomplete: " + Gap;
    }
    return V;
  }
  if (Call && R.Call == CallState::Missing) {
    V.What = Outcome::CallFailed;
    V.Problem = R.CallError;
  } else if (Call && R.Call == CallState::NotAsked) {
    V.What = Outcome::CallFailed;
    V.Problem = "the loader " + howItEnded(Run) + " in " + *Call;
  } else if (Call && R.CallStatus != 0) {
    V.What = Outcome::CallFailed;
    V.Problem = *Call + " returned " + std::to_string(R.CallStatus);
  } else if (V.What == Outcome::Holds && !Gap.empty()) {
    V.What = Outcome::Incomplete;
    V.Problem = "report incomplete: " + Gap;
  } else if (!Call && !R.Complete && V.What == Outcome::Holds) {
    V.What = Outcome::LoadFailed;
    V.Problem = "the loader " + howItEnded(Run) + " after the library loaded";
  }
  // An image whose exports cannot be read may be a forbidden runtime
  // (contract::judgeLoadedImages: unknown): undecided, never "holds".
  if (V.What == Outcome::Holds)
    for (const contract::Finding &F : V.Contract.Findings)
      if (F.Kind == contract::FindingKind::Unknown) {
        V.What = Outcome::Undecided;
        V.Problem = "undecided: " + F.Message;
        break;
      }
  if (V.What != Outcome::Incomplete && !Gap.empty())
    V.Note = "report incomplete: " + Gap;
  else if (R.Complete && (Run.Signal || Run.ExitStatus))
    V.Note = "the loader " + howItEnded(Run) +
             " after its report, at exit (the library's destructors?)";
  if (V.Note.empty() && Run.Watched && !Run.Traced && !Spec.Forbid.empty() &&
      V.What == Outcome::Holds)
    V.Note = "linkguard could not trace the loader here (ptrace refused): a library "
             "mapped and unmapped again between two stops would not be seen";
  if (V.Note.empty() && Run.Leftovers)
    V.Note = "the library left " + std::to_string(Run.Leftovers) +
             " process" + (Run.Leftovers == 1 ? "" : "es") +
             " running after the loader ended; killed";
  return V;
}

} // namespace

TryLoadVerdict judgeRun(const LoaderRun &Run, const LibraryFacts &Lib,
                        const std::optional<std::string> &Call,
                        const contract::ContractSpec &Spec, SonameFn Soname,
                        NeededFn Needed, DefinesFn Defines) {
  TryLoadVerdict V = judgeLoad(Run, Lib, Call, Spec, Soname, Needed, Defines);
  // A thread or process that asked to escape the tracing (issue 37): what
  // it would have run, and the library after its refusal, are unknown. A
  // violation already seen stays certain; nothing else is decided, a
  // failure included (it may be the refusal's doing, not a dependency's).
  if (Run.Untraced.empty() || V.What == Outcome::HideUnavailable)
    return V;
  if (V.What == Outcome::Broken) {
    V.Note = "undecided besides: " + Run.Untraced;
    return V;
  }
  if (V.What != Outcome::Holds) {
    // "load-failed: DLERROR"; report-incomplete's problem names itself.
    const std::string Was = outcomeName(V.What);
    const std::string What = V.What == Outcome::Incomplete ? V.Problem
                             : V.Problem.empty()           ? Was
                                                           : Was + ": " + V.Problem;
    V.Note = What + (V.Note.empty() ? "" : "; " + V.Note);
  }
  V.What = Outcome::Undecided;
  V.Problem = "undecided: " + Run.Untraced;
  return V;
}

} // namespace linkguard::tryload
