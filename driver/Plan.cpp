//===- Plan.cpp - classification, rules, mode and contract for one Job -----===//
//
// The rules are the built-in ones (flags/BuiltinRules.h) followed by those of
// the rules file (config::Rules, loaded here), evaluated in that order. Every rule
// that matches contributes its flags and its contract; the contracts of all
// matching rules are judged together.
//
//===----------------------------------------------------------------------===//
#include "driver/Plan.h"

#include "driver/OutputIdentity.h"
#include "flags/BuiltinRules.h"
#include "flags/Classify.h"
#include "flags/RuleEngine.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace linkguard::driver {

using flags::Classification;
using flags::ObjectFormat;
using flags::OutputKind;
using flags::Phase;

flags::RuleContext ruleContextFrom(const config::Config &Cfg, const config::Rules &Rules) {
  flags::RuleContext Ctx;
  Ctx.Enabled = Cfg.RulesEnabled && Cfg.MpsAotRuleEnabled && Rules.BuiltinMpsAot;
  if (!Cfg.RulesEnabled)
    Ctx.DisabledBy = "LINKGUARD_RULES=off";
  else if (!Cfg.MpsAotRuleEnabled)
    Ctx.DisabledBy = "LINKGUARD_RULE_MPS_AOT=off";
  else if (!Rules.BuiltinMpsAot)
    Ctx.DisabledBy = "[builtin] mps-aot = false in " + Rules.File.value_or("the rules file");
  if (Cfg.Aot == config::AotSetting::Yes)
    Ctx.AotOverride = true;
  else if (Cfg.Aot == config::AotSetting::No)
    Ctx.AotOverride = false;
  Ctx.FileExists = [](const std::string &P) { return llvm::sys::fs::exists(P); };
  return Ctx;
}

