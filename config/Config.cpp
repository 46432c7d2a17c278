//===- Config.cpp - read LINKGUARD_* variables once -----------------------===//
#include "config/Config.h"

#include "config/ConfigError.h"
#include "support/EnumNames.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"

#include <cstdlib>

namespace linkguard::config {

char ConfigError::ID = 0;


const char *modeName(Mode M) {
  return enumName(M, {"default", "off", "inject", "verify", "enforce"});
}

static llvm::Error badValue(const std::string &Var, const std::string &Value,
                            const char *Expected) {
  return makeConfigError(Var + "='" + Value +
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

static llvm::Expected<Config> configFrom(Environment Env) {
  Config C;
  C.Env = std::move(Env);

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
  // Build steps run in many directories (make -C, CMake's per-target
  // folders): a relative record would be scattered among them.
  if (auto V = C.env("LINKGUARD_REPORT"); V && !V->empty()) {
    if (V->front() != '/')
      return badValue("LINKGUARD_REPORT", *V,
                      "an absolute path (build steps run in many directories)");
    C.ReportFile = *V;
  }
  if (auto V = C.env(DepthVariable); V && !V->empty()) {
    int Depth = 0;
    if (llvm::StringRef(*V).getAsInteger(10, Depth) || Depth < 0)
      return badValue(DepthVariable, *V, "a small non-negative integer");
    C.Depth = Depth;
  }
  return C;
}

llvm::Expected<Config> configFromMap(const std::map<std::string, std::string> &Env) {
  return configFrom(Environment::fromMap(Env));
}

llvm::Expected<Config> configFromEnvironment() {
  return configFrom(Environment::process());
}

} // namespace linkguard::config
