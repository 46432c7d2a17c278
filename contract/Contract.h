//===- Contract.h - what a linked binary's dependencies must satisfy -*- C++ -*-===//
//
// One implementation, two entry points: `linkguard check` builds a
// ContractSpec from its options, the driver builds one from the rule that
// fired (the MPS rule: OpenMP dropped unless referenced, libSystem kept).
// Judging is a pure function over objlib's BinaryInfo.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "objlib/BinaryInfo.h"

#include <string>
#include <vector>

namespace linkguard::contract {

/// A dependency name pattern: a built-in group ("openmp", "libsystem") or a
/// glob matched against the whole install name and against its file name.
struct Pattern {
  std::string Text;
  bool matches(const std::string &InstallName) const;
};

struct ContractSpec {
  std::vector<Pattern> Forbid;             // must not be a dependency at all
  std::vector<Pattern> ForbidUnreferenced; // may stay only if a symbol binds to it
  std::vector<Pattern> Require;            // must be a dependency
  bool RequireOnlyForMachO = false;        // Require applies to Mach-O files only
  bool FailOnUnused = false;               // --unused: no dependency without imports
};

/// The contract the MPS AOT rule verifies after its link.
ContractSpec openMPDroppedContract();

enum class FindingKind {
  Violation, // breaks the contract
  Kept,      // an OpenMP (or other watched) dependency kept because it is used
  Unknown,   // cannot be decided from the file (ELF without symbol versions)
};

struct Finding {
  FindingKind Kind = FindingKind::Violation;
  std::string Slice;      // arch; empty for single-slice files
  std::string Dependency; // install name, when about one
  std::string Rule;       // "forbid-unreferenced openmp", "require libsystem", ...
  std::string Message;    // one sentence: what was found and what to do
  std::vector<std::string> Symbols; // the imports that keep it, for Kept
};

struct Verdict {
  std::vector<Finding> Findings;
  bool ok() const;
  size_t violations() const;
};

Verdict judge(const objlib::BinaryInfo &Binary, const ContractSpec &Spec);

} // namespace linkguard::contract
