//===- Rule.h - a rule's decision about one command --------------*- C++ -*-===//
//
// A rule is one small decision: (Classification, RuleContext) -> RuleDecision.
// Its conditions are named predicates, each kept with its verdict and reason
// so `linkguard explain` can show exactly why a rule did or did not apply.
// Rules only ever add flags; they never remove or reorder the user's. A rule
// adds at the end of the command, or (for linkers where position matters,
// GNU ld / lld's --as-needed) before the first library, and nowhere else.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace linkguard::flags {

struct Condition {
  std::string Name; // "link step", "Mach-O target", ...
  bool Holds = false;
  std::string Why;  // the evidence: "-c makes this a compile step"
};

/// Where a rule's flags go on the command line.
enum class InsertPosition {
  End,             // appended after every user argument (the default)
  BeforeLibraries, // before the first -l / library input / @file: GNU ld and
                   // lld apply --as-needed only to libraries that follow it
  // enumName (support/EnumNames.h) names each enumerator up to Last.
  Last = BeforeLibraries,
};
const char *insertPositionName(InsertPosition P); // "end", "before-libraries"

/// What the linked output must satisfy after the link. The same fields as
/// contract::ContractSpec, kept as plain strings so flags/ does not depend
/// on contract/; driver/Plan.cpp converts.
struct ContractRequest {
  std::vector<std::string> ForbidUnreferenced; // "openmp", "libfoo*.so*"
  std::vector<std::string> Forbid;
  std::vector<std::string> Require;
  bool RequireOnlyForMachO = false;
  /// Report every RPATH/RUNPATH of the output as a note (never a
  /// violation): clang's -fopenmp records RUNPATH /usr/lib/llvm-N/lib even
  /// when --as-needed drops the NEEDED it was for.
  bool ReportSearchPaths = false;

  bool empty() const {
    return ForbidUnreferenced.empty() && Forbid.empty() && Require.empty() &&
           !ReportSearchPaths;
  }
};

struct RuleDecision {
  std::string RuleName;
  std::string Origin; // "built-in", or the rules file that defined it
  std::vector<Condition> Conditions;
  std::vector<std::string> Append; // flags added when it matches
  InsertPosition Position = InsertPosition::End;
  ContractRequest Contract;        // checked after the link when it matches

  bool matches() const;
  /// The first condition that failed, or null when the rule matches.
  const Condition *firstFailure() const;
};

/// What a rule may know beyond the command line.
struct RuleContext {
  bool Enabled = true;
  /// Why the rule is off, for explain ("LINKGUARD_RULES=off").
  std::string DisabledBy = "LINKGUARD_RULES=off or LINKGUARD_RULE_MPS_AOT=off";
  /// LINKGUARD_AOT=1/0; unset means infer from the command.
  std::optional<bool> AotOverride;
  /// Filesystem probe (tests substitute it): does this file exist?
  std::function<bool(const std::string &)> FileExists;
};

} // namespace linkguard::flags
