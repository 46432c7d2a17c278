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

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

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

void addLine(Summary &S, StringRef Line) {
  if (Line.trim().empty())
    return;
  Expected<json::Value> V = json::parse(Line);
  const json::Object *R = V ? V->getAsObject() : nullptr;
  if (!V)
    consumeError(V.takeError());
  if (!R || R->getString("schema").value_or("") != "linkguard-report/1" || !add(S, *R))
    ++S.NotUnderstood;
}

/// Sums the record a chunk at a time: memory is one chunk and the longest
/// line (one past MaxLine is no record of linkguard's: counted, skipped),
/// time what the file holds (a sparse file of 1 TiB costs reading it, not
/// 1 TiB of memory). "" or why the read failed.
std::string sumRecord(int Fd, Summary &S) {
  constexpr size_t Chunk = size_t{1} << 20, MaxLine = size_t{16} << 20;
  std::string Buf(Chunk, '\0'), Line;
  bool Overlong = false;
  for (;;) {
    ssize_t N = ::read(Fd, Buf.data(), Chunk);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      return std::strerror(errno);
    if (N == 0)
      break;
    StringRef Data(Buf.data(), static_cast<size_t>(N));
    while (!Data.empty()) {
      size_t End = Data.find('\n');
      StringRef Part = Data.take_front(End);
      Overlong = Overlong || Line.size() + Part.size() > MaxLine;
      if (Overlong)
        Line.clear();
      else
        Line.append(Part.begin(), Part.end());
      if (End == StringRef::npos)
        break;
      if (Overlong)
        ++S.NotUnderstood;
      else
        addLine(S, Line);
      Line.clear();
      Overlong = false;
      Data = Data.drop_front(End + 1);
    }
  }
  if (Overlong)
    ++S.NotUnderstood;
  else
    addLine(S, Line);
  return "";
}

/// The record opened for reading, or -1 and Why: a regular file only,
/// from stat before any open and fstat after it.
int openRecord(const std::string &File, std::string &Why) {
  struct stat St {};
  if (::stat(File.c_str(), &St) != 0) {
    Why = std::strerror(errno);
    return -1;
  }
  if (S_ISREG(St.st_mode)) {
    int Fd = ::open(File.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (Fd < 0) {
      Why = std::strerror(errno);
      return -1;
    }
    if (::fstat(Fd, &St) != 0)
      Why = std::strerror(errno);
    else if (S_ISREG(St.st_mode))
      return Fd;
    ::close(Fd);
    if (!Why.empty())
      return -1;
  }
  Why = std::string("not a regular file (") + flags::fileKindName(St.st_mode) + ")";
  return -1;
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
  // cannot hang report and /dev/zero cannot fill memory.
  std::string Why;
  int Fd = openRecord(File, Why);
  Summary S;
  if (Why.empty())
    Why = sumRecord(Fd, S);
  if (Fd >= 0)
    ::close(Fd);
  if (!Why.empty())
    return driver::reportError(driver::makeDriverError(driver::ExitCode::UnreadableInput,
                                                       "cannot read " + File + ": " + Why));

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
