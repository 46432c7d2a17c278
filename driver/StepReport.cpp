//===- StepReport.cpp - one JSON line per step ------------------------------===//
#include "driver/StepReport.h"

#include "driver/FrontCache.h"
#include "driver/Logging.h"
#include "driver/PlanJson.h"
#include "support/JsonName.h"
#include "support/Printable.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <unistd.h>

namespace linkguard::driver {

namespace json = llvm::json;

long long processCpuMicros() {
  struct timespec T {};
  if (::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T) != 0)
    return 0;
  return static_cast<long long>(T.tv_sec) * 1000000 + T.tv_nsec / 1000;
}

std::string stepRecordLine(const Job &J, const Plan &P, const StepRecord &R) {
  json::Object O;
  O["schema"] = "linkguard-report/1";
  O["time"] = std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::system_clock::now().time_since_epoch())
                  .count();
  O["pid"] = static_cast<int64_t>(::getpid());
  putJsonName(O, "compiler", J.Launch.Executable);
  O["form"] = invocationFormName(J.Form);
  O["phase"] = flags::phaseName(P.Cls.Ph);
  if (P.Cls.Output)
    putJsonName(O, "output", *P.Cls.Output);
  else
    O["output"] = nullptr;
  json::Array Applied;
  for (const flags::RuleDecision &D : P.Decisions)
    if (D.matches())
      Applied.push_back(D.RuleName);
  O["rulesApplied"] = std::move(Applied);
  O["injected"] = injects(P);
  json::Array Added;
  for (const std::string &A : P.InsertedBeforeLibraries)
    Added.push_back(A);
  for (const std::string &A : P.Appended)
    Added.push_back(A);
  O["added"] = std::move(Added);
  O["mode"] = config::modeName(P.EffectiveMode);
  O["action"] = actionName(P.What);
  json::Value Verdict = nullptr;
  std::string Why, Judged;
  if (R.Verify) {
    Verdict = verdictName(R.Verify->Verdict);
    Why = R.Verify->Why;
    Judged = R.Verify->Judged;
  } else if (!P.NotVerified.empty()) {
    Verdict = verdictName(VerdictKind::NotVerified);
    Why = P.NotVerified;
  }
  O["verdict"] = std::move(Verdict);
  // Names with their exact bytes beside when they are not UTF-8
  // (support/JsonName.h), as in every other JSON linkguard writes.
  O["why"] = nullptr;
  O["judged"] = nullptr;
  if (!Why.empty())
    putJsonName(O, "why", Why);
  if (!Judged.empty())
    putJsonName(O, "judged", Judged);
  O["compilerStatus"] = R.CompilerStatus ? json::Value(*R.CompilerStatus) : json::Value(nullptr);
  O["status"] = R.Status ? json::Value(*R.Status) : json::Value(nullptr);
  O["cpuMicros"] = R.CpuMicros;
  O["verifyCpuMicros"] = R.VerifyCpuMicros ? json::Value(*R.VerifyCpuMicros) : json::Value(nullptr);
  std::string Line;
  llvm::raw_string_ostream OS(Line);
  OS << json::Value(std::move(O));
  return Line;
}

void appendStepRecord(const config::Config &Cfg, const Job &J, const Plan &P,
                      const StepRecord &R) {
  if (Cfg.ReportFile.empty())
    return;
  std::string Line = stepRecordLine(J, P, R) + "\n";
  const std::string &Path = Cfg.ReportFile;
  // As LINKGUARD_LOG_FILE: a regular file only, decided before any open
  // (a FIFO's reader is not woken), never a link planted in its place,
  // never inherited by the compiler (driver/Logging.h).
  std::string Why;
  int Fd = openAppendRegular(Path, Why);
  if (Why.empty()) {
    // One write: O_APPEND places the whole line at the end, so lines of
    // parallel steps never interleave.
    ssize_t N;
    do
      N = ::write(Fd, Line.data(), Line.size());
    while (N < 0 && errno == EINTR);
    if (N < 0)
      Why = std::strerror(errno);
    else if (static_cast<size_t>(N) != Line.size())
      Why = "short write";
  }
  if (Fd >= 0)
    ::close(Fd);
  if (Why.empty())
    return;
  const std::string Text =
      "cannot append to LINKGUARD_REPORT " + printable(Path) + ": " + printable(Why);
  // Said on ccache's UNCACHED_ERR_FD when ccache runs the step: on stderr,
  // ccache would store it with the object and replay it on every hit, long
  // after the record was fixed (driver/FrontCache.h).
  if (int Fd = uncachedErrFd(Cfg); Fd >= 0) {
    const std::string Line = "linkguard: warning: " + Text + "\n";
    (void)!::write(Fd, Line.data(), Line.size());
    mirrorToLogFile("warning", Text);
    return;
  }
  printDiagnostic("warning", Text);
}

} // namespace linkguard::driver
