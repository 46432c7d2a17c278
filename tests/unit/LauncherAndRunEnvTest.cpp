// Launcher options (driver/Invocation.h) and the environment of
// `linkguard run`/`env` (commands/BuildEnvironment.h).
#include "commands/BuildEnvironment.h"
#include "driver/CompilerFamily.h"
#include "driver/Invocation.h"
#include "driver/Job.h"
#include "driver/Plan.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "tests/unit/support/Catch.h"

using namespace linkguard::driver;
using namespace linkguard::commands;
namespace config = linkguard::config;

TEST_CASE("launcher options come before the compiler word", "[invocation][launcher]") {
  Invocation I = parseInvocation(
      "linkguard", {"--assume-define=USE_MPS", "--assume-define", "X=2", "--assume-aot",
                    "--", "/usr/bin/clang++", "-dynamiclib", "a.o"});
  REQUIRE(I.Kind == InvocationKind::CompilerDriver);
  CHECK(I.Request.LauncherCommand == std::vector<std::string>{"/usr/bin/clang++"});
  CHECK(I.Args == std::vector<std::string>{"-dynamiclib", "a.o"});
  REQUIRE(I.AssumedDefines.size() == 2);
  CHECK(I.AssumedDefines[0] == std::make_pair(std::string("USE_MPS"), std::string()));
  CHECK(I.AssumedDefines[1] == std::make_pair(std::string("X"), std::string("2")));
  CHECK(I.AssumeAot == std::optional<bool>(true));

  // Without "--" the first non-option word is the compiler; options after it
  // are the compiler's.
  I = parseInvocation("linkguard", {"--assume-aot=0", "clang++", "--assume-aot"});
  CHECK(I.Kind == InvocationKind::CompilerDriver);
  CHECK(I.AssumeAot == std::optional<bool>(false));
  CHECK(I.Args == std::vector<std::string>{"--assume-aot"});
}

TEST_CASE("bad launcher options are usage errors that say what was expected",
          "[invocation][launcher]") {
  for (const std::vector<std::string> &Args : std::vector<std::vector<std::string>>{
           {"--assume-define"}, {"--assume-define="}, {"--assume-aot=maybe", "clang++"},
           {"--assume-define=USE_MPS"}, {"--assume-define=USE_MPS", "--"}}) {
    Invocation I = parseInvocation("linkguard", Args);
    CHECK(I.Kind == InvocationKind::Usage);
    CHECK_FALSE(I.Problem.empty());
  }
  CHECK(parseInvocation("linkguard", {"run", "--", "make"}).Subcommand == "run");
  CHECK(parseInvocation("linkguard", {"env"}).Subcommand == "env");
}

TEST_CASE("assumptions add to what the command defines, never replace it",
          "[invocation][launcher]") {
  auto Cfg = config::configFromMap({{"PATH", "/usr/bin:/bin"}});
  REQUIRE(static_cast<bool>(Cfg));
  Invocation I = parseInvocation("linkguard", {"--assume-define=USE_MPS", "--assume-define=A=1",
                                               "--assume-aot", "/bin/sh", "-DA=7", "a.o"});
  auto J = makeJob(I, *Cfg, "");
  REQUIRE(static_cast<bool>(J));
  auto P = planJob(*J, *Cfg);
  REQUIRE(static_cast<bool>(P));
  CHECK(P->Cls.isDefined("USE_MPS"));
  REQUIRE(P->Cls.Defines.size() == 2);
  CHECK(P->Cls.Defines[0] == std::make_pair(std::string("A"), std::string("7")));
  const linkguard::flags::Condition *Aot = nullptr;
  for (const linkguard::flags::Condition &C : P->Decisions.front().Conditions)
    if (C.Name == "AOT build")
      Aot = &C;
  REQUIRE(Aot);
  CHECK(Aot->Why == "LINKGUARD_AOT=1");

  // A drop-in call has no assumptions: nothing is added.
  Invocation D = parseInvocation("linkguard", {"/bin/sh", "a.o"});
  auto DJ = makeJob(D, *Cfg, "");
  REQUIRE(static_cast<bool>(DJ));
  auto DP = planJob(*DJ, *Cfg);
  REQUIRE(static_cast<bool>(DP));
  CHECK(DP->Cls.Defines.empty());
}

