//===- Rule.h - a rule's decision about one command --------------*- C++ -*-===//
//
// A rule is one small decision: (Classification, RuleContext) -> RuleDecision.
// Its conditions are named predicates, each kept with its verdict and reason
// so `linkguard explain` can show exactly why a rule did or did not apply.
// Rules only ever append flags; they never remove or reorder the user's.
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

/// What the linked output must satisfy after the link (contract/).
enum class ContractKind { None, OpenMPDropped };

struct RuleDecision {
  std::string RuleName;
  std::vector<Condition> Conditions;
  std::vector<std::string> Append; // flags appended at the end when it matches
  ContractKind Contract = ContractKind::None;

  bool matches() const;
  /// The first condition that failed, or null when the rule matches.
  const Condition *firstFailure() const;
};

/// What a rule may know beyond the command line.
struct RuleContext {
  bool Enabled = true;
  /// LINKGUARD_AOT=1/0; unset means infer from the command.
  std::optional<bool> AotOverride;
  /// Filesystem probe (tests substitute it): does this file exist?
  std::function<bool(const std::string &)> FileExists;
};

} // namespace linkguard::flags
