//===- FuzzTryLoadReport.cpp - libFuzzer entry point for try-load's verdict ===//
//
// try-load's report comes from the process that runs the library under
// test, which may write anything to it (issue 28), and /proc/PID/maps is
// the kernel's text. The bytes are: the report, then, after each NUL byte,
// the maps text of one stop (or, when it starts with '#', of the mappings
// traced as they were made). parseLoaderReport and parseMaps must accept or
// refuse any bytes without crashing, and judgeRun must never say "holds"
// for a run it cannot vouch for: an unreadable report, a library never seen
// mapped at a stop, a needed library absent from the maps, a forbidden
// library mapped with code at a stop or as traced; nor, when a thread or
// process asked to run untraced, anything but undecided or a certain
// violation.
//
//===----------------------------------------------------------------------===//
#include "tryload/Outcome.h"
#include "tryload/Report.h"
#include "tryload/Run.h"

#include "llvm/Support/Path.h"

#include <cstdint>
#include <cstdlib>

using namespace linkguard;
using namespace linkguard::tryload;

namespace {

std::optional<std::string> noSoname(const MappedFile &) { return std::nullopt; }

void check(bool Ok) {
  if (!Ok)
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef All(reinterpret_cast<const char *>(Data), Size);
  auto [Report, Rest] = All.split('\0');

  LoaderRun Run;
  Run.Watched = true;
  llvm::Expected<LoaderReport> R = parseLoaderReport(Report);
  if (R)
    Run.Report = std::move(*R);
  else
    Run.ReportProblem = llvm::toString(R.takeError());
  bool AnyStop = !Rest.empty() || All.contains('\0');
  while (AnyStop) {
    auto [Maps, Next] = Rest.split('\0');
    if (Maps.starts_with("#")) {
      Run.Traced = true;
      for (MappedFile &F : parseMaps(Maps.drop_front()))
        Run.Mapped.push_back({std::move(F), Run.Stops.size()});
    } else {
      Run.Stops.push_back({parseMaps(Maps), ""});
    }
    if (!Rest.contains('\0'))
      break;
    Rest = Next;
  }

  LibraryFacts Lib;
  Lib.Path = "/m/model.so";
  Lib.Major = 8;
  Lib.Minor = 1;
  Lib.Inode = 100;
  Lib.Needed = {"libc.so.6"};
  contract::ContractSpec Spec;
  Spec.Forbid = {{"openmp"}};
  TryLoadVerdict V = judgeRun(Run, Lib, std::nullopt, Spec, noSoname);
  if (V.What == Outcome::Holds) {
    check(Run.ReportProblem.empty());
    bool LibraryMapped = false, NeedMapped = false;
    for (const MapsSnapshot &S : Run.Stops)
      for (const MappedFile &F : S.Files) {
        LibraryMapped |= F.sameFile(8, 1, 100);
        NeedMapped |= F.Executable && llvm::sys::path::filename(F.Path) == "libc.so.6";
      }
    for (const TracedMapping &T : Run.Mapped) // the kernel's word too
      NeedMapped |= T.File.Executable && llvm::sys::path::filename(T.File.Path) == "libc.so.6";
    check(LibraryMapped && NeedMapped);
    for (const MapsSnapshot &S : Run.Stops)
      for (const MappedFile &F : S.Files)
        check(!F.Executable || !Spec.Forbid.front().matches(F.Path));
    for (const TracedMapping &T : Run.Mapped)
      check(!T.File.Executable || !Spec.Forbid.front().matches(T.File.Path));
  }
  // A thread or process that asked to run untraced (issue 37): undecided,
  // or a violation that is certain; never "holds", never a failure.
  Run.Untraced = "the library asked for a process that linkguard would not trace";
  const Outcome Was = V.What;
  V = judgeRun(Run, Lib, std::nullopt, Spec, noSoname);
  check(V.What == (Was == Outcome::Broken || Was == Outcome::HideUnavailable ? Was
                                                                             : Outcome::Undecided));
  Run.Untraced.clear();
  // The report alone (macOS): it must be complete and list what is needed.
  Run.Watched = false;
  Run.Stops.clear();
  if (Run.ReportProblem.empty()) {
    V = judgeRun(Run, Lib, std::nullopt, Spec, noSoname);
    check(V.What != Outcome::Holds || Run.Report.Load == LoadState::Loaded);
  }
  return 0;
}
