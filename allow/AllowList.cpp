//===- AllowList.cpp - [[allow]] entries matched against findings ---------===//
#include "allow/AllowList.h"

#include "shipment/Closure.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/GlobPattern.h"

using namespace llvm;

namespace linkguard::allow {

namespace {

bool globMatches(StringRef Glob, StringRef Value) {
  Expected<GlobPattern> P = GlobPattern::create(Glob);
  if (!P) { // the rules file was checked when read; never here
    consumeError(P.takeError());
    return false;
  }
  return P->match(Value);
}

/// The rules whose violations are about one dependency, which a
/// dependency entry may accept (docs/check.md#allow-lists). Not: the
/// file's own install name (install-name), a dependency missing (require),
/// two runtimes in one process (unique: a second OpenMP aborts whatever
/// the reason), dyld's refusals and code signatures (about the file).
constexpr const char *DependencyRules[] = {
    "portable", // unresolved, non-portable, host-dependent
    "forbid",
    "forbid-unreferenced",
    "unused",
    "platform", // a library the wheel's policy does not allow
};

bool dependencyRule(StringRef Rule) {
  StringRef Word = Rule.split(' ').first;
  return is_contained(DependencyRules, Word);
}

} // namespace

bool allowMatches(const config::AllowSpec &Spec, ArrayRef<std::string> Names,
                  config::AllowKind Kind, StringRef Value) {
  if (Spec.Kind != Kind)
    return false;
  if (none_of(Names,
              [&](const std::string &N) { return !N.empty() && globMatches(Spec.File, N); }))
    return false;
  if (Kind == config::AllowKind::Dependency)
    return shipment::listedIn({contract::Pattern{Spec.Value}}, Value);
  return globMatches(Spec.Value, Value);
}

std::optional<std::vector<std::string>> blamedSearchEntries(const contract::Finding &F) {
  // Only a finding the resolver made host-dependent because of the
  // machine's entries alone (not a subdirectory copy, an absolute link, a
  // candidate that ends the load or that cannot be decided or read), and
  // whose tries are all listed.
  if (!F.HostEntriesOnly || F.TriedNotListed)
    return std::nullopt;
  for (const contract::TriedCandidate &T : F.Tried)
    if (T.Reason == contract::TryReason::Undecided ||
        T.Reason == contract::TryReason::Unreadable ||
        T.Reason == contract::TryReason::NotLoadable)
      return std::nullopt;
  std::vector<std::string> Out;
  static constexpr const char *Labels[] = {"DT_RUNPATH ", "DT_RPATH ", "LC_RPATH "};
  for (const contract::TriedCandidate &T : F.Tried) {
    if (T.Reason != contract::TryReason::HostDependent &&
        T.Reason != contract::TryReason::OutsideRoot)
      continue;
    StringRef Via = T.Via;
    if (!any_of(Labels, [&](const char *L) { return Via.consume_front(L); }))
      return std::nullopt; // blamed on something no runpath entry names
    if (!is_contained(Out, Via))
      Out.push_back(Via.str());
  }
  if (Out.empty())
    return std::nullopt;
  return Out;
}

AllowList::AllowList(std::vector<config::AllowSpec> S)
    : Specs(std::move(S)), Used(Specs.size(), false) {}

const config::AllowSpec *AllowList::find(ArrayRef<std::string> Names, config::AllowKind Kind,
                                         StringRef Value) {
  const config::AllowSpec *First = nullptr;
  for (size_t I = 0; I < Specs.size(); ++I)
    if (allowMatches(Specs[I], Names, Kind, Value)) {
      Used[I] = true;
      if (!First)
        First = &Specs[I];
    }
  return First;
}

void AllowList::accept(contract::Finding &F, ArrayRef<const config::AllowSpec *> By) {
  F.Kind = contract::FindingKind::Allowed;
  // Each entry once, in the order of what it covers.
  std::vector<const config::AllowSpec *> Once;
  for (const config::AllowSpec *S : By)
    if (!is_contained(Once, S))
      Once.push_back(S);
  for (const config::AllowSpec *S : Once)
    F.AllowedBy.push_back(
        {S->File, config::allowKindName(S->Kind), S->Value, S->Reason, S->Origin});
}

size_t AllowList::apply(ArrayRef<std::string> Names, contract::Verdict &V) {
  if (Specs.empty())
    return 0;
  size_t Accepted = 0;
  const ArrayRef<std::string> FileNames = Names;
  for (contract::Finding &F : V.Findings) {
    if (F.Kind != contract::FindingKind::Violation && F.Kind != contract::FindingKind::Unknown)
      continue; // kept: nothing to accept
    // A finding about another image of the file's closure: that image's
    // names, as the tree check matches it there.
    Names = F.AboutNames.empty() ? FileNames : ArrayRef<std::string>(F.AboutNames);
    const bool Decides = F.Kind == contract::FindingKind::Violation;
    if (!F.Dependency.empty() && dependencyRule(F.Rule))
      if (const config::AllowSpec *S = find(Names, config::AllowKind::Dependency, F.Dependency);
          S && Decides) {
        accept(F, {S});
        ++Accepted;
        continue;
      }
    // One definer per symbol: accepted when every name both images
    // define is allowed for that file (one name left is still two copies
    // of its state), and only when the finding lists them all.
    if (F.Rule == "one-definer") {
      if (F.Symbols.empty() || F.SymbolsNotListed)
        continue;
      std::vector<const config::AllowSpec *> By;
      for (const std::string &Sym : F.Symbols)
        if (const config::AllowSpec *S = find(Names, config::AllowKind::Symbol, Sym))
          By.push_back(S);
      if (Decides && By.size() == F.Symbols.size()) {
        accept(F, By);
        ++Accepted;
      }
      continue;
    }
    // A host-dependent finding: accepted when every search entry it
    // blames is allowed (one entry allowed of two still loads the other
    // machine's copy).
    if (F.Rule != "portable" || F.Placement != "host-dependent")
      continue;
    std::optional<std::vector<std::string>> Blamed = blamedSearchEntries(F);
    if (!Blamed)
      continue;
    std::vector<const config::AllowSpec *> By;
    for (const std::string &E : *Blamed)
      if (const config::AllowSpec *S = find(Names, config::AllowKind::Runpath, E))
        By.push_back(S);
    if (Decides && By.size() == Blamed->size()) {
      accept(F, By);
      ++Accepted;
    }
  }
  return Accepted;
}

std::vector<const config::AllowSpec *> AllowList::stale() const {
  std::vector<const config::AllowSpec *> Out;
  for (size_t I = 0; I < Specs.size(); ++I)
    if (!Used[I])
      Out.push_back(&Specs[I]);
  return Out;
}

} // namespace linkguard::allow
