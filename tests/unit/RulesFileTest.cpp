// config/RulesFile and its use in config/Rules: the schema is read whole,
// every fault is one message naming the file, the line and the key (exit 78
// through Config), and the file is found as documented: LINKGUARD_CONFIG,
// the project (cwd and parents), then $XDG_CONFIG_HOME or ~/.config.
#include "config/ConfigError.h"
#include "config/Rules.h"
#include "config/RulesFile.h"

#include "config/Config.h"
#include "driver/DriverError.h"
#include "driver/Job.h"
#include "driver/Plan.h"
#include "flags/Classify.h"

#include "support/TempTree.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "tests/unit/support/Catch.h"
#include "tests/unit/support/RulesText.h"

#include <algorithm>
#include <fstream>
#include <set>

using namespace linkguard;
using namespace linkguard::flags;
using namespace linkguard::config;
using linkguard::testsupport::TempTree;

namespace {

using testsupport::rulesError;

const char *MinimalRule = "[[rule]]\nname = \"r\"\n[rule.add]\nflags = [\"-Wl,-x\"]\n";

} // namespace

TEST_CASE("a full rule is read into a RuleSpec", "[rulesfile]") {
  auto F = parseRulesText(R"(
[builtin]
mps-aot = false

[[rule]]
name = "omp"
description = "d"
[rule.match]
phase = ["link", "compile"]
format = "mach-o"
output = "bundle"
target = "arm64-*"
defined = ["A"]
not-defined = "B"
libraries = ["omp"]
flags = ["-fopenmp*"]
not-linked = ["torch*"]
not-linked-dirs = ["*torch/lib"]
not-linked-probe = ["libtorch.so"]
aot = false
already-present = ["-x"]
opt-out = ["-y"]
[rule.add]
flags = ["-Wl,-x"]
position = "before-libraries"
[rule.contract]
forbid-unreferenced = ["openmp"]
forbid = ["libbad*"]
require = ["libsystem"]
require-only-mach-o = true
report-search-paths = true

[[rule]]
name = "off"
enabled = false
[rule.add]
flags = ["-z", "defs"]
)", "/p/linkguard.toml");
  if (!F) {
    std::string Msg = llvm::toString(F.takeError());
    FAIL(Msg);
  }
  CHECK_FALSE(F->BuiltinMpsAot);
  REQUIRE(F->Rules.size() == 1); // "off" is skipped
  const RuleSpec &R = F->Rules[0];
  CHECK(R.Name == "omp");
  CHECK(R.Origin == "linkguard.toml:5");
  CHECK(R.Match.Phases == std::vector<Phase>{Phase::Link, Phase::Compile});
  CHECK(R.Match.Format == ObjectFormat::MachO);
  CHECK(R.Match.Outputs == std::vector<OutputKind>{OutputKind::Bundle});
  CHECK(R.Match.TargetGlob == "arm64-*");
  CHECK(R.Match.NotDefined == std::vector<std::string>{"B"});
  CHECK(R.Match.Aot == false);
  CHECK(R.Match.NotLinkedProbe == std::vector<std::string>{"libtorch.so"});
  CHECK(R.Position == InsertPosition::BeforeLibraries);
  CHECK(R.Contract.Forbid == std::vector<std::string>{"libbad*"});
  CHECK(R.Contract.RequireOnlyForMachO);
  CHECK(R.Contract.ReportSearchPaths);
}

