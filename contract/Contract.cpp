//===- Contract.cpp - judge a BinaryInfo against a ContractSpec -----------===//
#include "contract/Contract.h"

#include "contract/Advice.h"
#include "contract/DyldRules.h"
#include "libnames/LibraryNames.h"

namespace linkguard::contract {

using objlib::BinaryInfo;
using objlib::Dependency;
using objlib::Referenced;
using objlib::Slice;

bool ContractSpec::needsImportsOf(const std::string &InstallName) const {
  for (const Pattern &P : ForbidUnreferenced)
    if (P.matches(InstallName))
      return true;
  return false;
}

objlib::ReadOptions readOptionsFor(const ContractSpec &Spec) {
  objlib::ReadOptions Options;
  Options.ListImportsOf = [&Spec](llvm::StringRef Name) {
    return Spec.needsImportsOf(Name.str());
  };
  return Options;
}

bool Verdict::ok() const { return violations() == 0; }

size_t Verdict::violations() const {
  size_t N = 0;
  for (const Finding &F : Findings)
    N += F.Kind == FindingKind::Violation;
  return N;
}

static std::vector<std::string> importNames(const Dependency &D) {
  std::vector<std::string> Names;
  Names.reserve(D.Imports.size());
  for (const objlib::Import &I : D.Imports)
    Names.push_back(I.Symbol);
  return Names;
}

static std::string listSymbols(const std::vector<std::string> &Names) {
  std::string Out;
  size_t Shown = 0;
  for (const std::string &N : Names) {
    if (Shown++ == 5) {
      Out += ", ... (" + std::to_string(Names.size()) + " in all)";
      break;
    }
    Out += (Out.empty() ? "" : ", ") + N;
  }
  return Out;
}

static void judgeSlice(const Slice &S, const std::string &SliceName,
                       objlib::Format Fmt, const ContractSpec &Spec,
                       Verdict &V) {
  auto add = [&](FindingKind K, const std::string &Dep, std::string Rule,
                 std::string Msg, std::vector<std::string> Syms = {}) {
    V.Findings.push_back(
        {K, SliceName, Dep, std::move(Rule), std::move(Msg), std::move(Syms)});
  };

  for (const Dependency &D : S.Dependencies) {
    for (const Pattern &P : Spec.Forbid)
      if (P.matches(D.Name))
        add(FindingKind::Violation, D.Name, "forbid " + P.Text,
            D.Name + " is a dependency (" + objlib::dependencyKindName(D.Kind) +
                "), and '" + P.Text + "' is forbidden");

    for (const Pattern &P : Spec.ForbidUnreferenced) {
      if (!P.matches(D.Name))
        continue;
      switch (D.IsReferenced) {
      case Referenced::Yes:
        add(FindingKind::Kept, D.Name, "forbid-unreferenced " + P.Text,
            D.Name + " is kept: " + std::to_string(D.ImportCount) +
                " imported symbol(s) bind to it (" +
                listSymbols(importNames(D)) + ")",
            importNames(D));
        break;
      case Referenced::No:
        add(FindingKind::Violation, D.Name, "forbid-unreferenced " + P.Text,
            D.Name + " is still a dependency (" +
                objlib::dependencyKindName(D.Kind) +
                ") although no symbol binds to it");
        break;
      case Referenced::Unknown:
        add(FindingKind::Unknown, D.Name, "forbid-unreferenced " + P.Text,
            D.Name + " is a dependency and the file does not say whether any "
                     "symbol binds to it (no symbol versions)");
        break;
      }
    }

    // ld64 links libSystem into every image and never drops it, even under
    // -dead_strip_dylibs (its initializer sets up the C runtime), so an
    // image that binds nothing to it is normal, not an unused dependency.
    if (Spec.FailOnUnused && D.IsReferenced == Referenced::No &&
        Fmt == objlib::Format::MachO && libnames::inGroup("libsystem", D.Name))
      add(FindingKind::Kept, D.Name, "unused",
          D.Name + " binds no symbol but stays: ld64 always keeps libSystem");
    else if (Spec.FailOnUnused && D.IsReferenced == Referenced::No)
      add(FindingKind::Violation, D.Name, "unused",
          D.Name + " is a dependency that no imported symbol binds to");
    else if (Spec.FailOnUnused && D.IsReferenced == Referenced::Unknown)
      add(FindingKind::Unknown, D.Name, "unused",
          D.Name +
              ": whether any symbol binds to it cannot be told from the file");
  }

  bool RequireApplies =
      !Spec.RequireOnlyForMachO ||
      (Fmt == objlib::Format::MachO && S.FileType != "object");
  if (RequireApplies)
    for (const Pattern &P : Spec.Require) {
      bool Found = false;
      for (const Dependency &D : S.Dependencies)
        Found |= P.matches(D.Name);
      if (!Found)
        add(FindingKind::Violation, "", "require " + P.Text,
            "no dependency matches '" + P.Text + "'");
    }
}

/// --portable: a violation for each non-portable dependency, naming the
/// load command (kind, name, slice) so it can be found with otool/readelf.
static void judgePortability(const BinaryInfo &Binary,
                             const PortabilityOptions &Options,
                             const FileProbe &Exists, Verdict &V) {
  for (const DependencyPlacement &P :
       placeDependencies(Binary, Options, Exists)) {
    if (P.Where != Placement::NonPortable && P.Where != Placement::Unknown)
      continue;
    Finding F;
    F.Kind = P.Where == Placement::Unknown ? FindingKind::Unknown
                                           : FindingKind::Violation;
    F.Slice = Binary.Slices.size() > 1 ? P.Slice : std::string();
    F.Dependency = P.Dependency;
    F.Rule = "portable";
    F.Placement = placementName(P.Where);
    // A universal file's finding names its slice beside the file; a thin
    // file's names its architecture here.
    F.Message = std::string(objlib::dependencyKindName(P.Kind)) + " " +
                P.Dependency + (F.Slice.empty() ? " (" + P.Slice + ") " : " ") +
                P.Reason;
    V.Findings.push_back(std::move(F));
  }
}

void judgeLoadability(const BinaryInfo &Binary, Verdict &V) {
  for (const Slice &S : Binary.Slices) {
    std::string SliceName = Binary.Slices.size() > 1 ? S.Arch : std::string();
    std::string Why = installNameProblem(S, Binary.Fmt);
    if (!Why.empty() && S.InstallName) {
      const std::string &Name = *S.InstallName;
      V.Findings.push_back({FindingKind::Violation, SliceName, Name,
                            "install-name",
                            "LC_ID_DYLIB " + Name + " (" + S.Arch + ") " + Why,
                            {}});
    }
    for (const DyldRefusal &R : dyldRefusals(S))
      V.Findings.push_back(
          {FindingKind::Violation, SliceName, "", "dyld " + R.Rule,
           "dyld refuses to load this file (" + S.Arch + "): \"" +
               R.DyldMessage + "\" (dyld's " + R.Function + "; refused by " +
               R.Releases + "; the file has " + R.FileSDK + ")",
           {}});
  }
}

Verdict judge(const BinaryInfo &Binary, const ContractSpec &Spec,
              const FileProbe &Exists) {
  Verdict V;
  for (const Slice &S : Binary.Slices)
    judgeSlice(S, Binary.Slices.size() > 1 ? S.Arch : std::string(), Binary.Fmt,
               Spec, V);
  if (Spec.Portable) {
    judgePortability(Binary, *Spec.Portable, Exists, V);
    judgeLoadability(Binary, V);
  }
  // The link's fix; check re-advises a finding for where its image came
  // from (a .pt2's member: export again).
  AdviceContext C;
  C.Fmt = Binary.Fmt;
  C.DropFlag = Spec.DropFlag;
  advise(V, C);
  return V;
}

Verdict judge(const BinaryInfo &Binary, const ContractSpec &Spec) {
  return judge(Binary, Spec, realFileProbe());
}

const char *tryReasonName(TryReason R) {
  static constexpr const char *Names[] = {
      "accepted",   "missing",      "missing-directory", "wrong-architecture", "not-loadable",
      "outside-root", "host-dependent", "undecided",     "unreadable",         "system"};
  static_assert(static_cast<int>(TryReason::System) == 9);
  return Names[static_cast<int>(R)];
}

} // namespace linkguard::contract
