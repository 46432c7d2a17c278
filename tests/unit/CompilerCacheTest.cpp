// linkguard beside compiler caches: resolution past ccache's masquerade
// directory (driver/CompilerResolution.cpp, skipCacheLoop) and the warning
// for a cache in front of linkguard (driver/FrontCache.h). Real files in a
// temporary directory; the e2e suites ccache.bash and sccache.bash run the
// real caches.
#include "driver/CompilerResolution.h"
#include "driver/DriverError.h"
#include "driver/FrontCache.h"

#include "tests/unit/support/Catch.h"
#include "tests/unit/support/TempTree.h"

#include <filesystem>

namespace fs = std::filesystem;
using namespace linkguard::driver;
namespace config = linkguard::config;
using linkguard::testsupport::TempTree;

namespace {

struct CacheTree {
  TempTree Tree;
  std::string Self;   // "linkguard", canonical
  std::string Ccache; // bin/ccache
  std::string Real;   // bin/clang++
  CacheTree() {
    Self = Tree.executable("lg/linkguard");
    Ccache = Tree.executable("bin/ccache");
    Real = Tree.executable("bin/clang++");
    // linkguard's masquerade directory and ccache's, as users set them up.
    link("../lg/linkguard", "lgmasq/clang++");
    link("../bin/ccache", "ccmasq/clang++");
    Self = fs::canonical(Self).string();
    Ccache = fs::canonical(Ccache).string();
  }
  std::string at(const std::string &Rel) const { return Tree.Root + "/" + Rel; }
  void link(const std::string &Target, const std::string &Rel) const {
    fs::create_directories(fs::path(at(Rel)).parent_path());
    fs::create_symlink(Target, at(Rel));
  }
  std::string path(std::initializer_list<const char *> Dirs) const {
    std::string P;
    for (const char *D : Dirs)
      P += (P.empty() ? "" : ":") + at(D);
    return P;
  }
  llvm::Expected<CompilerCommand>
  resolve(std::map<std::string, std::string> Env) const {
    auto C = config::configFromMap(Env);
    REQUIRE(static_cast<bool>(C));
    ResolveRequest Req;
    Req.SelfPath = Self;
    return resolveCompiler(Req, *C);
  }
};

int errorCode(llvm::Error E) {
  int Code = -1;
  llvm::handleAllErrors(
      std::move(E), [&](const DriverError &D) { Code = toInt(D.code()); },
      [&](const llvm::ErrorInfoBase &) { Code = -2; });
  return Code;
}

} // namespace

TEST_CASE(
    "ccache's masquerade directory that would run linkguard again: ccache runs "
    "the real compiler by name",
    "[resolution][cache]") {
  CacheTree T;
  // ccache's own lookup of clang++ skips only ccache, so it would find
  // lgmasq/clang++ (linkguard) whichever of the two directories comes first.
  for (auto Path : {T.path({"lgmasq", "ccmasq", "bin"}),
                    T.path({"ccmasq", "lgmasq", "bin"})}) {
    auto R = T.resolve({{"PATH", Path}});
    REQUIRE(static_cast<bool>(R));
    CHECK(R->Prefix == std::vector<std::string>{T.Ccache, T.Real});
    CHECK(R->Executable == T.Ccache);
    CHECK(R->Origin == "PATH");
  }
}

TEST_CASE("LINKGUARD_CXX=\"ccache clang++\" with linkguard's masquerade first "
          "on PATH",
          "[resolution][cache]") {
  CacheTree T;
  auto R = T.resolve({{"LINKGUARD_CXX", "ccache clang++ -O2"},
                      {"PATH", T.path({"lgmasq", "bin"})}});
  REQUIRE(static_cast<bool>(R));
  CHECK(R->Prefix == std::vector<std::string>{T.Ccache, T.Real, "-O2"});
}