TEST_CASE("every fault names the file, the line and the key", "[rulesfile]") {
  struct Case {
    std::string Toml;
    std::string Want;
  };
  for (const Case &K : std::vector<Case>{
           {"[[rule]\nname = 1\n", "lg.toml:1: "}, // syntax error
           {"\n\n[[rule]]\nname = \"r\"\n[rule.match]\nphse = \"link\"\n",
            "lg.toml:6: unknown key 'rule[0].match.phse' (expected one of: phase, "},
           {"[buildin]\nmps-aot = false\n", "lg.toml:1: unknown key 'buildin'"},
           {"[builtin]\nmps-aot = \"no\"\n", "lg.toml:2: 'builtin.mps-aot' must be true or false"},
           {"[[rule]]\nname = \"r\"\n[rule.match]\nphase = \"linking\"\n",
            "lg.toml:4: 'rule[0].match.phase': unknown phase 'linking' (expected probe, "
            "preprocess, pch, compile or link) (rule 'r')"},
           {"[[rule]]\nname = \"r\"\n[rule.match]\nformat = \"pe\"\n",
            "lg.toml:4: 'rule[0].match.format': unknown format 'pe'"},
           {"[[rule]]\nname = \"r\"\n[rule.add]\nflags = [1]\n",
            "lg.toml:4: 'rule[0].add.flags' must hold strings only (rule 'r')"},
           {"[[rule]]\nname = \"r\"\n[rule.add]\nflags = \"-Wl,-x\"\nposition = \"start\"\n",
            "lg.toml:5: 'rule[0].add.position': unknown position 'start'"},
           {"[[rule]]\nname = \"r\"\n[rule.match]\nlibraries = [\"[omp\"]\n",
            "lg.toml:4: 'rule[0].match.libraries': bad pattern '[omp'"},
           {"[[rule]]\ndescription = \"x\"\n", "lg.toml:1: 'rule[0].name' is required"},
           {"[[rule]]\nname = \"r\"\n", "lg.toml:1: rule[0] adds no flags and checks nothing"},
           {std::string(MinimalRule) + MinimalRule, "lg.toml:5: rule name 'r' is used twice"},
           {"[[rule]]\nname = \"mps-aot-dead-strip-dylibs\"\n[rule.add]\nflags = \"-Wl,-x\"\n",
            "rule name 'mps-aot-dead-strip-dylibs' is used twice"},
           {"rule = 3\n", "lg.toml:1: 'rule' must be an array of tables"},
       }) {
    INFO(K.Toml);
    std::string E = rulesError(K.Toml);
    CHECK_THAT(E, Catch::Contains(K.Want));
    CHECK(E.find('\n') == std::string::npos); // one line
  }
  CHECK(rulesError(MinimalRule) == "(parsed)"); // control
}

TEST_CASE("the rules in force: a bad file stops links only (78)", "[rulesfile][config]") {
  TempTree T;
  auto rulesFor = [&](std::map<std::string, std::string> Env) {
    auto C = config::configFromMap(std::move(Env));
    REQUIRE(bool(C));
    return config::loadRules(*C, T.dir("cwd"));
  };
  std::string Good = T.file("good.toml", std::string("[builtin]\nmps-aot = false\n") + MinimalRule);
  config::Rules R = rulesFor({{"LINKGUARD_CONFIG", Good}});
  CHECK(R.File == Good);
  CHECK(R.Directory == T.Root);
  CHECK(R.Origin == "LINKGUARD_CONFIG");
  CHECK_FALSE(R.Error);
  CHECK_FALSE(R.BuiltinMpsAot);
  REQUIRE(R.FileRules.size() == 1);
  CHECK_FALSE(llvm::errorToBool(R.errorForPhase(Phase::Link)));

  // A fault in the file is kept, not raised: probes, preprocessing and
  // compiles run unchanged, a link stops with 78 naming file, line and key.
  std::string Bad = T.file("bad.toml", "[[rule]]\nname = \"r\"\nbogus = 1\n");
  config::Rules E = rulesFor({{"LINKGUARD_CONFIG", Bad}});
  CHECK(E.File == Bad);
  CHECK(E.FileRules.empty());
  CHECK(E.BuiltinMpsAot); // nothing of the file is used
  for (Phase Ph : {Phase::Probe, Phase::Preprocess, Phase::Pch, Phase::Compile})
    CHECK_FALSE(llvm::errorToBool(E.errorForPhase(Ph)));
  llvm::Error LinkError = E.errorForPhase(Phase::Link);
  REQUIRE(bool(LinkError));
  std::string Msg = llvm::toString(std::move(LinkError));
  CHECK(Msg == Bad + ":3: unknown key 'rule[0].bogus' (expected one of: name, description, "
               "enabled, match, add, contract) (rule 'r')");
  CHECK(driver::reportError(config::makeConfigError(Msg)) == 78);

  // LINKGUARD_CONFIG naming nothing is the same kind of fault.
  config::Rules Missing = rulesFor({{"LINKGUARD_CONFIG", T.Root + "/none.toml"}});
  REQUIRE(Missing.Error);
  CHECK(*Missing.Error == "LINKGUARD_CONFIG=" + T.Root + "/none.toml: no such file");

  // Nothing is looked for when rules are off or linkguard is a passthrough.
  for (auto [Var, Value] : std::vector<std::pair<std::string, std::string>>{
           {"LINKGUARD_RULES", "off"}, {"LINKGUARD_MODE", "off"}}) {
    config::Rules Off = rulesFor({{"LINKGUARD_CONFIG", Bad}, {Var, Value}});
    CHECK_FALSE(Off.File.has_value());
    CHECK_FALSE(Off.Error.has_value());
  }
}

