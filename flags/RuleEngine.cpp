//===- RuleEngine.cpp - one predicate per condition, then place the flags -===//
//
// Each predicate returns a Condition with the evidence it found, never a
// bare bool: `linkguard explain` prints them as they are. Every predicate is
// evaluated even after one fails, so explain shows the whole picture.
//
// Placement relies on how clang's GNU and Darwin toolchains build the link
// line (clang/lib/Driver/ToolChains/Gnu.cpp, CommonArgs.cpp
// AddLinkerInputs): inputs and linker-input options (-l, -Wl,, -Xlinker) go
// to the linker in command-line order, then the driver's own libraries
// (-lomp for -fopenmp, -lstdc++, -lc). GNU ld and lld apply --as-needed to
// the libraries that follow it on the line, so such a flag must precede the
// user's first library; it then also precedes the driver's.
//
//===----------------------------------------------------------------------===//
#include "flags/RuleEngine.h"

#include "flags/InputTypes.h"
#include "libnames/LibraryNames.h"
#include "support/EnumNames.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cstddef>
#include <iterator>

using llvm::StringRef;

namespace linkguard::flags {

namespace {

std::string join(const std::vector<std::string> &Items,
                 const char *Sep = " ") {
  std::string Out;
  for (const std::string &I : Items)
    Out += (Out.empty() ? "" : Sep) + I;
  return Out;
}

bool globMatch(const std::string &Pattern, StringRef Text) {
  auto G = llvm::GlobPattern::create(Pattern);
  if (!G) {
    llvm::consumeError(G.takeError());
    return Pattern == Text;
  }
  return G->match(Text);
}

const std::string *firstGlobMatch(const std::vector<std::string> &Patterns,
                                  StringRef Text) {
  for (const std::string &P : Patterns)
    if (globMatch(P, Text))
      return &P;
  return nullptr;
}

const char *humanOutputName(OutputKind K) {
  return enumName(
      K, {"executable", "shared library", "bundle", "relocatable", "no"});
}

//===--- The predicates, in the order explain shows them -----------------===//

Condition ruleEnabled(const RuleSpec &S, const RuleContext &Ctx) {
  if (!Ctx.Enabled)
    return {"rule enabled", false, "disabled by " + Ctx.DisabledBy};
  if (S.Origin == "built-in")
    return {"rule enabled", true, "on by default"};
  return {"rule enabled", true, "defined in " + S.Origin};
}

Condition inPhase(const RuleMatch &M, const Classification &C) {
  std::vector<Phase> Phases = M.Phases.empty() ? std::vector<Phase>{Phase::Link}
                                               : M.Phases;
  bool Holds = std::find(Phases.begin(), Phases.end(), C.Ph) != Phases.end();
  std::string Name = "link step";
  if (Phases.size() != 1 || Phases.front() != Phase::Link) {
    std::vector<std::string> Names;
    Names.reserve(Phases.size());
    for (Phase P : Phases)
      Names.push_back(phaseName(P));
    Name = "phase is " + join(Names, " or ");
  }
  if (C.Ph == Phase::Link)
    return {Name, Holds, "no -c/-S/-E/-fsyntax-only/probe: clang runs the linker"};
  return {Name, Holds, std::string(phaseName(C.Ph)) + " step, decided by " + C.DecidingArg};
}

Condition allArgumentsKnown(const Classification &C) {
  if (!C.Uncertain.empty())
    return {KnownArgumentsCondition, false,
            join(C.Uncertain, "; ") + " (conservative: leave the command alone)"};
  if (C.UnknownArgs.empty())
    return {KnownArgumentsCondition, true, "all known to clang 19"};
  return {KnownArgumentsCondition, false,
          "unknown to clang 19: " + join(C.UnknownArgs) +
              " (conservative: leave the command alone)"};
}

Condition targetsFormat(ObjectFormat F, const Classification &C) {
  bool Holds = C.Target.Format == F;
  std::string Why = std::string(objectFormatName(C.Target.Format)) + " target";
  if (!C.Target.Triple.empty())
    Why += " (" + C.Target.Triple + ")";
  return {std::string(objectFormatName(F)) + " target", Holds, Why};
}

Condition targetMatches(const std::string &Glob, const Classification &C) {
  return {"target matches " + Glob, globMatch(Glob, C.Target.Triple),
          "target is " + (C.Target.Triple.empty() ? std::string("(unknown)")
                                                  : C.Target.Triple)};
}

Condition producesOutput(const std::vector<OutputKind> &Kinds,
                         const Classification &C) {
  std::vector<std::string> Names;
  Names.reserve(Kinds.size());
  for (OutputKind K : Kinds)
    Names.push_back(humanOutputName(K));
  bool Holds = std::find(Kinds.begin(), Kinds.end(), C.Kind) != Kinds.end();
  // Only a link writes an executable or a library (explain of a -c step
  // must not read "output is none").
  if (C.Ph != Phase::Link)
    return {join(Names, " or ") + " output", Holds,
            std::string("this ") + phaseName(C.Ph) + " step writes no linked output"};
  return {join(Names, " or ") + " output", Holds,
          std::string("output is ") + outputKindName(C.Kind)};
}

Condition macroDefined(const std::string &M, const Classification &C) {
  if (C.isDefined(M))
    return {M + " defined", true, M + " is defined"};
  return {M + " defined", false,
          M + " is not defined (or -U " + M + " undid it)"};
}

Condition macroNotDefined(const std::string &M, const Classification &C) {
  if (C.isDefined(M))
    return {M + " not defined", false, M + " is defined"};
  return {M + " not defined", true, M + " is not defined"};
}

/// The first linked library (an -l name or a shared-library input) whose
/// name matches one of Patterns, spelled as on the command line.
std::optional<std::string> linkedMatch(const std::vector<std::string> &Patterns,
                                       const Classification &C) {
  for (const std::string &L : C.Libraries)
    if (firstGlobMatch(Patterns, L))
      return "-l" + L;
  for (const Input &I : C.Inputs) {
    std::string Name = libnames::sharedLibraryName(I.Path);
    if (!Name.empty() && firstGlobMatch(Patterns, Name))
      return I.Path;
  }
  return std::nullopt;
}

Condition usesAnyOf(const RuleMatch &M, const Classification &C) {
  std::vector<std::string> Wanted;
  Wanted.reserve(M.Libraries.size() + M.Flags.size());
  for (const std::string &L : M.Libraries)
    Wanted.push_back("-l" + L);
  Wanted.insert(Wanted.end(), M.Flags.begin(), M.Flags.end());
  std::string Name = "links or passes any of " + join(Wanted, ", ");
  if (M.Flags.empty())
    Name = "links any of " + join(Wanted, ", ");
  else if (M.Libraries.empty())
    Name = "passes any of " + join(Wanted, ", ");

  if (auto Hit = linkedMatch(M.Libraries, C))
    return {Name, true, *Hit + " is linked"};
  for (const std::string &F : C.DriverFlags)
    if (firstGlobMatch(M.Flags, F))
      return {Name, true, F + " is on the command"};
  return {Name, false, "none of them is on the command"};
}

Condition isAotBuild(bool Wanted, const RuleMatch &M, const Classification &C,
                     const RuleContext &Ctx) {
  std::string Name = Wanted ? "AOT build" : "not an AOT build";
  // AOT and JIT are shapes of a link: a compile step has neither.
  if (C.Ph != Phase::Link)
    return {Name, !Wanted,
            std::string("this ") + phaseName(C.Ph) +
                " step links nothing: AOT or JIT is read from a link"};
  if (Ctx.AotOverride)
    return {Name, *Ctx.AotOverride == Wanted,
            std::string("LINKGUARD_AOT=") + (*Ctx.AotOverride ? "1" : "0")};
  // AOTI compiles each .cpp with -c and then links the objects in a separate
  // command; inductor's JIT path compiles and links one .cpp in one command,
  // or (cpp_wrapper_build_separate) links objects whose names it chose
  // (RuleMatch::JitInputs).
  size_t Objects = 0, Sources = 0;
  for (const Input &I : C.Inputs) {
    if (I.Type == "object") {
      ++Objects;
      StringRef File = llvm::sys::path::filename(I.Path);
      if (const std::string *P = firstGlobMatch(M.JitInputs, File))
        return {Name, !Wanted,
                I.Path + " matches " + *P +
                    ": the objects of a JIT build linked separately; LINKGUARD_AOT=1 "
                    "overrides"};
    } else if (isSourceType(I.Type)) {
      ++Sources;
    }
  }
  if (Objects > 0 && Sources == 0)
    return {Name, Wanted,
            "links " + std::to_string(Objects) + " object file(s) from separate compile steps"};
  if (Sources > 0)
    return {Name, !Wanted,
            "compiles and links source in one command (JIT shape); LINKGUARD_AOT=1 overrides"};
  return {Name, !Wanted, "no object inputs; LINKGUARD_AOT=1 overrides"};
}

Condition notLinked(const RuleMatch &M, const Classification &C,
                    const RuleContext &Ctx) {
  std::vector<std::string> What = M.NotLinked;
  What.insert(What.end(), M.NotLinkedDirs.begin(), M.NotLinkedDirs.end());
  std::string Name = "not linked: " + join(What, ", ");
  for (const std::string &L : C.Libraries)
    if (const std::string *P = firstGlobMatch(M.NotLinked, L))
      return {Name, false, "-l" + L + " matches " + *P};
  for (const Input &I : C.Inputs) {
    std::string Lib = libnames::sharedLibraryName(I.Path);
    if (Lib.empty())
      continue;
    if (const std::string *P = firstGlobMatch(M.NotLinked, Lib))
      return {Name, false, I.Path + " is a lib" + *P + " input"};
  }
  for (const std::string &Dir : C.LibraryDirs) {
    StringRef D = StringRef(Dir).rtrim('/');
    if (const std::string *P = firstGlobMatch(M.NotLinkedDirs, D))
      return {Name, false, "-L" + Dir + " matches " + *P};
    if (!Ctx.FileExists)
      continue;
    for (const std::string &File : M.NotLinkedProbe)
      if (Ctx.FileExists(D.str() + "/" + File))
        return {Name, false, "-L" + Dir + " holds " + File};
  }
  std::string Why = "no -l or library input matching " + join(M.NotLinked, ", ");
  if (!M.NotLinkedDirs.empty() || !M.NotLinkedProbe.empty())
    Why += ", and no -L directory " +
           (M.NotLinkedDirs.empty() ? std::string()
                                    : "matching " + join(M.NotLinkedDirs, ", ")) +
           (!M.NotLinkedDirs.empty() && !M.NotLinkedProbe.empty() ? " or " : "") +
           (M.NotLinkedProbe.empty() ? std::string()
                                     : "holding " + join(M.NotLinkedProbe, ", "));
  return {Name, true, Why};
}

/// The linker arguments a flag hands to the linker ("-Wl,-a,-b" -> -a, -b).
std::vector<std::string> linkerArgsOf(const std::vector<std::string> &Flags) {
  std::vector<std::string> Out;
  for (const std::string &F : Flags) {
    StringRef R(F);
    if (!R.consume_front("-Wl,"))
      continue;
    llvm::SmallVector<StringRef, 4> Parts;
    R.split(Parts, ',', -1, /*KeepEmpty=*/false);
    for (StringRef P : Parts)
      Out.push_back(P.str());
  }
  return Out;
}

Condition flagNotPresent(const RuleSpec &S, const Classification &C) {
  std::vector<std::string> Present = S.Match.AlreadyPresent;
  if (Present.empty())
    Present = linkerArgsOf(S.Add);
  // Classification.LinkerArgs holds the expanded @response files too.
  for (const std::string &P : Present)
    if (C.hasLinkerArg(P))
      return {"flag not already present", false,
              P + " is already on the command (never added twice)"};
  for (const std::string &F : S.Add)
    if (std::find(C.DriverFlags.begin(), C.DriverFlags.end(), F) !=
        C.DriverFlags.end())
      return {"flag not already present", false,
              F + " is already on the command (never added twice)"};
  return {"flag not already present", true,
          join(Present.empty() ? S.Add : Present, ", ") + " absent"};
}

Condition noOptOut(const RuleMatch &M, const Classification &C) {
  for (const std::string &OptOut : M.OptOut)
    if (C.hasLinkerArg(OptOut) ||
        std::find(C.DriverFlags.begin(), C.DriverFlags.end(), OptOut) !=
            C.DriverFlags.end())
      return {"no explicit opt-out", false, OptOut + " on the command"};
  return {"no explicit opt-out", true, "none"};
}

} // namespace

RuleDecision evaluateRule(const RuleSpec &S, const Classification &C,
                          const RuleContext &Ctx) {
  const RuleMatch &M = S.Match;
  RuleDecision D;
  D.RuleName = S.Name;
  D.Origin = S.Origin;
  D.Position = S.Position;
  D.Contract = S.Contract;

  auto &Conds = D.Conditions;
  Conds.push_back(ruleEnabled(S, Ctx));
  Conds.push_back(inPhase(M, C));
  Conds.push_back(allArgumentsKnown(C));
  if (M.Format)
    Conds.push_back(targetsFormat(*M.Format, C));
  if (!M.TargetGlob.empty())
    Conds.push_back(targetMatches(M.TargetGlob, C));
  if (!M.Outputs.empty())
    Conds.push_back(producesOutput(M.Outputs, C));
  for (const std::string &Macro : M.Defined)
    Conds.push_back(macroDefined(Macro, C));
  for (const std::string &Macro : M.NotDefined)
    Conds.push_back(macroNotDefined(Macro, C));
  if (!M.Libraries.empty() || !M.Flags.empty())
    Conds.push_back(usesAnyOf(M, C));
  if (M.Aot)
    Conds.push_back(isAotBuild(*M.Aot, M, C, Ctx));
  if (!M.NotLinked.empty() || !M.NotLinkedDirs.empty() || !M.NotLinkedProbe.empty())
    Conds.push_back(notLinked(M, C, Ctx));
  if (!S.Add.empty() || !M.AlreadyPresent.empty())
    Conds.push_back(flagNotPresent(S, C));
  if (!M.OptOut.empty())
    Conds.push_back(noOptOut(M, C));

  for (Condition &Cond : Conds)
    if (auto It = S.ConditionLabels.find(Cond.Name); It != S.ConditionLabels.end())
      Cond.Name = It->second;

  if (D.matches())
    D.Append = S.Add;
  return D;
}

std::vector<std::string>
withRuleFlags(llvm::ArrayRef<std::string> Args, const Classification &C,
              const std::vector<std::string> &BeforeLibraries,
              const std::vector<std::string> &Append) {
  std::vector<std::string> Out;
  Out.reserve(Args.size() + BeforeLibraries.size() + Append.size());
  // Nothing goes after "--": there every word is an input.
  size_t End = std::min(C.EndOfOptions, Args.size());
  size_t Libraries = std::min(C.FirstLibraryArg, End);
  for (size_t I = 0; I <= Args.size(); ++I) {
    if (I == Libraries)
      Out.insert(Out.end(), BeforeLibraries.begin(), BeforeLibraries.end());
    if (I == End)
      Out.insert(Out.end(), Append.begin(), Append.end());
    if (I < Args.size())
      Out.push_back(Args[I]);
  }
  return Out;
}

} // namespace linkguard::flags
