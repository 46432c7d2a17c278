//===- PlanJson.cpp - render a plan with llvm::json ------------------------===//
#include "driver/PlanJson.h"

#include "support/EnumNames.h"
#include "support/JsonName.h"

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

/// A text that may hold a name (a path in "not verified: WHY"): JSON
/// strings are UTF-8, so bytes that are not become U+FFFD, never an
/// assertion in a build with them on.
static json::Value nullable(const std::string &S) {
  if (S.empty())
    return nullptr;
  return json::isUTF8(S) ? json::Value(S) : json::Value(json::fixUTF8(S));
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
  {
    json::Object In{{"type", I.Type}};
    putJsonName(In, "path", I.Path);
    Inputs.push_back(std::move(In));
  }
  json::Object Defs;
  for (const auto &[Name, Value] : C.Defines)
    Defs[Name] = Value;
  json::Object O{
      {"phase", flags::phaseName(C.Ph)},
      {"decidingArg", C.DecidingArg},
      {"inputs", std::move(Inputs)},
      {"outputKind", flags::outputKindName(C.Kind)},
      {"target", json::Object{{"triple", C.Target.Triple},
                              {"format", flags::objectFormatName(C.Target.Format)},
                              {"source", targetSourceName(C.Target.Source)},
                              {"archs", C.Target.Archs}}},
      {"defines", std::move(Defs)},
      {"libraries", C.Libraries},
      {"libraryDirs", C.LibraryDirs},
      {"linkerArgs", C.LinkerArgs},
      {"unknownArgs", C.UnknownArgs},
      {"uncertain", C.Uncertain},
      {"responseFiles", C.ResponseFiles},
      {"workingDirectory",
       C.WorkingDirectory ? json::Value(*C.WorkingDirectory) : json::Value(nullptr)},
  };
  json::Object Link{{"source", nullable(C.Link.Source)}, {"unknown", nullable(C.Link.Unknown)}};
  if (C.Link.Path.empty())
    Link["path"] = nullptr;
  else
    putJsonName(Link, "path", C.Link.Path);
  O["linkOutput"] = std::move(Link);
  // The -o name as the user gave it, its exact bytes beside when they are
  // not UTF-8 (outputEscaped): explain's output: line prints those.
  if (C.Output)
    putJsonName(O, "output", *C.Output);
  else
    O["output"] = nullptr;
  return O;
}

/// The rules file in force, or why none was looked for.
static void addRulesFile(json::Object &O, const config::Config &Cfg, const config::Rules &R) {
  json::Value NotLookedFor = nullptr;
  if (Cfg.RunMode == config::Mode::Off)
    NotLookedFor = "LINKGUARD_MODE=off";
  else if (!Cfg.RulesEnabled)
    NotLookedFor = "LINKGUARD_RULES=off";
  O["rulesFileNotLookedFor"] = std::move(NotLookedFor);
  if (R.File)
    O["rulesFile"] = json::Object{{"path", *R.File},
                                   {"directory", R.Directory},
                                   {"origin", R.Origin},
                                   {"error", R.Error ? json::Value(*R.Error) : json::Value(nullptr)}};
  else
    O["rulesFile"] = nullptr;
  json::Array Ignored;
  for (const config::IgnoredRulesFile &I : R.Ignored)
    Ignored.push_back(json::Object{{"path", I.Path}, {"reason", I.Reason}});
  O["rulesFilesIgnored"] = std::move(Ignored);
}

json::Object planJson(const Job &J, const Plan &P, const config::Config &Cfg) {
  json::Object O = classificationJson(P.Cls);
  O["schema"] = "linkguard-explain/1";
  O["compilerFound"] = true;
  O["form"] = invocationFormName(J.Form);
  O["compiler"] = J.Launch.Executable;
  O["compilerOrigin"] = J.Launch.Origin;
  O["compilerName"] = J.CompilerName;
  // JSON strings are UTF-8: when a word is not, its exact bytes go beside
  // (explain's "runs:" line is what runs, byte for byte).
  putJsonNames(O, "argv", P.Argv);
  O["rules"] = rulesJson(P);
  O["appended"] = P.Appended;
  O["insertedBeforeLibraries"] = P.InsertedBeforeLibraries;
  O["inject"] = injects(P);
  O["mode"] = config::modeName(P.EffectiveMode);
  O["modeReason"] = P.ModeReason;
  O["action"] = actionName(P.What);
  O["verifies"] = P.What == Action::SpawnAndVerify;
  if (P.OutputPath.empty())
    O["outputPath"] = nullptr;
  else
    putJsonName(O, "outputPath", P.OutputPath);
  O["notVerified"] = nullable(P.NotVerified);
  O["outputNote"] = nullable(P.OutputNote);
  O["contract"] = nullable(P.ContractSummary);
  O["warning"] = nullable(P.UnknownArgsWarning);
  O["actionText"] = actionText(P.What);
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
