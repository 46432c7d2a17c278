//===- RulesFileReport.cpp - which rules file, for `explain` --------------===//
#include "driver/RulesFileReport.h"

namespace linkguard::driver {

static bool lookedFor(const config::Config &C) {
  return C.RunMode != config::Mode::Off && C.RulesEnabled;
}

void printRulesFileLines(llvm::raw_ostream &OS, const config::Config &C) {
  OS << "rules file: ";
  if (!lookedFor(C))
    OS << "(not looked for: "
       << (C.RulesEnabled ? "LINKGUARD_MODE=off" : "LINKGUARD_RULES=off")
       << ")";
  else if (!C.RulesFile)
    OS << "(none)";
  else
    OS << *C.RulesFile << " (" << C.RulesFileOrigin << ", in " << C.RulesFileDir
       << ")";
  OS << "\n";
  if (C.RulesFileError)
    OS << "  not used: " << *C.RulesFileError << " (a link stops with 78)\n";
  for (const config::IgnoredRulesFile &I : C.IgnoredRulesFiles)
    OS << "ignored:    " << I.Path << ": " << I.Reason << "\n";
}

void addRulesFileJson(llvm::json::Object &O, const config::Config &C) {
  if (C.RulesFile)
    O["rules_file"] = llvm::json::Object{
        {"path", *C.RulesFile},
        {"directory", C.RulesFileDir},
        {"origin", C.RulesFileOrigin},
        {"error", C.RulesFileError ? llvm::json::Value(*C.RulesFileError)
                                   : llvm::json::Value(nullptr)}};
  else
    O["rules_file"] = nullptr;
  llvm::json::Array Ignored;
  for (const config::IgnoredRulesFile &I : C.IgnoredRulesFiles)
    Ignored.push_back(
        llvm::json::Object{{"path", I.Path}, {"reason", I.Reason}});
  O["rules_files_ignored"] = std::move(Ignored);
}

} // namespace linkguard::driver
