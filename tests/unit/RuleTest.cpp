// flags/RuleEngine and BuiltinRules: the built-in rule decides every
// cpp_builder fixture as labelled (and as the TOML copy in docs/rules.md
// does), each condition is a named predicate, the never-add-twice check sees
// response files, the shipped ELF rule matches what it should, and flags
// placed before-libraries land before the first library and nowhere else.
#include "flags/BuiltinRules.h"
#include "flags/Classify.h"
#include "libnames/LibraryNames.h"
#include "flags/RuleEngine.h"
#include "config/RulesFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/StringSaver.h"

#include "tests/unit/support/CppBuilderFixtures.h"

#include "tests/unit/support/Catch.h"
#include "tests/unit/support/TempTree.h"

#include <fstream>

using namespace linkguard::flags;
using namespace linkguard::config;
using namespace linkguard::testsupport;
using Strings = std::vector<std::string>;

namespace {

Classification classifyAs(const Strings &Args, ObjectFormat Host,
                          const std::string &Compiler = "clang++") {
  ClassifyOptions O;
  O.HostFormat = Host;
  O.CompilerName = Compiler;
  auto C = classify(Args, O);
  if (!C) {
    std::string Msg = llvm::toString(C.takeError());
    FAIL("classify failed: " << Msg);
  }
  return std::move(*C);
}

Classification macho(const std::string &Line) {
  return classifyAs(splitCommand(Line), ObjectFormat::MachO);
}
Classification elf(const std::string &Line) {
  return classifyAs(splitCommand(Line), ObjectFormat::ELF);
}

RuleContext noFiles() {
  RuleContext Ctx;
  Ctx.FileExists = [](const std::string &) { return false; };
  return Ctx;
}


Classification fixtureClassification(const FixtureRow &R) {
  Strings Argv = splitCommand(R.Command);
  return classifyAs(Strings(Argv.begin() + 1, Argv.end()), ObjectFormat::MachO,
                    Argv[0]);
}

/// The ```toml block after the <!-- mps-aot-toml --> marker in docs/rules.md.
std::string docsMpsToml() {
  auto Buf = llvm::MemoryBuffer::getFile(LINKGUARD_SOURCE_DIR "/docs/rules.md");
  REQUIRE(bool(Buf));
  llvm::StringRef Text = (*Buf)->getBuffer();
  size_t At = Text.find("<!-- mps-aot-toml -->");
  REQUIRE(At != llvm::StringRef::npos);
  llvm::StringRef Rest = Text.drop_front(At);
  size_t Open = Rest.find("```toml\n");
  REQUIRE(Open != llvm::StringRef::npos);
  Rest = Rest.drop_front(Open + strlen("```toml\n"));
  return Rest.take_front(Rest.find("```")).str();
}

RuleSpec exampleElfRule() {
  auto File = readRulesFile(LINKGUARD_SOURCE_DIR "/examples/linkguard.toml");
  if (!File) {
    std::string Msg = llvm::toString(File.takeError());
    FAIL("examples/linkguard.toml: " << Msg);
  }
  REQUIRE(File->Rules.size() == 1);
  CHECK(File->BuiltinMpsAot);
  return File->Rules.front();
}

Strings names(const RuleDecision &D) {
  Strings N;
  for (const Condition &C : D.Conditions)
    N.push_back(C.Name);
  return N;
}

const Condition *condition(const RuleDecision &D, const std::string &Name) {
  for (const Condition &C : D.Conditions)
    if (C.Name == Name)
      return &C;
  return nullptr;
}

const char *AotLink =
    "clang++ w.o k.o -D USE_MPS -shared -fPIC -undefined dynamic_lookup "
    "-Xclang -fopenmp -o m.so -lomp -L/opt/homebrew/opt/libomp/lib";

} // namespace

