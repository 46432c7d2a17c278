//===- RulesFileReport.h - which rules file, for explain -------*- C++ -*-===//
//
// The rules file in force (its path, directory and origin), why it cannot
// be used when it cannot, and every linkguard.toml passed over with the
// reason -- as text lines and as JSON fields of `linkguard explain`.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "config/Config.h"
#include "config/Rules.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace linkguard::driver {

/// "rules file: /p/linkguard.toml (project, in /p)" and one "ignored:"
/// line per file passed over.
void printRulesFileLines(llvm::raw_ostream &OS, const config::Config &C,
                         const config::Rules &R);

/// "rules_file": {path, directory, origin, error} or null, and
/// "rules_files_ignored": [{path, reason}].
void addRulesFileJson(llvm::json::Object &O, const config::Config &C,
                         const config::Rules &R);

} // namespace linkguard::driver
