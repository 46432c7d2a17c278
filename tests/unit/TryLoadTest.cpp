//===- TryLoadTest.cpp - the loader's report, the scrub, the verdict ------===//
//
// Reports are written here in the exact record format loader/Loader.c
// emits (field = "LENGTH:BYTES"); tests/e2e/try_load*.bash run the real
// loader on real libraries.
//
//===----------------------------------------------------------------------===//
#include "contract/LoadedImages.h"
#include "tryload/Outcome.h"
#include "tryload/Report.h"
#include "tryload/Run.h"

#include "tests/unit/support/Catch.h"
#include "tests/unit/support/TempTree.h"

#include <cstdio>
#include <sys/stat.h>
#include <sys/sysmacros.h>

using namespace linkguard;
using namespace linkguard::tryload;
using llvm::Expected;

namespace {

/// One record as the loader writes it.
std::string rec(std::initializer_list<std::string> Fields) {
  std::string Out;
  for (const std::string &F : Fields)
    Out += (Out.empty() ? "" : " ") + std::to_string(F.size()) + ":" + F;
  return Out + "\n";
}

const std::string Loader = "/opt/lg/libexec/linkguard/linkguard-loader";
const std::string Libc = "/lib/x86_64-linux-gnu/libc.so.6";
const std::string Omp = "/usr/lib/llvm-14/lib/libomp.so.5";

std::string loadedReport() {
  return rec({"baseline", Loader, Loader}) + rec({"baseline", Libc, Libc}) +
         rec({"load", "ok"}) + rec({"image", "loaded", Loader, Loader}) +
         rec({"image", "loaded", Libc, Libc}) +
         rec({"image", "loaded", "/m/model.so", "/m/model.so"}) +
         rec({"image", "loaded", Omp, Omp});
}

LoaderRun run(const std::string &Text, int Signal = 0, int Status = 0) {
  Expected<LoaderReport> R = parseLoaderReport(Text);
  REQUIRE(static_cast<bool>(R));
  LoaderRun Run;
  Run.Report = std::move(*R);
  Run.Signal = Signal;
  Run.ExitStatus = Status;
  return Run;
}

/// The library as the parent reads it: no needed library, so an unwatched
/// run (the report alone, as on macOS) has no gap to find.
LibraryFacts model(std::vector<std::string> Needed = {}) {
  LibraryFacts F;
  F.Path = "/m/model.so";
  F.Major = 8;
  F.Minor = 1;
  F.Inode = 100;
  F.Needed = std::move(Needed);
  return F;
}

contract::ContractSpec forbidOpenMP() {
  contract::ContractSpec S;
  S.Forbid = {{"openmp"}};
  return S;
}

/// What the file at each path defines among the runtime markers
/// (markersOnDisk reads it from the mapped file; a fake here): a renamed
/// libgomp, and a library whose exports cannot be read.
std::vector<std::string> defines(const MappedFile &F, std::string &Problem) {
  if (F.Path == "/v/libdamaged.so")
    Problem = "export trie: a node past the end of the trie";
  return F.Path == "/v/libvendor_rt.so.1" ? std::vector<std::string>{"GOMP_parallel"}
                                          : std::vector<std::string>();
}

} // namespace

TEST_CASE("try-load: the loader's report parses, any byte in a path",
          "[tryload]") {
  std::string Odd = "/tmp/a b\nc:d/lib.so";
  std::string Text = rec({"hide", "ok", "/opt/x/libomp.dylib"}) +
                     loadedReport() + rec({"call", "ok", "0"}) +
                     rec({"image", "called", Odd, Odd}) + rec({"end"});
  Expected<LoaderReport> R = parseLoaderReport(Text);
  REQUIRE(static_cast<bool>(R));
  CHECK(R->Complete);
  CHECK(R->Hide == HideState::Hidden);
  CHECK(R->Hidden == std::vector<std::string>{"/opt/x/libomp.dylib"});
  CHECK(R->Baseline.size() == 2);
  CHECK(R->Load == LoadState::Loaded);
  CHECK(R->AfterLoad.size() == 4);
  CHECK(R->Call == CallState::Returned);
  CHECK(R->CallStatus == 0);
  REQUIRE(R->AfterCall.size() == 1);
  CHECK(R->AfterCall[0].Path == Odd);
  CHECK(&R->finalImages() == &R->AfterCall);
}