TEST_CASE("without a loop, ccache's masquerade link is run as it is",
          "[resolution][cache]") {
  CacheTree T;
  auto R = T.resolve({{"PATH", T.path({"ccmasq", "bin"})}});
  REQUIRE(static_cast<bool>(R));
  CHECK(R->Prefix ==
        std::vector<std::string>{T.at("ccmasq/clang++")});
  auto Explicit = T.resolve(
      {{"LINKGUARD_CXX", "ccache clang++"}, {"PATH", T.path({"bin"})}});
  REQUIRE(static_cast<bool>(Explicit));
  CHECK(Explicit->Prefix == std::vector<std::string>{T.Ccache, "clang++"});
}

TEST_CASE(
    "ccache's masquerade with only linkguard after it is a recursion error",
    "[resolution][cache]") {
  CacheTree T;
  fs::remove(T.Real);
  auto R = T.resolve({{"PATH", T.path({"ccmasq", "lgmasq", "bin"})}});
  REQUIRE(!R);
  CHECK(errorCode(R.takeError()) == toInt(ExitCode::Recursion));
}

TEST_CASE("the warning for a cache in front of linkguard", "[cache]") {
  auto Cfg = config::configFromMap({});
  REQUIRE(static_cast<bool>(Cfg));
  const std::string V14 = "/usr/bin/clang++-14\t1 2",
                    V19 = "/usr/bin/clang++-19\t3 4";
  SECTION("nothing without a cache, or with the recorded compiler") {
    CHECK(frontCacheWarning(FrontCacheKind::None, *Cfg, "", V14).empty());
    CHECK(frontCacheWarning(FrontCacheKind::Ccache, *Cfg, V14, V14).empty());
    CHECK(frontCacheWarning(FrontCacheKind::Sccache, *Cfg, V19, V19).empty());
  }
  SECTION("first sight: what the cache keys on, and the two ways out") {
    std::string W = frontCacheWarning(FrontCacheKind::Ccache, *Cfg, "", V14);
    CHECK_THAT(
        W, Catch::StartsWith(
               "linkguard: warning: ccache runs linkguard as its compiler"));
    CHECK_THAT(W, Catch::Contains("(/usr/bin/clang++-14)"));
    CHECK_THAT(W,
               Catch::Contains("LINKGUARD_CXX='ccache /usr/bin/clang++-14'"));
    CHECK_THAT(W, Catch::Contains("CCACHE_COMPILERCHECK='%compiler% -v'"));
    CHECK_THAT(W, !Catch::Contains("\t"));
    CHECK_THAT(frontCacheWarning(FrontCacheKind::Sccache, *Cfg, "", V14),
               Catch::Contains("sccache --stop-server"));
  }
  SECTION("a change names both compilers") {
    std::string W = frontCacheWarning(FrontCacheKind::Ccache, *Cfg, V14, V19);
    CHECK_THAT(W,
               Catch::Contains(
                   "changed from /usr/bin/clang++-14 to /usr/bin/clang++-19"));
    CHECK_THAT(W, Catch::Contains("ccache -C"));
    // The same path with another size or mtime is another compiler.
    CHECK(!frontCacheWarning(FrontCacheKind::Ccache, *Cfg,
                             "/usr/bin/clang++\t1 2", "/usr/bin/clang++\t1 3")
               .empty());
  }
  SECTION(
      "a ccache compiler check that runs the compiler sees through linkguard") {
    auto Checked = config::configFromMap({{"CCACHE_COMPILERCHECK", "%compiler% -v"}});
    REQUIRE(static_cast<bool>(Checked));
    CHECK(
        frontCacheWarning(FrontCacheKind::Ccache, *Checked, V14, V19).empty());
    CHECK(!frontCacheWarning(FrontCacheKind::Sccache, *Checked, V14, V19)
               .empty());
    auto Mtime = config::configFromMap({{"CCACHE_COMPILERCHECK", "mtime"}});
    REQUIRE(static_cast<bool>(Mtime));
    CHECK(!frontCacheWarning(FrontCacheKind::Ccache, *Mtime, V14, V19).empty());
  }
}

