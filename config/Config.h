//===- Config.h - the switches linkguard reads from its environment -*- C++ -*-===//
//
// Built once at the top of main from the environment and passed down by const
// reference (no mutable globals; ../shared/style.md, guideline 8). A bad value is an
// error here, before anything runs: the build never proceeds on a half-read
// configuration.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "config/Environment.h"

#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace linkguard::config {

/// LINKGUARD_MODE. Unset means: enforce where a rule injected, verify for
/// other Mach-O shared links (docs/rules.md).
enum class Mode { Default, Off, Inject, Verify, Enforce, Last = Enforce };
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
  /// LINKGUARD_REPORT: the build record, one JSON line appended per step
  /// (driver/StepReport.h); an absolute path, "" when unset.
  std::string ReportFile;
  int Depth = 0;                 // _LINKGUARD_DEPTH, the recursion guard
  /// LINKGUARD_ASSUME_KNOWN=-fflag,-fother=*: option spellings clang 19's
  /// table does not know that the user declares harmless to the link (globs).
  std::vector<std::string> AssumeKnown;
  /// Where every other variable is read (CXX, PATH, HOME, ...), by name.
  Environment Env = Environment::process();

  std::optional<std::string> env(llvm::StringRef Name) const { return Env.get(Name); }
};

/// Names of the variables Config reads; docs/configuration.md lists them.
inline constexpr const char *DepthVariable = "_LINKGUARD_DEPTH";
/// Nesting deeper than this is a loop (linkguard -> something -> linkguard
/// ...), like distcc's _DISTCC_SAFEGUARD.
inline constexpr int MaxDepth = 4;

/// Reads the process environment. Errors name the variable and the value.
llvm::Expected<Config> configFromEnvironment();

/// The same from an explicit map (tests): every other variable is unset.
llvm::Expected<Config> configFromMap(const std::map<std::string, std::string> &Env);

} // namespace linkguard::config
