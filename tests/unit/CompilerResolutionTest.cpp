// Compiler resolution (driver/CompilerResolution.h): the order
// LINKGUARD_CXX > CXX (unless it is linkguard) > PATH minus linkguard, with
// real files in a temporary directory.
#include "driver/CompilerResolution.h"
#include "driver/DriverError.h"

#include "tests/unit/support/Catch.h"
#include "tests/unit/support/TempTree.h"

#include <filesystem>

namespace fs = std::filesystem;
using namespace linkguard::driver;
namespace config = linkguard::config;
using linkguard::testsupport::TempTree;

namespace {


config::Config configWith(std::map<std::string, std::string> Env) {
  auto C = config::configFromMap(Env);
  REQUIRE(static_cast<bool>(C));
  return *C;
}

int errorCode(llvm::Error E) {
  int Code = -1;
  llvm::handleAllErrors(std::move(E), [&](const DriverError &D) { Code = toInt(D.code()); },
                        [&](const llvm::ErrorInfoBase &) { Code = -2; });
  return Code;
}

} // namespace

TEST_CASE("splitCommandWords splits like a shell word list, without expansion",
          "[resolution]") {
  auto W = splitCommandWords("ccache  '/opt/my clang/clang++' -stdlib=libc++ \"a\\\"b\" $HOME");
  REQUIRE(static_cast<bool>(W));
  REQUIRE(*W == std::vector<std::string>{"ccache", "/opt/my clang/clang++",
                                          "-stdlib=libc++", "a\"b", "$HOME"});
  auto Empty = splitCommandWords("   ");
  REQUIRE(static_cast<bool>(Empty));
  CHECK(Empty->empty());
  auto Bad = splitCommandWords("clang++ 'unterminated");
  REQUIRE(!Bad);
  CHECK(errorCode(Bad.takeError()) == toInt(ExitCode::BadConfig));
}

TEST_CASE("LINKGUARD_CXX wins over CXX and PATH", "[resolution]") {
  TempTree T;
  std::string Mine = T.executable("mine/clang++");
  std::string Users = T.executable("users/clang++");
  std::string OnPath = T.executable("bin/clang++");
  config::Config C = configWith({{"LINKGUARD_CXX", Mine + " -stdlib=libc++"},
                         {"CXX", Users},
                         {"PATH", (T.Root + "/bin")}});
  auto R = resolveCompiler(ResolveRequest{}, C);
  REQUIRE(static_cast<bool>(R));
  CHECK(R->Executable == Mine);
  CHECK(R->Prefix == std::vector<std::string>{Mine, "-stdlib=libc++"});
  CHECK(R->Origin == "LINKGUARD_CXX");
}

TEST_CASE("the user's CXX is honoured, with its arguments", "[resolution]") {
  TempTree T;
  std::string Ccache = T.executable("bin/ccache");
  T.executable("bin/clang++");
  config::Config C = configWith({{"CXX", "ccache clang++"}, {"PATH", (T.Root + "/bin")}});
  auto R = resolveCompiler(ResolveRequest{}, C);
  REQUIRE(static_cast<bool>(R));
  CHECK(R->Executable == Ccache);
  CHECK(R->Prefix == std::vector<std::string>{Ccache, "clang++"});
  CHECK(R->Origin == "CXX");
}

TEST_CASE("CXX naming linkguard falls through to PATH, skipping linkguard", "[resolution]") {
  TempTree T;
  std::string Wrapper = T.executable("first/linkguard-clang++");
  std::string Masquerade = T.executable("first/clang++");
  std::string Real = T.executable("second/clang++");
  // The masquerade clang++ is "us": pass its canonical path as SelfPath.
  ResolveRequest Req;
  Req.SelfPath = fs::canonical(Masquerade).string();
  config::Config C = configWith({{"CXX", Wrapper},
                         {"PATH", (T.Root + "/first") + ":" + (T.Root + "/second")}});
  auto R = resolveCompiler(Req, C);
  REQUIRE(static_cast<bool>(R));
  CHECK(R->Executable == Real);
  CHECK(R->Origin == "PATH");
}

TEST_CASE("empty or blank CXX is ignored", "[resolution]") {
  TempTree T;
  std::string Real = T.executable("bin/clang++");
  for (const char *Blank : {"", "   "}) {
    config::Config C = configWith({{"CXX", Blank}, {"PATH", (T.Root + "/bin")}});
    auto R = resolveCompiler(ResolveRequest{}, C);
    REQUIRE(static_cast<bool>(R));
    CHECK(R->Executable == Real);
  }
}

TEST_CASE("resolution failures carry distinct exit codes", "[resolution]") {
  TempTree T;
  T.dir("dir-compiler");
  SECTION("nothing on PATH") {
    config::Config C = configWith({{"PATH", (T.Root + "/empty")}});
    CHECK(errorCode(resolveCompiler(ResolveRequest{}, C).takeError()) ==
          toInt(ExitCode::NoCompiler));
  }
  SECTION("a missing compiler") {
    config::Config C = configWith({{"LINKGUARD_CXX", (T.Root + "/nope")}});
    CHECK(errorCode(resolveCompiler(ResolveRequest{}, C).takeError()) ==
          toInt(ExitCode::NoCompiler));
  }
  SECTION("a directory") {
    config::Config C = configWith({{"LINKGUARD_CXX", (T.Root + "/dir-compiler")}});
    CHECK(errorCode(resolveCompiler(ResolveRequest{}, C).takeError()) ==
          toInt(ExitCode::NoCompiler));
  }
  SECTION("LINKGUARD_CXX naming linkguard") {
    std::string Self = T.executable("bin/linkguard");
    config::Config C = configWith({{"LINKGUARD_CXX", Self}});
    CHECK(errorCode(resolveCompiler(ResolveRequest{}, C).takeError()) ==
          toInt(ExitCode::Recursion));
  }
}

TEST_CASE("the launcher form uses the compiler it names", "[resolution]") {
  TempTree T;
  std::string Cxx = T.executable("bin/c++");
  ResolveRequest Req;
  Req.LauncherCommand = {Cxx};
  config::Config C = configWith({{"CXX", "/somewhere/else/clang++"}});
  auto R = resolveCompiler(Req, C);
  REQUIRE(static_cast<bool>(R));
  CHECK(R->Executable == Cxx);
  CHECK(R->Origin == "the launcher command");
}
