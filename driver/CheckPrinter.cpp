//===- CheckPrinter.cpp - text and JSON output of `linkguard check` -------===//
#include "driver/CheckPrinter.h"

#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace linkguard::driver {

using contract::Finding;
using contract::FindingKind;

const char *findingKindName(FindingKind K) {
  switch (K) {
  case FindingKind::Violation:
    return "violation";
  case FindingKind::Kept:
    return "kept";
  case FindingKind::Unknown:
    return "unknown";
  }
  return "unknown";
}

CheckTotals totalsOf(const std::vector<CheckResult> &Results,
                     const std::vector<CheckFailure> &Failures) {
  CheckTotals T;
  T.Files = Results.size() + Failures.size();
  T.Errors = Failures.size();
  for (const CheckResult &R : Results)
    for (const Finding &F : R.Verdict.Findings)
      switch (F.Kind) {
      case FindingKind::Violation:
        ++T.Violations;
        break;
      case FindingKind::Kept:
        ++T.Kept;
        break;
      case FindingKind::Unknown:
        ++T.Unknown;
        break;
      }
  return T;
}

/// A message must stay on its line, whatever a file name holds.
static std::string oneLine(std::string S) {
  for (char &C : S)
    if (C == '\n' || C == '\r')
      C = ' ';
  return S;
}

void printCheckText(raw_ostream &OS, const CheckResult &R) {
  if (R.InContainer && R.Verdict.Findings.empty())
    OS << R.Path << ": holds\n";
  for (const Finding &F : R.Verdict.Findings) {
    OS << R.Path;
    if (!F.Slice.empty())
      OS << " (" << F.Slice << ")";
    OS << ": " << findingKindName(F.Kind) << ": " << oneLine(F.Message) << "\n";
  }
}

static std::string plural(size_t N, StringRef One, StringRef Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many).str();
}

void printCheckSummary(raw_ostream &OS, const CheckTotals &T) {
  OS << "linkguard check: " << plural(T.Files, "file", "files") << ", "
     << plural(T.Violations, "violation", "violations") << ", " << T.Kept
     << " kept, " << T.Unknown << " unknown, "
     << plural(T.Errors, "error", "errors") << ": "
     << (T.Errors       ? "incomplete"
         : T.Violations ? "broken"
                        : "holds")
     << "\n";
}

static json::Array patterns(const std::vector<contract::Pattern> &Ps) {
  json::Array A;
  for (const contract::Pattern &P : Ps)
    A.push_back(P.Text);
  return A;
}

static json::Array strings(const std::vector<std::string> &Ss) {
  json::Array A;
  for (const std::string &S : Ss)
    A.push_back(S);
  return A;
}

static json::Value contractToJSON(const contract::ContractSpec &Spec) {
  json::Object C{{"forbid", patterns(Spec.Forbid)},
                 {"forbidUnreferenced", patterns(Spec.ForbidUnreferenced)},
                 {"require", patterns(Spec.Require)},
                 {"requireOnlyForMachO", Spec.RequireOnlyForMachO},
                 {"unused", Spec.FailOnUnused}};
  if (Spec.Portable)
    C["portable"] = json::Object{
        {"bundleRoot", Spec.Portable->BundleRoot.empty()
                           ? json::Value(nullptr)
                           : json::Value(Spec.Portable->BundleRoot)},
        {"search", strings(Spec.Portable->SearchDirs)},
        {"provided", patterns(Spec.Portable->Provided)},
        {"systemList", patterns(Spec.Portable->SystemList)}};
  else
    C["portable"] = nullptr;
  return std::move(C);
}

static json::Value findingToJSON(const Finding &F) {
  return json::Object{
      {"kind", findingKindName(F.Kind)},
      {"slice", F.Slice.empty() ? json::Value(nullptr) : json::Value(F.Slice)},
      {"dependency",
       F.Dependency.empty() ? json::Value(nullptr) : json::Value(F.Dependency)},
      {"rule", F.Rule},
      {"message", F.Message},
      {"symbols", strings(F.Symbols)}};
}

static json::Value placementToJSON(const contract::DependencyPlacement &P) {
  auto orNull = [](const std::string &S) {
    return S.empty() ? json::Value(nullptr) : json::Value(S);
  };
  return json::Object{{"slice", P.Slice},
                      {"dependency", P.Dependency},
                      {"kind", objlib::dependencyKindName(P.Kind)},
                      {"placement", contract::placementName(P.Where)},
                      {"resolvedPath", orNull(P.ResolvedPath)},
                      {"via", orNull(P.Via)},
                      {"reason", P.Reason}};
}

json::Value checkToJSON(const contract::ContractSpec &Spec,
                        const std::vector<CheckResult> &Results,
                        const std::vector<CheckFailure> &Failures) {
  json::Array Files, Errors;
  for (const CheckResult &R : Results) {
    json::Array Findings, Placements;
    for (const Finding &F : R.Verdict.Findings)
      Findings.push_back(findingToJSON(F));
    for (const contract::DependencyPlacement &P : R.Placements)
      Placements.push_back(placementToJSON(P));
    json::Object File{
        {"path", R.Path},
        {"format", R.Fmt == objlib::Format::MachO ? "mach-o" : "elf"},
        {"slices", strings(R.Arches)},
        {"holds", R.Verdict.ok()},
        {"container", R.Container},
        {"findings", std::move(Findings)}};
    File["placements"] = Spec.Portable ? json::Value(std::move(Placements))
                                       : json::Value(nullptr);
    Files.push_back(std::move(File));
  }
  for (const CheckFailure &F : Failures)
    Errors.push_back(json::Object{
        {"path", F.Path}, {"kind", F.Kind}, {"message", oneLine(F.Message)}});
  CheckTotals T = totalsOf(Results, Failures);
  return json::Object{
      {"schema", "linkguard-check/1"},
      {"contract", contractToJSON(Spec)},
      {"files", std::move(Files)},
      {"errors", std::move(Errors)},
      {"summary", json::Object{{"files", int64_t(T.Files)},
                               {"violations", int64_t(T.Violations)},
                               {"kept", int64_t(T.Kept)},
                               {"unknown", int64_t(T.Unknown)},
                               {"errors", int64_t(T.Errors)},
                               {"holds", T.holds()}}}};
}

} // namespace linkguard::driver
