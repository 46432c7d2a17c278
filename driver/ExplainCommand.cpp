//===- ExplainCommand.cpp - `linkguard explain [--json] -- CMD` -----------===//
//
// A dry run: reads COMMAND as linkguard would be invoked with it
// (invocationForCommand), makes the same Job and calls the same planJob()
// as the run, and prints the plan without running anything.
//
//===----------------------------------------------------------------------===//
#include "driver/Commands.h"

#include "config/Config.h"
#include "driver/DriverError.h"
#include "driver/Job.h"
#include "driver/Plan.h"
#include "driver/PlanJson.h"
#include "driver/RulesFileReport.h"
#include "driver/SelfPath.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <iterator>

namespace linkguard::driver {

namespace {

std::string joined(const std::vector<std::string> &Words) {
  std::string Out;
  for (const std::string &W : Words) {
    Out += Out.empty() ? "" : " ";
    // Quoted as a POSIX shell would need it, so the line can be pasted.
    bool Plain = !W.empty() && W.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                                   "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                   "0123456789_-+=/.,:@%") == std::string::npos;
    if (Plain) {
      Out += W;
      continue;
    }
    Out += '\'';
    for (char Ch : W)
      Out += Ch == '\'' ? std::string("'\\''") : std::string(1, Ch);
    Out += '\'';
  }
  return Out;
}

void printClassification(llvm::raw_ostream &OS, const flags::Classification &C) {
  OS << "phase:     " << flags::phaseName(C.Ph) << " (decided by " << C.DecidingArg << ")\n";
  OS << "inputs:   ";
  if (C.Inputs.empty())
    OS << " (none)";
  for (const flags::Input &I : C.Inputs)
    OS << " " << I.Path << " [" << I.Type << "]";
  OS << "\n";
  OS << "output:    " << C.Output.value_or("(default)") << " ("
     << flags::outputKindName(C.Kind) << ")\n";
  OS << "target:    " << (C.Target.Triple.empty() ? "(host)" : C.Target.Triple) << ", "
     << flags::objectFormatName(C.Target.Format) << " (from "
     << targetSourceName(C.Target.Source) << ")\n";
  if (!C.UnknownArgs.empty()) {
    OS << "unknown:  ";
    for (const std::string &U : C.UnknownArgs)
      OS << " " << U;
    OS << "\n";
  }
  for (const std::string &U : C.Uncertain)
    OS << "uncertain: " << U << "\n";
}

void printText(const Job &J, const Plan &P) {
  auto &OS = llvm::outs();
  OS << "form:      " << invocationFormName(J.Form) << "\n";
  OS << "compiler:  " << J.Launch.Executable << " (from " << J.Launch.Origin
     << "), compiler word " << J.CompilerName << "\n";
  printClassification(OS, P.Cls);
  for (const flags::RuleDecision &D : P.Decisions) {
    OS << "rule " << D.RuleName << ": " << (D.matches() ? "applies" : "does not apply")
       << (D.Origin == "built-in" ? "" : " (" + D.Origin + ")") << "\n";
    for (const flags::Condition &Cond : D.Conditions)
      OS << "  [" << (Cond.Holds ? "yes" : "no ") << "] " << Cond.Name << ": " << Cond.Why
         << "\n";
  }
  if (!P.InsertedBeforeLibraries.empty())
    OS << "inserts:   " << joined(P.InsertedBeforeLibraries) << " (before the first library)\n";
  OS << "appends:   " << (P.Appended.empty() ? "(nothing)" : joined(P.Appended)) << "\n";
  OS << "mode:      " << config::modeName(P.EffectiveMode) << " (" << P.ModeReason << ")\n";
  OS << "action:    " << actionText(P.What) << "\n";
  OS << "runs:      " << joined(P.Argv) << "\n";
  if (P.What == Action::SpawnAndVerify)
    OS << "verifies:  " << P.OutputPath << ": " << P.ContractSummary << "\n";
  else if (!P.NotVerified.empty())
    OS << "verifies:  not verified: " << P.NotVerified << "\n";
  if (!P.UnknownArgsWarning.empty())
    OS << "warning:   " << P.UnknownArgsWarning << "\n";
}

constexpr const char *ExplainHelp =
    "usage: linkguard explain [--json] -- COMMAND...\n"
    "\n"
    "Dry run: shows how linkguard reads COMMAND (phase and the argument that\n"
    "decided it, inputs, output, target), which rule applies and why, the\n"
    "exact command that would run, and whether the output would be verified.\n"
    "COMMAND is read as linkguard would be invoked with it: linkguard-clang++\n"
    "ARGS, a masquerade name, `linkguard [OPTIONS] -- COMPILER ARGS`, or any\n"
    "other compiler command (the launcher form). Nothing is run.\n"
    "\n"
    "  --json   machine-readable output (docs/classification.md)\n"
    "  --help   this text\n";

} // namespace

int runExplain(const std::vector<std::string> &Args) {
  bool Json = false;
  size_t I = 0;
  for (; I < Args.size(); ++I) {
    if (Args[I] == "--json")
      Json = true;
    else if (Args[I] == "--help" || Args[I] == "-h") {
      llvm::outs() << ExplainHelp;
      return 0;
    } else if (Args[I] == "--") {
      ++I;
      break;
    } else
      break; // the command starts here
  }
  if (I >= Args.size())
    return reportError(makeDriverError(
        ExitCode::Usage, "explain: expected a compiler command after '--' "
                         "(linkguard explain -- clang++ -c a.cpp)"));
  std::vector<std::string> Command(std::next(Args.begin(), static_cast<std::ptrdiff_t>(I)),
                                   Args.end());

  auto Cfg = config::configFromEnvironment();
  if (!Cfg)
    return reportError(Cfg.takeError());
  std::string Self = selfPath();
  Invocation Inv = invocationForCommand(Command, *Cfg, Self);
  if (Inv.Kind != InvocationKind::CompilerDriver)
    return reportError(makeDriverError(
        ExitCode::Usage, "explain: '" + joined(Command) + "' is not a compiler command" +
                             (Inv.Problem.empty() ? "" : ": " + Inv.Problem)));
  auto J = makeJob(Inv, *Cfg, Self);
  if (!J)
    return reportError(J.takeError());
  auto P = planJob(*J, *Cfg);
  if (!P)
    return reportError(P.takeError());

  if (Json) {
    llvm::json::Object O = planJson(*J, *P, *Cfg);
    O["command"] = Command;
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(O))) << "\n";
  } else {
    printText(*J, *P);
    printRulesFileLines(llvm::outs(), *Cfg, P->Rules);
  }
  return 0;
}

} // namespace linkguard::driver
