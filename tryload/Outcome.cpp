//===- Outcome.cpp - classify a loader run, judge its images --------------===//
#include "tryload/Outcome.h"

#include "support/EnumNames.h"

#include "llvm/Support/FileSystem.h"

#include <csignal>
#include <cstring>

namespace linkguard::tryload {

const char *outcomeName(Outcome O) {
  return enumName(
      O, {"holds", "broken", "load-failed", "call-failed", "hide-unavailable"});
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
  if (Run.Signal)
    return "died by signal " + std::to_string(Run.Signal) + " (" +
           strsignal(Run.Signal) + ")";
  return "exited with status " + std::to_string(Run.ExitStatus);
}

} // namespace

TryLoadVerdict judgeRun(const LoaderRun &Run, const std::string &Library,
                        const std::optional<std::string> &Call,
                        const contract::ContractSpec &Spec) {
  TryLoadVerdict V;
  const LoaderReport &R = Run.Report;
  if (R.Hide == HideState::Unavailable || R.Hide == HideState::Failed) {
    V.What = Outcome::HideUnavailable;
    V.Problem =
        R.Hide == HideState::Unavailable
            ? "--hide is unavailable here: " + R.HideProblem
            : "could not hide " + R.HideFailedPath + ": " + R.HideProblem;
    return V;
  }
  if (R.Load != LoadState::Loaded) {
    V.What = Outcome::LoadFailed;
    V.Problem = R.Load == LoadState::Failed
                    ? R.LoadError
                    : "the loader " + howItEnded(Run) + " while loading it";
    return V;
  }

  llvm::SmallString<256> Real;
  std::string LibraryReal =
      llvm::sys::fs::real_path(Library, Real) ? Library : std::string(Real);
  for (const contract::LoadedImage &I : R.finalImages()) {
    MappedImage M{I, Origin::Dependency};
    if (I.Path == Library || I.RealPath == LibraryReal)
      M.From = Origin::Library;
    else if (listed(R.Baseline, I))
      M.From = Origin::BeforeLoad;
    else if (R.Call == CallState::Returned && !listed(R.AfterLoad, I))
      M.From = Origin::Call;
    V.Images.push_back(std::move(M));
  }
  std::vector<contract::LoadedImage> Judged;
  Judged.reserve(V.Images.size());
  for (const MappedImage &M : V.Images)
    Judged.push_back(M.Image);
  V.Contract = contract::judgeLoadedImages(Judged, Spec);
  V.What = V.Contract.ok() ? Outcome::Holds : Outcome::Broken;

  if (Call && R.Call == CallState::Missing) {
    V.What = Outcome::CallFailed;
    V.Problem = R.CallError;
  } else if (Call && R.Call == CallState::NotAsked) {
    V.What = Outcome::CallFailed;
    V.Problem = "the loader " + howItEnded(Run) + " in " + *Call;
  } else if (Call && R.CallStatus != 0) {
    V.What = Outcome::CallFailed;
    V.Problem = *Call + " returned " + std::to_string(R.CallStatus);
  } else if (!Call && !R.Complete) {
    V.What = Outcome::LoadFailed;
    V.Problem = "the loader " + howItEnded(Run) + " after the library loaded";
  }
  if (R.Complete && (Run.Signal || Run.ExitStatus))
    V.Note = "the loader " + howItEnded(Run) +
             " after its report, at exit (the library's destructors?)";
  return V;
}

} // namespace linkguard::tryload
