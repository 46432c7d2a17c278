//===- Help.cpp - top-level --help and --version --------------------------===//
#include "commands/Commands.h"


#include "driver/CompilerResolution.h"
#include "config/Config.h"
#include "driver/ExitCode.h"
#include "driver/DriverError.h"
#include "driver/SelfPath.h"
#include "support/Printable.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace linkguard::commands {

namespace {

/// The variables linkguard reads, for --help, `help environment` and the
/// man page's ENVIRONMENT (cmake/GenerateManPage.cmake); tests/e2e/ux.bash
/// fails when the sources read a LINKGUARD_* variable this table lacks.
struct EnvironmentVariable {
  const char *Name;
  const char *Meaning;
};
constexpr EnvironmentVariable EnvironmentVariables[] = {
    {"LINKGUARD_CXX / LINKGUARD_CC", "the real compiler (else CXX/CC, else PATH)"},
    {"LINKGUARD_MODE", "off | inject | verify | enforce"},
    {"LINKGUARD_RULES=off", "no rule injects anything"},
    {"LINKGUARD_RULE_MPS_AOT=off", "turn off the MPS AOT rule only"},
    {"LINKGUARD_AOT", "auto | 1 | 0"},
    {"LINKGUARD_CONFIG", "rules file (else linkguard.toml here or in a parent, else "
                         "~/.config/linkguard/linkguard.toml)"},
    {"LINKGUARD_LOG", "log level: off | error | warn (default) | info | debug | trace"},
    {"LINKGUARD_LOG_FILE", "append the log to this file instead of stderr (warnings, errors "
                           "and verdicts go there too, at any LINKGUARD_LOG but off)"},
    {"LINKGUARD_REPORT", "append one JSON line per step to this file (an absolute path); "
                         "linkguard report FILE sums it"},
    {"LINKGUARD_ASSUME_KNOWN", "option spellings clang 19 does not know, taken as harmless "
                               "(-fflag,-fother=*)"},
    {"NO_COLOR", "set (to anything): no colour on a terminal (no-color.org)"},
};

/// Name, two spaces at least, the meaning wrapped to 80 columns.
std::string environmentText() {
  constexpr size_t Column = 35;
  std::string Out;
  for (const EnvironmentVariable &V : EnvironmentVariables) {
    std::string Line = "  " + std::string(V.Name);
    Line += Line.size() + 2 <= Column ? std::string(Column - Line.size(), ' ') : "  ";
    llvm::StringRef Rest(V.Meaning);
    while (!Rest.empty()) {
      size_t Room = 80 - Line.size();
      size_t Cut = Rest.size() <= Room ? Rest.size() : Rest.take_front(Room).rfind(' ');
      if (Cut == llvm::StringRef::npos || Cut == 0)
        Cut = std::min(Rest.size(), Room);
      Out += Line + Rest.take_front(Cut).rtrim().str() + "\n";
      Rest = Rest.drop_front(Cut).ltrim();
      Line = std::string(Column, ' ');
    }
  }
  return Out;
}

/// linkguard's own exit statuses, for `help exit-codes` and the man page's
/// EXIT STATUS: the rows of driver/ExitCodes.def, the table the ExitCode enum
/// is made of too. docs/exit-codes.md says more of each; tests/e2e/ux.bash
/// fails when it lists other codes than this table prints.
struct ExitStatus {
  driver::ExitCode Code;
  const char *Name;
  const char *When;
};
constexpr ExitStatus ExitStatuses[] = {
#define LINKGUARD_EXIT_CODE(Name, Value, Meaning) {driver::ExitCode::Name, #Name, Meaning},
#include "driver/ExitCodes.def"
};

std::string exitCodesText() {
  std::string Out = "The compiler's own exit status and signals pass through unchanged. "
                    "linkguard's own:\n";
  for (const ExitStatus &E : ExitStatuses) {
    std::string Code = std::to_string(driver::toInt(E.Code));
    std::string Name = E.Name;
    Out += "  " + std::string(4 - Code.size(), ' ') + Code + "  " + Name +
           std::string(Name.size() < 18 ? 18 - Name.size() : 1, ' ') + E.When + "\n";
  }
  return Out;
}

struct HelpTopic {
  const char *Name;
  std::string (*Text)();
};
constexpr HelpTopic HelpTopics[] = {{"environment", environmentText},
                                    {"exit-codes", exitCodesText}};

} // namespace

std::optional<int> printHelpTopic(const std::string &Name) {
  for (const HelpTopic &T : HelpTopics)
    if (Name == T.Name) {
      llvm::outs() << T.Text();
      return 0;
    }
  return std::nullopt;
}

std::vector<std::string> helpTopics() {
  std::vector<std::string> Out = subcommandNames();
  for (const HelpTopic &T : HelpTopics)
    Out.emplace_back(T.Name);
  return Out;
}

std::string helpTopicList() { return llvm::join(helpTopics(), ", "); }

std::string topLevelHelp() {
  return "linkguard " LINKGUARD_VERSION
         " - a compiler-driver wrapper that adds link flags "
         "only where they belong,\nand proves from the linked binary that they "
         "worked.\n"
         "\n"
         "usage:\n"
         "  linkguard-clang++ ARGS...        drop-in C++ driver in front of clang "
         "(set CXX to it)\n"
         "  linkguard-clang ARGS...          drop-in C driver in front of clang (CC)\n"
         "  linkguard-g++, linkguard-gcc     the same in front of GCC: the name says the\n"
         "                                   compiler's family, builds read it\n"
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
         "  linkguard completion SHELL       completion script: bash, zsh, fish\n"
         "  linkguard help [SUBCOMMAND|TOPIC] a subcommand's help; topics: "
         "environment, exit-codes\n"
         "\n"
         "launcher options (what a CMake link line does not show):\n"
         "  --assume-define=NAME[=VALUE]     treat NAME as defined (USE_MPS)\n"
         "  --assume-aot[=1|0]               treat the link as AOT (like "
         "LINKGUARD_AOT)\n"
         "\n"
         "environment:\n" +
         environmentText() +
         "\n"
         "Each subcommand takes --help (or: linkguard help SUBCOMMAND). Exit codes:\n"
         "linkguard help exit-codes; the variables: linkguard help environment.\n";
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
    {"completion", runCompletion},
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
    // ccache's masquerade directory first on PATH (/usr/lib/ccache/clang++):
    // the compiler is the one ccache runs past its link.
    if (std::string Past = driver::compilerPastCacheMasquerade(
            C->Executable, Cfg->env("PATH").value_or(""), Req.SelfPath);
        !Past.empty()) {
      llvm::outs() << "real compiler: " << printable(Past) << " (through "
                   << printable(C->Executable) << ", from " << C->Origin << ")\n";
      return 0;
    }
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
