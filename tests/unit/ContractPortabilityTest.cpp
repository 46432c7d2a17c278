// contract/Portability: every way a dependency can be system, shipped,
// provided or non-portable, over a fake file system (the FileProbe), so the
// "the file exists on this machine" trap can be set up on purpose.
#include "contract/Contract.h"
#include "contract/LoaderRules.h"
#include "contract/Portability.h"

#include "tests/unit/support/Catch.h"

#include <set>

using namespace linkguard::contract;
using namespace linkguard::objlib;

namespace {

/// A fake file system: the set of files that "exist", found lexically (the
/// probe gets the loader's own path, ".." kept: a fake has no directories;
/// e2e.shipment checks "nonexistent/.." on a real one).
FileProbe fakeFS(std::set<std::string> Files) {
  return [Files = std::move(Files)](const std::string &P) {
    return Files.count(normalizePath(P)) != 0;
  };
}

BinaryInfo machO(const std::string &Path, std::vector<std::string> Deps,
                 std::vector<std::string> RPaths = {}) {
  BinaryInfo B;
  B.Path = Path;
  B.Fmt = Format::MachO;
  Slice S;
  S.Arch = "arm64";
  S.FileType = "dylib";
  unsigned Ordinal = 0;
  for (std::string &D : Deps) {
    Dependency Dep;
    Dep.Name = std::move(D);
    Dep.Ordinal = ++Ordinal;
    S.Dependencies.push_back(std::move(Dep));
  }
  for (std::string &R : RPaths)
    S.SearchPaths.push_back({std::move(R), SearchPathKind::RPath});
  B.Slices.push_back(std::move(S));
  return B;
}

BinaryInfo elf(const std::string &Path, std::vector<std::string> Needed,
               std::vector<SearchPath> Paths = {}) {
  BinaryInfo B = machO(Path, std::move(Needed));
  B.Fmt = Format::ELF;
  B.Slices[0].Arch = "x86_64";
  B.Slices[0].FileType = "ET_DYN";
  for (Dependency &D : B.Slices[0].Dependencies)
    D.Kind = DependencyKind::Needed;
  B.Slices[0].SearchPaths = std::move(Paths);
  return B;
}

DependencyPlacement placeOne(const BinaryInfo &B, const PortabilityOptions &O,
                             const FileProbe &FS) {
  auto All = placeDependencies(B, O, FS);
  REQUIRE(All.size() == 1);
  return All[0];
}

} // namespace

TEST_CASE("Mach-O system prefixes are system, /usr/local is not",
          "[contract][portability]") {
  auto FS = fakeFS({});
  BinaryInfo B = machO(
      "/b/m.dylib",
      {"/usr/lib/libSystem.B.dylib",
       "/System/Library/Frameworks/Metal.framework/Versions/A/Metal",
       "/usr/local/lib/libfoo.dylib", "/usr/lib/../local/lib/libbar.dylib"});
  auto P = placeDependencies(B, {}, FS);
  REQUIRE(P.size() == 4);
  CHECK(P[0].Where == Placement::System);
  CHECK(P[1].Where == Placement::System);
  CHECK(P[2].Where == Placement::NonPortable);
  CHECK(P[3].Where == Placement::NonPortable);
}

TEST_CASE("an absolute path that exists on this machine is still non-portable",
          "[contract][portability]") {
  const std::string Omp = "/opt/llvm-openmp/lib/libomp.dylib";
  BinaryInfo B = machO("/b/m.dylib", {Omp});
  auto Here = placeOne(B, {}, fakeFS({Omp}));
  auto Absent = placeOne(B, {}, fakeFS({}));
  CHECK(Here.Where == Placement::NonPortable);
  CHECK(Absent.Where == Placement::NonPortable);
  CHECK_THAT(Here.Reason, Catch::Contains("exists on this machine"));
  CHECK_THAT(Absent.Reason, !Catch::Contains("exists on this machine"));
  // Even inside the bundle root: an absolute name is where the build put it.
  PortabilityOptions O;
  O.BundleRoot = "/";
  CHECK(placeOne(B, O, fakeFS({Omp})).Where == Placement::NonPortable);
}

