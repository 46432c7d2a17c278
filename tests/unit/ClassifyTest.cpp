// flags/Classify: table-driven over the shared cpp_builder fixtures, plus
// the corners of clang's own parsing (values that look like flags, response
// files, targets, macro state, libraries).
#include "flags/Classify.h"
#include "flags/ProgramName.h"
#include "flags/ResponseFiles.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"

#include "tests/unit/support/CppBuilderFixtures.h"

#include "tests/unit/support/Catch.h"
#include "tests/unit/support/TempTree.h"

#include <fstream>
#include <initializer_list>

using namespace linkguard::flags;
using namespace linkguard::testsupport;

namespace {

ClassifyOptions macho() {
  ClassifyOptions O;
  O.HostFormat = ObjectFormat::MachO;
  return O;
}
ClassifyOptions elf() {
  ClassifyOptions O;
  O.HostFormat = ObjectFormat::ELF;
  return O;
}

Classification run(std::initializer_list<const char *> Args,
                   const ClassifyOptions &Opts = macho()) {
  std::vector<std::string> V(Args.begin(), Args.end());
  llvm::Expected<Classification> C = classify(V, Opts);
  if (!C) {
    std::string Msg = llvm::toString(C.takeError());
    FAIL("classify failed: " << Msg);
  }
  return std::move(*C);
}

Classification run(const std::string &Line,
                   const ClassifyOptions &Opts = macho()) {
  llvm::Expected<Classification> C = classify(splitCommand(Line), Opts);
  if (!C) {
    std::string Msg = llvm::toString(C.takeError());
    FAIL("classify failed: " << Msg);
  }
  return std::move(*C);
}

std::vector<std::string> inputPaths(const Classification &C) {
  std::vector<std::string> P;
  for (const Input &I : C.Inputs)
    P.push_back(I.Path);
  return P;
}

using Strings = std::vector<std::string>;

// --- fixtures ----------------------------------------------------------------


} // namespace

TEST_CASE("cpp_builder fixtures classify as their expected phase",
          "[flags][classify][fixtures]") {
  std::optional<std::string> Path = fixturePath();
  if (!Path) {
    linkguard::testsupport::skipTest(
        "cpp_builder_darwin_mps.txt missing from ../shared and tests/data");
  }
  std::vector<FixtureRow> Rows = readFixtures(*Path);
  REQUIRE(Rows.size() >= 11);
  for (const FixtureRow &R : Rows) {
    INFO(R.Name << ": " << R.Command);
    Strings Argv = splitCommand(R.Command);
    REQUIRE(Argv.size() >= 2);
    CHECK(llvm::StringRef(Argv[0]).ends_with("clang++"));
    ClassifyOptions Opts = macho();
    Opts.CompilerName = Argv[0];
    Strings Args(Argv.begin() + 1, Argv.end());
    llvm::Expected<Classification> C = classify(Args, Opts);
    REQUIRE(bool(C));
    CHECK(phaseName(C->Ph) == R.Phase);
    CHECK(C->UnknownArgs.empty());
    CHECK(C->Target.Format == ObjectFormat::MachO);
    if (R.Inject == "yes") {
      // What the MPS rule looks at: a Mach-O shared-library link with
      // USE_MPS defined, libomp named, no dead_strip_dylibs yet.
      CHECK(C->Ph == Phase::Link);
      CHECK(C->Kind == OutputKind::SharedLibrary);
      CHECK(C->isDefined("USE_MPS"));
      CHECK(std::count(C->Libraries.begin(), C->Libraries.end(), "omp") == 1);
      CHECK_FALSE(C->hasLinkerArg("-dead_strip_dylibs"));
    }
    if (C->Ph == Phase::Link)
      CHECK(C->Output);
    else
      CHECK(C->Kind == OutputKind::None);
  }
}

TEST_CASE("the tests/data copy of the fixtures matches ../shared",
          "[flags][classify][fixtures]") {
  const char *Shared =
      LINKGUARD_SHARED_DIR "/fixtures/cpp_builder_darwin_mps.txt";
  const char *Copy =
      LINKGUARD_SOURCE_DIR "/tests/data/cpp_builder_darwin_mps.txt";
  if (!llvm::sys::fs::exists(Shared)) {
    linkguard::testsupport::skipTest("../shared absent; not comparing the fixture copy");
  }
  auto A = llvm::MemoryBuffer::getFile(Shared);
  auto B = llvm::MemoryBuffer::getFile(Copy);
  REQUIRE(A);
  REQUIRE(B);
  CHECK((*A)->getBuffer() == (*B)->getBuffer());
}

