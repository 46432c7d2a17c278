//===- TryLoadPrinter.h - text and JSON output of `try-load` -----*- C++
//-*-===//
#pragma once

#include "contract/Contract.h"
#include "tryload/Outcome.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace linkguard::driver {

/// Everything one try-load run printed from.
struct TryLoadReport {
  std::string Name;    // the FILE argument, or the member it named
  std::string Library; // the file the loader opened
  std::string Loader;  // linkguard-loader's path
  bool Lazy = false;
  bool KeepEnv = false;
  std::vector<std::string> Removed; // variables scrubbed from the environment
  std::vector<std::string> Hidden;
  std::optional<std::string> Call;
  int CallStatus = 0;
  tryload::TryLoadVerdict Verdict;
  int ExitCode = 0;
};

/// One line per fact, each "NAME: ...", findings as `check` prints them,
/// then a summary line.
void printTryLoadText(llvm::raw_ostream &OS, const TryLoadReport &R);

/// The --json document (docs/try-load.md).
llvm::json::Value tryLoadToJSON(const contract::ContractSpec &Spec,
                                const TryLoadReport &R);

} // namespace linkguard::driver
