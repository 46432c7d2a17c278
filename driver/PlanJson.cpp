//===- PlanJson.cpp - render a plan with llvm::json ------------------------===//
#include "driver/PlanJson.h"

#include "support/Printable.h"

#include "llvm/ADT/STLExtras.h"

#include "support/EnumNames.h"

#include "llvm/Support/raw_ostream.h"

namespace linkguard::driver {

namespace json = llvm::json;

const char *actionName(Action A) {
  return enumName(A, {"exec", "exec-injected", "spawn-and-verify"});
}

const char *actionText(Action A) {
  return enumName(A, {"exec the original command unchanged",
                      "exec with the added flags, no reread",
                      "run, then reread the output and judge it"});
}

const char *targetSourceName(flags::TargetSource S) {
  return enumName(S, {"-target", "-arch", "compiler name", "host default"});
}

static json::Value nullable(const std::string &S) {
  return S.empty() ? json::Value(nullptr) : json::Value(S);
}

static json::Array rulesJson(const Plan &P) {
  json::Array Rules;
  for (const flags::RuleDecision &D : P.Decisions) {
    json::Array Conds;
    for (const flags::Condition &Cond : D.Conditions)
      Conds.push_back(
          json::Object{{"name", Cond.Name}, {"holds", Cond.Holds}, {"why", Cond.Why}});
    Rules.push_back(json::Object{{"name", D.RuleName},
                                 {"origin", D.Origin},
                                 {"applies", D.matches()},
                                 {"conditions", std::move(Conds)},
                                 {"append", D.Append},
                                 {"position", flags::insertPositionName(D.Position)}});
  }
  return Rules;
}

static json::Object classificationJson(const flags::Classification &C) {
  json::Array Inputs;
  for (const flags::Input &I : C.Inputs)
    Inputs.push_back(json::Object{{"path", I.Path}, {"type", I.Type}});
  json::Object Defs;
  for (const auto &[Name, Value] : C.Defines)
    Defs[Name] = Value;
  return json::Object{
      {"phase", flags::phaseName(C.Ph)},
      {"deciding_arg", C.DecidingArg},
      {"inputs", std::move(Inputs)},
      {"output", C.Output ? json::Value(*C.Output) : json::Value(nullptr)},
      {"output_kind", flags::outputKindName(C.Kind)},
      {"target", json::Object{{"triple", C.Target.Triple},
                              {"format", flags::objectFormatName(C.Target.Format)},
                              {"source", targetSourceName(C.Target.Source)},
                              {"archs", C.Target.Archs}}},
      {"defines", std::move(Defs)},
      {"libraries", C.Libraries},
      {"library_dirs", C.LibraryDirs},
      {"linker_args", C.LinkerArgs},
      {"unknown_args", C.UnknownArgs},
      {"uncertain", C.Uncertain},
      {"response_files", C.ResponseFiles},
      {"working_directory",
       C.WorkingDirectory ? json::Value(*C.WorkingDirectory) : json::Value(nullptr)},
      {"link_output", json::Object{{"path", nullable(C.Link.Path)},
                                   {"source", nullable(C.Link.Source)},
                                   {"unknown", nullable(C.Link.Unknown)}}},
  };
}

/// The rules file in force, or why none was looked for.
static void addRulesFile(json::Object &O, const config::Config &Cfg, const config::Rules &R) {
  json::Value NotLookedFor = nullptr;
  if (Cfg.RunMode == config::Mode::Off)
    NotLookedFor = "LINKGUARD_MODE=off";
  else if (!Cfg.RulesEnabled)
    NotLookedFor = "LINKGUARD_RULES=off";
  O["rules_file_not_looked_for"] = std::move(NotLookedFor);
  if (R.File)
    O["rules_file"] = json::Object{{"path", *R.File},
                                   {"directory", R.Directory},
                                   {"origin", R.Origin},
                                   {"error", R.Error ? json::Value(*R.Error) : json::Value(nullptr)}};
  else
    O["rules_file"] = nullptr;
  json::Array Ignored;
  for (const config::IgnoredRulesFile &I : R.Ignored)
    Ignored.push_back(json::Object{{"path", I.Path}, {"reason", I.Reason}});
  O["rules_files_ignored"] = std::move(Ignored);
}

json::Object planJson(const Job &J, const Plan &P, const config::Config &Cfg) {
  json::Object O = classificationJson(P.Cls);
  O["form"] = invocationFormName(J.Form);
  O["compiler"] = J.Launch.Executable;
  O["compiler_origin"] = J.Launch.Origin;
  O["compiler_name"] = J.CompilerName;
  O["argv"] = P.Argv;
  // JSON strings are UTF-8: when a word is not, its exact bytes go beside
  // (explain's "runs:" line is what runs, byte for byte).
  if (!llvm::all_of(P.Argv, [](const std::string &W) { return json::isUTF8(W); })) {
    json::Array Escaped;
    for (const std::string &W : P.Argv)
      Escaped.push_back(printable(W));
    O["argv_escaped"] = std::move(Escaped);
  }
  O["rules"] = rulesJson(P);
  O["appended"] = P.Appended;
  O["inserted_before_libraries"] = P.InsertedBeforeLibraries;
  O["inject"] = injects(P);
  O["mode"] = config::modeName(P.EffectiveMode);
  O["mode_reason"] = P.ModeReason;
  O["action"] = actionName(P.What);
  O["verifies"] = P.What == Action::SpawnAndVerify;
  O["output_path"] = nullable(P.OutputPath);
  O["not_verified"] = nullable(P.NotVerified);
  O["output_note"] = nullable(P.OutputNote);
  O["contract"] = nullable(P.ContractSummary);
  O["warning"] = nullable(P.UnknownArgsWarning);
  O["action_text"] = actionText(P.What);
  addRulesFile(O, Cfg, P.Rules);
  return O;
}

std::string planJsonLine(const Job &J, const Plan &P, const config::Config &Cfg) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << json::Value(planJson(J, P, Cfg));
  return S;
}

} // namespace linkguard::driver