TEST_CASE("fixture details: compile line", "[flags][classify][fixtures]") {
  Classification C = run(
      "/tmp/t/a.wrapper.cpp -D TORCH_INDUCTOR_CPP_WRAPPER -D  USE_MPS -shared "
      "-fPIC -undefined dynamic_lookup -O3 -Xclang -fopenmp -I/x/include   -c "
      "-o /tmp/t/a.wrapper.o");
  CHECK(C.Ph == Phase::Compile);
  CHECK(C.DecidingArg == "-c");
  CHECK(C.Kind == OutputKind::None);
  REQUIRE(C.Inputs.size() == 1);
  CHECK(C.Inputs[0].Path == "/tmp/t/a.wrapper.cpp");
  CHECK(C.Inputs[0].Type == "c++");
  CHECK(C.Output == std::optional<std::string>("/tmp/t/a.wrapper.o"));
  CHECK(C.isDefined("USE_MPS"));
  CHECK(C.isDefined("TORCH_INDUCTOR_CPP_WRAPPER"));
  CHECK(C.LinkerArgs.empty());
}

// --- phases
// --------------------------------------------------------------------

TEST_CASE("getFinalPhase order and deciding argument", "[flags][classify]") {
  struct Row {
    const char *Line;
    Phase Ph;
    const char *Deciding;
  };
  const Row Rows[] = {
      {"a.cpp -c -o a.o", Phase::Compile, "-c"},
      {"a.cpp -S -o a.s", Phase::Compile, "-S"},
      {"a.cpp -fsyntax-only", Phase::Compile, "-fsyntax-only"},
      {"a.cpp --analyze", Phase::Compile, "--analyze"},
      {"a.cpp -emit-llvm -c -o a.bc", Phase::Compile, "-c"},
      {"a.cpp -emit-llvm -S -o a.ll", Phase::Compile, "-S"},
      {"a.o -emit-llvm -o a", Phase::Compile, "-emit-llvm"},
      {"a.cpp -E", Phase::Preprocess, "-E"},
      {"a.cpp -E -c", Phase::Preprocess, "-E"},
      {"a.cpp -c -E", Phase::Preprocess, "-E"},
      {"a.cpp -M", Phase::Preprocess, "-M"},
      {"a.cpp -MM -MF a.d", Phase::Preprocess, "-MM"},
      {"a.cpp -MD -MF a.d -c -o a.o", Phase::Compile, "-c"},
      {"a.cpp -MMD -MP -MF a.d -c", Phase::Compile, "-c"},
      {"a.o -MD -o a", Phase::Link, "(default)"},
      {"a.cppm --precompile -o a.pcm", Phase::Pch, "--precompile"},
      {"a.cpp -fsyntax-only -c", Phase::Compile, "-fsyntax-only"},
      {"a.cpp -S -c", Phase::Compile, "-S"},
      {"a.o b.o -o a", Phase::Link, "(default)"},
      {"a.cpp -o a", Phase::Link, "(default)"},
      {"a.o -shared -o liba.so", Phase::Link, "(default)"},
      {"-c a.cpp -shared -undefined dynamic_lookup -Wl,-foo", Phase::Compile,
       "-c"},
      {"-c a.cpp -lomp -L/x -Xlinker -bar", Phase::Compile, "-c"},
      // Probes and immediate arguments.
      {"--version", Phase::Probe, "--version"},
      {"-v", Phase::Probe, "-v"},
      {"--verbose", Phase::Probe, "--verbose"},
      {"-v a.o -o a", Phase::Link, "(default)"},
      {"-v -c a.cpp", Phase::Compile, "-c"},
      {"-dumpversion", Phase::Probe, "-dumpversion"},
      {"-dumpmachine", Phase::Probe, "-dumpmachine"},
      {"-dumpfullversion -dumpversion", Phase::Probe, "-dumpversion"},
      {"-print-search-dirs", Phase::Probe, "-print-search-dirs"},
      {"-print-file-name=libc++.a", Phase::Probe, "-print-file-name=libc++.a"},
      {"--print-file-name libc++.a", Phase::Probe,
       "--print-file-name libc++.a"},
      {"-print-prog-name=ld", Phase::Probe, "-print-prog-name=ld"},
      {"-print-resource-dir a.o", Phase::Probe, "-print-resource-dir"},
      {"-print-target-triple", Phase::Probe, "-print-target-triple"},
      {"--help", Phase::Probe, "--help"},
      {"-### a.o -o a", Phase::Probe, "-###"},
      {"-### -c a.cpp", Phase::Probe, "-###"},
      {"", Phase::Probe, "(no inputs)"},
      {"-O2 -Wall", Phase::Probe, "(no inputs)"},
      {"-c", Phase::Probe, "(no inputs)"},
      // A LinkerInput option alone is an input to clang: it links.
      {"-lomp", Phase::Link, "(default)"},
      {"-Wl,-v", Phase::Link, "(default)"},
      // PCH.
      {"-x c++-header h.h -o h.h.gch", Phase::Pch, "-x c++-header"},
      {"-xc++-header h.h", Phase::Pch, "-x c++-header"},
      {"h.hpp -o h.hpp.pch", Phase::Pch, "h.hpp (c++-header)"},
      {"h.h -o h.pch", Phase::Pch, "h.h (c++-header)"},
      {"-c h.hpp", Phase::Pch, "h.hpp (c++-header)"},
      {"-x objective-c++-header h.h -c", Phase::Pch, "-x objective-c++-header"},
      {"-x c-header h.h -fsyntax-only", Phase::Compile, "-fsyntax-only"},
      {"-x c++-header h.h -E", Phase::Preprocess, "-E"},
      // A header and a link input: two outputs; with -o clang refuses.
      {"h.hpp a.o -o x", Phase::Pch, "h.hpp (c++-header)"},
      {"h.hpp a.o", Phase::Link, "(default)"},
      // -x applies to later inputs; -x none resets.
      {"-x c++-header h.h -x none a.cpp -c", Phase::Compile, "-c"},
      {"a.h -x c++ b.h -o b", Phase::Pch, "a.h (c++-header)"},
  };
  for (const Row &R : Rows) {
    INFO("clang++ " << R.Line);
    Classification C = run(std::string(R.Line));
    CHECK(phaseName(C.Ph) == std::string(phaseName(R.Ph)));
    CHECK(C.DecidingArg == R.Deciding);
  }
}