TEST_CASE("the plan: file rules after the built-in, [builtin] mps-aot = false, "
          "before-libraries flags", "[rulesfile][plan]") {
  TempTree T;
  std::string File = T.file("r.toml", "[builtin]\nmps-aot = false\n"
                                      "[[rule]]\nname = \"asn\"\n"
                                      "[rule.match]\nformat = \"mach-o\"\n"
                                      "[rule.add]\nflags = \"-Wl,-x\"\n"
                                      "position = \"before-libraries\"\n"
                                      "[rule.contract]\nforbid = [\"libbad*\"]\n");
  auto Cfg = config::configFromMap({{"LINKGUARD_CONFIG", File}});
  REQUIRE(bool(Cfg));
  std::vector<std::string> Args = {"-target", "arm64-apple-macos11", "w.o", "-D", "USE_MPS",
                                   "-shared", "-o", "m.so", "-lomp"};
  // The launcher form with a stand-in compiler: planning never runs it.
  std::vector<std::string> Launcher = {"/bin/sh"};
  Launcher.insert(Launcher.end(), Args.begin(), Args.end());
  auto J = driver::makeJob(driver::parseInvocation("linkguard", Launcher), *Cfg, "");
  REQUIRE(bool(J));
  auto Planned = driver::planJob(*J, *Cfg);
  REQUIRE(bool(Planned));
  const driver::Plan &P = *Planned;
  REQUIRE(P.Decisions.size() == 2);
  CHECK(P.Decisions[0].RuleName == "mps-aot-dead-strip-dylibs");
  REQUIRE_FALSE(P.Decisions[0].matches());
  CHECK(P.Decisions[0].firstFailure()->Why ==
        "disabled by [builtin] mps-aot = false in " + File);
  CHECK(P.Decisions[1].RuleName == "asn");
  CHECK(P.Decisions[1].matches());
  CHECK(P.Appended.empty());
  CHECK(P.InsertedBeforeLibraries == std::vector<std::string>{"-Wl,-x"});
  CHECK(P.CompilerArgs == std::vector<std::string>{"-target", "arm64-apple-macos11", "w.o",
                                                   "-D", "USE_MPS", "-shared", "-o", "m.so",
                                                   "-Wl,-x", "-lomp"});
  CHECK(P.Argv.front() == "/bin/sh");
  REQUIRE(P.Contract.has_value());
  CHECK(P.Contract->Forbid.size() == 1);
  CHECK(P.Contract->ForbidUnreferenced.empty()); // the rule's contract, not the default
  CHECK(P.EffectiveMode == config::Mode::Enforce);

  // Control: without the file the built-in applies and appends at the end.
  auto Plain = config::configFromMap({});
  REQUIRE(bool(Plain));
  auto PlannedQ = driver::planJob(*J, *Plain);
  REQUIRE(bool(PlannedQ));
  const driver::Plan &Q = *PlannedQ;
  REQUIRE(Q.Decisions.size() == 1);
  CHECK(Q.Decisions[0].matches());
  CHECK(Q.Appended == std::vector<std::string>{"-Wl,-dead_strip_dylibs"});
}