TEST_CASE("try-load: a report cut short parses up to where it stops",
          "[tryload]") {
  std::string Text = loadedReport();
  // The loader died in the middle of writing a record.
  Expected<LoaderReport> R = parseLoaderReport(Text + "4:call 2:o");
  REQUIRE(static_cast<bool>(R));
  CHECK_FALSE(R->Complete);
  CHECK(R->Load == LoadState::Loaded);
  CHECK(R->Call == CallState::NotAsked);
  // A record that disagrees with the format or the order fails closed.
  for (const std::string &Bad :
       {std::string("4:load 2:ok x\n"), std::string("9:load\n"),
        std::string("x:y\n"), rec({"image", "loaded", "/a"}),
        rec({"frobnicate"}), loadedReport() + rec({"call", "ok", "zero"}),
        // Out of order: what only the library under test could have written.
        rec({"load", "ok"}) + rec({"end"}) + rec({"load", "ok"}),
        rec({"image", "loaded", "/a", "/a"}),
        rec({"load", "ok"}) + rec({"load", "ok"}),
        rec({"load", "ok"}) + rec({"baseline", "/a", "/a"}),
        rec({"call", "ok", "0"}), rec({"end", "x"}),
        loadedReport() + rec({"end"}) + "garbage"}) {
    Expected<LoaderReport> B = parseLoaderReport(Bad);
    INFO(Bad);
    CHECK_FALSE(static_cast<bool>(B));
    if (!B)
      CHECK_THAT(toString(B.takeError()),
                 Catch::StartsWith("linkguard-loader's report: "));
  }
}

TEST_CASE("try-load: the environment loses exactly the loader variables",
          "[tryload]") {
  std::vector<std::string> Env = {"PATH=/usr/bin",
                                  "LD_PRELOAD=/usr/lib/libgomp.so.1",
                                  "LD_LIBRARY_PATH=",
                                  "LD_PRELOADX=kept",
                                  "DYLD_INSERT_LIBRARIES=/x.dylib",
                                  "DYLD_FALLBACK_LIBRARY_PATH=/y",
                                  "OMP_NUM_THREADS=4",
                                  "LD_AUDIT=/a.so"};
  std::vector<std::string> Removed;
  std::vector<std::string> Out = scrubEnvironment(Env, false, Removed);
  CHECK(Out == std::vector<std::string>{"PATH=/usr/bin", "LD_PRELOADX=kept",
                                        "OMP_NUM_THREADS=4"});
  CHECK(Removed == std::vector<std::string>{
                       "LD_PRELOAD", "LD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES",
                       "DYLD_FALLBACK_LIBRARY_PATH", "LD_AUDIT"});
  Removed.clear();
  CHECK(scrubEnvironment(Env, true, Removed) == Env);
  CHECK(Removed.empty());
  for (const LoaderVariable &V : loaderVariables())
    CHECK(std::string(V.Effect).size() > 10);
}

TEST_CASE("try-load: a process's images are judged by path and real path",
          "[tryload]") {
  std::vector<contract::LoadedImage> Images = {
      {Libc, "/usr/lib/x86_64-linux-gnu/libc.so.6"},
      {"/usr/lib/x86_64-linux-gnu/libomp5.so",
       "/usr/lib/llvm-14/lib/libomp.so"}};
  contract::Verdict V = contract::judgeLoadedImages(Images, forbidOpenMP());
  REQUIRE(V.Findings.size() == 1);
  CHECK(V.Findings[0].Dependency == "/usr/lib/x86_64-linux-gnu/libomp5.so");
  CHECK_THAT(V.Findings[0].Message,
             Catch::Contains("(/usr/lib/llvm-14/lib/libomp.so) is mapped"));
  contract::ContractSpec Require;
  Require.Require = {{"libc.so*"}, {"libSystem*"}};
  V = contract::judgeLoadedImages(Images, Require);
  REQUIRE(V.Findings.size() == 1);
  CHECK(V.Findings[0].Rule == "require libSystem*");
}

TEST_CASE("try-load: a bare word forbids a mapped library by its stem "
          "(issue 28)",
          "[tryload][pattern]") {
  std::vector<contract::LoadedImage> Images = {
      {Libc, "/usr/lib/x86_64-linux-gnu/libc.so.6"},
      {"/usr/lib/x86_64-linux-gnu/libgomp.so.1", ""}};
  contract::ContractSpec Spec;
  Spec.Forbid = {{"libgomp"}, {"OpenMP"}};
  Spec.Require = {{"libc"}};
  contract::Verdict V = contract::judgeLoadedImages(Images, Spec);
  REQUIRE(V.Findings.size() == 2);
  CHECK(V.Findings[0].Rule == "forbid libgomp");
  CHECK(V.Findings[1].Rule == "forbid OpenMP");
}

