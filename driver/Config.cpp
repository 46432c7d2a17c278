//===- Config.cpp - read LINKGUARD_* variables once -----------------------===//
#include "driver/Config.h"

#include "driver/DriverError.h"

#include "flags/RulesFile.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"

#include <cstdlib>

extern char **environ;

namespace linkguard::driver {

const char *modeName(Mode M) {
  switch (M) {
  case Mode::Default: return "default";
  case Mode::Off: return "off";
  case Mode::Inject: return "inject";
  case Mode::Verify: return "verify";
  case Mode::Enforce: return "enforce";
  }
  return "?";
}

std::optional<std::string> Config::env(const std::string &Name) const {
  auto It = Env.find(Name);
  if (It == Env.end())
    return std::nullopt;
  return It->second;
}

static llvm::Error badValue(const std::string &Var, const std::string &Value,
                            const char *Expected) {
  return makeDriverError(ExitCode::BadConfig, Var + "='" + Value +
                                                  "' is not valid; expected " +
                                                  Expected);
}

static llvm::Expected<bool> parseSwitch(const std::string &Var,
                                        const std::string &Value) {
  llvm::StringRef V(Value);
  if (V.equals_insensitive("on") || V == "1" || V.equals_insensitive("yes"))
    return true;
  if (V.equals_insensitive("off") || V == "0" || V.equals_insensitive("no"))
    return false;
  return badValue(Var, Value, "on or off");
}

/// LINKGUARD_CONFIG or the first linkguard.toml found (flags/RulesFile.h).
/// Any fault in the file is BadConfig: the build does not run on a
/// half-read rules file.
static llvm::Error loadRulesFile(Config &C, const std::string &WorkingDir) {
  flags::RulesFileSearch Where;
  if (auto V = C.env("LINKGUARD_CONFIG"); V && !V->empty())
    Where.Explicit = *V;
  if (WorkingDir.empty()) {
    llvm::SmallString<256> Cwd;
    if (!llvm::sys::fs::current_path(Cwd))
      Where.WorkingDir = std::string(Cwd);
  } else {
    Where.WorkingDir = WorkingDir;
  }
  Where.XdgConfigHome = C.env("XDG_CONFIG_HOME");
  Where.Home = C.env("HOME");
  // One stat per candidate; nothing is read unless a file is there.
  Where.IsFile = [](const std::string &P) { return llvm::sys::fs::is_regular_file(P); };
  auto Found = flags::findRulesFile(Where);
  if (!Found)
    return makeDriverError(ExitCode::BadConfig, llvm::toString(Found.takeError()));
  const std::optional<std::string> &Path = *Found;
  if (!Path)
    return llvm::Error::success();
  auto File = flags::readRulesFile(*Path);
  if (!File)
    return makeDriverError(ExitCode::BadConfig, llvm::toString(File.takeError()));
  C.RulesFile = *Path;
  C.FileRules = std::move(File->Rules);
  C.BuiltinMpsAot = File->BuiltinMpsAot;
  return llvm::Error::success();
}

llvm::Expected<Config> configFromMap(const std::map<std::string, std::string> &Env,
                                     const std::string &WorkingDir) {
  Config C;
  C.Env = Env;

  if (auto V = C.env("LINKGUARD_MODE"); V && !V->empty()) {
    if (*V == "off") C.RunMode = Mode::Off;
    else if (*V == "inject") C.RunMode = Mode::Inject;
    else if (*V == "verify") C.RunMode = Mode::Verify;
    else if (*V == "enforce") C.RunMode = Mode::Enforce;
    else if (*V == "default") C.RunMode = Mode::Default;
    else return badValue("LINKGUARD_MODE", *V, "off, inject, verify or enforce");
  }
  if (auto V = C.env("LINKGUARD_RULES"); V && !V->empty()) {
    auto On = parseSwitch("LINKGUARD_RULES", *V);
    if (!On) return On.takeError();
    C.RulesEnabled = *On;
  }
  if (auto V = C.env("LINKGUARD_RULE_MPS_AOT"); V && !V->empty()) {
    auto On = parseSwitch("LINKGUARD_RULE_MPS_AOT", *V);
    if (!On) return On.takeError();
    C.MpsAotRuleEnabled = *On;
  }
  if (auto V = C.env("LINKGUARD_AOT"); V && !V->empty()) {
    if (*V == "auto") C.Aot = AotSetting::Auto;
    else if (*V == "1") C.Aot = AotSetting::Yes;
    else if (*V == "0") C.Aot = AotSetting::No;
    else return badValue("LINKGUARD_AOT", *V, "auto, 1 or 0");
  }
  if (auto V = C.env("LINKGUARD_LOG"); V && !V->empty()) {
    static const char *Levels[] = {"off", "error", "warn", "info", "debug", "trace"};
    bool Known = false;
    for (const char *L : Levels)
      Known |= *V == L;
    if (!Known)
      return badValue("LINKGUARD_LOG", *V, "off, error, warn, info, debug or trace");
    C.LogLevel = *V;
  }
  if (auto V = C.env("LINKGUARD_ASSUME_KNOWN"); V && !V->empty()) {
    llvm::SmallVector<llvm::StringRef, 8> Parts;
    llvm::StringRef(*V).split(Parts, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef Part : Parts) {
      llvm::StringRef Spelling = Part.trim();
      if (!Spelling.starts_with("-"))
        return badValue("LINKGUARD_ASSUME_KNOWN", *V,
                        "option spellings starting with '-', separated by commas");
      C.AssumeKnown.push_back(Spelling.str());
    }
  }
  if (auto V = C.env("LINKGUARD_LOG_FILE"))
    C.LogFile = *V;
  if (auto V = C.env(DepthVariable); V && !V->empty()) {
    int Depth = 0;
    if (llvm::StringRef(*V).getAsInteger(10, Depth) || Depth < 0)
      return badValue(DepthVariable, *V, "a small non-negative integer");
    C.Depth = Depth;
  }
  if (C.RunMode != Mode::Off && C.RulesEnabled)
    if (llvm::Error E = loadRulesFile(C, WorkingDir))
      return std::move(E);
  return C;
}

llvm::Expected<Config> configFromEnvironment() {
  std::map<std::string, std::string> Env;
  for (char **E = environ; E && *E; ++E) {
    llvm::StringRef Entry(*E);
    auto [Name, Value] = Entry.split('=');
    Env.emplace(Name.str(), Value.str());
  }
  return configFromMap(Env);
}

} // namespace linkguard::driver