TEST_CASE("a cpp-mode compiler name only preprocesses", "[flags][classify]") {
  ClassifyOptions O = macho();
  O.CompilerName = "/usr/bin/clang-cpp-19";
  Classification C = run({"a.c"}, O);
  CHECK(C.Ph == Phase::Preprocess);
}

TEST_CASE("output kinds", "[flags][classify]") {
  CHECK(run("a.o -o a").Kind == OutputKind::Executable);
  CHECK(run("a.o -shared -o a.so").Kind == OutputKind::SharedLibrary);
  CHECK(run("a.o -dynamiclib -o a.dylib").Kind == OutputKind::SharedLibrary);
  CHECK(run("a.o -bundle -o a.so").Kind == OutputKind::Bundle);
  CHECK(run("a.o b.o -r -o ab.o").Kind == OutputKind::Relocatable);
  CHECK(run("a.o -shared -bundle -o a").Kind == OutputKind::Bundle);
  CHECK(run("a.cpp -shared -c").Kind == OutputKind::None);
  CHECK(run("--version").Kind == OutputKind::None);
}

TEST_CASE("outputs in every spelling", "[flags][classify]") {
  CHECK(*run("a.o -o out").Output == "out");
  CHECK(*run("a.o -oout").Output == "out");
  CHECK(*run("a.o --output=out").Output == "out");
  CHECK(*run("a.o --output out").Output == "out");
  CHECK(*run("a.o -o first -o last").Output == "last");
  CHECK_FALSE(run("a.o").Output);
}

// --- values that look like flags or inputs
// --------------------------------------

