//===- BuildEnvironment.cpp - CXX/CC through linkguard, never twice -------===//
#include "commands/BuildEnvironment.h"

#include "driver/CompilerResolution.h"
#include "driver/DriverError.h"
#include "driver/SelfPath.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace linkguard::commands {

using namespace driver;

namespace {

struct LanguageVars {
  const char *User;   // CXX
  const char *Own;    // LINKGUARD_CXX
  const char *Driver; // linkguard-clang++
};

constexpr LanguageVars Languages[] = {
    {"CXX", "LINKGUARD_CXX", "linkguard-clang++"},
    {"CC", "LINKGUARD_CC", "linkguard-clang"},
};

/// V when it holds something other than blanks, else nothing: a blank CXX
/// counts as unset. Returning the optional (not a bool) keeps each later
/// dereference visibly guarded.
std::optional<std::string> nonBlank(std::optional<std::string> V) {
  if (V && llvm::StringRef(*V).trim().empty())
    return std::nullopt;
  return V;
}

} // namespace

llvm::Expected<BuildEnvironment> buildEnvironment(const config::Config &Cfg,
                                                  const std::string &SelfPath) {
  BuildEnvironment Env;
  llvm::StringRef Dir = llvm::sys::path::parent_path(SelfPath);
  for (const LanguageVars &L : Languages) {
    // The multi-call names live beside the binary in the build tree and in
    // an install prefix (driver/CMakeLists.txt makes both).
    llvm::SmallString<256> Driver(Dir);
    llvm::sys::path::append(Driver, L.Driver);
    if (!llvm::sys::fs::exists(Driver))
      return makeDriverError(ExitCode::NoCompiler,
                             std::string(L.Driver) + " is missing beside " +
                                 SelfPath + "; reinstall linkguard");

    std::optional<std::string> Previous = nonBlank(Cfg.env(L.User));
    if (Previous) {
      auto Words = splitCommandWords(*Previous);
      if (!Words)
        return Words.takeError();
      if (anyWordIsLinkguard(*Words, Cfg, SelfPath)) {
        // Wrapping again would record linkguard as the real compiler.
        Env.Notes.push_back(std::string(L.User) + "='" + *Previous +
                            "' already runs linkguard: left as it is");
        continue;
      }
    }
    Env.Set.push_back({L.User, std::string(Driver)});
    if (!Previous) {
      // Unset CXX: linkguard finds the compiler on PATH, as the build would.
      Env.Notes.push_back(std::string(L.User) + " was unset: " + L.Own +
                          " not recorded, PATH decides");
      continue;
    }
    if (std::optional<std::string> Own = nonBlank(Cfg.env(L.Own))) {
      // The explicit statement wins, as in compiler resolution.
      Env.Notes.push_back(std::string(L.Own) + "='" + *Own + "' kept; " + L.User +
                          "='" + *Previous + "' not recorded");
      continue;
    }
    Env.Set.push_back({L.Own, *Previous});
  }
  return Env;
}

llvm::Expected<BuildEnvironment> buildEnvironmentHere() {
  auto Cfg = config::configFromEnvironment();
  if (!Cfg)
    return Cfg.takeError();
  return buildEnvironment(*Cfg, driver::selfPath());
}

} // namespace linkguard::commands
