//===- RulesText.h - a linkguard.toml text's parse error, for tests -*- C++ -*-===//
#pragma once

#include "config/RulesFile.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace linkguard::testsupport {

/// The one line parseRulesText says about Toml (named lg.toml), or
/// "(parsed)" when it parses.
inline std::string rulesError(llvm::StringRef Toml) {
  auto F = config::parseRulesText(Toml, "lg.toml");
  if (F)
    return "(parsed)";
  return llvm::toString(F.takeError());
}

} // namespace linkguard::testsupport