TEST_CASE("option values are never inputs or phase flags",
          "[flags][classify]") {
  SECTION("-sectcreate takes three values") {
    Classification C = run("-sectcreate __TEXT __info_plist -c a.o -o a");
    CHECK(C.Ph == Phase::Link);
    CHECK(inputPaths(C) == Strings{"a.o"});
  }
  SECTION("-include, -MQ, -MT, -MF, -Xclang, -o take one") {
    Classification C =
        run("-include -c -MQ -c -MT -S -MF -E -Xclang -c a.o -o -fsyntax-only");
    CHECK(C.Ph == Phase::Link);
    CHECK(inputPaths(C) == Strings{"a.o"});
    CHECK(*C.Output == "-fsyntax-only");
  }
  SECTION("-x, -arch, -target, -isysroot, -Xlinker, -install_name") {
    Classification C =
        run("-x c++ a.cpp -arch arm64 -target arm64-apple-macos11 -isysroot "
            "sdk.o -Xlinker b.o -install_name @rpath/c.dylib -c");
    CHECK(C.Ph == Phase::Compile);
    CHECK(inputPaths(C) == Strings{"a.cpp"});
    CHECK(C.LinkerArgs == Strings{"b.o"});
  }
  SECTION("the README's combined line") {
    Classification C = run("-sectcreate __TEXT __info_plist -c a.o -include "
                           "-c a.cpp -MQ -c -Xclang -c -x c++-header h.h");
    CHECK(inputPaths(C) == Strings{"a.o", "a.cpp", "h.h"});
    REQUIRE(C.Inputs.size() == 3);
    CHECK(C.Inputs[0].Type == "object");
    CHECK(C.Inputs[1].Type == "c++");
    CHECK(C.Inputs[2].Type == "c++-header");
    // No -c of its own: a.cpp and a.o link (h.h also gets a PCH).
    CHECK(C.Ph == Phase::Link);
  }
}

TEST_CASE("input types follow clang's extensions and -x", "[flags][classify]") {
  Classification C =
      run("a.c b.cpp c.cc d.cxx e.m f.mm g.o h.a i.dylib j.so k.so.1 l.tbd "
          "m.s n.S o.ll p.bc q.hpp r.h noext",
          macho());
  Strings Types;
  for (const Input &I : C.Inputs)
    Types.push_back(I.Type);
  CHECK(Types == Strings{"c++", // clang++ reads .c as C++
                         "c++", "c++", "c++", "objective-c", "objective-c++",
                         "object", "archive", "shared", "shared", "shared",
                         "tbd", "assembler-with-cpp", "assembler-with-cpp",
                         "ir", "ir", "c++-header", "c++-header", "object"});

  ClassifyOptions CC = elf();
  CC.CompilerName = "clang";
  Classification D = run({"a.c", "m.s", "r.h", "-c"}, CC);
  CHECK(D.Inputs[0].Type == "c");
  CHECK(D.Inputs[1].Type == "assembler");
  CHECK(D.Inputs[2].Type == "c-header");

  Classification X = run("-x c a.o -x none b.o -xc++ c.txt");
  CHECK(X.Inputs[0].Type == "c");
  CHECK(X.Inputs[1].Type == "object");
  CHECK(X.Inputs[2].Type == "c++");

  Classification O = run("-ObjC++ a.cpp b.o -c");
  CHECK(O.Inputs[0].Type == "objective-c++");
  CHECK(O.Inputs[1].Type == "object");
}

TEST_CASE("stdin input", "[flags][classify]") {
  Classification C = run("-x c++ - -c -o a.o");
  REQUIRE(C.Inputs.size() == 1);
  CHECK(C.Inputs[0].IsStdin);
  CHECK(C.Inputs[0].Path == "-");
  CHECK(C.Inputs[0].Type == "c++");
  CHECK(C.Ph == Phase::Compile);
  Classification E = run("-E -");
  CHECK(E.Ph == Phase::Preprocess);
  CHECK(E.Inputs[0].IsStdin);
  CHECK(E.Inputs[0].Type == "c");
  CHECK(run("-x c++ - -o a").Ph == Phase::Link);
}

// --- macros, libraries, linker arguments
// ------------------------------------------