TEST_CASE("the built-in rule decides every cpp_builder fixture as labelled",
          "[rules][fixtures]") {
  std::optional<std::string> Path = fixturePath();
  if (!Path) {
    linkguard::testsupport::skipTest(
        "cpp_builder_darwin_mps.txt missing from ../shared and tests/data");
  }
  std::vector<FixtureRow> Rows = readFixtures(*Path);
  REQUIRE(Rows.size() >= 11);
  size_t Yes = 0;
  for (const FixtureRow &R : Rows) {
    INFO(R.Name << ": " << R.Command);
    RuleDecision D = evaluateRule(mpsAotRuleSpec(), fixtureClassification(R), noFiles());
    CHECK(D.matches() == (R.Inject == "yes"));
    if (D.matches()) {
      ++Yes;
      CHECK(D.Append == Strings{"-Wl,-dead_strip_dylibs"});
      CHECK(D.Position == InsertPosition::End);
    } else {
      CHECK(D.firstFailure() != nullptr);
    }
  }
  CHECK(Yes > 0); // the table is not all "no": the comparison can fail
}

TEST_CASE("every cpp_builder fixture decides the same when only the macros the rules "
          "read are recorded", "[rules][fixtures]") {
  std::optional<std::string> Path = fixturePath();
  if (!Path) {
    linkguard::testsupport::skipTest(
        "cpp_builder_darwin_mps.txt missing from ../shared and tests/data");
  }
  RuleSpec Spec = mpsAotRuleSpec();
  ClassifyOptions Read;
  Read.HostFormat = ObjectFormat::MachO;
  Read.MacrosRead = Spec.Match.Defined;
  Read.MacrosRead->insert(Read.MacrosRead->end(), Spec.Match.NotDefined.begin(),
                          Spec.Match.NotDefined.end());
  REQUIRE(Read.MacrosRead->size() >= 1);
  size_t Dropped = 0;
  for (const FixtureRow &R : readFixtures(*Path)) {
    INFO(R.Name << ": " << R.Command);
    Strings Argv = splitCommand(R.Command);
    Classification Full = fixtureClassification(R);
    Read.CompilerName = Argv[0];
    auto Filtered = classify(Strings(Argv.begin() + 1, Argv.end()), Read);
    REQUIRE(static_cast<bool>(Filtered));
    Dropped += Full.Defines.size() - Filtered->Defines.size();
    RuleDecision A = evaluateRule(Spec, Full, noFiles());
    RuleDecision B = evaluateRule(Spec, *Filtered, noFiles());
    CHECK(A.matches() == B.matches());
    REQUIRE(A.Conditions.size() == B.Conditions.size());
    for (size_t I = 0; I < A.Conditions.size(); ++I) {
      CHECK(A.Conditions[I].Name == B.Conditions[I].Name);
      CHECK(A.Conditions[I].Holds == B.Conditions[I].Holds);
      CHECK(A.Conditions[I].Why == B.Conditions[I].Why);
    }
  }
  CHECK(Dropped > 0); // the fixtures define other macros: the filter did something
}

TEST_CASE("the MPS rule written in TOML (docs/rules.md) decides as the built-in",
          "[rules][fixtures]") {
  std::optional<std::string> Path = fixturePath();
  if (!Path) {
    linkguard::testsupport::skipTest(
        "cpp_builder_darwin_mps.txt missing from ../shared and tests/data");
  }
  auto File = parseRulesText(docsMpsToml(), "rules.md");
  if (!File) {
    std::string Msg = llvm::toString(File.takeError());
    FAIL("docs/rules.md's TOML: " << Msg);
  }
  CHECK_FALSE(File->BuiltinMpsAot);
  REQUIRE(File->Rules.size() == 1);
  const RuleSpec &Copy = File->Rules.front();
  RuleSpec Builtin = mpsAotRuleSpec();
  CHECK(Copy.Add == Builtin.Add);
  CHECK(Copy.Contract.ForbidUnreferenced == Builtin.Contract.ForbidUnreferenced);
  CHECK(Copy.Contract.Require == Builtin.Contract.Require);
  CHECK(Copy.Contract.RequireOnlyForMachO == Builtin.Contract.RequireOnlyForMachO);
  for (const FixtureRow &R : readFixtures(*Path)) {
    INFO(R.Name);
    Classification C = fixtureClassification(R);
    CHECK(evaluateRule(Copy, C, noFiles()).matches() ==
          evaluateRule(Builtin, C, noFiles()).matches());
  }
}

