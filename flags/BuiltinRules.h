//===- BuiltinRules.h - the rules linkguard ships with -----------*- C++ -*-===//
//
// The built-in rules are RuleSpecs like any rule from a rules file; they are
// on unless the file says `[builtin] mps-aot = false` or LINKGUARD_RULES=off
// (docs/rules.md writes the MPS rule out in TOML).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "flags/RuleSpec.h"

#include <vector>

namespace linkguard::flags {

/// The MPS AOT rule (MpsAotRule.h): -Wl,-dead_strip_dylibs on Mach-O AOTI
/// MPS links without libtorch, then "OpenMP dropped unless referenced,
/// libSystem kept".
RuleSpec mpsAotRuleSpec();

/// Every built-in rule, in evaluation order.
std::vector<RuleSpec> builtinRules();

} // namespace linkguard::flags
