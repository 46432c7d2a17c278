//===- TryLoadPrinter.cpp - text and JSON output of `try-load` ------------===//
#include "driver/TryLoadPrinter.h"

#include "driver/CheckPrinter.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace linkguard::driver {

using tryload::Outcome;

static std::string mode(bool Lazy) {
  return Lazy ? "RTLD_LAZY | RTLD_LOCAL" : "RTLD_NOW | RTLD_LOCAL";
}

void printTryLoadText(raw_ostream &OS, const TryLoadReport &R) {
  const tryload::TryLoadVerdict &V = R.Verdict;
  OS << R.Name << ": loader: " << R.Loader << " (" << mode(R.Lazy) << ")\n";
  OS << R.Name << ": environment: "
     << (R.KeepEnv           ? "kept as given (--keep-env)"
         : R.Removed.empty() ? "no loader variable to remove"
                             : "removed " + join(R.Removed, ", "))
     << "\n";
  for (const std::string &H : R.Hidden)
    OS << R.Name << ": hidden: " << H << "\n";
  if (V.What == Outcome::HideUnavailable || V.What == Outcome::LoadFailed) {
    OS << R.Name << ": "
       << (V.What == Outcome::LoadFailed ? "load failed: " : "not loaded: ")
       << V.Problem << "\n";
  } else {
    OS << R.Name << ": loaded " << R.Library << "\n";
    for (const tryload::MappedImage &M : V.Images) {
      OS << R.Name << ": image: " << tryload::originName(M.From) << ": "
         << M.Image.Path;
      if (!M.Image.RealPath.empty() && M.Image.RealPath != M.Image.Path)
        OS << " -> " << M.Image.RealPath;
      OS << "\n";
    }
    if (R.Call && V.What != Outcome::CallFailed)
      OS << R.Name << ": call " << *R.Call << ": returned " << R.CallStatus
         << "\n";
    else if (R.Call)
      OS << R.Name << ": call " << *R.Call << ": failed: " << V.Problem << "\n";
  }
  if (!V.Note.empty())
    OS << R.Name << ": note: " << V.Note << "\n";
  for (const contract::Finding &F : V.Contract.Findings)
    OS << R.Name << ": " << findingKindName(F.Kind) << ": " << F.Message
       << "\n";
  OS << "linkguard try-load: " << V.Images.size() << " images mapped, "
     << V.Contract.violations() << " violation"
     << (V.Contract.violations() == 1 ? "" : "s") << ": "
     << tryload::outcomeName(V.What) << "\n";
}

static json::Array strings(const std::vector<std::string> &Ss) {
  json::Array A;
  for (const std::string &S : Ss)
    A.push_back(S);
  return A;
}

json::Value tryLoadToJSON(const contract::ContractSpec &Spec,
                          const TryLoadReport &R) {
  const tryload::TryLoadVerdict &V = R.Verdict;
  json::Array Images, Findings, Forbid, Require;
  for (const tryload::MappedImage &M : V.Images)
    Images.push_back(json::Object{{"path", M.Image.Path},
                                  {"realPath", M.Image.RealPath},
                                  {"origin", tryload::originName(M.From)}});
  for (const contract::Finding &F : V.Contract.Findings)
    Findings.push_back(json::Object{{"kind", findingKindName(F.Kind)},
                                    {"image", F.Dependency.empty()
                                                  ? json::Value(nullptr)
                                                  : json::Value(F.Dependency)},
                                    {"rule", F.Rule},
                                    {"message", F.Message}});
  for (const contract::Pattern &P : Spec.Forbid)
    Forbid.push_back(P.Text);
  for (const contract::Pattern &P : Spec.Require)
    Require.push_back(P.Text);
  json::Value Call = nullptr;
  if (R.Call)
    Call = json::Object{
        {"symbol", *R.Call},
        {"returned", V.What == Outcome::CallFailed ? json::Value(nullptr)
                                                   : json::Value(R.CallStatus)},
        {"problem", V.What == Outcome::CallFailed ? json::Value(V.Problem)
                                                  : json::Value(nullptr)}};
  bool Failed =
      V.What == Outcome::LoadFailed || V.What == Outcome::HideUnavailable;
  return json::Object{
      {"schema", "linkguard-try-load/1"},
      {"name", R.Name},
      {"library", R.Library},
      {"loader", R.Loader},
      {"mode", R.Lazy ? "lazy" : "now"},
      {"removedFromEnvironment", strings(R.Removed)},
      {"hidden", strings(R.Hidden)},
      {"contract", json::Object{{"forbid", std::move(Forbid)},
                                {"require", std::move(Require)}}},
      {"outcome", tryload::outcomeName(V.What)},
      {"problem", Failed ? json::Value(V.Problem) : json::Value(nullptr)},
      {"note", V.Note.empty() ? json::Value(nullptr) : json::Value(V.Note)},
      {"images", std::move(Images)},
      {"call", std::move(Call)},
      {"findings", std::move(Findings)},
      {"exitCode", R.ExitCode}};
}

} // namespace linkguard::driver
