//===- MpsAotRule.cpp - the built-in rule, one predicate per condition ----===//
#include "flags/MpsAotRule.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"

namespace linkguard::flags {

namespace {

std::string join(const std::vector<std::string> &Items) {
  std::string Out;
  for (const std::string &I : Items)
    Out += (Out.empty() ? "" : " ") + I;
  return Out;
}

Condition ruleEnabled(const RuleContext &Ctx) {
  if (!Ctx.Enabled)
    return {"rule enabled", false,
            "disabled by LINKGUARD_RULES=off or LINKGUARD_RULE_MPS_AOT=off"};
  return {"rule enabled", true, "on by default"};
}

Condition isLinkStep(const Classification &C) {
  if (C.Ph == Phase::Link)
    return {"link step", true, "no -c/-S/-E/-fsyntax-only/probe: clang runs the linker"};
  return {"link step", false,
          std::string(phaseName(C.Ph)) + " step, decided by " + C.DecidingArg};
}

Condition allArgumentsKnown(const Classification &C) {
  if (C.UnknownArgs.empty())
    return {"every argument understood", true, "all known to clang 19"};
  return {"every argument understood", false,
          "unknown to clang 19: " + join(C.UnknownArgs) +
              " (conservative: leave the command alone)"};
}

Condition targetsMachO(const Classification &C) {
  bool Holds = C.Target.Format == ObjectFormat::MachO;
  std::string Why = std::string(objectFormatName(C.Target.Format)) + " target";
  if (!C.Target.Triple.empty())
    Why += " (" + C.Target.Triple + ")";
  return {"Mach-O target", Holds, Why};
}

Condition producesSharedLibrary(const Classification &C) {
  bool Holds = C.Kind == OutputKind::SharedLibrary || C.Kind == OutputKind::Bundle;
  return {"shared library or bundle output", Holds,
          std::string("output is ") + outputKindName(C.Kind)};
}

Condition isMpsBuild(const Classification &C) {
  if (C.isDefined("USE_MPS"))
    return {"MPS build", true, "USE_MPS is defined"};
  return {"MPS build", false, "USE_MPS is not defined (or -U USE_MPS undid it)"};
}

bool isSourceInput(const Input &I) {
  return I.Type != "object" && I.Type != "archive" && I.Type != "shared" &&
         I.Type != "linker-input";
}

Condition isAotBuild(const Classification &C, const RuleContext &Ctx) {
  if (Ctx.AotOverride)
    return {"AOT build", *Ctx.AotOverride,
            std::string("LINKGUARD_AOT=") + (*Ctx.AotOverride ? "1" : "0")};
  // AOTI compiles each .cpp with -c and then links the objects in a separate
  // command; inductor's JIT path compiles and links one .cpp in one command.
  size_t Objects = 0, Sources = 0;
  for (const Input &I : C.Inputs) {
    if (I.Type == "object")
      ++Objects;
    else if (isSourceInput(I))
      ++Sources;
  }
  if (Objects > 0 && Sources == 0)
    return {"AOT build", true,
            "links " + std::to_string(Objects) + " object file(s) from separate compile steps"};
  if (Sources > 0)
    return {"AOT build", false,
            "compiles and links source in one command (JIT shape); LINKGUARD_AOT=1 overrides"};
  return {"AOT build", false, "no object inputs; LINKGUARD_AOT=1 overrides"};
}

bool dirHoldsLibtorch(const std::string &Dir, const RuleContext &Ctx) {
  llvm::StringRef D = llvm::StringRef(Dir).rtrim('/');
  // cpp_builder names libtorch on macOS only through -L .../torch/lib.
  if (D.ends_with("torch/lib"))
    return true;
  if (!Ctx.FileExists)
    return false;
  for (const char *Lib : {"libtorch_cpu.dylib", "libtorch.dylib", "libtorch.so",
                          "libtorch_cpu.so"})
    if (Ctx.FileExists(D.str() + "/" + Lib))
      return true;
  return false;
}

Condition libtorchNotLinked(const Classification &C, const RuleContext &Ctx) {
  for (const std::string &L : C.Libraries)
    if (llvm::StringRef(L).starts_with("torch"))
      return {"libtorch not linked", false, "-l" + L + " links libtorch"};
  for (const Input &I : C.Inputs) {
    llvm::StringRef File = llvm::sys::path::filename(I.Path);
    if (File.starts_with("libtorch") &&
        (File.ends_with(".dylib") || File.contains(".so") || File.ends_with(".tbd")))
      return {"libtorch not linked", false, I.Path + " is a libtorch input"};
  }
  for (const std::string &Dir : C.LibraryDirs)
    if (dirHoldsLibtorch(Dir, Ctx))
      return {"libtorch not linked", false, "-L" + Dir + " holds libtorch"};
  return {"libtorch not linked", true, "no -ltorch*, libtorch input or torch/lib directory"};
}

Condition flagNotPresent(const Classification &C) {
  if (C.hasLinkerArg("-dead_strip_dylibs"))
    return {"flag not already present", false,
            "-dead_strip_dylibs is already on the command (never added twice)"};
  return {"flag not already present", true, "-dead_strip_dylibs absent"};
}

Condition noOptOut(const Classification &C) {
  // ld64 has no "undo" for -dead_strip_dylibs; a user who writes one of
  // these spellings is telling us to keep every dylib, and that wins.
  for (const char *OptOut : {"-no_dead_strip_dylibs", "-no-dead_strip_dylibs"})
    if (C.hasLinkerArg(OptOut))
      return {"no explicit opt-out", false, std::string(OptOut) + " on the command"};
  return {"no explicit opt-out", true, "none"};
}

} // namespace

RuleDecision decideMpsAotRule(const Classification &C, const RuleContext &Ctx) {
  RuleDecision D;
  D.RuleName = MpsAotRuleName;
  D.Contract = ContractKind::OpenMPDropped;
  D.Conditions = {ruleEnabled(Ctx),      isLinkStep(C),
                  allArgumentsKnown(C),  targetsMachO(C),
                  producesSharedLibrary(C), isMpsBuild(C),
                  isAotBuild(C, Ctx),    libtorchNotLinked(C, Ctx),
                  flagNotPresent(C),     noOptOut(C)};
  if (D.matches())
    D.Append = {DeadStripDylibsFlag};
  return D;
}

} // namespace linkguard::flags
