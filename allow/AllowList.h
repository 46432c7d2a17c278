//===- AllowList.h - [[allow]]: findings check accepts, with reasons -*- C++ -*-===//
//
// linkguard.toml's [[allow]] tables (config/RulesFile.h reads them; the
// schema is docs/configuration.md#allow-lists): each names a file (a glob)
// and one dependency, runpath entry or symbol (a glob), and says why. A
// violation an entry decides becomes "allowed": no violation, printed with
// the entry's reason. An undecided finding stays undecided (fail closed: an
// allow-list cannot turn "cannot read" into "holds"). An entry that matched
// no finding in a run is stale, and check warns about it.
//
// The match is one question, (file, kind, value) -> entry (find), so a
// check that makes a new kind of finding (the one-definer-per-symbol check:
// kind Symbol) asks it the same way; accept() turns the finding over.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "config/RulesFile.h"
#include "contract/Contract.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace linkguard::allow {

/// Whether Spec allows Value of Kind in a file called any of Names (its
/// path under the tree or package, the name check prints). File, runpath
/// and symbol: a glob (llvm::GlobPattern, `*` crosses '/') over the whole
/// string. Dependency: check's pattern rule (docs/check.md#contract-options:
/// the whole name or its file name, a bare word by its stems, a group), an
/// absolute name only by its whole name, as --provided (shipment::listedIn).
bool allowMatches(const config::AllowSpec &Spec, llvm::ArrayRef<std::string> Names,
                  config::AllowKind Kind, llvm::StringRef Value);

/// The search entries a host-dependent finding of the load closure blames:
/// the entries of its tried paths (contract::Finding::Tried, what the
/// resolvers recorded while resolving, shipment/SearchReport.h TryLog)
/// whose reason is host-dependent (an absolute, empty or relative entry:
/// the machine's directory) or outside-root (a link or ".." out of the
/// tree), each as written ('' is the empty entry). None when no entry is
/// to blame (a glibc-hwcaps copy, an absolute link), or when the list is
/// cut short (triedNotListed: who else is to blame is not known, so no
/// runpath allow can decide it).
std::optional<std::vector<std::string>> blamedSearchEntries(const contract::Finding &F);

class AllowList {
public:
  AllowList() = default;
  explicit AllowList(std::vector<config::AllowSpec> Specs);

  bool empty() const { return Specs.empty(); }

  /// The first entry that allows Value of Kind in a file called any of
  /// Names, or null. Every entry that matches counts as used (not stale).
  const config::AllowSpec *find(llvm::ArrayRef<std::string> Names, config::AllowKind Kind,
                                llvm::StringRef Value);

  /// Turns F (a violation) into an allowed finding, accepted by By.
  static void accept(contract::Finding &F, llvm::ArrayRef<const config::AllowSpec *> By);

  /// Each finding of V an entry decides, for a file called any of Names:
  /// a dependency finding (portable: unresolved, non-portable,
  /// host-dependent; forbid, forbid-unreferenced, unused, platform) by a
  /// dependency entry; a host-dependent one by runpath entries for every
  /// search entry it blames. An unknown finding an entry matches stays
  /// unknown (the entry is not stale). Returns how many were accepted.
  size_t apply(llvm::ArrayRef<std::string> Names, contract::Verdict &V);

  /// The entries no finding matched, in the file's order.
  std::vector<const config::AllowSpec *> stale() const;

private:
  std::vector<config::AllowSpec> Specs;
  std::vector<bool> Used;
};

} // namespace linkguard::allow
