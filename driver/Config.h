//===- Config.h - everything linkguard reads from its environment -*- C++ -*-===//
//
// Built once at the top of main from the environment and passed down by const
// reference (no mutable globals; style.md guideline 8). A bad value is an
// error here, before anything runs: the build never proceeds on a half-read
// configuration.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "flags/RuleSpec.h"

#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace linkguard::driver {

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
  /// parent's, ~/.config/linkguard/linkguard.toml), and what it says. Not
  /// looked for under LINKGUARD_MODE=off or LINKGUARD_RULES=off.
  std::optional<std::string> RulesFile;
  std::vector<flags::RuleSpec> FileRules;
  bool BuiltinMpsAot = true; // [builtin] mps-aot
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

/// Reads the process environment. Errors name the variable and the value.
llvm::Expected<Config> configFromEnvironment();

/// The same from an explicit map (tests). The rules file is looked for from
/// WorkingDir (empty: the process's current directory).
llvm::Expected<Config> configFromMap(const std::map<std::string, std::string> &Env,
                                     const std::string &WorkingDir = "");

} // namespace linkguard::driver
