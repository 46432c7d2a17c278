//===- BuildEnvironment.cpp - CXX/CC through linkguard, never twice -------===//
#include "commands/BuildEnvironment.h"

#include "driver/CompilerFamily.h"
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
  const char *User; // CXX
  const char *Own;  // LINKGUARD_CXX
  Language Lang;
  // What a build with the variable unset runs: make's default CXX is g++
  // (CC: cc, GCC on Linux), inductor's config.cpp.cxx is g++ on Linux and
  // clang++ on macOS (torch/_inductor/config.py), CMake finds c++/cc,
  // GCC on Debian and Apple's clang on macOS.
  const char *DefaultGcc;   // g++
  const char *DefaultClang; // clang++
};

constexpr LanguageVars Languages[] = {
    {"CXX", "LINKGUARD_CXX", Language::Cxx, "g++", "clang++"},
    {"CC", "LINKGUARD_CC", Language::C, "gcc", "clang"},
};

#if defined(__APPLE__)
constexpr CompilerFamily PlatformFamily = CompilerFamily::Clang;
#else
constexpr CompilerFamily PlatformFamily = CompilerFamily::Gcc;
#endif

/// The family of the compiler a build with L's variable unset would run:
/// the platform's (GCC on Linux, clang on macOS), or the other when only
/// the other's compiler is on PATH (a Linux machine with clang alone).
CompilerFamily defaultFamily(const LanguageVars &L, const std::string &PathVar,
                             const std::string &SelfPath) {
  const bool Gcc = PlatformFamily == CompilerFamily::Gcc;
  const char *Own = Gcc ? L.DefaultGcc : L.DefaultClang;
  const char *Other = Gcc ? L.DefaultClang : L.DefaultGcc;
  if (findExecutable(Own, PathVar, SelfPath).empty() &&
      !findExecutable(Other, PathVar, SelfPath).empty())
    return Gcc ? CompilerFamily::Clang : CompilerFamily::Gcc;
  return PlatformFamily;
}

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
  const std::string PathVar = Cfg.env("PATH").value_or("");
  for (const LanguageVars &L : Languages) {
    std::optional<std::string> Previous = nonBlank(Cfg.env(L.User));
    std::optional<std::string> Own = nonBlank(Cfg.env(L.Own));
    std::optional<std::vector<std::string>> PreviousWords;
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
      PreviousWords = std::move(*Words);
    }
    // The drop-in carries a name of the family of the compiler that will
    // run (driver/CompilerFamily.h): an explicit LINKGUARD_CXX's, else the
    // user's CXX's, else what a build without CXX runs. A name that says
    // neither (a c++ that is no link to a g++ or clang++) says nothing.
    CompilerFamily Family = CompilerFamily::Unknown;
    if (Own) {
      if (auto Words = splitCommandWords(*Own))
        Family = familyOfCommand(*Words, PathVar, SelfPath);
      else
        llvm::consumeError(Words.takeError());
    }
    if (Family == CompilerFamily::Unknown && PreviousWords)
      Family = familyOfCommand(*PreviousWords, PathVar, SelfPath);
    if (Family == CompilerFamily::Unknown)
      Family = defaultFamily(L, PathVar, SelfPath);
    const char *Name = dropInName(Family, L.Lang);

    // The multi-call names live beside the binary in the build tree and in
    // an install prefix (driver/CMakeLists.txt makes both).
    llvm::SmallString<256> Driver(Dir);
    llvm::sys::path::append(Driver, Name);
    if (!llvm::sys::fs::exists(Driver))
      return makeDriverError(ExitCode::NoCompiler,
                             std::string(Name) + " is missing beside " + SelfPath +
                                 "; reinstall linkguard");
    Env.Set.push_back({L.User, std::string(Driver)});
    if (Own) {
      // The explicit statement wins, as in compiler resolution.
      Env.Notes.push_back(std::string(L.Own) + "='" + *Own + "' kept" +
                          (Previous ? "; " + std::string(L.User) + "='" + *Previous +
                                          "' not recorded"
                                    : std::string()));
      continue;
    }
    if (!Previous) {
      // Unset CXX: linkguard finds the compiler on PATH by the drop-in's
      // name (g++ on Linux), as the build would.
      Env.Notes.push_back(std::string(L.User) + " was unset: " + Name + " runs the first " +
                          (Family == CompilerFamily::Gcc ? L.DefaultGcc : L.DefaultClang) +
                          " on PATH, what a build without " + L.User + " runs; " + L.Own +
                          " not recorded");
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
