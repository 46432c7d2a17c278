//===- StepPlan.cpp - rules, mode and contract for one command ------------===//
//
// The rules are the built-in ones (flags/BuiltinRules.h) followed by those of
// the rules file (Config::FileRules), evaluated in that order. Every rule
// that matches contributes its flags and its contract; the contracts of all
// matching rules are judged together.
//
//===----------------------------------------------------------------------===//
#include "driver/StepPlan.h"

#include "flags/BuiltinRules.h"
#include "flags/RuleEngine.h"

#include "llvm/Support/FileSystem.h"

namespace linkguard::driver {

using flags::Classification;
using flags::ObjectFormat;
using flags::OutputKind;
using flags::Phase;

static bool fileExists(const std::string &P) { return llvm::sys::fs::exists(P); }

flags::RuleContext ruleContextFrom(const Config &Cfg) {
  flags::RuleContext Ctx;
  Ctx.Enabled = Cfg.RulesEnabled && Cfg.MpsAotRuleEnabled && Cfg.BuiltinMpsAot;
  if (!Cfg.RulesEnabled)
    Ctx.DisabledBy = "LINKGUARD_RULES=off";
  else if (!Cfg.MpsAotRuleEnabled)
    Ctx.DisabledBy = "LINKGUARD_RULE_MPS_AOT=off";
  else if (!Cfg.BuiltinMpsAot)
    Ctx.DisabledBy = "[builtin] mps-aot = false in " + Cfg.RulesFile.value_or("the rules file");
  if (Cfg.Aot == AotSetting::Yes)
    Ctx.AotOverride = true;
  else if (Cfg.Aot == AotSetting::No)
    Ctx.AotOverride = false;
  Ctx.FileExists = fileExists;
  return Ctx;
}

static flags::RuleContext fileRuleContext(const Config &Cfg) {
  flags::RuleContext Ctx = ruleContextFrom(Cfg);
  Ctx.Enabled = Cfg.RulesEnabled;
  Ctx.DisabledBy = "LINKGUARD_RULES=off";
  return Ctx;
}

contract::ContractSpec toContractSpec(const flags::ContractRequest &R) {
  contract::ContractSpec S;
  for (const std::string &P : R.ForbidUnreferenced)
    S.ForbidUnreferenced.push_back({P});
  for (const std::string &P : R.Forbid)
    S.Forbid.push_back({P});
  for (const std::string &P : R.Require)
    S.Require.push_back({P});
  S.RequireOnlyForMachO = R.RequireOnlyForMachO;
  return S;
}

static void appendUnique(std::vector<contract::Pattern> &To,
                         const std::vector<contract::Pattern> &From) {
  for (const contract::Pattern &P : From) {
    bool Seen = false;
    for (const contract::Pattern &Q : To)
      Seen |= Q.Text == P.Text;
    if (!Seen)
      To.push_back(P);
  }
}

static std::string patternName(const std::string &P) {
  if (P == "openmp")
    return "OpenMP";
  if (P == "libsystem")
    return "libSystem";
  return P;
}

static std::string summarize(const contract::ContractSpec &S, bool SearchPaths) {
  std::vector<std::string> Parts;
  Parts.reserve(S.ForbidUnreferenced.size() + S.Forbid.size() + S.Require.size() + 1);
  for (const contract::Pattern &P : S.ForbidUnreferenced)
    Parts.push_back("no " + patternName(P.Text) +
                    " dependency unless a symbol binds to it");
  for (const contract::Pattern &P : S.Forbid)
    Parts.push_back("no " + patternName(P.Text) + " dependency");
  for (const contract::Pattern &P : S.Require)
    Parts.push_back(patternName(P.Text) + " kept" +
                    (S.RequireOnlyForMachO ? "" : " (required)"));
  if (SearchPaths)
    Parts.push_back("RPATH/RUNPATH reported");
  std::string Out;
  for (const std::string &P : Parts)
    Out += (Out.empty() ? "" : "; ") + P;
  return Out;
}

static bool isSharedLink(const Classification &C) {
  return C.Ph == Phase::Link &&
         (C.Kind == OutputKind::SharedLibrary || C.Kind == OutputKind::Bundle);
}

bool injects(const StepPlan &P) {
  return !P.Appended.empty() || !P.InsertedBeforeLibraries.empty();
}

std::vector<std::string> plannedArgs(const StepPlan &P,
                                     const std::vector<std::string> &Args) {
  return flags::withRuleFlags(Args, P.InsertedBeforeLibraries, P.Appended);
}

StepPlan planStep(Classification Classified, const Config &Cfg) {
  StepPlan P;
  // Moved, not copied: a 100,000-argument command makes a large Classification.
  P.Cls = std::move(Classified);
  const Classification &Cls = P.Cls;
  P.OutputPath = Cls.Output.value_or("a.out");

  if (Cfg.RunMode == Mode::Off) {
    P.EffectiveMode = Mode::Off;
    P.ModeReason = "LINKGUARD_MODE=off: pure passthrough";
    return P;
  }

  flags::RuleContext Builtin = ruleContextFrom(Cfg);
  for (const flags::RuleSpec &S : flags::builtinRules())
    P.Decisions.push_back(flags::evaluateRule(S, Cls, Builtin));
  flags::RuleContext FromFile = fileRuleContext(Cfg);
  for (const flags::RuleSpec &S : Cfg.FileRules)
    P.Decisions.push_back(flags::evaluateRule(S, Cls, FromFile));

  bool Matched = false;
  contract::ContractSpec Merged;
  bool HasContract = false;
  for (const flags::RuleDecision &D : P.Decisions) {
    if (!D.matches())
      continue;
    Matched = true;
    auto &To = D.Position == flags::InsertPosition::BeforeLibraries
                   ? P.InsertedBeforeLibraries
                   : P.Appended;
    To.insert(To.end(), D.Append.begin(), D.Append.end());
    if (D.Contract.empty())
      continue;
    contract::ContractSpec S = toContractSpec(D.Contract);
    appendUnique(Merged.ForbidUnreferenced, S.ForbidUnreferenced);
    appendUnique(Merged.Forbid, S.Forbid);
    appendUnique(Merged.Require, S.Require);
    // Require everywhere wins over require-for-Mach-O-only.
    Merged.RequireOnlyForMachO = HasContract
        ? Merged.RequireOnlyForMachO && (S.Require.empty() || S.RequireOnlyForMachO)
        : S.RequireOnlyForMachO;
    P.ReportSearchPaths |= D.Contract.ReportSearchPaths;
    HasContract = true;
  }
  bool Injected = injects(P);

  switch (Cfg.RunMode) {
  case Mode::Inject:
    P.EffectiveMode = Mode::Inject;
    P.ModeReason = "LINKGUARD_MODE=inject: no reread";
    break;
  case Mode::Verify:
  case Mode::Enforce:
    P.EffectiveMode = isSharedLink(Cls) ? Cfg.RunMode : Mode::Off;
    P.ModeReason = std::string("LINKGUARD_MODE=") + modeName(Cfg.RunMode) +
                   (isSharedLink(Cls) ? "" : " (nothing to verify: not a shared-library link)");
    break;
  case Mode::Default:
  case Mode::Off:
    if (Matched) {
      P.EffectiveMode = Mode::Enforce;
      P.ModeReason = Injected ? "default: enforce where a rule injected"
                              : "default: enforce where a rule applied";
    } else if (isSharedLink(Cls) && Cls.Target.Format == ObjectFormat::MachO &&
               Cls.UnknownArgs.empty()) {
      P.EffectiveMode = Mode::Verify;
      P.ModeReason = "default: verify other Mach-O shared links";
    } else {
      P.EffectiveMode = Mode::Off;
      P.ModeReason = "default: nothing to do for this step";
    }
    break;
  }

  if (P.EffectiveMode == Mode::Verify || P.EffectiveMode == Mode::Enforce) {
    P.Contract = HasContract ? Merged : contract::openMPDroppedContract();
    P.ContractSummary = summarize(*P.Contract, P.ReportSearchPaths);
    P.What = Action::SpawnAndVerify;
  } else if (Injected) {
    P.What = Action::ExecInjected;
  } else {
    P.What = Action::Exec;
  }
  return P;
}

} // namespace linkguard::driver
