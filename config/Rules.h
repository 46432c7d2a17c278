//===- Rules.h - the rules file in force for one step --------------*- C++ -*-===//
//
// What the rules file says, found and read once when a step is planned
// (driver/Plan.cpp), not as part of the environment's switches: LINKGUARD_CONFIG,
// or the first trusted linkguard.toml up from the working directory, or the
// user's own (RulesFileSearch.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "config/Config.h"
#include "config/RulesFile.h"
#include "config/RulesFileSearch.h"
#include "flags/Classification.h"
#include "flags/RuleSpec.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace linkguard::config {

struct Rules {
  /// The file in force, its directory and origin ("LINKGUARD_CONFIG",
  /// "project", "user"); none when no file was found or looked for.
  std::optional<std::string> File;
  std::string Directory;
  std::string Origin;
  std::vector<flags::RuleSpec> FileRules;
  bool BuiltinMpsAot = true; // [builtin] mps-aot
  std::vector<std::string> Roots; // [roots] paths
  std::vector<AllowSpec> Allow;   // [[allow]] tables (check)
  /// The file in force cannot be used: LINKGUARD_CONFIG names no regular
  /// file, it is too large, unreadable, not valid, or adds a flag no rules
  /// file may add. Its rules are then not used; link steps stop with 78
  /// (errorForPhase), every other step runs unchanged.
  std::optional<std::string> Error;
  /// linkguard.toml files passed over (not the user's, in a directory others
  /// can write, not a regular file), with the reason.
  std::vector<IgnoredRulesFile> Ignored;

  /// A ConfigError naming the file's fault when there is one and the step
  /// is a link: a link is what rules change, and it never runs on a
  /// half-read configuration (as ccache refuses to run on a bad
  /// ccache.conf). Probes, preprocessing and compiles run unchanged, so
  /// `--version`, CMake's and clangd's compiler queries and every compile
  /// (and their cache keys) are not held hostage by a rules file.
  llvm::Error errorForPhase(flags::Phase Ph) const;
};

/// The rules in force for Cfg, looked for from WorkingDir (empty: the
/// process's current directory). Not looked for at all under
/// LINKGUARD_MODE=off or LINKGUARD_RULES=off. A fault in the file is kept in
/// Rules::Error, never raised here.
Rules loadRules(const Config &Cfg, const std::string &WorkingDir = "");

} // namespace linkguard::config