TEST_CASE("@rpath resolves through @loader_path under the bundle root",
          "[contract][portability]") {
  BinaryInfo B = machO("/b/models/m.dylib", {"@rpath/libfoo.dylib"},
                       {"@loader_path/../lib"});
  auto FS = fakeFS({"/b/lib/libfoo.dylib"});
  PortabilityOptions O;
  O.BundleRoot = "/b";
  auto P = placeOne(B, O, FS);
  CHECK(P.Where == Placement::Shipped);
  CHECK(P.ResolvedPath == "/b/lib/libfoo.dylib");
  CHECK(P.Via == "LC_RPATH @loader_path/../lib");

  SECTION("without the file it proves nothing") {
    auto Q = placeOne(B, O, fakeFS({}));
    CHECK(Q.Where == Placement::NonPortable);
    CHECK_THAT(Q.Reason, Catch::Contains("/b/lib/libfoo.dylib"));
  }
  SECTION("the default bundle root is the binary's directory") {
    auto Q = placeOne(B, {}, FS);
    CHECK(Q.Where == Placement::NonPortable);
    CHECK_THAT(Q.Reason, Catch::Contains("outside the bundle root"));
  }
  SECTION("@executable_path is the executable's: unknown in a dylib until named") {
    BinaryInfo E = machO("/b/models/m.dylib", {"@rpath/libfoo.dylib"},
                         {"@executable_path/../lib/"});
    CHECK(placeOne(E, O, FS).Where == Placement::Unknown);
    O.ExecutableDir = "/b/bin";
    CHECK(placeOne(E, O, FS).Where == Placement::Shipped);
  }
}

TEST_CASE("@rpath through an absolute LC_RPATH does not ship",
          "[contract][portability]") {
  BinaryInfo B = machO("/b/m.dylib", {"@rpath/libomp.dylib"},
                       {"/opt/homebrew/opt/libomp/lib"});
  auto P =
      placeOne(B, {}, fakeFS({"/opt/homebrew/opt/libomp/lib/libomp.dylib"}));
  CHECK(P.Where == Placement::NonPortable);
  CHECK_THAT(P.Reason, Catch::Contains("exists on this machine"));
  CHECK_THAT(P.Reason,
             Catch::Contains("LC_RPATH /opt/homebrew/opt/libomp/lib"));

  SECTION("an @rpath name with no LC_RPATH resolves nowhere") {
    BinaryInfo N = machO("/b/m.dylib", {"@rpath/libomp.dylib"});
    auto Q = placeOne(N, {}, fakeFS({"/b/libomp.dylib"}));
    CHECK(Q.Where == Placement::NonPortable);
    CHECK_THAT(Q.Reason, Catch::Contains("no LC_RPATH"));
  }
  SECTION("an absolute LC_RPATH under a system prefix is system") {
    BinaryInfo S =
        machO("/b/m.dylib", {"@rpath/libswiftCore.dylib"}, {"/usr/lib/swift"});
    CHECK(placeOne(S, {}, fakeFS({})).Where == Placement::System);
  }
}

TEST_CASE("search dirs (--search) and provided libraries (--provided)",
          "[contract][portability]") {
  BinaryInfo B = machO("/b/models/m.dylib", {"@rpath/libtorch_cpu.dylib"});
  PortabilityOptions O;
  O.BundleRoot = "/b";
  auto FS = fakeFS({"/b/torch/lib/libtorch_cpu.dylib"});
  CHECK(placeOne(B, O, FS).Where == Placement::NonPortable);

  O.SearchDirs = {"torch/lib"};
  auto P = placeOne(B, O, FS);
  CHECK(P.Where == Placement::Shipped);
  CHECK(P.Via == "--search torch/lib");

  O.SearchDirs = {"/elsewhere/lib"};
  CHECK(placeOne(B, O, fakeFS({"/elsewhere/lib/libtorch_cpu.dylib"})).Where ==
        Placement::NonPortable);

  O.SearchDirs.clear();
  O.Provided = {{"libtorch_*.dylib"}};
  CHECK(placeOne(B, O, fakeFS({})).Where == Placement::Provided);
}

