//===- ObjlibTest.cpp - objlib::readBinary on real cross-links ------------===//
//
// Fixtures (tests/unit/support/ObjlibFixtures.h) are linked during the test
// run with clang++-19 + ld64.lld. Each Mach-O case is linked with dyld
// opcodes and with -fixup_chains, and both must decode to the same answer.
// Hostile and damaged inputs are in ObjlibHostileTest.cpp.
//
//===----------------------------------------------------------------------===//
#include "tests/unit/support/ObjlibFixtures.h"

using namespace linkguard::objlib;
using namespace linkguard::testsupport;
using namespace llvm;

TEST_CASE("objlib: unused libomp is listed and not referenced", "[objlib]") {
  REQUIRE_TOOLCHAIN();
  for (const auto &[Style, Flags] : Styles) {
    std::string Out = std::string("unused.") + Style + ".dylib";
    REQUIRE(
        fixtures().link(Out, "plain.cpp", plus({"-shared", "-lomp"}, Flags)));
    BinaryInfo Info = readOk(fixtures().path(Out));
    REQUIRE(Info.Slices.size() == 1);
    const Slice &S = Info.Slices[0];
    CHECK(S.Arch == "arm64");
    CHECK(S.FileType == "dylib");
    REQUIRE(S.InstallName);
    CHECK(StringRef(*S.InstallName).ends_with(Out));
    const Dependency *Omp = findDep(S, "libomp");
    REQUIRE(Omp);
    CHECK(Omp->Name == "/opt/llvm-openmp/lib/libomp.dylib");
    CHECK(Omp->Kind == DependencyKind::Load);
    CHECK(Omp->Ordinal == 1);
    CHECK(Omp->Imports.empty());
    CHECK(Omp->IsReferenced == Referenced::No);

    // Control: -dead_strip_dylibs drops it.
    std::string Dropped = std::string("dropped.") + Style + ".dylib";
    REQUIRE(fixtures().link(
        Dropped, "plain.cpp",
        plus({"-shared", "-lomp", "-Wl,-dead_strip_dylibs"}, Flags)));
    CHECK(findDep(readOk(fixtures().path(Dropped)).Slices[0], "libomp") ==
          nullptr);
  }
}

TEST_CASE("objlib: used libomp is referenced through the tables", "[objlib]") {
  REQUIRE_TOOLCHAIN();
  for (const auto &[Style, Flags] : Styles) {
    std::string Out = std::string("used.") + Style + ".dylib";
    REQUIRE(fixtures().link(
        Out, "use_omp.cpp",
        plus({"-shared", "-lomp", "-Wl,-dead_strip_dylibs"}, Flags)));
    const Slice S = readOk(fixtures().path(Out)).Slices[0];
    const Dependency *Omp = findDep(S, "libomp");
    REQUIRE(Omp);
    CHECK(Omp->IsReferenced == Referenced::Yes);
    REQUIRE(hasImport(Omp->Imports, "_omp_get_num_threads"));
    BindSource Want = StringRef(Style) == "chained" ? BindSource::ChainedFixup
                                                    : BindSource::LazyBind;
    bool FromTable = false;
    for (const Import &I : Omp->Imports)
      FromTable |= I.Symbol == "_omp_get_num_threads" && I.Source == Want;
    CHECK(FromTable);
    CHECK(S.Warnings.empty());
  }
}

TEST_CASE("objlib: dynamic lookup and weak dylibs", "[objlib]") {
  REQUIRE_TOOLCHAIN();
  for (const auto &[Style, Flags] : Styles) {
    std::string Out = std::string("dyn.") + Style + ".dylib";
    REQUIRE(fixtures().link(Out, "dyn.cpp",
                            plus({"-shared", "-undefined", "dynamic_lookup",
                                  "-Wl,-weak-lfoo", "-lomp"},
                                 Flags)));
    const Slice S = readOk(fixtures().path(Out)).Slices[0];
    CHECK(hasImport(S.DynamicLookupImports, "_dyn_fn"));
    for (const Dependency &D : S.Dependencies)
      CHECK_FALSE(hasImport(D.Imports, "_dyn_fn"));
    const Dependency *Foo = findDep(S, "libfoo");
    REQUIRE(Foo);
    CHECK(Foo->Kind == DependencyKind::Weak);
    CHECK(Foo->IsReferenced == Referenced::Yes);
    REQUIRE(!Foo->Imports.empty());
    CHECK(Foo->Imports[0].Weak);
    CHECK(findDep(S, "libomp")->IsReferenced == Referenced::No);
  }
}

