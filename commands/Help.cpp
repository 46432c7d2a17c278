//===- Help.cpp - top-level --help and --version --------------------------===//
#include "commands/Commands.h"


#include "driver/CompilerResolution.h"
#include "config/Config.h"
#include "driver/DriverError.h"
#include "driver/SelfPath.h"
#include "support/Printable.h"

#include "llvm/Support/raw_ostream.h"

namespace linkguard::commands {

std::string topLevelHelp() {
  return "linkguard " LINKGUARD_VERSION
         " - a compiler-driver wrapper that adds link flags "
         "only where they belong,\nand proves from the linked binary that they "
         "worked.\n"
         "\n"
         "usage:\n"
         "  linkguard-clang++ ARGS...        drop-in C++ driver (set CXX to "
         "it)\n"
         "  linkguard-clang ARGS...          drop-in C driver (set CC to it)\n"
         "  linkguard [LAUNCHER-OPTIONS] [--] COMPILER ARGS...\n"
         "                                   launcher form "
         "(CMAKE_CXX_LINKER_LAUNCHER)\n"
         "  linkguard inspect FILE...        load commands / NEEDED of a "
         "binary\n"
         "  linkguard check FILE... OPTIONS  judge a binary's dependencies\n"
         "                                   (also each binary in a .pt2/zip; "
         "--scan: in a .pte)\n"
         "  linkguard try-load FILE OPTIONS  load it in a clean process, judge "
         "what got mapped\n"
         "  linkguard explain -- COMMAND     dry run: phase, rule, why\n"
         "  linkguard run -- COMMAND ARGS... run a build with CXX/CC through "
         "linkguard\n"
         "  linkguard env                    the same as shell export lines\n"
         "  linkguard report FILE            sum a LINKGUARD_REPORT build record\n"
         "  linkguard --version              version and the real compiler in "
         "use\n"
         "\n"
         "launcher options (what a CMake link line does not show):\n"
         "  --assume-define=NAME[=VALUE]     treat NAME as defined (USE_MPS)\n"
         "  --assume-aot[=1|0]               treat the link as AOT (like "
         "LINKGUARD_AOT)\n"
         "\n"
         "environment:\n"
         "  LINKGUARD_CXX / LINKGUARD_CC     the real compiler (else CXX/CC, "
         "else PATH)\n"
         "  LINKGUARD_MODE                   off | inject | verify | enforce\n"
         "  LINKGUARD_RULES=off              no rule injects anything\n"
         "  LINKGUARD_RULE_MPS_AOT=off       turn off the MPS AOT rule only\n"
         "  LINKGUARD_AOT                    auto | 1 | 0\n"
         "  LINKGUARD_CONFIG                 rules file (else linkguard.toml "
         "here or in a parent,\n"
         "                                   else "
         "~/.config/linkguard/linkguard.toml)\n"
         "  LINKGUARD_LOG, LINKGUARD_LOG_FILE  log level (default warn) and "
         "file\n"
         "  LINKGUARD_REPORT                 append one JSON line per step to "
         "this file\n"
         "\n"
         "Each subcommand takes --help. Exit codes: docs/exit-codes.md.\n";
}

namespace {

using Runner = int (*)(const std::vector<std::string> &);

struct Subcommand {
  const char *Name;
  Runner Run;
};

// In the order the help lists them.
const Subcommand Subcommands[] = {
    {"inspect", runInspect}, {"check", runCheck}, {"try-load", runTryLoad},
    {"explain", runExplain}, {"run", runRun},     {"env", runEnv},
    {"report", runReport},
};

} // namespace

std::optional<int> runSubcommand(const std::string &Name, const std::vector<std::string> &Args) {
  for (const Subcommand &S : Subcommands)
    if (Name == S.Name)
      return S.Run(Args);
  return std::nullopt;
}

const std::vector<std::string> &subcommandNames() {
  static const std::vector<std::string> Names = [] {
    std::vector<std::string> N;
    for (const Subcommand &S : Subcommands)
      N.emplace_back(S.Name);
    return N;
  }();
  return Names;
}

int printVersion() {
  // The same check a step makes: a bad LINKGUARD_MODE is refused (78), not
  // shown with a version as if it would work.
  auto Cfg = config::configFromEnvironment();
  if (!Cfg)
    return driver::reportError(Cfg.takeError());
  llvm::outs() << "linkguard " LINKGUARD_VERSION "\n";
  driver::ResolveRequest Req;
  Req.SelfPath = driver::selfPath();
  auto C = driver::resolveCompiler(Req, *Cfg);
  if (!C) {
    llvm::outs() << "real compiler: none found ("
                 << printable(llvm::toString(C.takeError())) << ")\n";
    return 0;
  }
  // "ccache clang++-19": the compiler is the word after the launchers, as
  // the step runs it (driver/Job.h); the launchers are said beside it.
  size_t Word = driver::compilerWordIndex(C->Prefix);
  if (Word == 0) {
    llvm::outs() << "real compiler: " << printable(C->Executable) << " (from " << C->Origin
                 << ")\n";
    return 0;
  }
  std::string Compiler = C->Prefix[Word];
  if (Compiler.find('/') == std::string::npos)
    if (std::string Found = driver::findExecutable(
            Compiler, Cfg->env("PATH").value_or(""), Req.SelfPath);
        !Found.empty())
      Compiler = Found;
  std::string Through = printable(C->Executable);
  for (size_t I = 1; I < Word; ++I)
    Through += " " + printable(C->Prefix[I]);
  llvm::outs() << "real compiler: " << printable(Compiler) << " (through " << Through
               << ", from " << C->Origin << ")\n";
  return 0;
}

} // namespace linkguard::commands