TEST_CASE("try-load: runs come to the right outcome", "[tryload]") {
  // Loaded: images sorted by where they came from, libomp forbidden.
  TryLoadVerdict V = judgeRun(run(loadedReport() + rec({"end"})), model(),
                              std::nullopt, forbidOpenMP());
  CHECK(V.What == Outcome::Broken);
  REQUIRE(V.Images.size() == 4);
  CHECK(V.Images[0].From == Origin::BeforeLoad);
  CHECK(V.Images[2].From == Origin::Library);
  CHECK(V.Images[3].From == Origin::Dependency);
  CHECK(V.Contract.violations() == 1);

  // What a call maps is told apart.
  V = judgeRun(
      run(loadedReport() + rec({"call", "ok", "0"}) +
          rec({"image", "called", Libc, Libc}) +
          rec({"image", "called", "/m/model.so", "/m/model.so"}) +
          rec({"image", "called", "/x/libgomp.so.1", "/x/libgomp.so.1"}) +
          rec({"end"})),
      model(), std::string("selftest"), {});
  CHECK(V.What == Outcome::Holds);
  CHECK(V.Images.back().From == Origin::Call);

  V = judgeRun(
      run(rec({"hide", "unavailable", "unshare: EPERM"}) + rec({"end"})),
      model(), std::nullopt, forbidOpenMP());
  CHECK(V.What == Outcome::HideUnavailable);
  CHECK(V.Problem == "--hide is unavailable here: unshare: EPERM");

  V = judgeRun(run(rec({"baseline", Libc, Libc}) +
                   rec({"load", "failed",
                        "libomp.so.9: cannot open shared "
                        "object file"}) +
                   rec({"end"})),
               model(), std::nullopt, {});
  CHECK(V.What == Outcome::LoadFailed);
  CHECK(V.Problem == "libomp.so.9: cannot open shared object file");
  CHECK(V.Images.empty());

  V = judgeRun(run(rec({"baseline", Libc, Libc}), /*Signal=*/11), model(),
               std::nullopt, {});
  CHECK(V.What == Outcome::LoadFailed);
  CHECK_THAT(V.Problem, Catch::StartsWith("the loader died by signal 11"));

  V = judgeRun(run(loadedReport() +
                   rec({"call", "missing", "undefined symbol: f"}) +
                   rec({"end"})),
               model(), std::string("f"), {});
  CHECK(V.What == Outcome::CallFailed);
  CHECK(V.Problem == "undefined symbol: f");

  V = judgeRun(run(loadedReport() + rec({"call", "ok", "3"}) + rec({"end"})),
               model(), std::string("f"), forbidOpenMP());
  CHECK(V.What == Outcome::CallFailed);
  CHECK(V.Problem == "f returned 3");
  CHECK(V.Contract.violations() == 1); // still judged

  V = judgeRun(run(loadedReport(), /*Signal=*/11), model(),
               std::string("f"), {});
  CHECK(V.What == Outcome::CallFailed);
  CHECK_THAT(V.Problem,
             Catch::Contains("died by signal 11") && Catch::EndsWith(" in f"));

  V = judgeRun(run(loadedReport() + rec({"end"}), 0, /*Status=*/3),
               model(), std::nullopt, {});
  CHECK(V.What == Outcome::Holds);
  CHECK_THAT(V.Note, Catch::Contains("exited with status 3 after its report"));
}

namespace {

/// A line of /proc/PID/maps.
std::string mapsLine(const std::string &Perms, const std::string &Dev,
                     unsigned Inode, const std::string &Path) {
  return "7f0000000000-7f0000001000 " + Perms + " 00000000 " + Dev + " " +
         std::to_string(Inode) + "                    " + Path + "\n";
}

const std::string LoaderMaps = mapsLine("r-xp", "08:01", 10, Loader) +
                               mapsLine("r-xp", "08:01", 11,
                                        "/usr/lib/x86_64-linux-gnu/libc.so.6") +
                               mapsLine("rw-p", "00:00", 0, "[heap]") +
                               mapsLine("r-xp", "00:00", 0, "[vdso]");
const std::string ModelMaps = mapsLine("r--p", "08:01", 100, "/m/model.so") +
                              mapsLine("r-xp", "08:01", 100, "/m/model.so");
const std::string GompMaps = mapsLine(
    "r-xp", "08:01", 12, "/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0");

/// A run the parent watched: the report, and the maps at each stop.
LoaderRun watched(const std::string &Report,
                  std::initializer_list<std::string> Stops, int Signal = 0) {
  LoaderRun Run;
  Expected<LoaderReport> R = parseLoaderReport(Report);
  if (R)
    Run.Report = std::move(*R);
  else
    Run.ReportProblem = toString(R.takeError());
  Run.Watched = true;
  for (const std::string &S : Stops)
    Run.Stops.push_back({parseMaps(S), ""});
  Run.Signal = Signal;
  return Run;
}

std::optional<std::string> noSoname(const MappedFile &) { return std::nullopt; }
/// The fake maps' files, which do not exist here, as files that define no
/// runtime marker (markersOnDisk would say they were removed since mapped).
std::vector<std::string> definesNothing(const MappedFile &, std::string &) { return {}; }

} // namespace

TEST_CASE("try-load: /proc/PID/maps is read into the files mapped",
          "[tryload]") {
  std::vector<MappedFile> F = parseMaps(
      LoaderMaps + ModelMaps +
      mapsLine("r-xp", "00:01", 7, "/memfd:libgomp.so.1 (deleted)") +
      mapsLine("r--p", "fd:02", 9, "/tmp/a b\\012c.so") + "garbage line\n");
  REQUIRE(F.size() == 5);
  CHECK(F[0].Path == Loader);
  CHECK(F[2].Path == "/m/model.so");
  CHECK(F[2].Executable); // r--p then r-xp: one file, executable
  CHECK(F[2].sameFile(8, 1, 100));
  CHECK(F[3].Path == "/memfd:libgomp.so.1 (deleted)");
  CHECK(F[4].Path == "/tmp/a b\nc.so");
  CHECK(F[4].Major == 0xfd);
  CHECK_FALSE(F[4].Executable);
}