TEST_CASE("the built-in rule keeps its condition names, one per predicate",
          "[rules]") {
  RuleDecision D = evaluateRule(mpsAotRuleSpec(), macho(AotLink), noFiles());
  CHECK(D.RuleName == "mps-aot-dead-strip-dylibs");
  CHECK(names(D) == Strings{"rule enabled", "link step", "every argument understood",
                            "Mach-O target", "shared library or bundle output",
                            "MPS build", "AOT build", "libtorch not linked",
                            "flag not already present", "no explicit opt-out"});
  CHECK(D.matches());
  CHECK(D.Contract.ForbidUnreferenced == Strings{"openmp"});
  CHECK(D.Contract.Require == Strings{"libsystem"});
}

TEST_CASE("each built-in condition can fail on its own, with its evidence",
          "[rules]") {
  struct Case {
    const char *Line;
    const char *Fails;
    const char *WhyContains;
  };
  const std::string Base = AotLink;
  for (const Case &K : std::vector<Case>{
           {"-c", "link step", "-c"},
           {"-ltorch", "libtorch not linked", "-ltorch"},
           {"-L/v/lib/python3.12/site-packages/torch/lib", "libtorch not linked",
            "torch/lib"},
           {"/v/torch/lib/libtorch_cpu.dylib", "libtorch not linked", "libtorch_cpu.dylib"},
           {"-Wl,-dead_strip_dylibs", "flag not already present", "-dead_strip_dylibs"},
           {"-Xlinker -no_dead_strip_dylibs", "no explicit opt-out", "-no_dead_strip_dylibs"},
           {"-U USE_MPS", "MPS build", "USE_MPS"},
           {"extra.cpp", "AOT build", "JIT"},
           {"-target x86_64-linux-gnu", "Mach-O target", "ELF"},
           {"--no-such-flag", "every argument understood", "--no-such-flag"},
       }) {
    INFO(K.Line);
    RuleDecision D = evaluateRule(mpsAotRuleSpec(), macho(Base + " " + K.Line), noFiles());
    REQUIRE_FALSE(D.matches());
    const Condition *F = D.firstFailure();
    REQUIRE(F);
    CHECK(F->Name == K.Fails);
    CHECK_THAT(F->Why, Catch::Contains(K.WhyContains));
  }
  // Control: the base line itself applies.
  CHECK(evaluateRule(mpsAotRuleSpec(), macho(Base), noFiles()).matches());
}

TEST_CASE("a -L directory holding libtorch counts as linking it (probe)",
          "[rules]") {
  RuleContext Ctx;
  Ctx.FileExists = [](const std::string &P) {
    return P == "/opt/torch-install/lib/libtorch_cpu.dylib";
  };
  RuleDecision D =
      evaluateRule(mpsAotRuleSpec(), macho(std::string(AotLink) + " -L/opt/torch-install/lib/"), Ctx);
  REQUIRE_FALSE(D.matches());
  CHECK(D.firstFailure()->Name == "libtorch not linked");
  CHECK(evaluateRule(mpsAotRuleSpec(), macho(std::string(AotLink) + " -L/opt/other/lib"), Ctx)
            .matches());
}

