//===- CompilerStep.cpp - the drop-in driver path -------------------------===//
//
// argv ─► Job ─► plan ─► run ─► read ─► judge ─► verdict. The plan is the
// one `linkguard explain` prints (driver/Plan.h); this file only carries it
// out.
//
//===----------------------------------------------------------------------===//
#include "driver/CompilerStep.h"

#include "driver/CMakeCompiler.h"
#include "driver/CompilerFamily.h"
#include "driver/DriverError.h"
#include "driver/Job.h"
#include "driver/FrontCache.h"
#include "driver/Logging.h"
#include "driver/Plan.h"
#include "driver/PlanJson.h"
#include "driver/Process.h"
#include "driver/StepReport.h"
#include "driver/VerifyOutput.h"
#include "support/Printable.h"

#include "llvm/Support/raw_ostream.h"

namespace linkguard::driver {

/// Words for a log line, each escaped (support/Printable.h).
static std::string joinArgs(const std::vector<std::string> &Args) {
  std::string Out;
  for (const std::string &A : Args)
    Out += (Out.empty() ? "" : " ") + printable(A);
  return Out;
}

/// The command that runs: the Job's launch words and the planned arguments
/// (execCompiler and spawnAndWait put Launch.Prefix in front of them).
static int execOrReport(const Job &J, const Plan &P, const config::Config &Cfg) {
  if (!Cfg.ReportFile.empty()) {
    StepRecord R;
    R.CpuMicros = processCpuMicros();
    appendStepRecord(Cfg, J, P, R);
  }
  return reportError(execCompiler(J.Launch, P.CompilerArgs));
}

/// The compiler as a cache in front of linkguard should key on it: the
/// launch words and the words of CXX before the user's (driver/FrontCache.h).
static CompilerCommand compilerIdentity(const Job &J) {
  CompilerCommand C = J.Launch;
  C.Prefix.insert(C.Prefix.end(), J.Args.begin(),
                  J.Args.begin() + static_cast<std::ptrdiff_t>(J.UserArgsStart));
  return C;
}

static void logPlan(const Job &J, const Plan &P, const config::Config &Cfg) {
  logDebug([&] {
    return "real compiler: " + printable(J.Launch.Executable) + " (from " + J.Launch.Origin +
           "), compiler word " + printable(J.CompilerName) + ", form " +
           invocationFormName(J.Form);
  });
  logDebug([&] {
    return std::string("phase ") + flags::phaseName(P.Cls.Ph) + " (" +
           printable(P.Cls.DecidingArg) + "), mode " + config::modeName(P.EffectiveMode);
  });
  if (!P.Cls.UnknownArgs.empty())
    logInfo("arguments unknown to clang 19 (rules decline): " + joinArgs(P.Cls.UnknownArgs));
  if (injects(P))
    logInfo("adding " + joinArgs(P.InsertedBeforeLibraries) +
            (P.InsertedBeforeLibraries.empty() ? "" : " (before the libraries) ") +
            joinArgs(P.Appended));
  // The plan as explain --json prints it (tests/e2e/one_truth.bash compares).
  logTrace([&] { return "plan: " + planJsonLine(J, P, Cfg); });
}

int runCompilerStep(const Invocation &Inv, const config::Config &Cfg,
                    const std::string &SelfPath) {
  if (Cfg.Depth >= config::MaxDepth)
    return reportError(makeDriverError(
        ExitCode::Recursion,
        "linkguard is calling itself (" + std::to_string(Cfg.Depth) +
            " levels deep): CXX, LINKGUARD_CXX or PATH leads back to linkguard; "
            "set LINKGUARD_CXX to the real compiler"));

  auto J = makeJob(Inv, Cfg, SelfPath);
  if (!J)
    return reportError(J.takeError());
  auto P = planJob(*J, Cfg);
  if (!P)
    return reportError(P.takeError());
  markNesting(Cfg.Depth);
  for (const config::IgnoredRulesFile &I : P->Rules.Ignored)
    logWarn("ignoring rules file " + printable(I.Path) + ": " + printable(I.Reason) +
            " (set LINKGUARD_CONFIG=" + printable(I.Path) + " to use it anyway)");
  logPlan(*J, *P, Cfg);
  if (P->Cls.Ph != flags::Phase::Probe) {
    warnIfCacheInFront(compilerIdentity(*J), Cfg, SelfPath, P->Cls.Ph == flags::Phase::Link);
    // linkguard-clang++ in front of g++ (or linkguard-g++ in front of
    // clang++): a build that reads the name adds the wrong family's flags.
    if (J->Form != InvocationForm::Launcher)
      warnIfFamilyDiffers((J->Form == InvocationForm::Wrapper ? "linkguard-" : "") +
                              Inv.Request.WantedName,
                          J->CompilerName, J->Launch.Executable, Cfg,
                          P->Cls.Ph == flags::Phase::Link);
  }
  noteCMakeCompiler(*J, *P, Cfg, SelfPath, Inv.Request.WantedName);
  if (!P->UnknownArgsWarning.empty())
    printDiagnostic("warning", printable(P->UnknownArgsWarning));
  if (!P->NotVerified.empty())
    reportNotVerified(P->NotVerified);

  if (P->What != Action::SpawnAndVerify)
    return execOrReport(*J, *P, Cfg);

  OutputBefore Before = recordOutput(*P);
  StepRecord Record;
  const bool Recording = !Cfg.ReportFile.empty();
  if (Recording)
    Record.CpuMicros = processCpuMicros();
  auto Status = spawnAndWait(J->Launch, P->CompilerArgs);
  if (!Status)
    return reportError(Status.takeError());
  // The compiler failed or died: its output and status pass through
  // untouched, and there is nothing to verify.
  if (Status->Signaled || Status->Code != 0) {
    if (Recording) {
      Record.CompilerStatus = Record.Status = shellStatus(*Status);
      appendStepRecord(Cfg, *J, *P, Record);
    }
    exitLike(*Status);
  }
  // The terminating signals are still held: the verdict completes, then a
  // signal received meanwhile ends linkguard (driver/Process.h).
  long long VerifyStart = Recording ? processCpuMicros() : 0;
  VerifyResult V = verifyLinkedOutput(*P, Before);
  const int Verdict = V.Status;
  if (Recording) {
    Record.VerifyCpuMicros = processCpuMicros() - VerifyStart;
    Record.CompilerStatus = 0;
    Record.Status = Verdict;
    Record.Verify = std::move(V);
    appendStepRecord(Cfg, *J, *P, Record);
  }
  return finishJob(Verdict);
}

} // namespace linkguard::driver
