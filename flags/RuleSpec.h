//===- RuleSpec.h - a rule as data: match -> add -> contract -----*- C++ -*-===//
//
// Every rule, built-in or from a rules file (docs/rules.md), is one RuleSpec:
// match conditions over a Classification, the flags to add when all of them
// hold, and the contract the linked output is judged against afterwards.
// RuleEngine.cpp turns a spec into a RuleDecision with one named Condition
// per predicate, so `linkguard explain` shows why it did or did not apply.
// Empty lists and unset optionals mean "no condition".
//
//===----------------------------------------------------------------------===//
#pragma once

#include "flags/Classification.h"
#include "flags/Rule.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace linkguard::flags {

struct RuleMatch {
  /// Phases the command must be in; empty means link only.
  std::vector<Phase> Phases;
  std::optional<ObjectFormat> Format;
  /// Output kinds of the link (shared library, bundle, ...); empty: any.
  std::vector<OutputKind> Outputs;
  /// Glob over the target triple ("x86_64-*-linux*"); empty: any.
  std::string TargetGlob;
  std::vector<std::string> Defined;    // each must be defined after all -D/-U
  std::vector<std::string> NotDefined; // each must not be
  /// One "any of" condition: a linked library matches one of Libraries
  /// (globs over -l names and over library inputs' names without "lib" and
  /// suffix) or a driver option as spelled matches one of Flags
  /// ("-fopenmp", "-fopenmp=*"). Both empty: no condition.
  std::vector<std::string> Libraries;
  std::vector<std::string> Flags;
  /// None of these may be linked: globs over -l names and library inputs.
  std::vector<std::string> NotLinked;
  /// -L directories that count as linking a NotLinked library: globs over
  /// the directory ("*torch/lib"), and file names probed inside each -L
  /// directory ("libtorch.so").
  std::vector<std::string> NotLinkedDirs;
  std::vector<std::string> NotLinkedProbe;
  /// Require an AOT build (objects only, no sources; LINKGUARD_AOT wins).
  std::optional<bool> Aot;
  /// Object file names (globs) that mark a JIT build that links objects
  /// too: then the AOT condition fails.
  std::vector<std::string> JitInputs;
  /// Linker arguments meaning "already done": the rule declines. Derived
  /// from the -Wl, flags it adds when empty (never added twice).
  std::vector<std::string> AlreadyPresent;
  /// Linker arguments that opt out explicitly; they always win.
  std::vector<std::string> OptOut;
};

struct RuleSpec {
  std::string Name;
  std::string Origin = "built-in"; // or "linkguard.toml:12"
  std::string Description;
  RuleMatch Match;
  std::vector<std::string> Add;
  InsertPosition Position = InsertPosition::End;
  ContractRequest Contract;
  /// Display names for conditions, by their generic name ("USE_MPS defined"
  /// -> "MPS build"): the built-in rule keeps its historical explain text.
  std::map<std::string, std::string> ConditionLabels;
};

} // namespace linkguard::flags
