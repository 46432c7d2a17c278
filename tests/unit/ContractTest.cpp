// contract/Contract: judge() over hand-built BinaryInfo, the rules `check`
// and the driver share. Real linked files are judged in tests/e2e/check.bash.
#include "contract/Contract.h"
#include "driver/Plan.h"
#include "libnames/LibraryNames.h"

#include "tests/unit/support/Catch.h"

using namespace linkguard::contract;
using namespace linkguard::objlib;

namespace {

Dependency dep(std::string Name, Referenced R,
               std::vector<std::string> Syms = {}) {
  Dependency D;
  D.Name = std::move(Name);
  D.IsReferenced = R;
  for (std::string &S : Syms)
    D.Imports.push_back({std::move(S), BindSource::ChainedFixup, false});
  D.ImportCount = D.Imports.size();
  return D;
}

BinaryInfo dylib(std::vector<Dependency> Deps) {
  BinaryInfo B;
  B.Path = "/b/m.dylib";
  Slice S;
  S.Arch = "arm64";
  S.FileType = "dylib";
  S.Dependencies = std::move(Deps);
  B.Slices.push_back(std::move(S));
  return B;
}

} // namespace

TEST_CASE("patterns: groups, globs on the name and on the file name",
          "[contract]") {
  CHECK(Pattern{"openmp"}.matches("/opt/llvm-openmp/lib/libomp.dylib"));
  CHECK(Pattern{"openmp"}.matches("libgomp.so.1"));
  CHECK(Pattern{"openmp"}.matches("@rpath/libiomp5.dylib"));
  CHECK_FALSE(Pattern{"openmp"}.matches("/usr/lib/libSystem.B.dylib"));
  CHECK(Pattern{"libsystem"}.matches("/usr/lib/libSystem.B.dylib"));
  CHECK(Pattern{"libfoo*"}.matches("@rpath/libfoo.1.dylib"));
  CHECK(Pattern{"/opt/*"}.matches("/opt/x/libz.dylib"));
  CHECK_FALSE(Pattern{"libfoo*"}.matchesWholeName("/x/libfoo.dylib"));
  CHECK_FALSE(Pattern{"openmp"}.matchesWholeName("/x/libomp.dylib"));
  llvm::Error Bad = validatePattern("libfoo[");
  CHECK(bool(Bad));
  llvm::consumeError(std::move(Bad));
  for (const char *Good : {"openmp", "lib*.dylib"}) {
    llvm::Error E = validatePattern(Good);
    CHECK_FALSE(bool(E));
    llvm::consumeError(std::move(E));
  }
}

TEST_CASE("the MPS contract: OpenMP dropped unless referenced, libSystem kept",
          "[contract]") {
  ContractSpec Spec = linkguard::driver::mpsAotContract();
  auto Unused =
      dylib({dep("/usr/lib/libSystem.B.dylib", Referenced::No),
             dep("/opt/llvm-openmp/lib/libomp.dylib", Referenced::No)});
  Verdict V = judge(Unused, Spec);
  CHECK(V.violations() == 1);
  CHECK(V.Findings[0].Rule == "forbid-unreferenced openmp");

  auto Used = dylib({dep("/usr/lib/libSystem.B.dylib", Referenced::No),
                     dep("/opt/llvm-openmp/lib/libomp.dylib", Referenced::Yes,
                         {"_omp_get_num_threads"})});
  Verdict K = judge(Used, Spec);
  CHECK(K.ok());
  REQUIRE(K.Findings.size() == 1);
  CHECK(K.Findings[0].Kind == FindingKind::Kept);
  CHECK(K.Findings[0].Symbols ==
        std::vector<std::string>{"_omp_get_num_threads"});

  auto NoSystem = dylib({});
  CHECK(judge(NoSystem, Spec).violations() == 1);

  // Only a kept OpenMP is reported with its symbols, so a verify reads the
  // import lists of the OpenMP runtimes alone (objlib::ReadOptions).
  for (const char *Omp : {"/opt/llvm-openmp/lib/libomp.dylib",
                          "/opt/homebrew/opt/libomp/lib/libomp.dylib",
                          "@rpath/libiomp5.dylib", "libgomp.so.1"})
    CHECK(Spec.needsImportsOf(Omp));
  for (const char *Other : {"/usr/lib/libSystem.B.dylib", "@rpath/libc10.dylib",
                            "/usr/lib/libc++.1.dylib", "libm.so.6"})
    CHECK_FALSE(Spec.needsImportsOf(Other));
}