TEST_CASE("objlib: universal file yields every slice", "[objlib]") {
  REQUIRE_TOOLCHAIN();
  REQUIRE(fixtures().link("fa.dylib", "use_omp.cpp", {"-shared", "-lomp"}));
  REQUIRE(
      fixtures().link("fx.dylib", "plain.cpp", {"-shared", "-lomp"}, "x86_64"));
  REQUIRE(fixtures().run(
      {BinDir + "/llvm-lipo", "-create", fixtures().path("fx.dylib"),
       fixtures().path("fa.dylib"), "-output", fixtures().path("fat.dylib")}));
  BinaryInfo Info = readOk(fixtures().path("fat.dylib"));
  CHECK(Info.Universal);
  REQUIRE(Info.Slices.size() == 2);
  CHECK(Info.Slices[0].Arch == "x86_64");
  CHECK(Info.Slices[1].Arch == "arm64");
  CHECK(findDep(Info.Slices[0], "libomp")->IsReferenced == Referenced::No);
  CHECK(findDep(Info.Slices[1], "libomp")->IsReferenced == Referenced::Yes);
}

TEST_CASE("objlib: rpaths, object files and bundles", "[objlib]") {
  REQUIRE_TOOLCHAIN();
  REQUIRE(fixtures().link(
      "rp.dylib", "plain.cpp",
      {"-shared", "-Wl,-rpath,/a", "-Wl,-rpath,@loader_path/b"}));
  const Slice S = readOk(fixtures().path("rp.dylib")).Slices[0];
  REQUIRE(S.SearchPaths.size() == 2);
  CHECK(S.SearchPaths[0].Path == "/a");
  CHECK(S.SearchPaths[1].Path == "@loader_path/b");

  REQUIRE(fixtures().link("k.o", "use_omp.cpp", {"-c"}));
  const Slice O = readOk(fixtures().path("k.o")).Slices[0];
  CHECK(O.FileType == "object");
  CHECK(O.Dependencies.empty());

  REQUIRE(fixtures().link("k.bundle", "use_omp.cpp", {"-bundle", "-lomp"}));
  const Slice B = readOk(fixtures().path("k.bundle")).Slices[0];
  CHECK(B.FileType == "bundle");
  CHECK(findDep(B, "libomp")->IsReferenced == Referenced::Yes);
}

TEST_CASE("objlib: upward and lazy dylibs from yaml2obj", "[objlib]") {
  REQUIRE_TOOLCHAIN();
  std::string Yaml =
      std::string(LINKGUARD_SOURCE_DIR) + "/tests/yaml/upward_lazy.yaml";
  REQUIRE(fixtures().run(
      {BinDir + "/yaml2obj", Yaml, "-o", fixtures().path("shape.dylib")}));
  const Slice S = readOk(fixtures().path("shape.dylib")).Slices[0];
  REQUIRE(S.Dependencies.size() == 2);
  CHECK(S.Dependencies[0].Kind == DependencyKind::Upward);
  CHECK(S.Dependencies[0].CurrentVersion == "10.11.12");
  CHECK(S.Dependencies[1].Kind == DependencyKind::Lazy);
  CHECK(S.CurrentVersion == "65535.255.255");
  CHECK(S.CompatibilityVersion == "1.2.3");
  CHECK(hasImport(S.Dependencies[0].Imports, "_up_fn"));
  CHECK(hasImport(S.Dependencies[1].Imports, "_lazy_fn"));
}

TEST_CASE("objlib: unreadable and malformed inputs", "[objlib]") {
  REQUIRE_TOOLCHAIN();
  std::string Msg;
  CHECK(errorKind(fixtures().path("missing.dylib"), &Msg) ==
        ReadErrorKind::Unreadable);
  CHECK(StringRef(Msg).starts_with(fixtures().path("missing.dylib") + ": "));
  CHECK(errorKind(fixtures().path("sdk")) == ReadErrorKind::Unreadable);
  CHECK(errorKind(fixtures().path("plain.cpp"), &Msg) ==
        ReadErrorKind::Malformed);
  CHECK(StringRef(Msg).ends_with("not an object file"));

  // Every truncation of a linked dylib is malformed, none crashes.
  REQUIRE(fixtures().link("t.dylib", "use_omp.cpp",
                          {"-shared", "-lomp", "-Wl,-fixup_chains"}));
  auto Buf = MemoryBuffer::getFile(fixtures().path("t.dylib"));
  REQUIRE(Buf);
  StringRef Data = (*Buf)->getBuffer();
  std::string Cut = fixtures().path("cut.dylib");
  for (size_t N = 0; N < Data.size(); N += (N < 1024 ? 1 : 97)) {
    fixtures().write("cut.dylib", Data.substr(0, N));
    Expected<BinaryInfo> Info = readBinary(Cut);
    if (Info) {
      FAIL("truncation to " << N << " bytes was accepted");
    }
    consumeError(Info.takeError());
  }
}

