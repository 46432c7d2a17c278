//===- CompilerStep.cpp - the drop-in driver path -------------------------===//
#include "driver/CompilerStep.h"

#include "driver/DriverError.h"
#include "driver/Logging.h"
#include "driver/Process.h"
#include "driver/StepPlan.h"
#include "driver/VerifyOutput.h"
#include "flags/Classify.h"

#include "llvm/Support/Path.h"

namespace linkguard::driver {

static std::string joinArgs(const std::vector<std::string> &Args) {
  std::string Out;
  for (const std::string &A : Args)
    Out += (Out.empty() ? "" : " ") + A;
  return Out;
}

/// execv, or the error that says why it could not happen.
static int execOrReport(const CompilerCommand &Cmd,
                        const std::vector<std::string> &Args) {
  return reportError(execCompiler(Cmd, Args));
}

int runCompilerStep(const Invocation &Inv, const Config &Cfg,
                    const std::string &SelfPath) {
  if (Cfg.Depth >= MaxDepth)
    return reportError(makeDriverError(
        ExitCode::Recursion,
        "linkguard is calling itself (" + std::to_string(Cfg.Depth) +
            " levels deep): CXX, LINKGUARD_CXX or PATH leads back to linkguard; "
            "set LINKGUARD_CXX to the real compiler"));

  ResolveRequest Req = Inv.Request;
  Req.SelfPath = SelfPath;
  auto Compiler = resolveCompiler(Req, Cfg);
  if (!Compiler)
    return reportError(Compiler.takeError());
  logDebug("real compiler: " + Compiler->Executable + " (from " + Compiler->Origin + ")");
  markNesting(Cfg.Depth);

  if (Cfg.RunMode == Mode::Off)
    return execOrReport(*Compiler, Inv.Args);

  flags::ClassifyOptions Opts;
  Opts.CompilerName = llvm::sys::path::filename(Compiler->Prefix.back()).str();
  // With CXX="ccache clang++" the compiler is the last word, not ccache.
  for (const std::string &W : Compiler->Prefix)
    if (!W.empty() && W.front() != '-')
      Opts.CompilerName = llvm::sys::path::filename(W).str();
  auto Cls = flags::classify(Inv.Args, Opts);
  if (!Cls)
    return reportError(Cls.takeError());
  // A rules file that cannot be used stops links only (Config.h).
  if (llvm::Error E = rulesFileErrorFor(Cfg, Cls->Ph))
    return reportError(std::move(E));
  if (!Cls->UnknownArgs.empty())
    logInfo("arguments unknown to clang 19 (rules decline): " + joinArgs(Cls->UnknownArgs));

  // Launcher options (--assume-define=USE_MPS) state what a CMake link line
  // cannot show; they feed the rules as if the line carried them.
  Config Effective = Cfg;
  applyLauncherAssumptions(Inv, *Cls, Effective);
  StepPlan Plan = planStep(std::move(*Cls), Effective);
  logDebug(std::string("phase ") + flags::phaseName(Plan.Cls.Ph) + " (" +
           Plan.Cls.DecidingArg + "), mode " + modeName(Plan.EffectiveMode));

  switch (Plan.What) {
  case Action::Exec:
    return execOrReport(*Compiler, Inv.Args);
  case Action::ExecInjected: {
    std::vector<std::string> Args = plannedArgs(Plan, Inv.Args);
    logInfo("adding " + joinArgs(Plan.InsertedBeforeLibraries) +
            (Plan.InsertedBeforeLibraries.empty() ? "" : " (before the libraries) ") +
            joinArgs(Plan.Appended));
    return execOrReport(*Compiler, Args);
  }
  case Action::SpawnAndVerify:
    break;
  }

  std::vector<std::string> Args = plannedArgs(Plan, Inv.Args);
  if (injects(Plan))
    logInfo("adding " + joinArgs(Plan.InsertedBeforeLibraries) +
            (Plan.InsertedBeforeLibraries.empty() ? "" : " (before the libraries) ") +
            joinArgs(Plan.Appended));
  auto Status = spawnAndWait(*Compiler, Args);
  if (!Status)
    return reportError(Status.takeError());
  // The compiler failed or died: its output and status pass through
  // untouched, and there is nothing to verify.
  if (Status->Signaled || Status->Code != 0)
    exitLike(*Status);
  return verifyLinkedOutput(Plan);
}

} // namespace linkguard::driver
