//===- Main.cpp - dispatch on how linkguard was called --------------------===//
//
// The wrapper path (CompilerStep.cpp) or one of the tools (commands/). Part
// of the linkguard executable, not of the driver library, which never
// depends on commands/.
//
#include "driver/Main.h"

#include "commands/Commands.h"
#include "driver/CompilerStep.h"
#include "driver/DriverError.h"
#include "driver/Invocation.h"
#include "driver/Logging.h"
#include "driver/SelfPath.h"

#include "llvm/Support/raw_ostream.h"

namespace linkguard::driver {

static int runSubcommand(const Invocation &Inv) {
  if (Inv.Subcommand == "help") {
    // git's `help CMD`: the subcommand's own --help.
    if (Inv.Args.empty()) {
      llvm::outs() << commands::topLevelHelp();
      return 0;
    }
    const std::string &Topic = Inv.Args.front();
    if (std::optional<int> Status = commands::runSubcommand(Topic, {"--help"}))
      return *Status;
    if (std::optional<int> Status = commands::printHelpTopic(Topic))
      return *Status;
    std::string Near = nearestSubcommand(Topic);
    return reportError(makeDriverError(
        ExitCode::Usage, "help: no subcommand or topic '" + Topic + "'" +
                             (Near.empty() ? "" : "; did you mean '" + Near + "'?") +
                             " (topics: " + commands::helpTopicList() + ")"));
  }
  if (std::optional<int> Status = commands::runSubcommand(Inv.Subcommand, Inv.Args))
    return *Status;
  return reportError(makeDriverError(ExitCode::Usage, "unknown subcommand " + Inv.Subcommand));
}

/// A tool's output that could not be written (a full disk, `>/dev/full`) is
/// a failure of its own, not a contract's (1) and not LLVM's "IO failure"
/// abort at exit: one line and 74.
static int checkedOutput(int Status) {
  llvm::raw_fd_ostream &Out = llvm::outs();
  Out.flush();
  if (!Out.has_error())
    return Status;
  std::error_code EC = Out.error();
  Out.clear_error();
  return reportError(makeDriverError(ExitCode::OutputFailed,
                                     "cannot write the output: " + EC.message()));
}

static int runTool(const Invocation &Inv) {
  switch (Inv.Kind) {
  case InvocationKind::TopLevelHelp:
    llvm::outs() << commands::topLevelHelp();
    return 0;
  case InvocationKind::TopLevelVersion:
    return commands::printVersion();
  case InvocationKind::Usage:
    return reportError(makeDriverError(
        ExitCode::Usage,
        !Inv.Problem.empty() ? Inv.Problem
        : Inv.Args.empty()
            ? "expected a subcommand (inspect, check, try-load, explain, run, "
              "env) or a compiler command; see linkguard --help"
            : "unknown option " + Inv.Args.front() +
                  "; expected a subcommand (inspect, check, try-load, explain, "
                  "run, env), a compiler, --help or --version"));
  case InvocationKind::Subcommand: {
    // Subcommands log too (LINKGUARD_LOG); a bad variable is still an error.
    auto Cfg = config::configFromEnvironment();
    if (!Cfg)
      return reportError(Cfg.takeError());
    setUpLogging(*Cfg);
    return runSubcommand(Inv);
  }
  case InvocationKind::CompilerDriver:
    break;
  }
  return toInt(ExitCode::Internal);
}

int linkguardMain(int Argc, char **Argv) {
  std::vector<std::string> Args(Argv + 1, Argv + Argc);
  Invocation Inv = parseInvocation(Argc > 0 ? Argv[0] : "linkguard", Args);
  if (Inv.Kind != InvocationKind::CompilerDriver)
    return checkedOutput(runTool(Inv));
  // The wrapper path: the compiler's output is the compiler's own.
  auto Cfg = config::configFromEnvironment();
  if (!Cfg)
    return reportError(Cfg.takeError());
  setUpLogging(*Cfg);
  return runCompilerStep(Inv, *Cfg, selfPath());
}

} // namespace linkguard::driver
