//===- StepPlan.cpp - rules, mode and contract for one command ------------===//
#include "driver/StepPlan.h"

#include "flags/MpsAotRule.h"

#include "llvm/Support/FileSystem.h"

namespace linkguard::driver {

using flags::Classification;
using flags::ObjectFormat;
using flags::OutputKind;
using flags::Phase;

flags::RuleContext ruleContextFrom(const Config &Cfg) {
  flags::RuleContext Ctx;
  Ctx.Enabled = Cfg.RulesEnabled && Cfg.MpsAotRuleEnabled;
  if (Cfg.Aot == AotSetting::Yes)
    Ctx.AotOverride = true;
  else if (Cfg.Aot == AotSetting::No)
    Ctx.AotOverride = false;
  Ctx.FileExists = [](const std::string &P) { return llvm::sys::fs::exists(P); };
  return Ctx;
}

static bool isSharedLink(const Classification &C) {
  return C.Ph == Phase::Link &&
         (C.Kind == OutputKind::SharedLibrary || C.Kind == OutputKind::Bundle);
}

StepPlan planStep(const Classification &Cls, const Config &Cfg) {
  StepPlan P;
  P.Cls = Cls;
  P.OutputPath = Cls.Output.value_or("a.out");

  if (Cfg.RunMode == Mode::Off) {
    P.EffectiveMode = Mode::Off;
    P.ModeReason = "LINKGUARD_MODE=off: pure passthrough";
    return P;
  }

  P.Decisions.push_back(flags::decideMpsAotRule(Cls, ruleContextFrom(Cfg)));
  bool Injected = false;
  for (const flags::RuleDecision &D : P.Decisions)
    if (D.matches()) {
      P.Appended.insert(P.Appended.end(), D.Append.begin(), D.Append.end());
      Injected = true;
    }

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
    if (Injected) {
      P.EffectiveMode = Mode::Enforce;
      P.ModeReason = "default: enforce where a rule injected";
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
    P.Contract = contract::openMPDroppedContract();
    P.What = Action::SpawnAndVerify;
  } else if (Injected) {
    P.What = Action::ExecInjected;
  } else {
    P.What = Action::Exec;
  }
  return P;
}

} // namespace linkguard::driver