TEST_CASE("macro state after every -D and -U in order", "[flags][classify]") {
  Classification C = run({"-c", "a.cpp", "-D", "  USE_MPS", "-DA=1", "-D", "B",
                          "-DC=x=y", "-UA", "-D", "D", "-UD", "-DD=2", "-D",
                          "F(x)=x", "-DB=3", "-U", " C "});
  using P = std::pair<std::string, std::string>;
  CHECK(C.Defines ==
        std::vector<P>{{"USE_MPS", ""}, {"B", "3"}, {"D", "2"}, {"F", "x"}});
  CHECK(C.isDefined("USE_MPS"));
  CHECK_FALSE(C.isDefined("A"));
  CHECK_FALSE(C.isDefined("C"));
  CHECK_FALSE(C.isDefined("  USE_MPS"));
  CHECK(run("-DUSE_MPS=1 a.o").isDefined("USE_MPS"));
  CHECK(run("-D USE_MPS a.o").isDefined("USE_MPS"));
  CHECK_FALSE(run("-DUSE_MPS -UUSE_MPS a.o").isDefined("USE_MPS"));
  CHECK(run("-UUSE_MPS -DUSE_MPS a.o").isDefined("USE_MPS"));
}

TEST_CASE("libraries, needed libraries and library dirs", "[flags][classify]") {
  Classification C =
      run({"a.o", "-lfoo", "-l", "bar", "-weak-lweak", "-reexport-lre", "-L",
           "/d1", "-L/d2", "-Wl,-needed-lomp,-lz", "-Xlinker",
           "-needed_library", "-Xlinker", "/x/libq.dylib", "-o", "a"});
  // A library named by path (-needed_library /x/libq.dylib) is recorded by
  // its library name, as -lq would be.
  CHECK(C.Libraries == Strings{"foo", "bar", "weak", "re", "omp", "z", "q"});
  CHECK(C.LibraryDirs == Strings{"/d1", "/d2"});
  CHECK(C.UnknownArgs.empty());

  // clang 19 has no driver -needed-l: it is unknown (rules decline) but the
  // intent is still recorded.
  Classification N = run("a.o -needed-lomp -o a");
  CHECK(N.UnknownArgs == Strings{"-needed-lomp"});
  CHECK(N.Libraries == Strings{"omp"});
}

TEST_CASE("linker arguments are split into single arguments",
          "[flags][classify]") {
  Classification C =
      run("a.o -Wl,-dead_strip_dylibs,-rpath,@loader_path -Xlinker -x -z defs "
          "-Wl,-headerpad_max_install_names -o a");
  CHECK(C.LinkerArgs == Strings{"-dead_strip_dylibs", "-rpath", "@loader_path",
                                "-x", "-z", "defs",
                                "-headerpad_max_install_names"});
  CHECK(C.hasLinkerArg("-dead_strip_dylibs"));
  CHECK_FALSE(C.hasLinkerArg("-no_dead_strip_dylibs"));
}

TEST_CASE("unknown and malformed arguments are recorded", "[flags][classify]") {
  Classification C = run("a.o --no-such-flag -fno-such-thing-xyz -o a");
  CHECK(C.Ph == Phase::Link);
  CHECK(C.UnknownArgs.size() == 2);
  Classification M = run("a.o -o");
  CHECK(M.UnknownArgs == Strings{"-o (missing value)"});
  Classification U = run("-dumpspecs a.o");
  CHECK(U.UnknownArgs == Strings{"-dumpspecs"});
}

// --- targets
// -----------------------------------------------------------------------

