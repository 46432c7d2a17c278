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

inline constexpr const char *MpsAotRuleName = "mps-aot-dead-strip-dylibs";
inline constexpr const char *DeadStripDylibsFlag = "-Wl,-dead_strip_dylibs";

/// The MPS AOT rule: PyTorch AOTInductor links MPS models on macOS with
/// -Xclang -fopenmp and often -lomp although the generated code never calls
/// OpenMP; without libtorch nothing else needs libomp either, so the dylib
/// keeps a load command for a build machine's absolute libomp path and fails
/// to load anywhere else. ld64's -dead_strip_dylibs drops dylibs that supply
/// no symbol. Upstream (pytorch#198232) adds the flag for exactly these
/// builds (device mps, macOS, aot_mode, not link_libtorch); this rule
/// recognises them from the command line alone: -Wl,-dead_strip_dylibs on Mach-O AOTI
/// MPS links without libtorch, then "OpenMP dropped unless referenced,
/// libSystem kept".
RuleSpec mpsAotRuleSpec();

/// Every built-in rule, in evaluation order.
std::vector<RuleSpec> builtinRules();

} // namespace linkguard::flags