TEST_CASE("LINKGUARD_AOT and the rule switch are honoured", "[rules]") {
  RuleContext Ctx = noFiles();
  Ctx.AotOverride = false;
  RuleDecision D = evaluateRule(mpsAotRuleSpec(), macho(AotLink), Ctx);
  REQUIRE_FALSE(D.matches());
  CHECK(D.firstFailure()->Why == "LINKGUARD_AOT=0");

  Ctx = noFiles();
  Ctx.AotOverride = true; // a JIT-shaped command declared AOT
  CHECK(evaluateRule(mpsAotRuleSpec(), macho(std::string(AotLink) + " extra.cpp"), Ctx).matches());

  Ctx = noFiles();
  Ctx.Enabled = false;
  Ctx.DisabledBy = "LINKGUARD_RULES=off";
  D = evaluateRule(mpsAotRuleSpec(), macho(AotLink), Ctx);
  REQUIRE_FALSE(D.matches());
  CHECK(D.firstFailure()->Why == "disabled by LINKGUARD_RULES=off");
}

TEST_CASE("the never-add-twice check sees the flag inside a response file",
          "[rules]") {
  llvm::SmallString<128> Rsp;
  REQUIRE_FALSE(llvm::sys::fs::createTemporaryFile("lg-rule", "rsp", Rsp));
  {
    std::ofstream Out(std::string(Rsp.str()));
    Out << "-Wl,-dead_strip_dylibs\n";
  }
  RuleDecision D =
      evaluateRule(mpsAotRuleSpec(), macho(std::string(AotLink) + " @" + std::string(Rsp)), noFiles());
  llvm::sys::fs::remove(Rsp);
  REQUIRE_FALSE(D.matches());
  CHECK(D.firstFailure()->Name == "flag not already present");
}

TEST_CASE("the shipped ELF rule: OpenMP shared-library links on ELF only",
          "[rules][elf]") {
  RuleSpec R = exampleElfRule();
  CHECK(R.Name == "elf-openmp-as-needed");
  CHECK(R.Add == Strings{"-Wl,--as-needed"});
  CHECK(R.Position == InsertPosition::BeforeLibraries);
  CHECK(R.Contract.ForbidUnreferenced == Strings{"openmp"});
  CHECK(R.Contract.ReportSearchPaths);

  for (const char *Applies : {
           "clang++ -fopenmp -shared m.o -o m.so",
           "clang++ -fopenmp=libomp -shared m.o -o m.so",
           "g++ -shared m.o -o m.so -lgomp",
           "clang++ -shared m.o -o m.so -lomp",
           "clang++ -shared m.o -o m.so /opt/p/libomp.so.5",
       }) {
    INFO(Applies);
    RuleDecision D = evaluateRule(R, elf(Applies), noFiles());
    CHECK(D.matches());
    if (const Condition *F = D.firstFailure())
      FAIL(F->Name << ": " << F->Why);
  }
  struct Declines {
    const char *Line;
    const char *Fails;
  };
  for (const Declines &K : std::vector<Declines>{
           {"clang++ -shared m.o -o m.so -lm", "links or passes any of -lomp, -lgomp, "
                                               "-liomp5, -fopenmp, -fopenmp=*"},
           {"clang++ -fopenmp m.o -o m", "shared library output"},
           {"clang++ -fopenmp -c m.cpp -o m.o", "link step"},
           {"clang++ -fopenmp -shared m.o -o m.so -target arm64-apple-macos11",
            "ELF target"},
           {"clang++ -fopenmp -shared m.o -o m.so -Wl,--as-needed",
            "flag not already present"},
           {"clang++ -fopenmp -shared m.o -o m.so -Wl,--no-as-needed",
            "no explicit opt-out"},
       }) {
    INFO(K.Line);
    RuleDecision D = evaluateRule(R, elf(K.Line), noFiles());
    REQUIRE_FALSE(D.matches());
    CHECK(D.firstFailure()->Name == K.Fails);
  }
}

namespace {

/// Args with the flags placed where the classification of Args says.
Strings placed(const Strings &Args, const Strings &Before, const Strings &Append) {
  ClassifyOptions Opts;
  auto C = classify(Args, Opts);
  REQUIRE(static_cast<bool>(C));
  return withRuleFlags(Args, *C, Before, Append);
}

} // namespace