TEST_CASE("try-load: a watched run rests on the maps, not on the report",
          "[tryload]") {
  const std::string Before = LoaderMaps, Loaded = LoaderMaps + ModelMaps;
  // The report as the library under test forged it: loaded, no image, end.
  // The maps show libgomp mapped: broken, whatever the report says.
  std::string Forged = rec({"load", "ok"}) + rec({"end"});
  TryLoadVerdict V = judgeRun(watched(Forged, {Before, Loaded + GompMaps}),
                              model(), std::nullopt, forbidOpenMP(), noSoname, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Broken);
  REQUIRE(V.Images.size() == 4);
  CHECK(V.Images[2].From == Origin::Library);
  CHECK(V.Images[3].Image.RealPath ==
        "/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0");

  // The report claims a load the parent never saw: the library wrote it and
  // ended the process before the loader's stop.
  V = judgeRun(watched(Forged, {Before}), model(), std::nullopt, {}, noSoname, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Incomplete);
  CHECK_THAT(V.Problem, Catch::StartsWith("report incomplete: ") &&
                            Catch::Contains("never showed it mapped"));

  // The library closed the report's descriptor: it loaded, but the report
  // stops at the baseline.
  V = judgeRun(watched(rec({"baseline", Loader, Loader}), {Before, Loaded}),
               model(), std::nullopt, {}, noSoname, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Incomplete);
  CHECK_THAT(V.Problem, Catch::Contains("stops before the load"));

  // A library that unmapped what it needs: the needed library is in no map.
  std::string Report = rec({"load", "ok"}) + rec({"end"});
  V = judgeRun(watched(Report, {Before, Loaded}), model({"libgomp.so.1"}),
               std::nullopt, {}, noSoname, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Incomplete);
  CHECK_THAT(V.Problem, Catch::Contains("needs libgomp.so.1"));
  // Mapped under its real name, found by its SONAME.
  V = judgeRun(
      watched(Report, {Before, Loaded + GompMaps}), model({"libgomp.so.1"}),
      std::nullopt, {}, [](const MappedFile &F) -> std::optional<std::string> {
        if (F.Path == "/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0")
          return std::string("libgomp.so.1");
        return std::nullopt;
      }, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Holds);
  // By file name.
  V = judgeRun(watched(Report, {Before, Loaded}),
               model({"libc.so.6", "/m/model.so"}), std::nullopt, {}, noSoname, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Holds);

  // The report names an image the kernel never showed.
  V = judgeRun(watched(rec({"load", "ok"}) +
                           rec({"image", "loaded", "/x/libfake.so",
                                "/x/libfake.so"}) +
                           rec({"end"}),
                       {Before, Loaded}),
               model(), std::nullopt, {}, noSoname, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Incomplete);
  CHECK_THAT(V.Problem, Catch::Contains("/x/libfake.so"));

  // Code from a memfd: unnamed, so --forbid cannot be decided.
  std::string Memfd =
      mapsLine("r-xp", "00:01", 7, "/memfd:libgomp.so.1 (deleted)");
  V = judgeRun(watched(Report, {Before, Loaded + Memfd}), model(), std::nullopt,
               forbidOpenMP(), noSoname, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Incomplete);
  CHECK_THAT(V.Problem, Catch::Contains("/memfd:libgomp.so.1 (deleted)"));
  V = judgeRun(watched(Report, {Before, Loaded + Memfd}), model(), std::nullopt,
               {}, noSoname, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Holds);

  // Garbage on the report's descriptor: not a bug in linkguard, incomplete.
  V = judgeRun(watched("x:y\n", {Before, Loaded}), model(), std::nullopt, {},
               noSoname, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Incomplete);

  // A library unmapped before the last stop still counts: the union.
  V = judgeRun(watched(Report + "", {Before, Loaded + GompMaps, Loaded}),
               model(), std::nullopt, forbidOpenMP(), noSoname, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Broken);

  // --require is met by the names the parent read, never by the report's.
  contract::ContractSpec Require;
  Require.Require = {{"libtorch*"}};
  V = judgeRun(watched(rec({"load", "ok"}) +
                           rec({"image", "loaded", "/x/libtorch.so",
                                "/usr/lib/x86_64-linux-gnu/libc.so.6"}) +
                           rec({"end"}),
                       {Before, Loaded}),
               model(), std::nullopt, Require, noSoname, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Broken);

  // "Returned" from the report, but no stop after the call.
  V = judgeRun(watched(rec({"load", "ok"}) + rec({"call", "ok", "0"}) +
                           rec({"end"}),
                       {Before, Loaded}),
               model(), std::string("f"), {}, noSoname, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Incomplete);
}

TEST_CASE("try-load: unwatched (macOS), the report's gaps fail closed",
          "[tryload]") {
  TryLoadVerdict V = judgeRun(run(loadedReport()), model(), std::nullopt, {});
  CHECK(V.What == Outcome::LoadFailed); // died before its end record
  V = judgeRun(run(loadedReport() + rec({"end"})), model({"libgomp.so.1"}),
               std::nullopt, {});
  CHECK(V.What == Outcome::Incomplete);
  V = judgeRun(run(loadedReport() + rec({"end"})), model({"libomp.so.5"}),
               std::nullopt, {});
  CHECK(V.What == Outcome::Holds);
}

