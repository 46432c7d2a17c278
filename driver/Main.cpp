//===- Main.cpp - dispatch on how linkguard was called --------------------===//
#include "driver/Main.h"

#include "driver/Commands.h"
#include "driver/CompilerStep.h"
#include "driver/DriverError.h"
#include "driver/Help.h"
#include "driver/Invocation.h"
#include "driver/Logging.h"
#include "driver/SelfPath.h"

#include "llvm/Support/raw_ostream.h"

namespace linkguard::driver {

static int runSubcommand(const Invocation &Inv) {
  if (Inv.Subcommand == "inspect")
    return runInspect(Inv.Args);
  if (Inv.Subcommand == "check")
    return runCheck(Inv.Args);
  if (Inv.Subcommand == "explain")
    return runExplain(Inv.Args);
  if (Inv.Subcommand == "run")
    return runRun(Inv.Args);
  if (Inv.Subcommand == "env")
    return runEnv(Inv.Args);
  if (Inv.Subcommand == "try-load")
    return runTryLoad(Inv.Args);
  if (Inv.Subcommand == "help") {
    llvm::outs() << topLevelHelp();
    return 0;
  }
  return reportError(makeDriverError(ExitCode::Usage, "unknown subcommand " + Inv.Subcommand));
}

int linkguardMain(int Argc, char **Argv) {
  std::vector<std::string> Args(Argv + 1, Argv + Argc);
  Invocation Inv = parseInvocation(Argc > 0 ? Argv[0] : "linkguard", Args);

  switch (Inv.Kind) {
  case InvocationKind::TopLevelHelp:
    llvm::outs() << topLevelHelp();
    return 0;
  case InvocationKind::TopLevelVersion:
    return printVersion();
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
  case InvocationKind::CompilerDriver: {
    auto Cfg = config::configFromEnvironment();
    if (!Cfg)
      return reportError(Cfg.takeError());
    setUpLogging(*Cfg);
    return runCompilerStep(Inv, *Cfg, selfPath());
  }
  }
  return toInt(ExitCode::Internal);
}

} // namespace linkguard::driver