TEST_CASE("unused dependencies: libSystem is exempt, unknown is never guessed",
          "[contract]") {
  ContractSpec Spec;
  Spec.FailOnUnused = true;
  auto B = dylib({dep("/usr/lib/libSystem.B.dylib", Referenced::No),
                  dep("@rpath/libbar.dylib", Referenced::No),
                  dep("@rpath/libbaz.dylib", Referenced::Unknown),
                  dep("@rpath/libqux.dylib", Referenced::Yes, {"_q"})});
  Verdict V = judge(B, Spec);
  REQUIRE(V.Findings.size() == 3);
  CHECK(V.Findings[0].Kind == FindingKind::Kept);
  CHECK(V.Findings[1].Kind == FindingKind::Violation);
  CHECK(V.Findings[1].Dependency == "@rpath/libbar.dylib");
  CHECK(V.Findings[2].Kind == FindingKind::Unknown);

  // ELF has no libSystem exemption: the name means nothing there.
  B.Fmt = Format::ELF;
  CHECK(judge(B, Spec).violations() == 2);
}

TEST_CASE("a bare word names a library by its stem, groups in any case "
          "(issue 28)",
          "[contract][pattern]") {
  // The file names a pattern that "can never match" used to miss.
  for (const char *Name :
       {"/opt/llvm-openmp/lib/libomp.dylib", "libomp.dylib", "libomp.5.dylib",
        "libomp.so.5", "libomp.so", "libomp.so.5.0.1", "@rpath/libomp.dylib"})
    CHECK(Pattern{"libomp"}.matches(Name));
  CHECK(Pattern{"libomp.so"}.matches("/usr/lib/libomp.so.5"));
  CHECK(Pattern{"libomp.5"}.matches("@rpath/libomp.5.dylib"));
  // A stem is a whole name component: neither a prefix nor a suffix.
  for (const char *Other : {"libompx.dylib", "libomp_wrapper.so.1",
                            "libiomp5.dylib", "libgomp.so.1", "xlibomp.dylib"})
    CHECK_FALSE(Pattern{"libomp"}.matches(Other));
  // Apple's compatibility letter, and a non-version component stops it.
  CHECK(Pattern{"libSystem"}.matches("/usr/lib/libSystem.B.dylib"));
  CHECK(Pattern{"libpython3.11"}.matches("@rpath/libpython3.11.dylib"));
  CHECK(Pattern{"libpython3"}.matches("@rpath/libpython3.11.dylib"));
  CHECK_FALSE(Pattern{"libfoo"}.matches("libfoo.bar.dylib"));
  CHECK(Pattern{"Metal"}.matches(
      "/System/Library/Frameworks/Metal.framework/Versions/A/Metal"));
  // Group names in any case.
  CHECK(Pattern{"OpenMP"}.matches("/opt/llvm-openmp/lib/libomp.dylib"));
  CHECK(Pattern{"LIBSYSTEM"}.matches("/usr/lib/libSystem.B.dylib"));
  CHECK(linkguard::libnames::isGroupName("OpenMP"));
  // A bare word, like a group, never vouches for an absolute location.
  CHECK_FALSE(
      Pattern{"libomp"}.matchesWholeName("/opt/llvm-openmp/lib/libomp.dylib"));
  CHECK(isBareWord("libomp"));
  CHECK_FALSE(isBareWord("libomp*"));
  CHECK_FALSE(isBareWord("lib/libomp"));
  CHECK_FALSE(isBareWord("openmp"));
  CHECK_FALSE(isBareWord("OpenMP"));
}

TEST_CASE("check --forbid libomp / OpenMP and --require libSystem judge the "
          "seed's dylib (issue 28)",
          "[contract][pattern]") {
  auto Seed = dylib({dep("/opt/llvm-openmp/lib/libomp.dylib", Referenced::No),
                     dep("/usr/lib/libSystem.B.dylib", Referenced::Yes)});
  for (const char *P : {"libomp", "OpenMP", "libomp.dylib"}) {
    ContractSpec Spec;
    Spec.Forbid.push_back({P});
    Verdict V = judge(Seed, Spec);
    CHECK(V.violations() == 1);
  }
  ContractSpec Require;
  Require.Require.push_back({"libSystem"});
  CHECK(judge(Seed, Require).ok());
}