TEST_CASE("try-load: a traced run judges every mapping with code as it was made",
          "[tryload]") {
  const std::string Before = LoaderMaps, Loaded = LoaderMaps + ModelMaps;
  const std::string Report = rec({"load", "ok"}) + rec({"end"});
  // libgomp mapped and unmapped between the stops: seen only as traced.
  LoaderRun Run = watched(Report, {Before, Loaded});
  Run.Traced = true;
  MappedFile Gomp = parseMaps(GompMaps).front();
  Run.Mapped.push_back({Gomp, 1});
  TryLoadVerdict V = judgeRun(Run, model(), std::nullopt, forbidOpenMP(), noSoname, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Broken);
  REQUIRE(V.Images.size() == 4);
  CHECK(V.Images[3].Image.RealPath == Gomp.Path);
  CHECK(V.Images[3].From == Origin::Dependency);

  // A mapping the parent could not read in time: undecided under --forbid,
  // nothing to decide without it.
  Run = watched(Report, {Before, Loaded});
  Run.Traced = true;
  Run.TraceProblem = "a mapping with code was changed by another thread";
  V = judgeRun(Run, model(), std::nullopt, forbidOpenMP(), noSoname, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Incomplete);
  CHECK_THAT(V.Problem, Catch::Contains("changed by another thread"));
  V = judgeRun(Run, model(), std::nullopt, {}, noSoname, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Holds);

  // Untraced (ptrace refused): holds, and says what it could not see.
  Run = watched(Report, {Before, Loaded});
  V = judgeRun(Run, model(), std::nullopt, forbidOpenMP(), noSoname, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Holds);
  CHECK_THAT(V.Note, Catch::Contains("could not trace the loader"));
}

TEST_CASE("try-load: a thread or process that asked to run untraced: undecided (issue 37)",
          "[tryload]") {
  const std::string Before = LoaderMaps, Loaded = LoaderMaps + ModelMaps;
  const std::string Untraced = "the library asked for a process that linkguard would not "
                               "trace (clone with CLONE_UNTRACED); refused (EPERM)";
  // Would hold: undecided, naming it.
  LoaderRun Run = watched(rec({"load", "ok"}) + rec({"end"}), {Before, Loaded});
  Run.Traced = true;
  Run.Untraced = Untraced;
  TryLoadVerdict V = judgeRun(Run, model(), std::nullopt, forbidOpenMP(), noSoname, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Undecided);
  CHECK(std::string(outcomeName(V.What)) == "undecided");
  CHECK(V.Problem == "undecided: " + Untraced);
  // A failed load is not blamed on the library's dependencies: undecided,
  // the failure kept as the note.
  Run = watched(rec({"load", "failed", "libx.so: cannot open shared object file"}) + rec({"end"}),
                {Before});
  Run.Traced = true;
  Run.Untraced = Untraced;
  V = judgeRun(Run, model(), std::nullopt, {}, noSoname, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Undecided);
  CHECK(V.Note == "load-failed: libx.so: cannot open shared object file");
  // A --call that failed after the refusal: undecided too.
  Run = watched(rec({"load", "ok"}) + rec({"call", "ok", "3"}) + rec({"end"}),
                {Before, Loaded, Loaded});
  Run.Traced = true;
  Run.Untraced = Untraced;
  V = judgeRun(Run, model(), std::string("ok"), {}, noSoname, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Undecided);
  CHECK_THAT(V.Note, Catch::Contains("call-failed: ok returned 3"));
  // Incomplete: its problem, as it was, is the note.
  Run = watched(rec({"load", "ok"}) + rec({"end"}), {Before, Loaded});
  Run.Traced = true;
  Run.Untraced = Untraced;
  V = judgeRun(Run, model({"libgomp.so.1"}), std::nullopt, {}, noSoname, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Undecided);
  CHECK(V.Note == "report incomplete: the library needs libgomp.so.1, and no image mapped in "
                  "the process is it");
  // A violation already seen is certain: broken, the sentence as its note.
  Run = watched(rec({"load", "ok"}) + rec({"end"}), {Before, Loaded + GompMaps});
  Run.Traced = true;
  Run.Untraced = Untraced;
  V = judgeRun(Run, model(), std::nullopt, forbidOpenMP(), noSoname, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Broken);
  CHECK(V.Note == "undecided besides: " + Untraced);
}