static flags::RuleContext fileRuleContext(const config::Config &Cfg,
                                          const config::Rules &Rules) {
  flags::RuleContext Ctx = ruleContextFrom(Cfg, Rules);
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

/// The flags a rule adds, as one string for a finding's advice.
static std::string joined(const std::vector<std::string> &Flags) {
  std::string Out;
  for (const std::string &F : Flags)
    Out += (Out.empty() ? "" : " ") + F;
  return Out;
}

contract::ContractSpec mpsAotContract() {
  flags::RuleSpec Rule = flags::mpsAotRuleSpec();
  contract::ContractSpec S = toContractSpec(Rule.Contract);
  S.DropFlag = joined(Rule.Add);
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

bool injects(const Plan &P) {
  return !P.Appended.empty() || !P.InsertedBeforeLibraries.empty();
}

namespace {

/// The launcher's assumptions (--assume-define, --assume-aot) state what a
/// CMake link line cannot show; they feed the rules as if the line carried
/// them, without replacing what it defines.
void applyAssumptions(const Job &J, flags::Classification &Cls, config::Config &Cfg) {
  for (const auto &[Macro, Value] : J.AssumedDefines)
    if (!Cls.isDefined(Macro))
      Cls.Defines.emplace_back(Macro, Value);
  if (J.AssumeAot)
    Cfg.Aot = *J.AssumeAot ? config::AotSetting::Yes : config::AotSetting::No;
}

/// Relative -L directories are relative to -working-directory, as clang
/// reads them.
std::function<bool(const std::string &)> fileProbe(const flags::Classification &C) {
  std::string Dir = C.WorkingDirectory.value_or("");
  return [Dir](const std::string &P) {
    if (Dir.empty() || llvm::sys::path::is_absolute(P))
      return llvm::sys::fs::exists(P);
    llvm::SmallString<256> Full(Dir);
    llvm::sys::path::append(Full, P);
    return llvm::sys::fs::exists(Full);
  };
}

/// The one warning a rule that would otherwise apply gets when it declines
/// for arguments linkguard cannot read (issue: Apple clang and newer LLVMs
/// accept options clang 19's table does not know).
std::string declinedForUnknownArgs(const Plan &P) {
  for (const flags::RuleDecision &D : P.Decisions) {
    const flags::Condition *Failed = nullptr;
    size_t Failures = 0;
    for (const flags::Condition &Cond : D.Conditions)
      if (!Cond.Holds) {
        Failed = &Cond;
        ++Failures;
      }
    // An uncertain command is reported once, as "not verified: WHY".
    if (Failures != 1 || Failed->Name != flags::KnownArgumentsCondition ||
        !P.Cls.Uncertain.empty())
      continue;
    return "rule " + D.RuleName + " not applied: " + Failed->Why +
           "; if they do not change the link, declare them with LINKGUARD_ASSUME_KNOWN";
  }
  return "";
}

/// Every macro a built-in or rules-file rule asks about, and every macro
/// the launcher assumes (applyAssumptions adds one only when the command
/// leaves it undefined): all that Classification::Defines needs to hold.
/// (MacroTable::track sorts them and drops repeats.)
std::vector<std::string> macrosRead(const Job &J,
                                    const std::vector<flags::RuleSpec> &Builtins,
                                    const config::Rules &Rules) {
  std::vector<std::string> Names;
  auto AddRule = [&](const flags::RuleSpec &S) {
    Names.insert(Names.end(), S.Match.Defined.begin(), S.Match.Defined.end());
    Names.insert(Names.end(), S.Match.NotDefined.begin(), S.Match.NotDefined.end());
  };
  for (const flags::RuleSpec &S : Builtins)
    AddRule(S);
  for (const flags::RuleSpec &S : Rules.FileRules)
    AddRule(S);
  for (const auto &Assumed : J.AssumedDefines)
    Names.push_back(Assumed.first);
  return Names;
}

/// Where verify would reread the output, or why it cannot. What the link
/// writes is decided after it (driver/OutputIdentity.h); only what no link
/// can turn into a file of its own is decided here: linkers write into a
/// device, a FIFO or a socket at -o and never replace it (lld's
/// FileOutputBuffer, bfd_open_file, ld64's OutputFile), and the paths
/// under /dev and /proc that exist name descriptors and devices, not files
/// (-o /dev/stdout is -o -).
void planVerification(Plan &P) {
  const flags::LinkOutput &Out = P.Cls.Link;
  if (!Out.known()) {
    P.NotVerified = Out.Unknown.empty() ? "the link output is unknown" : Out.Unknown;
    return;
  }
  P.OutputPath = Out.Path;
  llvm::sys::fs::file_status St;
  if (llvm::sys::fs::status(P.OutputPath, St, /*Follow=*/false))
    return; // nothing there yet: decided after the link
  llvm::StringRef Path(P.OutputPath);
  if (Path.starts_with("/dev/") || Path.starts_with("/proc/")) {
    P.NotVerified = P.OutputPath + " names a device or a descriptor, not a file the link writes";
    return;
  }
  switch (St.type()) {
  case llvm::sys::fs::file_type::regular_file:
  case llvm::sys::fs::file_type::directory_file: // the link fails
    return;
  case llvm::sys::fs::file_type::symlink_file:
    P.OutputNote = P.OutputPath +
                   " is a symbolic link: judged is what the link leaves (a regular file "
                   "it writes in its place, or the target it writes through it)";
    return;
  default:
    P.NotVerified = P.OutputPath + " is " + fileKindOf(P.OutputPath) +
                    ": a link writes into it, never a file to judge";
    return;
  }
}

} // namespace

llvm::Expected<Plan> planJob(const Job &J, const config::Config &Cfg) {
  if (Cfg.RunMode == config::Mode::Off) {
    // Pure passthrough: not even classified.
    Plan P;
    P.EffectiveMode = config::Mode::Off;
    P.ModeReason = "LINKGUARD_MODE=off: pure passthrough";
    P.Cls.DecidingArg = "(not classified: LINKGUARD_MODE=off)";
    P.CompilerArgs = J.Args;
    P.Argv = J.argv(P.CompilerArgs);
    return P;
  }
  // The rules are read first: the macros they ask about are the only ones
  // the classification records.
  config::Rules Rules = config::loadRules(Cfg);
  const std::vector<flags::RuleSpec> Builtins = flags::builtinRules();
  flags::ClassifyOptions Opts;
  Opts.CompilerName = J.CompilerName;
  Opts.OverrideOptions = Cfg.env("CCC_OVERRIDE_OPTIONS").value_or("");
  Opts.AssumeKnown = Cfg.AssumeKnown;
  Opts.MacrosRead = macrosRead(J, Builtins, Rules);
  auto Classified = flags::classify(J.Args, Opts);
  if (!Classified)
    return Classified.takeError();

  // A rules file that cannot be used stops links only (config/Rules.h), in
  // the run and in explain alike.
  if (llvm::Error E = Rules.errorForPhase(Classified->Ph))
    return std::move(E);
  Plan P;
  P.Rules = std::move(Rules);
  // Moved, not copied: a 100,000-argument command makes a large Classification.
  P.Cls = std::move(*Classified);
  config::Config Effective = Cfg;
  applyAssumptions(J, P.Cls, Effective);
  const flags::Classification &Cls = P.Cls;
  P.CompilerArgs = J.Args;

  flags::RuleContext Builtin = ruleContextFrom(Effective, P.Rules);
  Builtin.FileExists = fileProbe(Cls);
  for (const flags::RuleSpec &S : Builtins)
    P.Decisions.push_back(flags::evaluateRule(S, Cls, Builtin));
  flags::RuleContext FromFile = fileRuleContext(Effective, P.Rules);
  FromFile.FileExists = Builtin.FileExists;
  for (const flags::RuleSpec &S : P.Rules.FileRules)
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
    if (!S.ForbidUnreferenced.empty() && Merged.DropFlag.empty())
      Merged.DropFlag = joined(D.Append);
    // Require everywhere wins over require-for-Mach-O-only.
    Merged.RequireOnlyForMachO = HasContract
        ? Merged.RequireOnlyForMachO && (S.Require.empty() || S.RequireOnlyForMachO)
        : S.RequireOnlyForMachO;
    P.ReportSearchPaths |= D.Contract.ReportSearchPaths;
    HasContract = true;
  }
  bool Injected = injects(P);
  // Only a link writes something a contract can judge: a rules-file rule
  // that also fires on compile steps adds its flags there, never a reread.
  const bool Link = Cls.Ph == Phase::Link;

  switch (Cfg.RunMode) {
  case config::Mode::Inject:
    P.EffectiveMode = config::Mode::Inject;
    P.ModeReason = "LINKGUARD_MODE=inject: no reread";
    break;
  case config::Mode::Verify:
  case config::Mode::Enforce:
    P.EffectiveMode = isSharedLink(Cls) ? Cfg.RunMode : config::Mode::Off;
    P.ModeReason = std::string("LINKGUARD_MODE=") + config::modeName(Cfg.RunMode) +
                   (isSharedLink(Cls) ? "" : " (nothing to verify: not a shared-library link)");
    break;
  case config::Mode::Default:
  case config::Mode::Off:
    if (Matched && Link) {
      P.EffectiveMode = config::Mode::Enforce;
      P.ModeReason = Injected ? "default: enforce where a rule injected"
                              : "default: enforce where a rule applied";
    } else if (Matched) {
      P.EffectiveMode = config::Mode::Inject;
      P.ModeReason = "default: a rule applied to a " + std::string(flags::phaseName(Cls.Ph)) +
                     " step, which writes nothing to verify";
    } else if (isSharedLink(Cls) && Cls.Target.Format == ObjectFormat::MachO &&
               Cls.UnknownArgs.empty()) {
      P.EffectiveMode = config::Mode::Verify;
      P.ModeReason = "default: verify other Mach-O shared links";
    } else {
      P.EffectiveMode = config::Mode::Off;
      P.ModeReason = "default: nothing to do for this step";
    }
    break;
  }

  if (Injected)
    P.CompilerArgs = flags::withRuleFlags(J.Args, Cls, P.InsertedBeforeLibraries, P.Appended);
  P.Argv = J.argv(P.CompilerArgs);
  P.UnknownArgsWarning = declinedForUnknownArgs(P);

  if (P.EffectiveMode == config::Mode::Verify || P.EffectiveMode == config::Mode::Enforce) {
    P.Contract = HasContract ? Merged : mpsAotContract();
    P.ContractSummary = summarize(*P.Contract, P.ReportSearchPaths);
    planVerification(P);
  }
  if (P.Contract && P.NotVerified.empty())
    P.What = Action::SpawnAndVerify;
  else if (Injected)
    P.What = Action::ExecInjected;
  else
    P.What = Action::Exec;
  return P;
}

} // namespace linkguard::driver
