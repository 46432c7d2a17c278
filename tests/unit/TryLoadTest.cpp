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

contract::ContractSpec forbidOpenMP() {
  contract::ContractSpec S;
  S.Forbid = {{"openmp"}};
  return S;
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
  // A record that disagrees with the format is a bug, said so.
  for (const std::string &Bad :
       {std::string("4:load 2:ok x\n"), std::string("9:load\n"),
        std::string("x:y\n"), rec({"image", "loaded", "/a"}),
        rec({"frobnicate"}), rec({"call", "ok", "zero"})}) {
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
  TryLoadVerdict V = judgeRun(run(loadedReport() + rec({"end"})), "/m/model.so",
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
      "/m/model.so", std::string("selftest"), {});
  CHECK(V.What == Outcome::Holds);
  CHECK(V.Images.back().From == Origin::Call);

  V = judgeRun(
      run(rec({"hide", "unavailable", "unshare: EPERM"}) + rec({"end"})),
      "/m/model.so", std::nullopt, forbidOpenMP());
  CHECK(V.What == Outcome::HideUnavailable);
  CHECK(V.Problem == "--hide is unavailable here: unshare: EPERM");

  V = judgeRun(run(rec({"baseline", Libc, Libc}) +
                   rec({"load", "failed",
                        "libomp.so.9: cannot open shared "
                        "object file"}) +
                   rec({"end"})),
               "/m/model.so", std::nullopt, {});
  CHECK(V.What == Outcome::LoadFailed);
  CHECK(V.Problem == "libomp.so.9: cannot open shared object file");
  CHECK(V.Images.empty());

  V = judgeRun(run(rec({"baseline", Libc, Libc}), /*Signal=*/11), "/m/model.so",
               std::nullopt, {});
  CHECK(V.What == Outcome::LoadFailed);
  CHECK_THAT(V.Problem, Catch::StartsWith("the loader died by signal 11"));

  V = judgeRun(run(loadedReport() +
                   rec({"call", "missing", "undefined symbol: f"}) +
                   rec({"end"})),
               "/m/model.so", std::string("f"), {});
  CHECK(V.What == Outcome::CallFailed);
  CHECK(V.Problem == "undefined symbol: f");

  V = judgeRun(run(loadedReport() + rec({"call", "ok", "3"}) + rec({"end"})),
               "/m/model.so", std::string("f"), forbidOpenMP());
  CHECK(V.What == Outcome::CallFailed);
  CHECK(V.Problem == "f returned 3");
  CHECK(V.Contract.violations() == 1); // still judged

  V = judgeRun(run(loadedReport(), /*Signal=*/11), "/m/model.so",
               std::string("f"), {});
  CHECK(V.What == Outcome::CallFailed);
  CHECK_THAT(V.Problem,
             Catch::Contains("died by signal 11") && Catch::EndsWith(" in f"));

  V = judgeRun(run(loadedReport() + rec({"end"}), 0, /*Status=*/3),
               "/m/model.so", std::nullopt, {});
  CHECK(V.What == Outcome::Holds);
  CHECK_THAT(V.Note, Catch::Contains("exited with status 3 after its report"));
}
