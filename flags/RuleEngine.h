//===- RuleEngine.h - evaluate a RuleSpec, place its flags --------*- C++ -*-===//
//
// evaluateRule() is the one rule evaluator: every predicate of a RuleSpec
// becomes a named Condition with its evidence, in a fixed order (enabled,
// phase, arguments understood, format, target, output, macros, libraries or
// flags, AOT, not-linked, already present, opt-out). withRuleFlags() puts
// the flags of the rules that matched into the original argv: appended, or
// inserted before the first library argument.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "flags/Classification.h"
#include "flags/Rule.h"
#include "flags/RuleSpec.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace linkguard::flags {

/// The name of the condition that fails when a command holds arguments
/// linkguard cannot read (unknown to clang 19, or an uncertain command).
inline constexpr const char *KnownArgumentsCondition = "every argument understood";

RuleDecision evaluateRule(const RuleSpec &Spec, const Classification &C,
                          const RuleContext &Ctx);

/// Args (the arguments that were classified as C) with BeforeLibraries
/// inserted in front of the first library argument (C.FirstLibraryArg) and
/// Append added at the end, but never after "--" (C.EndOfOptions), where
/// every word is an input. Nothing else changes.
std::vector<std::string>
withRuleFlags(llvm::ArrayRef<std::string> Args, const Classification &C,
              const std::vector<std::string> &BeforeLibraries,
              const std::vector<std::string> &Append);

} // namespace linkguard::flags