TEST_CASE("try-load: --forbid matches a mapped file's SONAME, not only its names",
          "[tryload]") {
  const std::string Renamed =
      mapsLine("r-xp", "08:01", 13, "/opt/evil/innocent.so");
  LoaderRun Run = watched(rec({"load", "ok"}) + rec({"end"}),
                          {LoaderMaps, LoaderMaps + ModelMaps + Renamed});
  auto Soname = [](const MappedFile &F) -> std::optional<std::string> {
    if (F.Path == "/opt/evil/innocent.so")
      return std::string("libgomp.so.1");
    return std::nullopt;
  };
  TryLoadVerdict V = judgeRun(Run, model(), std::nullopt, forbidOpenMP(), Soname, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Broken);
  REQUIRE(V.Contract.violations() == 1);
  CHECK_THAT(V.Contract.Findings.front().Message,
             Catch::StartsWith("libgomp.so.1 (/opt/evil/innocent.so) is mapped"));
  CHECK(judgeRun(Run, model(), std::nullopt, forbidOpenMP(), noSoname, neededOnDisk, definesNothing).What ==
        Outcome::Holds);
}

TEST_CASE("try-load: one image is one finding and names what brought it in (issue 35 item 7)",
          "[tryload]") {
  const std::string Before = LoaderMaps, Loaded = LoaderMaps + ModelMaps;
  std::string Report = rec({"load", "ok"}) + rec({"end"});
  auto noNeeded = [](const std::string &) { return std::vector<std::string>(); };
  LibraryFacts M = model({"libgomp.so.1"});
  M.Name = "pkg.pt2!model.so";
  auto soname = [](const MappedFile &F) -> std::optional<std::string> {
    if (F.Path == "/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0")
      return std::string("libgomp.so.1");
    return std::nullopt;
  };
  // Seen at two stops, and through a second path to the same file (a hard
  // link), and matched by its path and its SONAME: one image, one finding.
  const std::string Link = mapsLine("r-xp", "08:01", 12, "/opt/libgomp-copy.so.1");
  TryLoadVerdict V = judgeRun(watched(Report, {Before, Loaded + GompMaps, Loaded + Link}), M,
                              std::nullopt, forbidOpenMP(), soname, noNeeded, definesNothing);
  CHECK(V.What == Outcome::Broken);
  REQUIRE(V.Contract.Findings.size() == 1);
  CHECK(V.Contract.violations() == 1);
  const contract::Finding &F = V.Contract.Findings[0];
  CHECK(F.Dependency == "/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0");
  // Brought in by the library's own DT_NEEDED libgomp.so.1 (its SONAME),
  // named as the user named the library.
  CHECK_THAT(F.Message, Catch::Contains("(loaded by pkg.pt2!model.so)"));
  REQUIRE(V.Images.size() == 4);
  CHECK(V.Images[3].Image.Via == "pkg.pt2!model.so");
  CHECK(V.Images[3].Image.OtherNames ==
        std::vector<std::string>{"/opt/libgomp-copy.so.1", "libgomp.so.1"});
  // A dependency of a dependency names that dependency.
  const std::string Omp5 = mapsLine("r-xp", "08:01", 13, "/usr/lib/llvm-14/lib/libomp.so.5");
  V = judgeRun(watched(Report, {Before, Loaded + GompMaps + Omp5}), M, std::nullopt,
               forbidOpenMP(), soname, [](const std::string &P) {
                 return P == "/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0"
                            ? std::vector<std::string>{"libomp.so.5"}
                            : std::vector<std::string>();
               }, definesNothing);
  REQUIRE(V.Images.size() == 5);
  CHECK(V.Images[4].Image.Via == "/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0");
  CHECK(V.Contract.Findings.size() == 2);
  // Unwatched (the report alone, as on macOS): one real path listed under
  // its link name and its real name is one image.
  std::string Twice = loadedReport() +
                      rec({"image", "loaded", "/usr/lib/x86_64-linux-gnu/libomp.so.5", Omp}) +
                      rec({"end"});
  V = judgeRun(run(Twice), model({"libomp.so.5"}), std::nullopt, forbidOpenMP(), noSoname,
               noNeeded, definesNothing);
  CHECK(V.What == Outcome::Broken);
  CHECK(V.Contract.Findings.size() == 1);
  CHECK(V.Images.size() == 4);
  CHECK(V.Images[3].Image.Via == "/m/model.so");
}