TEST_CASE(
    "first sight and each change are said once, by a step that can say it",
    "[cache]") {
  auto Cfg = config::configFromMap({});
  REQUIRE(static_cast<bool>(Cfg));
  const auto K = FrontCacheKind::Sccache;
  const std::string V14 = "/usr/bin/clang++-14\t1 2",
                    V19 = "/usr/bin/clang++-19\t3 4";
  SECTION("a step that can print says first sight and records it") {
    FrontDecision D = decideFrontCache(K, *Cfg, {}, V14, true, true);
    CHECK_THAT(D.Text, Catch::Contains("runs linkguard as its compiler"));
    REQUIRE(D.Write);
    CHECK(D.Write->Told == V14);
    CHECK(D.Write->Other.empty());
    FrontDecision Again = decideFrontCache(K, *Cfg, {V14, ""}, V14, true, true);
    CHECK(Again.Text.empty());
    CHECK(!Again.Write);
  }
  SECTION("sccache's compile steps only note; the first link tells") {
    FrontDecision Compile = decideFrontCache(K, *Cfg, {}, V14, false, true);
    CHECK(Compile.Text.empty());
    REQUIRE(Compile.Write);
    CHECK(Compile.Write->Other == V14);
    FrontDecision Link =
        decideFrontCache(K, *Cfg, *Compile.Write, V14, true, true);
    CHECK_THAT(Link.Text, Catch::Contains("runs linkguard as its compiler"));
    REQUIRE(Link.Write);
    CHECK(Link.Write->Told == V14);
  }
  SECTION("a change is said by the first step that can print it") {
    FrontDecision Compile =
        decideFrontCache(K, *Cfg, {V14, ""}, V19, false, true);
    CHECK(Compile.Text.empty());
    FrontDecision Link = decideFrontCache(K, *Cfg, {V14, ""}, V19, true, true);
    CHECK_THAT(Link.Text,
               Catch::Contains(
                   "changed from /usr/bin/clang++-14 to /usr/bin/clang++-19"));
    REQUIRE(Link.Write);
    CHECK(Link.Write->Told == V19);
  }
  SECTION(
      "compiles with another compiler between two links with the same one") {
    // Told 19; compile steps ran 14 (a cache miss stored 14's object);
    // back on 19 the cache serves it: the link must say so.
    FrontDecision Compile =
        decideFrontCache(K, *Cfg, {V19, ""}, V14, false, true);
    REQUIRE(Compile.Write);
    CHECK(Compile.Write->Other == V14);
    FrontDecision Link =
        decideFrontCache(K, *Cfg, *Compile.Write, V19, true, true);
    CHECK_THAT(Link.Text,
               Catch::Contains(
                   "changed from /usr/bin/clang++-14 to /usr/bin/clang++-19"));
    REQUIRE(Link.Write);
    CHECK(Link.Write->Other.empty());
  }
  SECTION("ccache seen only through CCACHE_DISABLE reports changes, starts "
          "nothing") {
    const auto C = FrontCacheKind::Ccache;
    FrontDecision Start = decideFrontCache(C, *Cfg, {}, V14, true, false);
    CHECK(Start.Text.empty());
    CHECK(!Start.Write);
    CHECK(!decideFrontCache(C, *Cfg, {V14, ""}, V19, true, false).Text.empty());
  }
}

TEST_CASE("no cache is detected without one", "[cache]") {
  auto Cfg = config::configFromMap({});
  REQUIRE(static_cast<bool>(Cfg));
  // The unit test's parent is ctest or a shell, not a cache.
  CHECK(detectFrontCache(*Cfg, true).Kind == FrontCacheKind::None);
  auto Disabled = config::configFromMap({{"CCACHE_DISABLE", "1"}});
  REQUIRE(static_cast<bool>(Disabled));
  CHECK(detectFrontCache(*Disabled, false).Kind == FrontCacheKind::None);
  FrontCache Link = detectFrontCache(*Disabled, true);
  CHECK(Link.Kind == FrontCacheKind::Ccache);
  CHECK(!Link.FromParent);
}
