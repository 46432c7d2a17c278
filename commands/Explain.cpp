//===- Explain.cpp - `linkguard explain [--json] -- COMMAND` ---------------===//
//
// A dry run: reads COMMAND as linkguard would be invoked with it
// (driver::invocationForCommand), makes the same Job and calls the same
// planJob() as the run, and prints the plan -- the JSON the run logs at
// trace level (driver/PlanJson.h), or a text view of that same JSON.
//
//===----------------------------------------------------------------------===//
#include "commands/Commands.h"

#include "commands/CommandLine.h"
#include "commands/ShellQuote.h"
#include "commands/Printer.h"
#include "config/Config.h"
#include "driver/DriverError.h"
#include "driver/Job.h"
#include "driver/Plan.h"
#include "driver/PlanJson.h"
#include "driver/SelfPath.h"

using namespace llvm;

namespace linkguard::commands {

namespace {

const CommandSpec Spec = {
    "explain", ExplainVis, "linkguard explain [--json] -- COMMAND...",
    "Dry run: shows how linkguard reads COMMAND (phase and the argument that decided\n"
    "it, inputs, output, target), which rule applies and why, the exact command that\n"
    "would run, and whether the output would be verified. COMMAND is read as\n"
    "linkguard would be invoked with it: linkguard-clang++ ARGS, a masquerade name,\n"
    "`linkguard [OPTIONS] -- COMPILER ARGS`, or any other compiler command (the\n"
    "launcher form). Nothing is run.",
    "The JSON fields are those of the run's trace line \"plan: {...}\"\n"
    "(docs/classification.md).\n",
    "expected a compiler command after '--' (linkguard explain -- clang++ -c a.cpp)",
    /*TakesCommand=*/true};

/// One word as a shell needs it, from its printable() form, so the line
/// can be pasted and runs the same bytes: bare when nothing needs quoting,
/// '...' for spaces and quotes, $'...' when the word holds a byte that
/// printable() escapes (its \n, \t, \r, \xHH, \\ are $'...' escapes).
std::string shellWord(const std::string &Escaped, bool HasEscapes) {
  if (HasEscapes) {
    std::string Out = "$'";
    for (char Ch : Escaped)
      Out += Ch == '\'' ? std::string("\\'") : std::string(1, Ch);
    return Out + "'";
  }
  bool Plain = !Escaped.empty() &&
               Escaped.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                         "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789_-+=/.,:@%") == std::string::npos;
  return Plain ? Escaped : shQuote(Escaped);
}

/// Words quoted as a POSIX shell (bash, zsh for $'...') needs them.
std::string joined(const std::vector<std::string> &Words) {
  std::string Out;
  for (const std::string &W : Words) {
    std::string P = printable(W);
    Out += (Out.empty() ? "" : " ") + shellWord(P, P != W);
  }
  return Out;
}

/// The argv that runs, exact even where a word is not UTF-8 (argvEscaped).
std::string joinedArgv(const json::Object &P) {
  if (!P.getArray("argvEscaped"))
    return joined(stringsOf(P, "argv"));
  std::string Out;
  for (const std::string &E : stringsOf(P, "argvEscaped")) {
    bool Exact = E.find('\\') == std::string::npos;
    Out += (Out.empty() ? "" : " ") + shellWord(E, !Exact);
  }
  return Out;
}

void printClassification(raw_ostream &OS, const json::Object &P) {
  OS << "phase:     " << str(P, "phase") << " (decided by " << printable(str(P, "decidingArg"))
     << ")\n";
  OS << "inputs:   ";
  const json::Array &Inputs = *P.getArray("inputs");
  if (Inputs.empty())
    OS << " (none)";
  for (const json::Value &V : Inputs)
    OS << " " << printableName(*V.getAsObject(), "path") << " ["
       << str(*V.getAsObject(), "type") << "]";
  OS << "\n";
  std::string Output = printableName(P, "output");
  std::string Kind = str(P, "outputKind");
  // "none" is a link's term: a compile step's output is that step's own.
  if (Kind == "none")
    Kind = "written by the " + str(P, "phase") + " step";
  OS << "output:    " << (Output.empty() ? "(default)" : Output) << " (" << Kind << ")\n";
  const json::Object &T = *P.getObject("target");
  std::string Triple = str(T, "triple");
  OS << "target:    " << (Triple.empty() ? "(host)" : Triple) << ", " << str(T, "format")
     << " (from " << str(T, "source") << ")\n";
  std::vector<std::string> Unknown = stringsOf(P, "unknownArgs");
  if (!Unknown.empty()) {
    OS << "unknown:  ";
    for (const std::string &U : Unknown)
      OS << " " << printable(U);
    OS << "\n";
  }
  for (const std::string &U : stringsOf(P, "uncertain"))
    OS << "uncertain: " << printable(U) << "\n";
}

void printRules(raw_ostream &OS, const json::Object &P) {
  for (const json::Value &V : *P.getArray("rules")) {
    const json::Object &R = *V.getAsObject();
    std::string Origin = str(R, "origin");
    OS << "rule " << str(R, "name") << ": "
       << (R.getBoolean("applies").value_or(false) ? "applies" : "does not apply")
       << (Origin == "built-in" ? "" : " (" + Origin + ")") << "\n";
    for (const json::Value &C : *R.getArray("conditions")) {
      const json::Object &Cond = *C.getAsObject();
      OS << "  [" << (Cond.getBoolean("holds").value_or(false) ? "yes" : "no ") << "] "
         << str(Cond, "name") << ": " << printable(str(Cond, "why")) << "\n";
    }
  }
}

void printRulesFile(raw_ostream &OS, const json::Object &P) {
  OS << "rules file: ";
  const json::Object *File = P.getObject("rulesFile");
  if (std::string Not = str(P, "rulesFileNotLookedFor"); !Not.empty())
    OS << "(not looked for: " << Not << ")";
  else if (!File)
    OS << "(none)";
  else
    OS << printable(str(*File, "path")) << " (" << str(*File, "origin") << ", in "
       << printable(str(*File, "directory")) << ")";
  OS << "\n";
  if (File && !str(*File, "error").empty())
    OS << "  not used: " << printable(str(*File, "error")) << " (a link stops with 78)\n";
  for (const json::Value &V : *P.getArray("rulesFilesIgnored"))
    OS << "ignored:    " << printable(str(*V.getAsObject(), "path")) << ": "
       << printable(str(*V.getAsObject(), "reason")) << "\n";
}

void printPlan(raw_ostream &OS, const json::Object &P) {
  OS << "form:      " << str(P, "form") << "\n";
  if (P.getBoolean("compilerFound").value_or(true))
    OS << "compiler:  " << printable(str(P, "compiler")) << " (from " << str(P, "compilerOrigin")
       << "), compiler word " << printable(str(P, "compilerName")) << "\n";
  else
    OS << "compiler:  " << printable(str(P, "compiler")) << " (NOT FOUND here: "
       << printable(str(P, "compilerProblem")) << "), compiler word "
       << printable(str(P, "compilerName")) << "\n";
  printClassification(OS, P);
  printRules(OS, P);
  std::vector<std::string> Inserted = stringsOf(P, "insertedBeforeLibraries");
  std::vector<std::string> Appended = stringsOf(P, "appended");
  if (!Inserted.empty())
    OS << "inserts:   " << joined(Inserted) << " (before the first library)\n";
  OS << "appends:   " << (Appended.empty() ? "(nothing)" : joined(Appended)) << "\n";
  OS << "mode:      " << str(P, "mode") << " (" << str(P, "modeReason") << ")\n";
  OS << "action:    " << str(P, "actionText") << "\n";
  OS << "runs:      " << joinedArgv(P) << "\n";
  if (P.getBoolean("verifies").value_or(false))
    OS << "verifies:  " << printableName(P, "outputPath") << ": " << str(P, "contract") << "\n";
  if (std::string Note = str(P, "outputNote"); !Note.empty())
    OS << "           " << printable(Note) << "\n";
  else if (std::string Not = str(P, "notVerified"); !Not.empty())
    OS << "verifies:  not verified: " << printable(Not) << "\n";
  if (std::string W = str(P, "warning"); !W.empty())
    OS << "warning:   " << printable(W) << "\n";
  printRulesFile(OS, P);
}

} // namespace

