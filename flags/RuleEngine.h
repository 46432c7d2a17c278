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

RuleDecision evaluateRule(const RuleSpec &Spec, const Classification &C,
                          const RuleContext &Ctx);

/// Index of the first argument that brings a library onto the link line:
/// -l (any spelling), a library input (.so, .so.N, .dylib, .tbd, .a), an
/// @response file (it may hold one), or -Wl,/-Xlinker naming one. Parsed
/// with clang's table, so an option value ("-o libm.so") is never taken for
/// one. Args.size() when there is none: everything the driver adds itself
/// (clang's -fopenmp adds -lomp) comes after the user's arguments, so the
/// end is then "before the libraries" too.
size_t firstLibraryArgument(llvm::ArrayRef<std::string> Args);

/// Args with BeforeLibraries inserted at firstLibraryArgument() and Append
/// added at the end; nothing else changes.
std::vector<std::string>
withRuleFlags(llvm::ArrayRef<std::string> Args,
              const std::vector<std::string> &BeforeLibraries,
              const std::vector<std::string> &Append);

/// "libomp.so.5" -> "omp", "/x/libtorch_cpu.dylib" -> "torch_cpu"; "" when
/// the file is not a shared library (by name: .so, .so.N, .dylib, .tbd).
std::string sharedLibraryName(llvm::StringRef Path);

} // namespace linkguard::flags
