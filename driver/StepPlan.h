//===- StepPlan.h - what linkguard will do with one compiler command -*- C++ -*-===//
//
// The single place that turns a classified command and the Config into a
// plan: which rules fired, what is appended, whether the output is reread
// and judged, and whether a violation fails the step. The real run and
// `linkguard explain` use the same plan, so explain never tells a different
// story from what happens.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "contract/Contract.h"
#include "driver/Config.h"
#include "flags/Classification.h"
#include "flags/Rule.h"

#include <optional>
#include <string>
#include <vector>

namespace linkguard::driver {

enum class Action {
  Exec,           // execv the compiler with the original argv, byte-identical
  ExecInjected,   // execv with flags appended, no reread (LINKGUARD_MODE=inject)
  SpawnAndVerify, // spawn, wait, reread the output, judge it
};

struct StepPlan {
  flags::Classification Cls;
  std::vector<flags::RuleDecision> Decisions;
  std::vector<std::string> Appended; // flags added at the end of argv
  /// Flags inserted before the first library argument (position
  /// before-libraries: GNU ld / lld --as-needed).
  std::vector<std::string> InsertedBeforeLibraries;
  Action What = Action::Exec;
  Mode EffectiveMode = Mode::Off;    // Off, Inject, Verify or Enforce
  std::string ModeReason;            // why this mode ("default: the rule injected")
  std::optional<contract::ContractSpec> Contract;
  std::string ContractSummary;       // one line for explain
  bool ReportSearchPaths = false;    // note the output's RPATH/RUNPATH
  std::string OutputPath;            // the file to reread ("a.out" when no -o)
};

/// The context of the built-in MPS rule (LINKGUARD_RULES,
/// LINKGUARD_RULE_MPS_AOT, [builtin] mps-aot, LINKGUARD_AOT).
flags::RuleContext ruleContextFrom(const Config &Cfg);

/// Whether the plan changes the command at all.
bool injects(const StepPlan &P);

/// The command the compiler runs: Args with the plan's flags in place
/// (flags::withRuleFlags).
std::vector<std::string> plannedArgs(const StepPlan &P,
                                     const std::vector<std::string> &Args);

/// A contract request from a rule, as contract/ understands it.
contract::ContractSpec toContractSpec(const flags::ContractRequest &R);

StepPlan planStep(flags::Classification Cls, const Config &Cfg);

} // namespace linkguard::driver