TEST_CASE("try-load: --forbid openmp matches a runtime under another name by what it defines",
          "[tryload]") {
  auto noNeeded = [](const std::string &) { return std::vector<std::string>(); };
  const std::string Before = LoaderMaps, Loaded = LoaderMaps + ModelMaps;
  const std::string Renamed = mapsLine("r-xp", "08:01", 13, "/v/libvendor_rt.so.1");
  const std::string Wrapper = mapsLine("r-xp", "08:01", 14, "/v/libwrap.so");
  std::string Report = rec({"baseline", Loader, Loader}) + rec({"load", "ok"}) +
                       rec({"image", "loaded", "/m/model.so", "/m/model.so"}) + rec({"end"});
  // Watched: the maps show it.
  TryLoadVerdict V = judgeRun(watched(Report, {Before, Loaded + Renamed + Wrapper}), model(),
                              std::nullopt, forbidOpenMP(), noSoname, noNeeded, defines);
  CHECK(V.What == Outcome::Broken);
  REQUIRE(V.Contract.Findings.size() == 1);
  CHECK_THAT(V.Contract.Findings[0].Message,
             Catch::StartsWith("/v/libvendor_rt.so.1, an openmp runtime by its exports (it "
                               "defines GOMP_parallel), is mapped in the process"));
  // Only a wrapper of omp_*: none.
  V = judgeRun(watched(Report, {Before, Loaded + Wrapper}), model(), std::nullopt,
               forbidOpenMP(), noSoname, noNeeded, defines);
  CHECK(V.What == Outcome::Holds);
  // One whose exports cannot be read: undecided, never "holds"; beside a
  // runtime found, still broken.
  const std::string Damaged = mapsLine("r-xp", "08:01", 15, "/v/libdamaged.so");
  V = judgeRun(watched(Report, {Before, Loaded + Wrapper + Damaged}), model(), std::nullopt,
               forbidOpenMP(), noSoname, noNeeded, defines);
  CHECK(V.What == Outcome::Undecided);
  CHECK_THAT(V.Problem, Catch::StartsWith("undecided: /v/libdamaged.so is mapped in the process"));
  CHECK_THAT(V.Problem, Catch::EndsWith(
                            ": its exports cannot be read (export trie: a node past the end of "
                            "the trie), so whether it is an openmp runtime, which 'openmp' "
                            "forbids, cannot be decided"));
  REQUIRE(V.Contract.Findings.size() == 1);
  CHECK(V.Contract.Findings[0].Kind == contract::FindingKind::Unknown);
  V = judgeRun(watched(Report, {Before, Loaded + Renamed + Damaged}), model(), std::nullopt,
               forbidOpenMP(), noSoname, noNeeded, defines);
  CHECK(V.What == Outcome::Broken);
  // Unwatched (the report alone, as on macOS): the file the report names.
  std::string Listed = loadedReport() +
                       rec({"image", "loaded", "/v/libvendor_rt.so.1", "/v/libvendor_rt.so.1"}) +
                       rec({"end"});
  contract::ContractSpec Gomp;
  Gomp.Forbid = {{"openmp"}};
  V = judgeRun(run(Listed), model(), std::nullopt, Gomp, noSoname, noNeeded, defines);
  CHECK(V.Contract.Findings.size() == 2); // libomp.so.5 by name, the renamed one by exports
  CHECK_THAT(V.Contract.Findings[1].Message, Catch::Contains("defines GOMP_parallel"));
}

TEST_CASE("try-load: --require openmp is met by a runtime under another name, and undecided "
          "beside exports that cannot be read",
          "[tryload]") {
  auto noNeeded = [](const std::string &) { return std::vector<std::string>(); };
  contract::ContractSpec Require;
  Require.Require = {{"openmp"}};
  const std::string Before = LoaderMaps, Loaded = LoaderMaps + ModelMaps;
  const std::string Renamed = mapsLine("r-xp", "08:01", 13, "/v/libvendor_rt.so.1");
  const std::string Wrapper = mapsLine("r-xp", "08:01", 14, "/v/libwrap.so");
  const std::string Damaged = mapsLine("r-xp", "08:01", 15, "/v/libdamaged.so");
  std::string Report = rec({"baseline", Loader, Loader}) + rec({"load", "ok"}) +
                       rec({"image", "loaded", "/m/model.so", "/m/model.so"}) + rec({"end"});
  // Watched: a renamed libgomp is the OpenMP runtime the library needs.
  TryLoadVerdict V = judgeRun(watched(Report, {Before, Loaded + Renamed + Wrapper}), model(),
                              std::nullopt, Require, noSoname, noNeeded, defines);
  CHECK(V.What == Outcome::Holds);
  CHECK(V.Contract.Findings.empty());
  // Only a wrapper of omp_*: no runtime, a violation.
  V = judgeRun(watched(Report, {Before, Loaded + Wrapper}), model(), std::nullopt, Require,
               noSoname, noNeeded, defines);
  CHECK(V.What == Outcome::Broken);
  REQUIRE(V.Contract.Findings.size() == 1);
  CHECK(V.Contract.Findings[0].Message ==
        "no image mapped in the process matches 'openmp'");
  // An image whose exports cannot be read may be it: undecided, not broken.
  V = judgeRun(watched(Report, {Before, Loaded + Wrapper + Damaged}), model(), std::nullopt,
               Require, noSoname, noNeeded, defines);
  CHECK(V.What == Outcome::Undecided);
  REQUIRE(V.Contract.Findings.size() == 1);
  CHECK(V.Contract.Findings[0].Kind == contract::FindingKind::Unknown);
  CHECK(V.Problem == "undecided: no image mapped in the process matches 'openmp' by its names, "
                     "and /v/libdamaged.so's exports cannot be read (export trie: a node past "
                     "the end of the trie), so whether it is the openmp runtime 'openmp' "
                     "requires cannot be decided");
  // Its advice is the unreadable file's, not "load a library that matches".
  CHECK(llvm::StringRef(V.Contract.Findings[0].Advice).starts_with("ship libraries linkguard can read"));
  // Beside the runtime found, it does not matter.
  V = judgeRun(watched(Report, {Before, Loaded + Renamed + Damaged}), model(), std::nullopt,
               Require, noSoname, noNeeded, defines);
  CHECK(V.What == Outcome::Holds);
  // Unwatched (the report alone, as on macOS): the file the report names.
  std::string Listed = rec({"baseline", Loader, Loader}) + rec({"load", "ok"}) +
                       rec({"image", "loaded", "/m/model.so", "/m/model.so"}) +
                       rec({"image", "loaded", "/v/libvendor_rt.so.1", "/v/libvendor_rt.so.1"}) +
                       rec({"end"});
  V = judgeRun(run(Listed), model(), std::nullopt, Require, noSoname, noNeeded, defines);
  CHECK(V.What == Outcome::Holds);
  CHECK(V.Contract.Findings.empty());
}