TEST_CASE(
    "a provided pattern vouches for an absolute name only by its whole name",
    "[contract][portability]") {
  BinaryInfo B = machO("/b/m.dylib", {"/opt/llvm-openmp/lib/libomp.dylib"});
  PortabilityOptions O;
  O.Provided = {{"libomp*"}, {"openmp"}};
  CHECK(placeOne(B, O, fakeFS({})).Where == Placement::NonPortable);
  O.Provided = {{"/opt/llvm-openmp/lib/*"}};
  CHECK(placeOne(B, O, fakeFS({})).Where == Placement::Provided);
}

TEST_CASE("@loader_path names must exist under the bundle root",
          "[contract][portability]") {
  BinaryInfo B = machO("/b/m.dylib", {"@loader_path/libs/libfoo.dylib",
                                      "@loader_path/../libbar.dylib",
                                      "libbare.dylib", "@weird/libx.dylib"});
  auto P = placeDependencies(B, {},
                             fakeFS({"/b/libs/libfoo.dylib", "/libbar.dylib"}));
  REQUIRE(P.size() == 4);
  CHECK(P[0].Where == Placement::Shipped);
  CHECK(P[1].Where == Placement::NonPortable);
  CHECK_THAT(P[1].Reason, Catch::Contains("outside the bundle root"));
  CHECK(P[2].Where == Placement::NonPortable);
  CHECK(P[3].Where == Placement::NonPortable);
}

TEST_CASE("ELF: system family, RUNPATH, $ORIGIN", "[contract][portability]") {
  const std::string LlvmOmp = "/usr/lib/llvm-14/lib/libomp.so.5";
  BinaryInfo B = elf("/b/lib/m.so",
                     {"libc.so.6", "libstdc++.so.6", "libgcc_s.so.1",
                      "libm.so.6", "ld-linux-x86-64.so.2", "libomp.so.5",
                      "libfoo.so", "libgomp.so.1", "libz.so.1"},
                     {{"/usr/lib/llvm-14/lib", SearchPathKind::RunPath},
                      {"$ORIGIN/../shipped", SearchPathKind::RunPath}});
  PortabilityOptions O;
  O.BundleRoot = "/b";
  auto FS = fakeFS({LlvmOmp, "/b/shipped/libfoo.so"});
  auto P = placeDependencies(B, O, FS);
  REQUIRE(P.size() == 9);
  for (int I = 0; I < 5; ++I) {
    INFO(P[I].Dependency);
    CHECK(P[I].Where == Placement::System);
  }
  CHECK(P[5].Where == Placement::NonPortable);
  CHECK_THAT(P[5].Reason, Catch::Contains("found at " + LlvmOmp));
  CHECK(P[6].Where == Placement::Shipped);
  CHECK(P[6].ResolvedPath == "/b/shipped/libfoo.so");
  CHECK(P[6].Via == "DT_RUNPATH $ORIGIN/../shipped");
  CHECK(P[7].Where == Placement::NonPortable); // GCC's OpenMP is not "system"
  CHECK(P[8].Where == Placement::NonPortable);

  O.SystemList = parseSystemList("# distro libraries we rely on\n"
                                 "libz.so.*   # zlib\n\n");
  REQUIRE(O.SystemList.size() == 1);
  CHECK(placeDependencies(B, O, FS)[8].Where == Placement::System);
}

TEST_CASE("ELF: DT_RPATH is ignored when DT_RUNPATH is present, ${ORIGIN}",
          "[contract][portability]") {
  auto FS = fakeFS({"/b/lib/libfoo.so"});
  PortabilityOptions O;
  O.BundleRoot = "/b";
  BinaryInfo Both = elf("/b/bin/m.so", {"libfoo.so"},
                        {{"$ORIGIN/../lib", SearchPathKind::RPath},
                         {"/nowhere", SearchPathKind::RunPath}});
  CHECK(placeOne(Both, O, FS).Where == Placement::NonPortable);
  BinaryInfo Braced = elf("/b/bin/m.so", {"libfoo.so"},
                          {{"${ORIGIN}/../lib", SearchPathKind::RPath}});
  CHECK(placeOne(Braced, O, FS).Where == Placement::Shipped);
  BinaryInfo Platform = elf("/b/bin/m.so", {"libfoo.so"},
                            {{"$ORIGIN/$PLATFORM", SearchPathKind::RunPath}});
  CHECK(placeOne(Platform, O, FS).Where == Placement::Unknown);
  BinaryInfo Absolute = elf("/b/bin/m.so", {"/b/lib/libfoo.so"});
  CHECK(placeOne(Absolute, O, FS).Where == Placement::NonPortable);
}