TEST_CASE("target detection", "[flags][classify][target]") {
  SECTION("--target= and -target, last wins") {
    Classification C =
        run("-target x86_64-linux-gnu --target=arm64-apple-macos11 a.o", elf());
    CHECK(C.Target.Triple == "arm64-apple-macos11");
    CHECK(C.Target.Source == TargetSource::TargetFlag);
    CHECK(C.Target.Format == ObjectFormat::MachO);
    Classification D = run(
        "--target=arm64-apple-macos11 -target x86_64-linux-gnu a.o", macho());
    CHECK(D.Target.Triple == "x86_64-linux-gnu");
    CHECK(D.Target.Format == ObjectFormat::ELF);
  }
  SECTION("-arch means Mach-O on a Mach-O host") {
    Classification C = run("-arch arm64 -arch x86_64 a.o", macho());
    CHECK(C.Target.Source == TargetSource::Arch);
    CHECK(C.Target.Triple == "arm64-apple-macos");
    CHECK(C.Target.Format == ObjectFormat::MachO);
    CHECK(C.Target.Archs == Strings{"arm64", "x86_64"});
  }
  SECTION("-arch alone on an ELF host does not make it Apple") {
    Classification C = run("-arch arm64 a.o", elf());
    CHECK(C.Target.Source == TargetSource::Host);
    CHECK(C.Target.Format == ObjectFormat::ELF);
    CHECK(C.Target.Archs == Strings{"arm64"});
  }
  SECTION("-arch with an explicit Apple target keeps the target") {
    Classification C =
        run("-target arm64-apple-macos11 -arch x86_64 a.o", elf());
    CHECK(C.Target.Source == TargetSource::TargetFlag);
    CHECK(C.Target.Format == ObjectFormat::MachO);
    CHECK(C.Target.Archs == Strings{"x86_64"});
  }
  SECTION("a triple prefix in the compiler name") {
    ClassifyOptions O = elf();
    O.CompilerName = "/opt/cross/bin/arm64-apple-darwin-clang++";
    Classification C = run({"a.o"}, O);
    CHECK(C.Target.Source == TargetSource::CompilerName);
    CHECK(C.Target.Triple == "arm64-apple-darwin");
    CHECK(C.Target.Format == ObjectFormat::MachO);
    // An explicit target beats the name.
    Classification D = run({"--target=x86_64-linux-gnu", "a.o"}, O);
    CHECK(D.Target.Source == TargetSource::TargetFlag);
    // -arch with an Apple-prefixed name is Apple even on an ELF host.
    Classification E = run({"-arch", "x86_64", "a.o"}, O);
    CHECK(E.Target.Source == TargetSource::Arch);
    CHECK(E.Target.Triple == "x86_64-apple-darwin");
    CHECK(E.Target.Format == ObjectFormat::MachO);
  }
  SECTION("compiler names without a target") {
    for (const char *Name :
         {"clang++", "linkguard-clang++", "/usr/bin/clang++-19", "clang++19",
          "x/c++", "g++"})
      CHECK(targetPrefixOfCompilerName(Name).empty());
    CHECK(targetPrefixOfCompilerName("x86_64-linux-gnu-clang++-19") ==
          "x86_64-linux-gnu");
    CHECK(targetPrefixOfCompilerName("aarch64-linux-gnu-g++") ==
          "aarch64-linux-gnu");
  }
  SECTION("the host") {
    Classification M = run("a.o", macho());
    CHECK(M.Target.Source == TargetSource::Host);
    CHECK(M.Target.Format == ObjectFormat::MachO);
    CHECK(llvm::StringRef(M.Target.Triple).contains("apple"));
    Classification E = run("a.o", elf());
    CHECK(E.Target.Format == ObjectFormat::ELF);
    ClassifyOptions H = elf();
    H.HostTriple = "riscv64-unknown-linux-gnu";
    CHECK(run({"a.o"}, H).Target.Triple == "riscv64-unknown-linux-gnu");
  }
}

// --- response files
// -------------------------------------------------------------

