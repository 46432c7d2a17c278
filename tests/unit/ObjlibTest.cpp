//===- ObjlibTest.cpp - objlib::readBinary on real cross-links ------------===//
//
// Fixtures are linked during the test run with clang++-19 + ld64.lld against
// TAPI stubs the test writes (../shared/README.md recipe), in a temporary
// directory; with no LLVM 19 toolchain the cases WARN and return. Each
// Mach-O case is linked with dyld opcodes and with -fixup_chains, and both
// must decode to the same answer.
//
//===----------------------------------------------------------------------===//
#include "objlib/Reader.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include "tests/unit/support/Catch.h"

#include <fstream>

using namespace linkguard::objlib;
using namespace llvm;

namespace {

const std::string BinDir = LINKGUARD_LLVM_BINDIR;

/// A temporary directory with the stubs and sources every case links from.
class FixtureDir {
public:
  FixtureDir() {
    SmallString<128> P;
    if (sys::fs::createUniqueDirectory("linkguard-objlib", P))
      return;
    Dir = std::string(P);
    write("sdk/usr/lib/libSystem.tbd", tbd("/usr/lib/libSystem.B.dylib",
                                           "dyld_stub_binder, _malloc, _free"));
    write("omp/libomp.tbd", tbd("/opt/llvm-openmp/lib/libomp.dylib",
                                "_omp_get_num_threads, _omp_get_thread_num"));
    write("foo/libfoo.tbd", tbd("/usr/local/lib/libfoo.1.dylib", "_foo_fn"));
    write("plain.cpp", "extern \"C\" int k() { return 42; }\n");
    write("use_omp.cpp",
          "extern \"C\" int omp_get_num_threads();\n"
          "extern \"C\" int k() { return omp_get_num_threads(); }\n");
    write("dyn.cpp", "extern \"C\" int dyn_fn();\nextern \"C\" int foo_fn();\n"
                     "extern \"C\" int k() { return dyn_fn() + foo_fn(); }\n");
  }
  ~FixtureDir() {
    if (!Dir.empty())
      sys::fs::remove_directories(Dir);
  }

  /// Why the toolchain cannot be used, or empty when it can.
  std::string unusable() const {
    if (Dir.empty())
      return "cannot create a temporary directory";
    for (const char *Tool : {"clang++", "ld64.lld", "llvm-lipo", "yaml2obj"})
      if (!sys::fs::can_execute(BinDir + "/" + Tool))
        return BinDir + "/" + Tool + " not found";
    return "";
  }

  std::string path(StringRef Name) const { return Dir + "/" + Name.str(); }

  void write(StringRef Name, StringRef Text) const {
    std::string P = path(Name);
    sys::fs::create_directories(sys::path::parent_path(P));
    std::ofstream(P, std::ios::binary) << Text.str();
  }

  /// Links (or compiles, with -c) Out from Src for Arch; true on success.
  bool link(StringRef Out, StringRef Src, std::vector<std::string> Extra,
            StringRef Arch = "arm64") const {
    std::vector<std::string> Args = {BinDir + "/clang++",
                                     "-target",
                                     (Arch + "-apple-macos11").str(),
                                     "-isysroot",
                                     path("sdk"),
                                     "-fuse-ld=lld",
                                     "-nostdlib++",
                                     path(Src),
                                     "-o",
                                     path(Out),
                                     "-L" + path("omp"),
                                     "-L" + path("foo")};
    Args.insert(Args.end(), Extra.begin(), Extra.end());
    return run(Args);
  }

  bool run(const std::vector<std::string> &Args) const {
    std::vector<StringRef> Refs(Args.begin(), Args.end());
    std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(""),
                                            StringRef("")};
    return sys::ExecuteAndWait(Args[0], Refs, std::nullopt, Redirects) == 0;
  }

private:
  static std::string tbd(StringRef Name, StringRef Symbols) {
    return ("--- !tapi-tbd\ntbd-version: 4\ntargets: [ arm64-macos, "
            "x86_64-macos ]\ninstall-name: '" +
            Name +
            "'\ncurrent-version: 1311\nexports:\n  - targets: [ "
            "arm64-macos, x86_64-macos ]\n    symbols: [ " +
            Symbols + " ]\n...\n")
        .str();
  }

  std::string Dir;
};

FixtureDir &fixtures() {
  static FixtureDir F;
  return F;
}

#define REQUIRE_TOOLCHAIN()                                                    \
  do {                                                                         \
    std::string Why = fixtures().unusable();                                   \
    if (!Why.empty()) {                                                        \
      WARN("skipped: " << Why);                                                \
      return;                                                                  \
    }                                                                          \
  } while (0)

BinaryInfo readOk(const std::string &Path) {
  Expected<BinaryInfo> Info = readBinary(Path);
  if (!Info) {
    std::string Msg = toString(Info.takeError());
    FAIL("readBinary(" << Path << "): " << Msg);
  }
  return std::move(*Info);
}

const Dependency *findDep(const Slice &S, StringRef Needle) {
  for (const Dependency &D : S.Dependencies)
    if (StringRef(D.Name).contains(Needle))
      return &D;
  return nullptr;
}

bool hasImport(const std::vector<Import> &Imports, StringRef Symbol) {
  for (const Import &I : Imports)
    if (I.Symbol == Symbol)
      return true;
  return false;
}

ReadErrorKind errorKind(const std::string &Path, std::string *Msg = nullptr) {
  Expected<BinaryInfo> Info = readBinary(Path);
  REQUIRE_FALSE(static_cast<bool>(Info));
  ReadErrorKind Kind = ReadErrorKind::Unsupported;
  handleAllErrors(Info.takeError(), [&](const ReadError &E) {
    Kind = E.kind();
    if (Msg)
      *Msg = E.message();
  });
  return Kind;
}

const std::vector<std::pair<const char *, std::vector<std::string>>> Styles = {
    {"opcodes", {}}, {"chained", {"-Wl,-fixup_chains"}}};

std::vector<std::string> plus(std::vector<std::string> A,
                              const std::vector<std::string> &B) {
  A.insert(A.end(), B.begin(), B.end());
  return A;
}

} // namespace

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
