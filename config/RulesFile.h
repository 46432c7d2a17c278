//===- RulesFile.h - rules from linkguard.toml -------------------*- C++ -*-===//
//
// A rules file adds RuleSpecs to the built-in ones and can switch built-ins
// off (docs/rules.md has the schema, with the MPS rule written out). Which
// file, and whether it is trusted, is RulesFileSearch.h.
//
// The whole file is checked before anything runs: a syntax error, an
// unknown key, a wrong type or an unknown value fails with one message
// naming the file, the line and the key, never a half-read configuration.
// So does a flag no rules file may add (RefusedFlags.h: --ld-path=, -B,
// -fplugin=, --config=, ...).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "flags/RuleSpec.h"
#include "config/RulesFileSearch.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace linkguard::config {

struct RulesFile {
  std::string Path;
  bool BuiltinMpsAot = true; // [builtin] mps-aot
  std::vector<flags::RuleSpec> Rules;
  /// [roots] paths: the files of a tree judged as roots of their own
  /// (check --portable/--unique, inspect --tree; like --root).
  std::vector<std::string> Roots;
};

/// Parses rules from Text; Path names the file in rules' Origin and in
/// errors ("linkguard.toml:7: ...").
llvm::Expected<RulesFile> parseRulesText(llvm::StringRef Text,
                                         const std::string &Path);

/// Reads (a regular file of at most MaxRulesFileBytes) and parses Path.
llvm::Expected<RulesFile> readRulesFile(const std::string &Path);

} // namespace linkguard::config