TEST_CASE("try-load: a mapped file replaced or removed since is unknown, never 'not a runtime', "
          "the library by what linkguard read of it before the run",
          "[tryload]") {
  // What a file defines is read from its path only while the path names
  // the file that was mapped (device and inode).
  testsupport::TempTree T;
  const std::string Path = T.file("lib/libplain.so", "not a library, and never read");
  auto mapped = [](const std::string &P) {
    struct stat St {};
    REQUIRE(::stat(P.c_str(), &St) == 0);
    MappedFile F;
    F.Path = P;
    F.Major = major(St.st_dev);
    F.Minor = minor(St.st_dev);
    F.Inode = St.st_ino;
    F.Executable = true;
    return F;
  };
  const MappedFile Was = mapped(Path);
  std::string Problem;
  // Another file renamed over it (a neutral library in place of a runtime).
  const std::string Other = T.file("lib/other.so", "another file");
  REQUIRE(std::rename(Other.c_str(), Path.c_str()) == 0);
  CHECK(markersOnDisk(Was, Problem).empty());
  CHECK(Problem == "its path names another file now: it was replaced since it was mapped");
  // Removed.
  Problem.clear();
  REQUIRE(std::remove(Path.c_str()) == 0);
  CHECK(markersOnDisk(Was, Problem).empty());
  CHECK_THAT(Problem, Catch::StartsWith("it was removed since it was mapped ("));
  // No file to name.
  Problem.clear();
  MappedFile Memfd = Was;
  Memfd.Path = "/memfd:jit (deleted)";
  CHECK(markersOnDisk(Memfd, Problem).empty());
  CHECK(Problem == "it is mapped from no file linkguard can name (a memfd, a deleted file)");
  // The same file: read (a file that is no binary is a problem of its own).
  Problem.clear();
  const std::string Same = T.file("lib/same.so", "not a binary either");
  (void)markersOnDisk(mapped(Same), Problem);
  CHECK_THAT(Problem, !Catch::Contains("replaced") && !Catch::Contains("removed"));

  // --forbid openmp over a run whose dependency was swapped afterwards:
  // undecided; the library's own image by LibraryFacts::Defines.
  const std::string Before = LoaderMaps, Loaded = LoaderMaps + ModelMaps;
  const std::string Report = rec({"load", "ok"}) + rec({"end"});
  const std::string Swapped = mapsLine("r-xp", "08:01", 13, Path);
  TryLoadVerdict V = judgeRun(watched(Report, {Before, Loaded + Swapped}), model(), std::nullopt,
                              forbidOpenMP(), noSoname, neededOnDisk,
                              [&](const MappedFile &F, std::string &Why) {
                                if (F.Path == Path)
                                  return markersOnDisk(F, Why);
                                return definesNothing(F, Why);
                              });
  CHECK(V.What == Outcome::Undecided);
  CHECK_THAT(V.Problem, Catch::Contains(Path + " is mapped in the process"));
  CHECK_THAT(V.Problem, Catch::Contains("it was removed since it was mapped"));
  LibraryFacts Runtime = model();
  Runtime.Defines = {"GOMP_parallel"};
  V = judgeRun(watched(Report, {Before, Loaded}), Runtime, std::nullopt, forbidOpenMP(),
               noSoname, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Broken);
  REQUIRE(V.Contract.Findings.size() == 1);
  CHECK_THAT(V.Contract.Findings[0].Message,
             Catch::Contains("/m/model.so, an openmp runtime by its exports (it defines "
                             "GOMP_parallel)"));
}

TEST_CASE("try-load: the library's own SONAME is the one linkguard read before the run, as a zip "
          "member's temporary copy is gone by then",
          "[tryload]") {
  const std::string Before = LoaderMaps, Loaded = LoaderMaps + ModelMaps;
  const std::string Report = rec({"load", "ok"}) + rec({"end"});
  LibraryFacts Member = model();
  Member.Soname = "libgomp.so.1"; // pkg.pt2!model.so, a libgomp under another name
  // sonameOnDisk finds nothing at /m/model.so (removed): the facts decide.
  TryLoadVerdict V = judgeRun(watched(Report, {Before, Loaded}), Member, std::nullopt,
                              forbidOpenMP(), noSoname, neededOnDisk, definesNothing);
  CHECK(V.What == Outcome::Broken);
  REQUIRE(V.Contract.Findings.size() == 1);
  CHECK_THAT(V.Contract.Findings[0].Message, Catch::StartsWith("libgomp.so.1 (/m/model.so)"));
}