namespace {
struct TempDir {
  llvm::SmallString<128> Path;
  TempDir() {
    REQUIRE_FALSE(
        llvm::sys::fs::createUniqueDirectory("linkguard-classify", Path));
  }
  ~TempDir() { llvm::sys::fs::remove_directories(Path); }
  std::string file(llvm::StringRef Name, llvm::StringRef Text) const {
    llvm::SmallString<128> P(Path);
    llvm::sys::path::append(P, Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    REQUIRE_FALSE(EC);
    OS << Text;
    return std::string(P);
  }
};
} // namespace

TEST_CASE("response files are expanded for classification only",
          "[flags][classify][rsp]") {
  TempDir D;
  ClassifyOptions O = macho();
  O.WorkingDir = std::string(D.Path);

  SECTION("GNU quoting, nesting, relative to the working directory") {
    D.file("link.rsp", "\"my dir/a.o\" 'b.o' c\\ d.o -shared\n@more.rsp\n");
    D.file("more.rsp", "-o liba.dylib -lomp -D  USE_MPS");
    Classification C = run({"@link.rsp", "-L/x"}, O);
    CHECK(C.Ph == Phase::Link);
    CHECK(inputPaths(C) == Strings{"my dir/a.o", "b.o", "c d.o"});
    CHECK(*C.Output == "liba.dylib");
    CHECK(C.Libraries == Strings{"omp"});
    CHECK(C.isDefined("USE_MPS"));
    CHECK(C.LibraryDirs == Strings{"/x"});
    CHECK(C.ResponseFiles == Strings{"link.rsp", "more.rsp"});
  }
  SECTION("a -c inside a response file makes it a compile") {
    D.file("c.rsp", "-c -o a.o");
    Classification C = run({"a.cpp", "@c.rsp"}, O);
    CHECK(C.Ph == Phase::Compile);
    CHECK(C.DecidingArg == "-c");
  }
  SECTION("an absolute path") {
    std::string Abs = D.file("abs.rsp", "--version");
    Classification C = run({("@" + Abs).c_str()}, macho());
    CHECK(C.Ph == Phase::Probe);
  }
  SECTION("a missing @name input is clang's own error to report") {
    // clang opens "@missing.rsp" as an input and fails; linkguard records it
    // as unknown (rules decline) and lets clang say so.
    Classification C = run({"a.o", "@missing.rsp"}, macho());
    CHECK(C.UnknownArgs == Strings{"@missing.rsp (no such file)"});
    REQUIRE(C.Inputs.size() == 1);
  }
  SECTION("a real file named @name is an input, as clang links it") {
    std::string At = D.file("@kernel.o", "");
    ClassifyOptions In = O;
    In.WorkingDir = llvm::sys::path::parent_path(At).str();
    auto K = classify(Strings{"a.o", "@kernel.o", "-o", "x"}, In);
    REQUIRE(bool(K));
    CHECK(K->UnknownArgs.empty());
    REQUIRE(K->Inputs.size() == 2);
    CHECK(K->Inputs[1].Path == "@kernel.o");
  }
  SECTION("a directory is a ResponseFileError") {
    llvm::Expected<Classification> C = classify(Strings{"@."}, O);
    REQUIRE_FALSE(bool(C));
    CHECK(llvm::errorToBool(C.takeError()));
  }
  SECTION("a cycle stops at the depth cap, unread: the rules decline") {
    D.file("loop.rsp", "-c @loop.rsp");
    Classification C = run({"@loop.rsp"}, O);
    REQUIRE(C.UnknownArgs.size() == 1);
    CHECK(llvm::StringRef(C.UnknownArgs[0]).contains("nested"));
  }
  SECTION("size cap: left unread (ResponseFilesTest has the caps)") {
    D.file("big.rsp", std::string(100, 'x'));
    ResponseFileLimits L;
    L.MaxFileBytes = 10;
    llvm::Expected<ExpandedArgs> E =
        expandResponseFiles(Strings{"@big.rsp"}, D.Path, L);
    REQUIRE(bool(E));
    CHECK(E->Unread.size() == 1);
  }
  SECTION("an @value with no such file stays a value, as in clang") {
    Classification C = run({"a.o", "-dynamiclib", "-install_name",
                            "@rpath/liba.dylib", "-o", "liba.dylib"},
                           O);
    CHECK(C.Ph == Phase::Link);
    CHECK(inputPaths(C) == Strings{"a.o"});
    CHECK(C.ResponseFiles.empty());
  }
  SECTION("a lone @ is an ordinary argument") {
    Classification C = run({"@", "-c", "a.cpp"}, O);
    CHECK(C.ResponseFiles.empty());
  }
}

TEST_CASE("driver flags as clang spells them", "[flags][classify]") {
  Classification C = run({"a.cpp", "-fopenmp", "-Xclang", "-fopenmp",
                          "-fopenmp=libomp", "-oout", "-c", "--no-such"});
  CHECK(C.DriverFlags == Strings{"-fopenmp", "-Xclang -fopenmp",
                                 "-fopenmp=libomp", "-o out", "-c"});
  CHECK(C.UnknownArgs == Strings{"--no-such"});
}

TEST_CASE("names of enums", "[flags][classify]") {
  CHECK(std::string(phaseName(Phase::Link)) == "link");
  CHECK(std::string(phaseName(Phase::Pch)) == "pch");
  CHECK(std::string(objectFormatName(ObjectFormat::MachO)) == "Mach-O");
  CHECK(std::string(outputKindName(OutputKind::SharedLibrary)) ==
        "shared-library");
}