TEST_CASE("before-libraries goes before the first library, never inside an "
          "option's value", "[rules][placement]") {
  const Strings F = {"-Wl,--as-needed"};
  llvm::SmallString<128> Rsp;
  REQUIRE_FALSE(llvm::sys::fs::createTemporaryFile("link", "rsp", Rsp));
  {
    std::ofstream(std::string(Rsp)) << "-L/x -lfoo\n";
  }
  const std::string At = "@" + std::string(Rsp);
  struct Case {
    Strings Args;
    Strings Want;
  };
  for (const Case &K : std::vector<Case>{
           // The user's -l, and clang's own -lomp after everything.
           {{"-fopenmp", "-shared", "m.o", "-o", "m.so", "-lomp"},
            {"-fopenmp", "-shared", "m.o", "-o", "m.so", "-Wl,--as-needed", "-lomp"}},
           // -o's value looks like a library: it is not one.
           {{"-shared", "-o", "libm.so", "m.o", "-l", "gomp"},
            {"-shared", "-o", "libm.so", "m.o", "-Wl,--as-needed", "-l", "gomp"}},
           // A library by path.
           {{"-shared", "m.o", "/p/lib/libomp.so.5", "-o", "x.so"},
            {"-shared", "m.o", "-Wl,--as-needed", "/p/lib/libomp.so.5", "-o", "x.so"}},
           // A response file that holds a library: before the @file.
           {{"-shared", "m.o", At, "-lomp"},
            {"-shared", "m.o", "-Wl,--as-needed", At, "-lomp"}},
           // -Wl, naming a library.
           {{"-shared", "m.o", "-Wl,-lomp", "-o", "x.so"},
            {"-shared", "m.o", "-Wl,--as-needed", "-Wl,-lomp", "-o", "x.so"}},
           // No library at all: the end (still before the driver's -lomp).
           {{"-fopenmp", "-shared", "m.o", "-o", "x.so"},
            {"-fopenmp", "-shared", "m.o", "-o", "x.so", "-Wl,--as-needed"}},
       }) {
    INFO(llvm::join(K.Args, " "));
    CHECK(placed(K.Args, F, {}) == K.Want);
  }
  // Appending is still appending; both at once keep their places.
  CHECK(placed(Strings{"m.o", "-lomp"}, F, {"-Wl,-x"}) ==
        Strings{"m.o", "-Wl,--as-needed", "-lomp", "-Wl,-x"});
  llvm::sys::fs::remove(Rsp);
}

TEST_CASE("nothing is added after \"--\": every word there is an input",
          "[rules][placement]") {
  // clang: "anything after -- is an input" (Driver::BuildInputs). Appending
  // -Wl,-dead_strip_dylibs after it would make it an input file.
  CHECK(placed(Strings{"-shared", "-o", "x.dylib", "--", "a.o", "libz.so"}, {"-Wl,--as-needed"},
               {"-Wl,-dead_strip_dylibs"}) ==
        Strings{"-shared", "-o", "x.dylib", "-Wl,--as-needed", "-Wl,-dead_strip_dylibs", "--",
                "a.o", "libz.so"});
}

TEST_CASE("library names from file names", "[rules][names]") {
  CHECK(linkguard::libnames::sharedLibraryName("/usr/lib/llvm-14/lib/libomp.so.5") == "omp");
  CHECK(linkguard::libnames::sharedLibraryName("libgomp.so") == "gomp");
  CHECK(linkguard::libnames::sharedLibraryName("/t/lib/libtorch_cpu.dylib") == "torch_cpu");
  CHECK(linkguard::libnames::sharedLibraryName("sdk/libomp.tbd") == "omp");
  CHECK(linkguard::libnames::sharedLibraryName("libfoo.a") == "");
  CHECK(linkguard::libnames::sharedLibraryName("m.o") == "");
  CHECK(linkguard::libnames::sharedLibraryName("libsomething.sol") == "");
}
