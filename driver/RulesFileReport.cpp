//===- RulesFileReport.cpp - which rules file, for `explain` --------------===//
#include "driver/RulesFileReport.h"

namespace linkguard::driver {

static bool lookedFor(const config::Config &C) {
  return C.RunMode != config::Mode::Off && C.RulesEnabled;
}

void printRulesFileLines(llvm::raw_ostream &OS, const config::Config &C, const config::Rules &R) {
  OS << "rules file: ";
  if (!lookedFor(C))
    OS << "(not looked for: "
       << (C.RulesEnabled ? "LINKGUARD_MODE=off" : "LINKGUARD_RULES=off")
       << ")";
  else if (!R.File)
    OS << "(none)";
  else
    OS << *R.File << " (" << R.Origin << ", in " << R.Directory
       << ")";
  OS << "\n";
  if (R.Error)
    OS << "  not used: " << *R.Error << " (a link stops with 78)\n";
  for (const config::IgnoredRulesFile &I : R.Ignored)
    OS << "ignored:    " << I.Path << ": " << I.Reason << "\n";
}

void addRulesFileJson(llvm::json::Object &O, const config::Config &C, const config::Rules &R) {
  if (R.File)
    O["rules_file"] = llvm::json::Object{
        {"path", *R.File},
        {"directory", R.Directory},
        {"origin", R.Origin},
        {"error", R.Error ? llvm::json::Value(*R.Error)
                                   : llvm::json::Value(nullptr)}};
  else
    O["rules_file"] = nullptr;
  llvm::json::Array Ignored;
  for (const config::IgnoredRulesFile &I : R.Ignored)
    Ignored.push_back(
        llvm::json::Object{{"path", I.Path}, {"reason", I.Reason}});
  O["rules_files_ignored"] = std::move(Ignored);
}

} // namespace linkguard::driver
