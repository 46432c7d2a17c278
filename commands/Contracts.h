//===- Contracts.h - contract options and findings, for check and try-load -*- C++ -*-===//
//
// `check` judges a file's load commands and `try-load` the images a process
// mapped; both take --forbid/--require patterns and report findings the same
// way. Written once here.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "commands/CommandLine.h"

#include "contract/Contract.h"
#include "contract/Portability.h"

#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace linkguard::commands {

/// "--bundle-root" for an argument given as "--bundle-root=x" or
/// "--bundle-root x".
std::string optionName(const llvm::opt::Arg *A);

/// Every value of option Id, validated as a pattern, added to Into; the exit
/// status of a usage error otherwise.
std::optional<int> patternsOf(const CommandSpec &Spec, const llvm::opt::InputArgList &Args,
                              unsigned Id, std::vector<contract::Pattern> &Into);

/// --forbid, --require and (when the command takes it) --forbid-unreferenced.
std::optional<int> addPatterns(const CommandSpec &Spec, const llvm::opt::InputArgList &Args,
                               contract::ContractSpec &Into);

const char *findingKindName(contract::FindingKind K); // "violation", "kept", "unknown"

/// [{"kind", "slice", "dependency", "rule", "message", "symbols"}]
llvm::json::Array findingsRecord(const contract::Verdict &V);

/// try-load's findings: about mapped images ("image", not "dependency"; no
/// slice, no symbols), as docs/try-load.md documents them.
llvm::json::Array imageFindingsRecord(const contract::Verdict &V);

/// The contract a check ran with ({"forbid", "require", ..., "portable"}).
llvm::json::Object contractRecord(const contract::ContractSpec &Spec);

llvm::json::Object placementRecord(const contract::DependencyPlacement &P);

} // namespace linkguard::commands