namespace {

bool sameImports(const std::vector<Import> &A, const std::vector<Import> &B) {
  if (A.size() != B.size())
    return false;
  for (size_t I = 0; I < A.size(); ++I)
    if (A[I].Symbol != B[I].Symbol || A[I].Source != B[I].Source ||
        A[I].Weak != B[I].Weak)
      return false;
  return true;
}

/// Part is Full with the import lists of the dependencies Keep rejects left
/// out, and nothing else changed: counts, answers, the other lists and the
/// warnings are those of the full read.
void checkPartialRead(const BinaryInfo &Full, const BinaryInfo &Part,
                      const std::function<bool(StringRef)> &Keep) {
  REQUIRE(Part.Slices.size() == Full.Slices.size());
  for (size_t I = 0; I < Full.Slices.size(); ++I) {
    const Slice &F = Full.Slices[I], &P = Part.Slices[I];
    INFO("slice " << F.Arch);
    REQUIRE(P.Dependencies.size() == F.Dependencies.size());
    for (size_t J = 0; J < F.Dependencies.size(); ++J) {
      const Dependency &FD = F.Dependencies[J], &PD = P.Dependencies[J];
      INFO("dependency " << FD.Name);
      CHECK(PD.Name == FD.Name);
      CHECK(PD.IsReferenced == FD.IsReferenced);
      CHECK(FD.ImportCount == FD.Imports.size());
      CHECK(PD.ImportCount == FD.ImportCount);
      if (Keep(FD.Name))
        CHECK(sameImports(PD.Imports, FD.Imports));
      else
        CHECK(PD.Imports.empty());
    }
    CHECK(sameImports(P.DynamicLookupImports, F.DynamicLookupImports));
    CHECK(sameImports(P.ExecutableImports, F.ExecutableImports));
    CHECK(sameImports(P.WeakLookupImports, F.WeakLookupImports));
    CHECK(sameImports(P.UnattributedImports, F.UnattributedImports));
    CHECK(P.Warnings == F.Warnings);
  }
}

} // namespace

TEST_CASE("objlib: ReadOptions leaves out only the import lists it is told to",
          "[objlib]") {
  REQUIRE_TOOLCHAIN();
  fixtures().write("omp_foo.cpp",
                   "extern \"C\" int omp_get_num_threads();\n"
                   "extern \"C\" int foo_fn(), dyn_fn();\n"
                   "extern \"C\" int k() { return omp_get_num_threads() + "
                   "foo_fn() + dyn_fn(); }\n");
  std::vector<std::string> Files;
  for (const auto &[Style, Flags] : Styles) {
    for (const char *Arch : {"arm64", "x86_64"}) {
      std::string Out = std::string("omp_foo.") + Style + "." + Arch + ".dylib";
      REQUIRE(fixtures().link(Out, "omp_foo.cpp",
                              plus({"-shared", "-lomp", "-lfoo", "-undefined",
                                    "dynamic_lookup"},
                                   Flags),
                              Arch));
      Files.push_back(fixtures().path(Out));
    }
    std::string Fat = std::string("omp_foo.") + Style + ".universal.dylib";
    REQUIRE(fixtures().run({BinDir + "/llvm-lipo", "-create", Files.end()[-2],
                            Files.end()[-1], "-output", fixtures().path(Fat)}));
    Files.push_back(fixtures().path(Fat));
  }
  // An ELF shared object on this host: libc and libm, attributed through
  // their symbol versions.
  fixtures().write("libm_user.c",
                   "#include <math.h>\n#include <stdio.h>\n"
                   "double k(double x) { printf(\"%f\", x); return cos(x); }\n");
  if (fixtures().run({BinDir + "/clang", "-shared", "-fPIC",
                      fixtures().path("libm_user.c"), "-lm", "-o",
                      fixtures().path("libm_user.so")}))
    Files.push_back(fixtures().path("libm_user.so"));
  else
    WARN("no host ELF link: the ELF case is not run");

  const std::vector<std::pair<const char *, std::function<bool(StringRef)>>>
      Filters = {
          {"only libomp", [](StringRef N) { return N.contains("libomp"); }},
          {"only libm", [](StringRef N) { return N.contains("libm."); }},
          {"none", [](StringRef) { return false; }},
          {"all", [](StringRef) { return true; }},
      };
  for (const std::string &Path : Files) {
    INFO(Path);
    const BinaryInfo Full = readOk(Path);
    // The fixtures bind symbols to more than one library, so leaving lists
    // out is seen.
    size_t WithImports = 0;
    for (const Dependency &D : Full.Slices[0].Dependencies)
      WithImports += !D.Imports.empty();
    CHECK(WithImports >= 2);
    for (const auto &[What, Keep] : Filters) {
      INFO(What);
      ReadOptions Options;
      Options.ListImportsOf = Keep;
      Expected<BinaryInfo> Part = readBinary(Path, Options);
      REQUIRE(static_cast<bool>(Part));
      checkPartialRead(Full, *Part, Keep);
      // From memory too, as a .pt2 member is read.
      std::unique_ptr<MemoryBuffer> Bytes =
          cantFail(errorOrToExpected(MemoryBuffer::getFile(Path)));
      Expected<BinaryInfo> FromMemory =
          readBinary(Bytes->getMemBufferRef(), Path, Options);
      REQUIRE(static_cast<bool>(FromMemory));
      checkPartialRead(Full, *FromMemory, Keep);
    }
  }
}
