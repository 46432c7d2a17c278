//===- Config.h - everything linkguard reads from its environment -*- C++ -*-===//
//
// Built once at the top of main from the environment and passed down by const
// reference (no mutable globals; style.md guideline 8). A bad value is an
// error here, before anything runs: the build never proceeds on a half-read
// configuration.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "flags/Classification.h"
#include "flags/RuleSpec.h"
#include "config/RulesFileSearch.h"

#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace linkguard::config {

/// LINKGUARD_MODE. Unset means: enforce where a rule injected, verify for
/// other Mach-O shared links (docs/rules.md).
enum class Mode { Default, Off, Inject, Verify, Enforce };
const char *modeName(Mode M);

/// LINKGUARD_AOT: how "is this an AOT build" is decided.
enum class AotSetting { Auto, Yes, No };

struct Config {
  Mode RunMode = Mode::Default;
  bool RulesEnabled = true;     // LINKGUARD_RULES=off disables every rule
  bool MpsAotRuleEnabled = true; // LINKGUARD_RULE_MPS_AOT=off disables one
  AotSetting Aot = AotSetting::Auto;
  std::string LogLevel = "warn"; // LINKGUARD_LOG: off|error|warn|info|debug|trace
  std::string LogFile;           // LINKGUARD_LOG_FILE
  int Depth = 0;                 // _LINKGUARD_DEPTH, the recursion guard
  /// LINKGUARD_ASSUME_KNOWN=-fflag,-fother=*: option spellings clang 19's
  /// table does not know that the user declares harmless to the link (globs).
  std::vector<std::string> AssumeKnown;
  /// The rules file in force (LINKGUARD_CONFIG, ./linkguard.toml or a
  /// parent's, ~/.config/linkguard/linkguard.toml; flags/RulesFileSearch.h),
  /// its directory and origin ("LINKGUARD_CONFIG", "project", "user"), and
  /// what it says. Not looked for under LINKGUARD_MODE=off or
  /// LINKGUARD_RULES=off.
  std::optional<std::string> RulesFile;
  std::string RulesFileDir;
  std::string RulesFileOrigin;
  std::vector<flags::RuleSpec> FileRules;
  bool BuiltinMpsAot = true; // [builtin] mps-aot
  /// The rules file in force cannot be used: LINKGUARD_CONFIG names no
  /// regular file, it is too large, unreadable, not valid, or adds a flag
  /// no rules file may add. Its rules are then not used; link steps stop
  /// with 78 (rulesFileErrorFor), every other step runs unchanged.
  std::optional<std::string> RulesFileError;
  /// linkguard.toml files passed over (not the user's, in a directory
  /// others can write, not a regular file), with the reason. setUpLogging
  /// warns about each once.
  std::vector<IgnoredRulesFile> IgnoredRulesFiles;
  /// The environment variables resolution reads, by name (CXX, CC,
  /// LINKGUARD_CXX, LINKGUARD_CC, PATH). Absent ones are missing.
  std::map<std::string, std::string> Env;

  std::optional<std::string> env(const std::string &Name) const;
};

/// Names of the variables Config reads; docs/configuration.md lists them.
inline constexpr const char *DepthVariable = "_LINKGUARD_DEPTH";
/// Nesting deeper than this is a loop (linkguard -> something -> linkguard
/// ...), like distcc's _DISTCC_SAFEGUARD.
inline constexpr int MaxDepth = 4;

/// BadConfig naming the rules file's fault when there is one and the step
/// is a link: a link is what rules change, and it never runs on a
/// half-read configuration (as ccache refuses to run on a bad ccache.conf).
/// Probes, preprocessing and compiles run unchanged, so `--version`, CMake's
/// and clangd's compiler queries and every compile (and their cache keys)
/// are not held hostage by a rules file; the link says what is wrong.
llvm::Error rulesFileErrorFor(const Config &C, flags::Phase Ph);

/// Reads the process environment. Errors name the variable and the value.
llvm::Expected<Config> configFromEnvironment();

/// The same from an explicit map (tests). The rules file is looked for from
/// WorkingDir (empty: the process's current directory). A fault in the
/// rules file is not an error here (RulesFileError).
llvm::Expected<Config> configFromMap(const std::map<std::string, std::string> &Env,
                                     const std::string &WorkingDir = "");

} // namespace linkguard::config