namespace {

std::string builtBinary() {
  llvm::SmallString<256> Real;
  REQUIRE_FALSE(llvm::sys::fs::real_path(LINKGUARD_BINARY, Real));
  return std::string(Real);
}

std::map<std::string, std::string> envOf(const BuildEnvironment &E) {
  std::map<std::string, std::string> M;
  for (const EnvAssignment &A : E.Set)
    M[A.Name] = A.Value;
  return M;
}

} // namespace

TEST_CASE("run/env record the previous CXX/CC, never linkguard itself", "[run][env]") {
  const std::string Self = builtBinary();
  const std::string Dir = llvm::sys::path::parent_path(Self).str();

  auto Cfg = config::configFromMap({{"CXX", "ccache /usr/bin/clang++"}, {"PATH", "/usr/bin:/bin"}});
  REQUIRE(bool(Cfg));
  auto E = buildEnvironment(*Cfg, Self);
  REQUIRE(bool(E));
  auto M = envOf(*E);
  CHECK(M["CXX"] == Dir + "/linkguard-clang++");
  CHECK(M["LINKGUARD_CXX"] == "ccache /usr/bin/clang++");
  CHECK(llvm::StringRef(M["CC"]).starts_with(Dir + "/linkguard-"));
  CHECK(M.count("LINKGUARD_CC") == 0); // CC was unset: PATH decides

  Cfg = config::configFromMap({{"CXX", Dir + "/linkguard-clang++"}, {"LINKGUARD_CXX", "/opt/c++"},
                       {"PATH", "/usr/bin:/bin"}});
  REQUIRE(bool(Cfg));
  E = buildEnvironment(*Cfg, Self);
  REQUIRE(bool(E));
  M = envOf(*E);
  CHECK(M.count("CXX") == 0);
  CHECK(M.count("LINKGUARD_CXX") == 0);

  Cfg = config::configFromMap({{"CXX", "g++"}, {"LINKGUARD_CXX", "/opt/c++"}, {"PATH", "/usr/bin"}});
  REQUIRE(bool(Cfg));
  E = buildEnvironment(*Cfg, Self);
  REQUIRE(bool(E));
  M = envOf(*E);
  CHECK(M["CXX"] == Dir + "/linkguard-g++"); // /opt/c++ says no family; CXX=g++ does
  CHECK(M.count("LINKGUARD_CXX") == 0); // the explicit LINKGUARD_CXX is kept
}

TEST_CASE("run/env fail when the multi-call names are missing", "[run][env]") {
  auto Cfg = config::configFromMap({});
  REQUIRE(bool(Cfg));
  auto E = buildEnvironment(*Cfg, "/nonexistent-dir/linkguard");
  REQUIRE_FALSE(bool(E));
  CHECK(llvm::toString(E.takeError()).find(" is missing beside /nonexistent-dir/linkguard") !=
        std::string::npos);
}

TEST_CASE("a name's family is the one inductor's cpp_builder reads", "[run][env][family]") {
  // cpp_builder._is_clang: "clang" in the name; _is_gcc: not clang, and
  // "gcc", "g++" or "gnu-c++" in it.
  CHECK(familyOfName("clang++") == CompilerFamily::Clang);
  CHECK(familyOfName("arm64-apple-darwin-clang++-19") == CompilerFamily::Clang);
  CHECK(familyOfName("clang") == CompilerFamily::Clang);
  CHECK(familyOfName("g++") == CompilerFamily::Gcc);
  CHECK(familyOfName("x86_64-linux-gnu-g++-12") == CompilerFamily::Gcc);
  CHECK(familyOfName("gcc-13") == CompilerFamily::Gcc);
  CHECK(familyOfName("c++") == CompilerFamily::Unknown);
  CHECK(familyOfName("cc") == CompilerFamily::Unknown);
  CHECK(std::string(dropInName(CompilerFamily::Gcc, Language::Cxx)) == "linkguard-g++");
  CHECK(std::string(dropInName(CompilerFamily::Gcc, Language::C)) == "linkguard-gcc");
  CHECK(std::string(dropInName(CompilerFamily::Clang, Language::Cxx)) == "linkguard-clang++");
  CHECK(std::string(dropInName(CompilerFamily::Clang, Language::C)) == "linkguard-clang");
}

