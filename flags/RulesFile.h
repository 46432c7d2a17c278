//===- RulesFile.h - rules from linkguard.toml -------------------*- C++ -*-===//
//
// A rules file adds RuleSpecs to the built-in ones and can switch built-ins
// off (docs/rules.md has the schema, with the MPS rule written out). It is
// found the way project tools look for their config: LINKGUARD_CONFIG, else
// linkguard.toml in the current directory or a parent (the "project"), else
// the user's $XDG_CONFIG_HOME/linkguard/linkguard.toml
// (~/.config/linkguard/linkguard.toml). Finding it costs one stat per
// directory; nothing is read when there is no file.
//
// The whole file is checked before anything runs: a syntax error, an
// unknown key, a wrong type or an unknown value fails with one message
// naming the file, the line and the key, never a half-read configuration.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "flags/RuleSpec.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace linkguard::flags {

inline constexpr const char *RulesFileName = "linkguard.toml";

struct RulesFile {
  std::string Path;
  bool BuiltinMpsAot = true; // [builtin] mps-aot
  std::vector<RuleSpec> Rules;
};

/// Parses rules from Text; Path names the file in rules' Origin and in
/// errors ("linkguard.toml:7: ...").
llvm::Expected<RulesFile> parseRulesText(llvm::StringRef Text,
                                         const std::string &Path);

/// Reads and parses Path.
llvm::Expected<RulesFile> readRulesFile(const std::string &Path);

/// Where to look; the environment and the filesystem are parameters so
/// tests can substitute them.
struct RulesFileSearch {
  std::optional<std::string> Explicit; // LINKGUARD_CONFIG
  std::string WorkingDir;              // start of the project search
  std::optional<std::string> XdgConfigHome;
  std::optional<std::string> Home;
  std::function<bool(const std::string &)> IsFile;
};

/// The rules file to use, or none. LINKGUARD_CONFIG naming no file is an
/// error (the user asked for it); the other places are optional.
llvm::Expected<std::optional<std::string>>
findRulesFile(const RulesFileSearch &Where);

} // namespace linkguard::flags
