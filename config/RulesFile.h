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

/// What an [[allow]] entry names besides its file (one of them, exactly).
enum class AllowKind {
  Dependency, // a dependency name as the file records it (a pattern, as --provided)
  Runpath,    // an LC_RPATH / DT_RUNPATH / DT_RPATH entry as written (a glob)
  Symbol,     // an exported symbol's name (a glob)
  Last = Symbol,
};
const char *allowKindName(AllowKind K); // "dependency", "runpath", "symbol"

/// One [[allow]] table of linkguard.toml (docs/configuration.md#allow-lists):
/// check accepts the findings it names, and prints each with its reason.
struct AllowSpec {
  std::string File; // a glob over the finding's file
  AllowKind Kind = AllowKind::Dependency;
  std::string Value;  // the glob of Kind's key
  std::string Reason; // never empty
  std::string Origin; // "linkguard.toml:12": the file's name and the table's line
};

struct RulesFile {
  std::string Path;
  bool BuiltinMpsAot = true; // [builtin] mps-aot
  std::vector<flags::RuleSpec> Rules;
  /// [roots] paths: the files of a tree judged as roots of their own
  /// (check --portable/--unique, inspect --tree; like --root).
  std::vector<std::string> Roots;
  /// [[allow]] tables, in the file's order (check only).
  std::vector<AllowSpec> Allow;
};

/// Parses rules from Text; Path names the file in rules' Origin and in
/// errors ("linkguard.toml:7: ...").
llvm::Expected<RulesFile> parseRulesText(llvm::StringRef Text,
                                         const std::string &Path);

/// Reads (a regular file of at most MaxRulesFileBytes) and parses Path.
llvm::Expected<RulesFile> readRulesFile(const std::string &Path);

} // namespace linkguard::config