TEST_CASE("judge reports non-portable load commands as violations",
          "[contract][portability]") {
  BinaryInfo B = machO("/b/m.dylib", {"/usr/lib/libSystem.B.dylib",
                                      "/opt/llvm-openmp/lib/libomp.dylib"});
  ContractSpec Spec;
  Spec.Portable = PortabilityOptions{};
  Verdict V = judge(B, Spec, fakeFS({"/opt/llvm-openmp/lib/libomp.dylib"}));
  REQUIRE(V.Findings.size() == 1);
  CHECK(V.violations() == 1);
  CHECK(V.Findings[0].Rule == "portable");
  CHECK(V.Findings[0].Dependency == "/opt/llvm-openmp/lib/libomp.dylib");
  CHECK_THAT(V.Findings[0].Message,
             Catch::StartsWith(
                 "LC_LOAD_DYLIB /opt/llvm-openmp/lib/libomp.dylib (arm64)"));
  // Without --portable the same binary holds an empty contract.
  CHECK(judge(B, ContractSpec{}, fakeFS({})).ok());
}

TEST_CASE("Patterns of --provided and --system-list take bare words by stem, never for "
          "an absolute name (issue 28)",
          "[contract][portability][pattern]") {
  auto FS = fakeFS({});
  PortabilityOptions O;
  O.Provided = {{"libomp"}};
  CHECK(placeOne(machO("/b/m.dylib", {"@rpath/libomp.5.dylib"}), O, FS).Where ==
        Placement::Provided);
  CHECK(placeOne(machO("/b/m.dylib", {"/opt/llvm-openmp/lib/libomp.dylib"}), O,
                 FS)
            .Where == Placement::NonPortable);
  PortabilityOptions L;
  L.SystemList = parseSystemList("libz # zlib\nOpenMP\n");
  CHECK(placeOne(elf("/b/m.so", {"libz.so.1"}), L, FS).Where ==
        Placement::System);
  CHECK(placeOne(elf("/b/m.so", {"libgomp.so.1"}), L, FS).Where ==
        Placement::System);
  CHECK(placeOne(elf("/b/m.so", {"libzstd.so.1"}), L, FS).Where ==
        Placement::NonPortable);
}

TEST_CASE("the search is bounded: past MaxProbes directories tried a name is unknown",
          "[contract][portability]") {
  // Search paths x names grows as the square of the file's size (each try a
  // stat(2)): 20,001 DT_RUNPATH entries x 300 names took 40 s and said
  // "holds"; past the bound (the tree's closure's) the verdict is 92.
  std::vector<SearchPath> Paths;
  for (int I = 0; I < 4; ++I)
    Paths.push_back({"$ORIGIN/d" + std::to_string(I), SearchPathKind::RunPath});
  Paths.push_back({"$ORIGIN", SearchPathKind::RunPath});
  BinaryInfo B = elf("/b/app", {"liba.so", "libb.so", "libc2.so"}, Paths);
  auto FS = fakeFS({"/b/liba.so", "/b/libb.so", "/b/libc2.so"});
  PortabilityOptions O;
  O.BundleRoot = "/b";
  for (const DependencyPlacement &P : placeDependencies(B, O, FS))
    CHECK(P.Where == Placement::Shipped); // 15 tries: within the default
  O.MaxProbes = 12; // liba (5 tries), libb (5), then libc2 runs out
  std::vector<DependencyPlacement> All = placeDependencies(B, O, FS);
  REQUIRE(All.size() == 3);
  CHECK(All[0].Where == Placement::Shipped);
  CHECK(All[1].Where == Placement::Shipped);
  CHECK(All[2].Where == Placement::Unknown);
  CHECK_THAT(All[2].Reason, Catch::Contains("past the bound (12 search paths tried"));
}
