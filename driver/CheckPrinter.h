//===- CheckPrinter.h - text and JSON output of `linkguard check` -*- C++ -*-===//
//
// contract/ judges, this prints: one text line per finding
// ("FILE[ (arch)]: violation|kept|unknown: message") and a summary line, or
// one JSON document whose schema is documented in docs/check.md.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "contract/Contract.h"
#include "objlib/BinaryInfo.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace linkguard::driver {

/// What one file came to. Placements are filled only under --portable.
struct CheckResult {
  std::string Path; // as given on the command line
  objlib::Format Fmt = objlib::Format::MachO;
  std::vector<std::string> Arches;
  contract::Verdict Verdict;
  std::vector<contract::DependencyPlacement> Placements;
  /// Where the binary came from: null, or a zip member / embedded image
  /// (driver/Inputs.h containerToJSON).
  llvm::json::Value Container = nullptr;
  bool InContainer = false; // text names it even without findings
};

/// A file that could not be read: "unreadable", "malformed", "unsupported".
struct CheckFailure {
  std::string Path;
  std::string Kind;
  std::string Message;
};

struct CheckTotals {
  size_t Files = 0, Violations = 0, Kept = 0, Unknown = 0, Errors = 0;
  bool holds() const { return Violations == 0 && Errors == 0; }
};

CheckTotals totalsOf(const std::vector<CheckResult> &Results,
                     const std::vector<CheckFailure> &Failures);

const char *findingKindName(contract::FindingKind K); // "violation", ...

/// One line per finding of one file.
void printCheckText(llvm::raw_ostream &OS, const CheckResult &R);

/// "linkguard check: 2 files, 1 violation, 0 kept, 0 unknown, 0 errors: broken"
void printCheckSummary(llvm::raw_ostream &OS, const CheckTotals &T);

/// The whole --json document.
llvm::json::Value checkToJSON(const contract::ContractSpec &Spec,
                              const std::vector<CheckResult> &Results,
                              const std::vector<CheckFailure> &Failures);

} // namespace linkguard::driver