TEST_CASE("run/env name the drop-in for the family of the compiler that runs",
          "[run][env][family]") {
  const std::string Self = builtBinary();
  const std::string Dir = llvm::sys::path::parent_path(Self).str();
  auto envFor = [&](std::map<std::string, std::string> Vars) {
    auto Cfg = config::configFromMap(Vars);
    REQUIRE(bool(Cfg));
    auto E = buildEnvironment(*Cfg, Self);
    REQUIRE(bool(E));
    return envOf(*E);
  };
  // The compiler named in CXX (past ccache), whatever its path or version.
  auto M = envFor({{"CXX", "ccache g++-12"}, {"CC", "/usr/lib/llvm-19/bin/clang"},
                   {"PATH", "/usr/bin:/bin"}});
  CHECK(M["CXX"] == Dir + "/linkguard-g++");
  CHECK(M["LINKGUARD_CXX"] == "ccache g++-12");
  CHECK(M["CC"] == Dir + "/linkguard-clang");
  M = envFor({{"CXX", "/usr/lib/llvm-19/bin/clang++"}, {"PATH", "/usr/bin:/bin"}});
  CHECK(M["CXX"] == Dir + "/linkguard-clang++");
  // An explicit LINKGUARD_CXX is the compiler that runs: its family.
  M = envFor({{"CXX", "g++"}, {"LINKGUARD_CXX", "clang++-19"}, {"PATH", "/usr/bin:/bin"}});
  CHECK(M["CXX"] == Dir + "/linkguard-clang++");
  M = envFor({{"LINKGUARD_CC", "gcc"}, {"PATH", "/usr/bin:/bin"}});
  CHECK(M["CC"] == Dir + "/linkguard-gcc");
  // A PATH with only clang: an unset CXX runs clang++, a clang name.
  llvm::SmallString<128> OnlyClang;
  REQUIRE(!llvm::sys::fs::createUniqueDirectory("lg-only-clang", OnlyClang));
  for (const char *N : {"clang++", "clang"}) {
    llvm::SmallString<128> L(OnlyClang);
    llvm::sys::path::append(L, N);
    REQUIRE(!llvm::sys::fs::create_link("/bin/true", L));
  }
  M = envFor({{"PATH", std::string(OnlyClang)}});
  CHECK(M["CXX"] == Dir + "/linkguard-clang++");
  CHECK(M["CC"] == Dir + "/linkguard-clang");
  CHECK(M.count("LINKGUARD_CXX") == 0);
  llvm::sys::fs::remove_directories(OnlyClang);
#if !defined(__APPLE__)
  // Unset CXX on Linux: what make and inductor run without it, g++, when
  // it is on PATH.
  if (llvm::sys::fs::exists("/usr/bin/g++")) {
    M = envFor({{"PATH", "/usr/bin:/bin"}});
    CHECK(M["CXX"] == Dir + "/linkguard-g++");
    CHECK(M["CC"] == Dir + "/linkguard-gcc");
    CHECK(M.count("LINKGUARD_CXX") == 0);
  }
  // c++ says neither: the file it leads to does (Debian: g++ through
  // /etc/alternatives).
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path("/usr/bin/c++", Real) &&
      familyOfName(llvm::sys::path::filename(Real)) == CompilerFamily::Gcc) {
    M = envFor({{"CXX", "c++"}, {"PATH", "/usr/bin:/bin"}});
    CHECK(M["CXX"] == Dir + "/linkguard-g++");
  }
#endif
}
