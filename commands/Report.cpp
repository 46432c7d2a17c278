//===- Report.cpp - `linkguard report [--json] FILE` -----------------------===//
//
// Sums the build record LINKGUARD_REPORT=FILE wrote, one JSON line per step
// (driver/StepReport.h, docs/report.md), the way `ccache -s` sums a cache:
// steps, links, injected, verified, broken, not verified, and linkguard's
// own CPU time (before handing over to the compiler, and verifying). A line
// that is not a linkguard-report/1 record (a torn line of a full disk) is
// counted, never guessed at.
//
//===----------------------------------------------------------------------===//
#include "commands/Commands.h"

#include "commands/CommandLine.h"
#include "commands/Printer.h"
#include "driver/DriverError.h"
#include "flags/BoundedRead.h"

#include "llvm/Support/Format.h"

#include <cstdint>
#include <fcntl.h>
#include <limits>
#include <optional>

using namespace llvm;

namespace linkguard::commands {

namespace {

const CommandSpec Spec = {
    "report", ReportVis, "linkguard report [--json] FILE",
    "Sums the build record that LINKGUARD_REPORT=FILE makes: each compiler step\n"
    "run through linkguard appends one JSON line (what ran, the rules' decision,\n"
    "the verdict, linkguard's own CPU time). Prints steps, links, links that got\n"
    "flags, links verified (holding, broken), links not verified, and linkguard's\n"
    "total CPU time before handing over to the compiler and verifying.",
    "EXIT STATUS: 0 summed (broken links included: `check` and enforce are the\n"
    "gates), 64 usage, 66 FILE missing or unreadable. docs/report.md has the\n"
    "record's fields.\n",
    "no record file (linkguard report /path/to/record.jsonl)"};

struct Summary {
  int64_t Steps = 0, Links = 0, Injected = 0, Holds = 0, Broken = 0, NotVerified = 0,
          Unreadable = 0, NotUnderstood = 0;
  int64_t CpuMicros = 0, VerifyCpuMicros = 0;
  json::Array BrokenOutputs;
};

/// A CPU figure as linkguard writes it: absent or null (0), or a whole
/// number of microseconds from 0 to 2^53 (JSON's exact integers, 285
/// years); anything else is not a record's.
bool cpuFigure(const json::Object &R, StringRef Key, int64_t &Out) {
  const json::Value *V = R.get(Key);
  Out = 0;
  if (!V || V->kind() == json::Value::Null)
    return true;
  std::optional<int64_t> N = V->getAsInteger();
  if (!N || *N < 0 || *N > (int64_t{1} << 53))
    return false;
  Out = *N;
  return true;
}

/// Adds a record to the summary; false (nothing added) when its CPU figures
/// are not ones linkguard writes, so a crafted line cannot overflow a sum.
bool add(Summary &S, const json::Object &R) {
  int64_t Cpu = 0, VerifyCpu = 0;
  if (!cpuFigure(R, "cpuMicros", Cpu) || !cpuFigure(R, "verifyCpuMicros", VerifyCpu))
    return false;
  ++S.Steps;
  if (R.getString("phase").value_or("") == "link")
    ++S.Links;
  if (R.getBoolean("injected").value_or(false))
    ++S.Injected;
  StringRef Verdict = R.getString("verdict").value_or("");
  if (Verdict == "holds")
    ++S.Holds;
  else if (Verdict == "broken") {
    ++S.Broken;
    if (const json::Value *Judged = R.get("judged"); Judged && Judged->getAsString())
      S.BrokenOutputs.push_back(*Judged);
  } else if (Verdict == "not-verified")
    ++S.NotVerified;
  else if (Verdict == "unreadable")
    ++S.Unreadable;
  // Saturating: 2^10 lines of 2^53 would pass 2^63.
  S.CpuMicros = S.CpuMicros > INT64_MAX - Cpu ? INT64_MAX : S.CpuMicros + Cpu;
  S.VerifyCpuMicros =
      S.VerifyCpuMicros > INT64_MAX - VerifyCpu ? INT64_MAX : S.VerifyCpuMicros + VerifyCpu;
  return true;
}

std::string ms(int64_t Micros) {
  std::string Out;
  raw_string_ostream(Out) << format("%.1f ms", static_cast<double>(Micros) / 1000.0);
  return Out;
}

void printText(raw_ostream &OS, const json::Object &D) {
  auto N = [&](StringRef K) { return D.getInteger(K).value_or(0); };
  OS << "record:        " << printableName(D, "file") << "\n";
  OS << "steps:         " << N("steps") << "\n";
  OS << "links:         " << N("links") << "\n";
  OS << "injected:      " << N("injected") << "\n";
  OS << "verified:      " << N("verified") << " (" << N("holds") << " hold, " << N("broken")
     << " broken)\n";
  OS << "not verified:  " << N("notVerified") + N("unreadable") << "\n";
  int64_t Steps = N("steps");
  OS << "linkguard CPU: " << ms(N("cpuMicros") + N("verifyCpuMicros")) << " ("
     << ms(N("cpuMicros")) << " before handing over, " << ms(N("verifyCpuMicros"))
     << " verifying";
  if (Steps > 0)
    OS << format("; %.3f ms a step", static_cast<double>(N("cpuMicros")) / 1000.0 /
                                         static_cast<double>(Steps));
  OS << ")\n";
  for (const std::string &B : stringsOf(D, "brokenOutputs"))
    OS << "broken:        " << printable(B) << "\n";
  if (int64_t Bad = N("linesNotUnderstood"))
    OS << "not understood: " << Bad << " line(s) that are not linkguard-report/1 records\n";
}

} // namespace

int runReport(const std::vector<std::string> &Args) {
  ParsedCommandLine CL;
  if (std::optional<int> Stop = parseCommandLine(Spec, Args, CL))
    return *Stop;
  if (CL.Positionals.size() != 1)
    return usageError(Spec, "expected one record file, got " +
                                std::to_string(CL.Positionals.size()));
  const std::string &File = CL.Positionals.front();
  // As check and inspect read their inputs (flags/BoundedRead.h): a
  // regular file only, decided before any open, so a FIFO without a writer
  // cannot hang report and /dev/zero cannot fill memory; bounded by what
  // the file holds, read with pread (a record truncated meanwhile is a
  // short read, not a SIGBUS).
  flags::BoundedFile Record =
      flags::readBounded(AT_FDCWD, File.c_str(), std::numeric_limits<size_t>::max() / 2);
  if (Record.Outcome != flags::ReadOutcome::Ok)
    return driver::reportError(driver::makeDriverError(
        driver::ExitCode::UnreadableInput,
        "cannot read " + File + ": " +
            (Record.Outcome == flags::ReadOutcome::NotRegular
                 ? "not a regular file (" + Record.Reason + ")"
                 : Record.Reason)));

  Summary S;
  StringRef Rest = Record.Text;
  while (!Rest.empty()) {
    auto [Line, Next] = Rest.split('\n');
    Rest = Next;
    if (Line.trim().empty())
      continue;
    Expected<json::Value> V = json::parse(Line);
    const json::Object *R = V ? V->getAsObject() : nullptr;
    if (!V)
      consumeError(V.takeError());
    if (!R || R->getString("schema").value_or("") != "linkguard-report/1" || !add(S, *R))
      ++S.NotUnderstood;
  }

  json::Object D;
  putName(D, "file", File);
  D["steps"] = S.Steps;
  D["links"] = S.Links;
  D["injected"] = S.Injected;
  D["verified"] = S.Holds + S.Broken;
  D["holds"] = S.Holds;
  D["broken"] = S.Broken;
  D["notVerified"] = S.NotVerified;
  D["unreadable"] = S.Unreadable;
  D["cpuMicros"] = S.CpuMicros;
  D["verifyCpuMicros"] = S.VerifyCpuMicros;
  D["brokenOutputs"] = std::move(S.BrokenOutputs);
  D["linesNotUnderstood"] = S.NotUnderstood;
  auto Out = makePrinter(CL.Args.hasArg(OPT_json), outs(), "linkguard-report-summary/1",
                         DocumentShape::Single, {printText, nullptr});
  Out->result(std::move(D));
  Out->finish({});
  return 0;
}

} // namespace linkguard::commands
