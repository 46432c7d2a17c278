//===- Contracts.cpp - contract options and findings as records -------------===//
#include "commands/Contracts.h"

#include "commands/Printer.h"
#include "contract/Advice.h"
#include "support/StableSort.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Option/Option.h"

#include <algorithm>

using namespace llvm;

namespace linkguard::commands {

namespace {

json::Value orNull(const std::string &S) { return S.empty() ? json::Value(nullptr) : json::Value(S); }

json::Array texts(const std::vector<contract::Pattern> &Ps) {
  json::Array A;
  for (const contract::Pattern &P : Ps)
    A.push_back(P.Text);
  return A;
}

json::Array strings(const std::vector<std::string> &Ss) {
  json::Array A;
  for (const std::string &S : Ss)
    A.push_back(S);
  return A;
}

} // namespace

std::string optionName(const opt::Arg *A) {
  StringRef S = A->getSpelling();
  S.consume_back("=");
  return S.str();
}

std::optional<int> patternsOf(const CommandSpec &Spec, const opt::InputArgList &Args, unsigned Id,
                              std::vector<contract::Pattern> &Into) {
  for (const opt::Arg *A : Args.filtered(Id)) {
    std::string Value = A->getValue();
    if (Value.empty())
      return usageError(Spec, optionName(A) + " needs a non-empty value");
    if (Error E = contract::validatePattern(Value))
      return usageError(Spec, optionName(A) + ": " + toString(std::move(E)));
    Into.push_back({Value});
  }
  return std::nullopt;
}

std::optional<int> addPatterns(const CommandSpec &Spec, const opt::InputArgList &Args,
                               contract::ContractSpec &Into) {
  for (auto [Id, List] : {std::pair{OPT_forbid_EQ, &Into.Forbid},
                          {OPT_require_EQ, &Into.Require},
                          {OPT_forbid_unreferenced_EQ, &Into.ForbidUnreferenced}})
    if (std::optional<int> Stop = patternsOf(Spec, Args, Id, *List))
      return Stop;
  return std::nullopt;
}

const char *findingKindName(contract::FindingKind K) {
  static constexpr const char *Names[] = {"violation", "kept", "unknown", "allowed"};
  static_assert(static_cast<int>(contract::FindingKind::Allowed) == 3);
  return Names[static_cast<int>(K)];
}

namespace {

/// {kind, NameKey: the dependency or image, rule, message}.
json::Object findingRecord(const contract::Finding &F, StringRef NameKey) {
  json::Object R{{"kind", findingKindName(F.Kind)}, {NameKey, nullptr}, {"rule", F.Rule}};
  if (!F.Dependency.empty())
    putName(R, NameKey, F.Dependency);
  putName(R, "message", F.Message);
  // Every finding names its fix (contract/Advice.h); one made without it
  // gets the table's for a link.
  putName(R, "advice", F.Advice.empty() ? contract::adviceText(F, {}) : F.Advice);
  // A portable finding about a search: the paths the loader tried.
  if (!F.Tried.empty() || F.TriedNotListed)
    putTried(R, F.Tried, F.TriedNotListed);
  return R;
}

/// [{"file", KEY: glob, "reason", "origin"}]: the [[allow]] entries that
/// accepted a finding, as written (KEY: dependency, runpath or symbol).
json::Array allowanceRecord(const std::vector<contract::Allowance> &As) {
  json::Array Out;
  for (const contract::Allowance &A : As) {
    json::Object O;
    putName(O, "file", A.File);
    // A json::Object borrows a StringRef key: one that lives as long.
    const StringRef Key = A.Key == "runpath"  ? "runpath"
                          : A.Key == "symbol" ? "symbol"
                                              : "dependency";
    putName(O, Key, A.Value);
    putName(O, "reason", A.Reason);
    putName(O, "origin", A.Origin);
    Out.push_back(std::move(O));
  }
  return Out;
}

} // namespace

json::Array findingsRecord(const contract::Verdict &V) {
  // A universal file's findings slice by slice (in the order the slices
  // first appear), each slice's in the verdict's order: the text prints
  // them in this order, each architecture's lines together as otool -L does.
  llvm::StringMap<size_t> Rank;
  std::vector<const contract::Finding *> Ordered;
  for (const contract::Finding &F : V.Findings) {
    Rank.try_emplace(F.Slice, Rank.size());
    Ordered.push_back(&F);
  }
  stableSort(Ordered,
             [&](const contract::Finding *A, const contract::Finding *B) {
                     return Rank.lookup(A->Slice) < Rank.lookup(B->Slice);
                   });
  json::Array A;
  for (const contract::Finding *P : Ordered) {
    const contract::Finding &F = *P;
    json::Object R = findingRecord(F, "dependency");
    R["slice"] = orNull(F.Slice);
    R["symbols"] = strings(F.Symbols);
    if (F.Kind == contract::FindingKind::Allowed)
      R["allowedBy"] = allowanceRecord(F.AllowedBy);
    A.push_back(std::move(R));
  }
  return A;
}

json::Array imageFindingsRecord(const contract::Verdict &V) {
  json::Array A;
  for (const contract::Finding &F : V.Findings)
    A.push_back(findingRecord(F, "image"));
  return A;
}

json::Object contractRecord(const contract::ContractSpec &Spec) {
  json::Object C{{"forbid", texts(Spec.Forbid)},
                 {"forbidUnreferenced", texts(Spec.ForbidUnreferenced)},
                 {"require", texts(Spec.Require)},
                 {"requireOnlyForMachO", Spec.RequireOnlyForMachO},
                 {"unused", Spec.FailOnUnused}};
  if (Spec.Portable)
    C["portable"] = json::Object{{"bundleRoot", orNull(Spec.Portable->BundleRoot)},
                                 {"search", strings(Spec.Portable->SearchDirs)},
                                 {"provided", texts(Spec.Portable->Provided)},
                                 {"systemList", texts(Spec.Portable->SystemList)}};
  else
    C["portable"] = nullptr;
  return C;
}

json::Object placementRecord(const contract::DependencyPlacement &P) {
  json::Object O{{"slice", P.Slice},
                 {"kind", objlib::dependencyKindName(P.Kind)},
                 {"placement", contract::placementName(P.Where)},
                 {"resolvedPath", nullptr},
                 {"via", nullptr}};
  // Names as every record has them (a name that is not UTF-8 also as its
  // exact bytes, escaped), as a tree's placements (edgeRecord).
  putName(O, "dependency", P.Dependency);
  putName(O, "reason", P.Reason);
  if (!P.ResolvedPath.empty())
    putName(O, "resolvedPath", P.ResolvedPath);
  if (!P.Via.empty())
    putName(O, "via", P.Via);
  return O;
}

} // namespace linkguard::commands