int runExplain(const std::vector<std::string> &Args) {
  ParsedCommandLine CL;
  if (std::optional<int> Stop = parseCommandLine(Spec, Args, CL))
    return *Stop;
  const std::vector<std::string> &Command = CL.Positionals;
  auto Cfg = config::configFromEnvironment();
  if (!Cfg)
    return driver::reportError(Cfg.takeError());
  std::string Self = driver::selfPath();
  driver::Invocation Inv = driver::invocationForCommand(Command, *Cfg, Self);
  if (Inv.Kind != driver::InvocationKind::CompilerDriver)
    return usageError(Spec, "'" + joined(Command) + "' is not a compiler command" +
                                (Inv.Problem.empty() ? "" : ": " + Inv.Problem));
  auto J = driver::makeJob(Inv, *Cfg, Self);
  // A compiler that is not installed here (a line from a macOS build log):
  // the plan is still shown, the compiler marked as not found, and the
  // status is the run's (69).
  std::string NotFound;
  if (!J) {
    llvm::Error Rest = handleErrors(J.takeError(), [&](const driver::DriverError &E) -> Error {
      if (E.code() != driver::ExitCode::NoCompiler)
        return make_error<driver::DriverError>(E.code(), E.message());
      NotFound = E.message();
      return Error::success();
    });
    if (Rest)
      return driver::reportError(std::move(Rest));
    J = driver::jobWithoutCompiler(Inv, *Cfg, Self);
  }
  auto P = driver::planJob(*J, *Cfg);
  if (!P)
    return driver::reportError(P.takeError());

  auto Out = makePrinter(CL.Args.hasArg(OPT_json), outs(), "linkguard-explain/1",
                         DocumentShape::Single,
                         {printPlan, nullptr});
  json::Object Plan = driver::planJson(*J, *P, *Cfg);
  Plan["command"] = Command;
  if (!NotFound.empty()) {
    Plan["compilerFound"] = false;
    Plan["compilerProblem"] = NotFound;
  }
  Out->result(std::move(Plan));
  Out->finish({});
  if (NotFound.empty())
    return 0;
  return driver::reportError(
      driver::makeDriverError(driver::ExitCode::NoCompiler, NotFound));
}

} // namespace linkguard::commands
