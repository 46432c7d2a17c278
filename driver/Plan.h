//===- Plan.h - what linkguard will do with one Job -----------------*- C++ -*-===//
//
// The single place that turns a Job and the Config into a plan: how the
// command reads (classification), which rules fired, the exact argv that
// will execute, whether the output is reread and judged and where it is,
// and whether a violation fails the step. The real run and `linkguard
// explain` call the same planJob(), for every invocation form, so explain
// never tells a different story from what happens.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "contract/Contract.h"
#include "config/Config.h"
#include "config/Rules.h"
#include "driver/Job.h"
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
  // enumName (support/EnumNames.h) names each enumerator up to Last.
  Last = SpawnAndVerify,
};

struct Plan {
  /// The rules file in force (or ignored, or unusable) for this step.
  config::Rules Rules;
  flags::Classification Cls;
  std::vector<flags::RuleDecision> Decisions;
  std::vector<std::string> Appended; // flags added at the end of argv
  /// Flags inserted before the first library argument (position
  /// before-libraries: GNU ld / lld --as-needed).
  std::vector<std::string> InsertedBeforeLibraries;
  Action What = Action::Exec;
  config::Mode EffectiveMode = config::Mode::Off;    // Off, Inject, Verify or Enforce
  std::string ModeReason;            // why this mode ("default: the rule injected")
  std::optional<contract::ContractSpec> Contract;
  std::string ContractSummary;       // one line for explain
  bool ReportSearchPaths = false;    // note the output's RPATH/RUNPATH
  /// The file the link writes and verify rereads (Cls.Link.Path).
  std::string OutputPath;
  /// Verify or enforce was wanted but cannot happen: why ("-o - writes the
  /// output to standard output"). The step then runs without a reread and
  /// says so once.
  std::string NotVerified;
  /// How the file to judge is found when -o is not a plain path: a
  /// symbolic link at -o ("" when it is).
  std::string OutputNote;
  /// The compiler arguments and the full argv that will execute.
  std::vector<std::string> CompilerArgs;
  std::vector<std::string> Argv;
  /// A rule that would apply but for arguments clang 19 does not know: the
  /// one warning the run prints ("" when none).
  std::string UnknownArgsWarning;
};

/// The context of the built-in MPS rule (LINKGUARD_RULES,
/// LINKGUARD_RULE_MPS_AOT, [builtin] mps-aot, LINKGUARD_AOT).
flags::RuleContext ruleContextFrom(const config::Config &Cfg, const config::Rules &Rules);

/// Whether the plan changes the command at all.
bool injects(const Plan &P);

/// A contract request from a rule, as contract/ understands it.
contract::ContractSpec toContractSpec(const flags::ContractRequest &R);

/// The contract of the built-in MPS AOT rule (flags/BuiltinRules.cpp, its one
/// definition): verify uses it for other Mach-O shared links, and
/// `linkguard check --mps-aot` checks a file against it.
contract::ContractSpec mpsAotContract();

/// Classifies the Job's words and plans the step. Fails only where the run
/// would fail before starting anything (an @file that cannot be read, 67).
llvm::Expected<Plan> planJob(const Job &J, const config::Config &Cfg);

} // namespace linkguard::driver
