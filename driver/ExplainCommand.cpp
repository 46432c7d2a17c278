//===- ExplainCommand.cpp - `linkguard explain [--json] -- CMD` -----------===//
//
// A dry run: resolves the compiler, classifies, plans exactly as the real run
// does (StepPlan), and prints the result without running anything.
//
//===----------------------------------------------------------------------===//
#include "driver/Commands.h"

#include "driver/CompilerResolution.h"
#include "driver/Config.h"
#include "driver/DriverError.h"
#include "driver/Invocation.h"
#include "driver/RulesFileReport.h"
#include "driver/SelfPath.h"
#include "driver/StepPlan.h"
#include "flags/Classify.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <iterator>

namespace linkguard::driver {

namespace {

const char *actionName(Action A) {
  switch (A) {
  case Action::Exec: return "exec the original command unchanged";
  case Action::ExecInjected: return "exec with the appended flags, no reread";
  case Action::SpawnAndVerify: return "run, then reread the output and judge it";
  }
  return "?";
}

const char *targetSourceName(flags::TargetSource S) {
  switch (S) {
  case flags::TargetSource::TargetFlag: return "-target";
  case flags::TargetSource::Arch: return "-arch";
  case flags::TargetSource::CompilerName: return "compiler name";
  case flags::TargetSource::Host: return "host default";
  }
  return "?";
}

struct CompilerLine {
  std::string Text;
  std::string Executable;
  std::string Origin;
};

CompilerLine describeCompiler(const std::vector<std::string> &Command,
                              const Config &Cfg) {
  // "linkguard-clang++ ..." resolves as the wrapper would; any other first
  // word ("clang++", "/usr/bin/c++") names the compiler, as a launcher does.
  Invocation Inv = parseInvocation(Command.front(), {});
  ResolveRequest Req = Inv.Request;
  if (!llvm::sys::path::filename(Command.front()).starts_with("linkguard-"))
    Req.LauncherCommand = {Command.front()};
  Req.SelfPath = selfPath();
  auto C = resolveCompiler(Req, Cfg);
  if (!C) {
    std::string Msg = llvm::toString(C.takeError());
    return {"(not found: " + Msg + ")", "", ""};
  }
  return {C->Executable + " (from " + C->Origin + ")", C->Executable, C->Origin};
}

void printText(const std::vector<std::string> &Command, const StepPlan &P,
               const CompilerLine &Compiler) {
  auto &OS = llvm::outs();
  const flags::Classification &C = P.Cls;
  OS << "compiler:  " << Compiler.Text << "\n";
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
  for (const flags::RuleDecision &D : P.Decisions) {
    OS << "rule " << D.RuleName << ": "
       << (D.matches() ? "applies" : "does not apply")
       << (D.Origin == "built-in" ? "" : " (" + D.Origin + ")") << "\n";
    for (const flags::Condition &Cond : D.Conditions)
      OS << "  [" << (Cond.Holds ? "yes" : "no ") << "] " << Cond.Name << ": "
         << Cond.Why << "\n";
  }
  if (!P.InsertedBeforeLibraries.empty()) {
    OS << "inserts:  ";
    for (const std::string &A : P.InsertedBeforeLibraries)
      OS << " " << A;
    OS << " (before the first library)\n";
  }
  OS << "appends:  ";
  if (P.Appended.empty())
    OS << " (nothing)";
  for (const std::string &A : P.Appended)
    OS << " " << A;
  OS << "\n";
  OS << "mode:      " << modeName(P.EffectiveMode) << " (" << P.ModeReason << ")\n";
  OS << "action:    " << actionName(P.What) << "\n";
  if (P.Contract)
    OS << "verifies:  " << P.OutputPath << ": " << P.ContractSummary << "\n";
  (void)Command;
}

llvm::json::Value toJson(const std::vector<std::string> &Command, const StepPlan &P,
                         const CompilerLine &Compiler) {
  const flags::Classification &C = P.Cls;
  llvm::json::Array Inputs;
  for (const flags::Input &I : C.Inputs)
    Inputs.push_back(llvm::json::Object{{"path", I.Path}, {"type", I.Type}});
  llvm::json::Array Rules;
  for (const flags::RuleDecision &D : P.Decisions) {
    llvm::json::Array Conds;
    for (const flags::Condition &Cond : D.Conditions)
      Conds.push_back(llvm::json::Object{
          {"name", Cond.Name}, {"holds", Cond.Holds}, {"why", Cond.Why}});
    Rules.push_back(llvm::json::Object{{"name", D.RuleName},
                                       {"origin", D.Origin},
                                       {"applies", D.matches()},
                                       {"conditions", std::move(Conds)},
                                       {"append", D.Append},
                                       {"position", flags::insertPositionName(D.Position)}});
  }
  llvm::json::Object O{
      {"command", Command},
      {"compiler", Compiler.Executable.empty() ? llvm::json::Value(nullptr)
                                               : llvm::json::Value(Compiler.Executable)},
      {"compiler_origin", Compiler.Origin},
      {"phase", flags::phaseName(C.Ph)},
      {"deciding_arg", C.DecidingArg},
      {"inputs", std::move(Inputs)},
      {"output", C.Output ? llvm::json::Value(*C.Output) : llvm::json::Value(nullptr)},
      {"output_kind", flags::outputKindName(C.Kind)},
      {"target", llvm::json::Object{{"triple", C.Target.Triple},
                                    {"format", flags::objectFormatName(C.Target.Format)},
                                    {"source", targetSourceName(C.Target.Source)},
                                    {"archs", C.Target.Archs}}},
      {"defines", [&] {
         llvm::json::Object Defs;
         for (const auto &[Name, Value] : C.Defines)
           Defs[Name] = Value;
         return Defs;
       }()},
      {"libraries", C.Libraries},
      {"library_dirs", C.LibraryDirs},
      {"linker_args", C.LinkerArgs},
      {"unknown_args", C.UnknownArgs},
      {"response_files", C.ResponseFiles},
      {"rules", std::move(Rules)},
      {"appended", P.Appended},
      {"inserted_before_libraries", P.InsertedBeforeLibraries},
      {"inject", injects(P)},
      {"mode", modeName(P.EffectiveMode)},
      {"mode_reason", P.ModeReason},
      {"verifies", P.Contract.has_value()},
      {"output_path", P.OutputPath},
  };
  // Braces would pick json::Value's initializer_list constructor and return a
  // one-element array holding O.
  return llvm::json::Value(std::move(O)); // NOLINT(modernize-return-braced-init-list)
}

constexpr const char *ExplainHelp =
    "usage: linkguard explain [--json] -- COMPILER ARGS...\n"
    "\n"
    "Dry run: shows how linkguard reads the command (phase and the argument\n"
    "that decided it, inputs, output, target), which rule applies and why,\n"
    "what it would append, and whether the output would be verified.\n"
    "Nothing is run.\n"
    "\n"
    "  --json   machine-readable output (docs/explain.md)\n"
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
  auto First = std::next(Args.begin(), static_cast<std::ptrdiff_t>(I));
  std::vector<std::string> Command(First, Args.end());

  auto Cfg = configFromEnvironment();
  if (!Cfg)
    return reportError(Cfg.takeError());
  CompilerLine Compiler = describeCompiler(Command, *Cfg);

  flags::ClassifyOptions Opts;
  Opts.CompilerName = llvm::sys::path::filename(Command.front()).str();
  std::vector<std::string> CompilerArgs(Command.begin() + 1, Command.end());
  auto Cls = flags::classify(CompilerArgs, Opts);
  if (!Cls)
    return reportError(Cls.takeError());
  // As the run: a rules file that cannot be used stops a link (78).
  if (llvm::Error E = rulesFileErrorFor(*Cfg, Cls->Ph))
    return reportError(std::move(E));
  StepPlan Plan = planStep(std::move(*Cls), *Cfg);

  if (Json) {
    llvm::json::Value J = toJson(Command, Plan, Compiler);
    addRulesFileJson(*J.getAsObject(), *Cfg);
    llvm::outs() << llvm::formatv("{0:2}", J) << "\n";
  } else {
    printText(Command, Plan, Compiler);
    printRulesFileLines(llvm::outs(), *Cfg);
  }
  return 0;
}

} // namespace linkguard::driver
