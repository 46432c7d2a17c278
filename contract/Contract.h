//===- Contract.h - what a linked binary's dependencies must satisfy -*- C++ -*-===//
//
// One implementation, two entry points: `linkguard check` builds a
// ContractSpec from its options, the driver builds one from the rule that
// fired (the MPS rule: OpenMP dropped unless referenced, libSystem kept).
// Judging is a pure function over objlib's BinaryInfo.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "contract/Pattern.h"
#include "contract/Portability.h"
#include "objlib/BinaryInfo.h"
#include "objlib/Reader.h"

#include <optional>
#include <string>
#include <vector>

namespace linkguard::contract {

struct ContractSpec {
  // clang-format off
  std::vector<Pattern> Forbid;             // must not be a dependency at all
  std::vector<Pattern> ForbidUnreferenced; // may stay only if a symbol binds to it
  std::vector<Pattern> Require;            // must be a dependency
  bool RequireOnlyForMachO = false;        // Require applies to Mach-O files only
  bool FailOnUnused = false;               // --unused: no dependency without imports
  // clang-format on
  /// The link flag that drops a dependency no symbol binds to, named in a
  /// forbid-unreferenced violation: the adding rule's own ([rule.add];
  /// -Wl,-dead_strip_dylibs for ld64, -Wl,--as-needed for GNU ld / lld).
  /// Empty: the violation names no flag.
  std::string DropFlag;
  /// --portable: every dependency system, shipped or provided
  /// (contract/Portability.h).
  std::optional<PortabilityOptions> Portable;

  /// Whether judging needs the names of the imports that bind to the
  /// dependency InstallName: a kept forbid-unreferenced dependency is
  /// reported with them. Every other rule needs only whether any bind, so
  /// a reader can leave the other lists out (objlib::ReadOptions).
  bool needsImportsOf(const std::string &InstallName) const;
};

/// What a reader of a binary judged by Spec must keep: the import lists of
/// needsImportsOf only. Spec must outlive the options.
objlib::ReadOptions readOptionsFor(const ContractSpec &Spec);

enum class FindingKind {
  Violation, // breaks the contract
  Kept,      // an OpenMP (or other watched) dependency kept because it is used
  Unknown,   // cannot be decided from the file (ELF without symbol versions)
  /// A violation an [[allow]] entry of linkguard.toml accepts (check only):
  /// no violation, printed with the entry's reason (Finding::AllowedBy).
  /// Never an Unknown: an allow-list cannot decide what could not be read.
  Allowed,
};

/// The [[allow]] entry that accepted a finding, as the user wrote it.
struct Allowance {
  std::string File;   // its file glob
  std::string Key;    // "dependency", "runpath", "symbol"
  std::string Value;  // its glob
  std::string Reason;
  std::string Origin; // "linkguard.toml:12"
};

/// Why a loader's search passed over, or took, one candidate path
/// (inspect --tree --why, a portable finding's "tried"; docs/inspect.md):
/// recorded by the resolvers (shipment/LdSo.cpp, Dyld.cpp) where they
/// take or reject the candidate, never searched again.
enum class TryReason : unsigned char {
  Accepted,          // the file that loads (on some machines, Detail says which)
  Missing,           // ENOENT: the file, or a directory on its way, is not there
  MissingDirectory,  // a directory found missing for an earlier name: not tried again
  WrongArchitecture, // another ELF class or machine, no slice the process takes
  NotLoadable,       // a file the loader refuses (Detail: its own words)
  OutsideRoot,       // a link or ".." that leads out of the tree
  HostDependent,     // an absolute, empty or relative entry: the machine's directory
  Undecided,         // $LIB/$PLATFORM, @executable_path unknown: cannot be decided
  Unreadable,        // linkguard cannot read it
  System,            // a system directory: the platform's file
};
const char *tryReasonName(TryReason R); // "accepted", "missing", "missing-directory", ...

/// One path a loader tried for a dependency, in its order.
struct TriedCandidate {
  std::string Path; // as the loader opens it ($ORIGIN expanded, ".." kept)
  std::string Via;  // the entry it came from: "DT_RUNPATH $ORIGIN/../lib"
  TryReason Reason = TryReason::Missing;
  std::string Detail; // the loader's own words ("file too short"), or ""
};

struct Finding {
  FindingKind Kind = FindingKind::Violation;
  std::string Slice;      // arch; empty for single-slice files
  std::string Dependency; // install name, when about one
  std::string Rule;    // "forbid-unreferenced openmp", "require libsystem", ...
  std::string Message; // one sentence: what was found and what to do
  std::vector<std::string> Symbols; // the imports that keep it, for Kept
  /// one-definer: the names both images define past those in Symbols
  /// (counted, not listed): a symbol allow-list cannot decide such a
  /// finding, as it does not know them all.
  size_t SymbolsNotListed = 0;
  /// What to do about it (contract/Advice.h): never empty in a record.
  std::string Advice;
  /// A portable finding's placement ("non-portable", "unresolved",
  /// "unknown": placementName / shipment::outcomeName), which its advice
  /// is keyed by; empty for the other rules.
  std::string Placement;
  /// Kind == Allowed: the entry (or, for a runpath finding, the entries)
  /// that accepted it.
  std::vector<Allowance> AllowedBy;
  /// A portable finding about a search: the paths the loader tried, in
  /// its order (at most shipment::MaxWhyListed), and how many more.
  std::vector<TriedCandidate> Tried;
  size_t TriedNotListed = 0;
  /// A finding of a file's own load closure about another image it loads
  /// (check --portable FILE): that image's names (as the tree check names
  /// it: its path as given, its path under the bundle root), which an
  /// allow-list entry's file glob is matched against, as in the tree.
  std::vector<std::string> AboutNames;
  /// Host-dependent only because of a machine's search entries
  /// (shipment::Edge::HostEntriesOnly): a runpath allow entry's case.
  bool HostEntriesOnly = false;
};

struct Verdict {
  std::vector<Finding> Findings;
  bool ok() const;
  size_t violations() const;
};

/// Judges Binary against Spec. Pure apart from Exists, which --portable
/// asks whether a candidate file is there (tests pass a fake).
/// --portable, per slice: what the file makes its users bake (its install
/// name) and what dyld refuses it for at load time (contract/DyldRules.h).
/// Part of judge() under --portable; a tree's check, whose portability is
/// the closure's (shipment/), calls it for each file itself.
void judgeLoadability(const objlib::BinaryInfo &Binary, Verdict &V);

Verdict judge(const objlib::BinaryInfo &Binary, const ContractSpec &Spec,
              const FileProbe &Exists);

/// The same, over the real file system.
Verdict judge(const objlib::BinaryInfo &Binary, const ContractSpec &Spec);

} // namespace linkguard::contract
