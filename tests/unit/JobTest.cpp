// driver/Job: the words that run, split once at the compiler word.
#include "driver/CompilerResolution.h"
#include "driver/Job.h"

#include "tests/unit/support/Catch.h"

using namespace linkguard::driver;
namespace config = linkguard::config;
using Strings = std::vector<std::string>;

TEST_CASE("the compiler word comes after compiler launchers", "[job]") {
  CHECK(compilerWordIndex({"clang++"}) == 0);
  CHECK(compilerWordIndex({"/usr/bin/ccache", "clang++", "-target", "x"}) == 1);
  CHECK(compilerWordIndex({"ccache", "distcc", "clang++"}) == 2);
  CHECK(compilerWordIndex({"distcc"}) == 0);           // distcc alone picks cc
  CHECK(compilerWordIndex({"ccache", "-s"}) == 0);      // ccache's own option
  CHECK(compilerWordIndex({"/x/arm64-apple-darwin-clang++", "-isysroot", "/sdk"}) == 0);
}

TEST_CASE("a Job: CXX words after the compiler word are the compiler's arguments",
          "[job]") {
  auto Cfg = config::configFromMap({{"PATH", "/usr/bin:/bin"},
                            {"LINKGUARD_CXX", "/bin/sh -target arm64-apple-macos11 -isysroot /sdk"}});
  REQUIRE(static_cast<bool>(Cfg));
  Invocation Inv = parseInvocation("linkguard-clang++", {"-shared", "a.o"});
  auto J = makeJob(Inv, *Cfg, "");
  REQUIRE(static_cast<bool>(J));
  CHECK(J->CompilerName == "sh");
  CHECK(J->Launch.Prefix == Strings{"/bin/sh"});
  CHECK(J->Args == Strings{"-target", "arm64-apple-macos11", "-isysroot", "/sdk", "-shared", "a.o"});
  CHECK(J->UserArgsStart == 4);
  CHECK(J->argv(J->Args) ==
        Strings{"/bin/sh", "-target", "arm64-apple-macos11", "-isysroot", "/sdk", "-shared", "a.o"});
}

TEST_CASE("explain reads a command as linkguard would be invoked with it", "[job]") {
  auto Cfg = config::configFromMap({{"PATH", "/usr/bin:/bin"}});
  REQUIRE(static_cast<bool>(Cfg));
  Invocation L = invocationForCommand(
      {"linkguard", "--assume-define=USE_MPS", "--", "/bin/sh", "-shared"}, *Cfg, "");
  CHECK(L.Kind == InvocationKind::CompilerDriver);
  CHECK(L.Form == InvocationForm::Launcher);
  CHECK(L.AssumedDefines.size() == 1);
  Invocation W = invocationForCommand({"/opt/bin/linkguard-clang++", "-c", "a.cpp"}, *Cfg, "");
  CHECK(W.Form == InvocationForm::Wrapper);
  Invocation C = invocationForCommand({"/bin/sh", "-c", "a.cpp"}, *Cfg, "");
  CHECK(C.Form == InvocationForm::Launcher);
  CHECK(C.Request.LauncherCommand == Strings{"/bin/sh"});
  CHECK(C.Args == Strings{"-c", "a.cpp"});
}