TEST_CASE("the plan records only the macros its rules read, and decides on them",
          "[rulesfile][plan]") {
  TempTree T;
  std::string File = T.file("r.toml", "[[rule]]\nname = \"feat\"\n"
                                      "[rule.match]\nphase = \"link\"\n"
                                      "defined = [\"FEAT\"]\nnot-defined = [\"NOFEAT\"]\n"
                                      "[rule.add]\nflags = \"-Wl,-x\"\n");
  auto Cfg = config::configFromMap({{"LINKGUARD_CONFIG", File}});
  REQUIRE(bool(Cfg));
  std::vector<std::string> Launcher = {"/bin/sh", "-target", "arm64-apple-macos11", "w.o"};
  for (int I = 0; I < 500; ++I)
    Launcher.push_back("-DOTHER" + std::to_string(I));
  Launcher.insert(Launcher.end(), {"-DFEAT=2", "-DNOFEAT", "-UNOFEAT", "-D", "USE_MPS",
                                   "-shared", "-o", "m.so"});
  auto J = driver::makeJob(driver::parseInvocation("linkguard", Launcher), *Cfg, "");
  REQUIRE(bool(J));
  auto Planned = driver::planJob(*J, *Cfg);
  REQUIRE(bool(Planned));
  const driver::Plan &P = *Planned;
  // The built-in rule reads USE_MPS, the file's rule FEAT and NOFEAT.
  CHECK(P.Cls.Defines ==
        std::vector<std::pair<std::string, std::string>>{{"FEAT", "2"}, {"USE_MPS", ""}});
  REQUIRE(P.Decisions.size() == 2);
  CHECK(P.Decisions[0].matches()); // mps-aot: USE_MPS seen
  CHECK(P.Decisions[1].RuleName == "feat");
  CHECK(P.Decisions[1].matches()); // FEAT defined, NOFEAT undefined again
  CHECK(P.Appended == std::vector<std::string>{"-Wl,-dead_strip_dylibs", "-Wl,-x"});

  // NOFEAT left defined: the file's rule fails on it.
  Launcher.erase(std::find(Launcher.begin(), Launcher.end(), "-UNOFEAT"));
  auto J2 = driver::makeJob(driver::parseInvocation("linkguard", Launcher), *Cfg, "");
  REQUIRE(bool(J2));
  auto Planned2 = driver::planJob(*J2, *Cfg);
  REQUIRE(bool(Planned2));
  REQUIRE(Planned2->Decisions.size() == 2);
  CHECK_FALSE(Planned2->Decisions[1].matches());
  CHECK(Planned2->Cls.isDefined("NOFEAT"));
}

TEST_CASE("a rules file's contract takes bare words and groups in any case "
          "(issue 28)",
          "[rulesfile][pattern]") {
  auto F = parseRulesText(R"([[rule]]
name = "no-omp"
[rule.contract]
forbid = ["libomp"]
require = ["libSystem"]
)", "lg.toml");
  if (!F) {
    std::string Msg = llvm::toString(F.takeError());
    FAIL(Msg);
  }
  REQUIRE(F->Rules.size() == 1);
  contract::ContractSpec Spec = driver::toContractSpec(F->Rules[0].Contract);
  objlib::BinaryInfo B;
  B.Path = "/b/m.dylib";
  objlib::Slice S;
  S.Arch = "arm64";
  S.FileType = "dylib";
  for (const char *Name :
       {"/opt/llvm-openmp/lib/libomp.dylib", "/usr/lib/libSystem.B.dylib"}) {
    objlib::Dependency D;
    D.Name = Name;
    S.Dependencies.push_back(D);
  }
  B.Slices.push_back(S);
  contract::Verdict V = contract::judge(B, Spec);
  REQUIRE(V.violations() == 1);
  CHECK(V.Findings[0].Rule == "forbid libomp");
}
