//===- MpsAotRule.h - -dead_strip_dylibs for AOTI MPS builds -----*- C++ -*-===//
//
// PyTorch AOTInductor links MPS models on macOS with -Xclang -fopenmp and
// often -lomp although the generated code never calls OpenMP; without
// libtorch nothing else needs libomp either, so the dylib keeps a load
// command for a build machine's absolute libomp path and fails to load
// anywhere else. ld64's -dead_strip_dylibs drops dylibs that supply no
// symbol. Upstream (pytorch#198232) adds the flag for exactly these builds:
//   device mps, macOS, aot_mode, not link_libtorch.
// This rule recognises the same builds from the command line alone. It is
// written as data in BuiltinRules.cpp and evaluated by RuleEngine.cpp like
// any rule from a rules file; this entry point stays for its callers.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "flags/Classification.h"
#include "flags/Rule.h"

namespace linkguard::flags {

inline constexpr const char *MpsAotRuleName = "mps-aot-dead-strip-dylibs";
inline constexpr const char *DeadStripDylibsFlag = "-Wl,-dead_strip_dylibs";

RuleDecision decideMpsAotRule(const Classification &C, const RuleContext &Ctx);

} // namespace linkguard::flags
