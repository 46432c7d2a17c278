//===- ClassifyWalk.cpp - one argument at a time ---------------------------===//
//
// processArg() is the whole of what one parsed argument contributes: a
// phase, an input, a macro, a library, a linker argument, a target, or a
// reason the command is uncertain. Option meanings come from the
// OptionEffects table; nothing here matches option spellings by hand.
//
//===----------------------------------------------------------------------===//
#include "flags/ClassifyState.h"

#include "flags/ClangOptionTable.h"
#include "libnames/LibraryNames.h"
#include "flags/LinkerArgs.h"

#include "clang/Driver/Options.h"

#include "llvm/Option/Option.h"
#include "llvm/Support/GlobPattern.h"

#include <cstring>

using namespace llvm;
using namespace llvm::opt;
namespace copts = clang::driver::options;

namespace linkguard::flags {

namespace {

constexpr Effect PhaseEffects[] = {Effect::Preprocess,  Effect::Dependencies,
                                   Effect::Precompile,  Effect::CompileOnly,
                                   Effect::Backend,     Effect::Assemble,
                                   Effect::InterfaceStubs};

int phaseSlot(Effect E) {
  for (size_t I = 0; I < std::size(PhaseEffects); ++I)
    if (PhaseEffects[I] == E)
      return static_cast<int>(I);
  return -1;
}

void addInput(State &S, const ArgList &List, StringRef Path) {
  PendingInput In;
  In.Path = Path.str();
  if (S.Language) {
    In.ExplicitType = S.Language->getValue();
    In.LanguageArg = S.Language->getAsString(List);
  }
  S.BringsLibrary |= Path.starts_with("@") || libnames::isLibraryFileName(Path);
  S.Inputs.push_back(std::move(In));
}

void addLinkerArg(State &S, Classification &C, const char *V) {
  S.BringsLibrary |= linkerArgNamesLibrary(V);
  C.LinkerArgs.push_back(V);
}

/// Effects that only record a value or set a flag in the state.
void applyEffect(Effect E, const Arg &A, State &S, Classification &C) {
  switch (E) {
  case Effect::DryRun:
    S.DryRun = &A;
    break;
  case Effect::Probe:
    if (!S.FirstProbe)
      S.FirstProbe = &A;
    break;
  case Effect::VerboseProbe:
    S.Verbose = &A;
    break;
  case Effect::EmitLlvm:
    S.EmitLlvm = &A;
    break;
  case Effect::SharedOutput:
  case Effect::BundleOutput:
  case Effect::RelocatableOutput:
    S.LastKind = E;
    break;
  case Effect::Output:
    C.Output = A.getValue();
    break;
  case Effect::Language:
    // "-x none" goes back to guessing from the extension.
    S.Language = StringRef(A.getValue()) == "none" ? nullptr : &A;
    break;
  case Effect::LanguageObjC:
    S.ObjC = true;
    break;
  case Effect::LanguageObjCXX:
    S.ObjCXX = true;
    break;
  case Effect::Define:
    S.Macros.define(A.getValue());
    break;
  case Effect::Undefine:
    S.Macros.undefine(A.getValue());
    break;
  case Effect::Library:
  case Effect::WeakLibrary:
  case Effect::ReexportLibrary:
    S.BringsLibrary = true;
    addLibrary(C, A.getValue());
    break;
  case Effect::LibraryDir:
    C.LibraryDirs.push_back(A.getValue());
    break;
  case Effect::LinkerCommaArgs:
    for (const char *V : A.getValues())
      addLinkerArg(S, C, V);
    break;
  case Effect::LinkerArg:
    addLinkerArg(S, C, A.getValue());
    break;
  case Effect::LinkerZ:
    C.LinkerArgs.push_back("-z");
    C.LinkerArgs.push_back(A.getValue());
    break;
  case Effect::Target:
    S.LastTargetArg = &A;
    break;
  case Effect::Arch:
    C.Target.Archs.push_back(A.getValue());
    break;
  case Effect::WorkingDirectory:
    C.WorkingDirectory = A.getValue();
    break;
  case Effect::RspQuoting:
    S.WindowsQuoting = StringRef(A.getValue()) == "windows";
    break;
  case Effect::StaticLibOutput:
    S.StaticLib = &A;
    break;
  case Effect::DriverMode:
    S.DriverMode = A.getValue();
    break;
  default:
    break;
  }
}

bool assumedKnown(const std::vector<std::string> &Globs, StringRef Spelling) {
  for (const std::string &G : Globs) {
    Expected<GlobPattern> P = GlobPattern::create(G);
    if (!P) {
      consumeError(P.takeError());
      if (G == Spelling)
        return true;
      continue;
    }
    if (P->match(Spelling))
      return true;
  }
  return false;
}

/// -Xarch_arm64 ARG (-Xarch_host, -Xarch_device) hands ARG to one
/// architecture's job only. An ARG that would mean something to linkguard
/// (-Wl,-o,x, -lfoo, -DUSE_MPS, an input) makes the command uncertain:
/// which job it reaches is not read here.
void checkPerArchArg(const Arg &A, const ArgList &List, Classification &C) {
  const char *Wrapped = A.getValues().back();
  unsigned MissingIndex = 0, MissingCount = 0;
  InputArgList Inner = clangOptTable().ParseArgs(ArrayRef<const char *>(&Wrapped, 1),
                                                 MissingIndex, MissingCount,
                                                 clangDriverVisibility());
  for (const Arg *I : Inner) {
    const Option &O = I->getOption();
    if (O.getID() == copts::OPT_INPUT || O.hasFlag(copts::LinkerInput) ||
        effectOf(O.getID())) {
      C.Uncertain.push_back(A.getAsString(List) + " hands " + Wrapped +
                            " to one architecture's job only, which linkguard does not read");
      return;
    }
  }
}

} // namespace

void addLibrary(Classification &C, StringRef NameOrPath) {
  if (NameOrPath.empty())
    return;
  std::string FromFile = NameOrPath.contains('/') ? libnames::sharedLibraryName(NameOrPath) : "";
  C.Libraries.push_back(FromFile.empty() ? NameOrPath.str() : FromFile);
}

void processArg(const Arg &A, const ArgList &List, State &S, Classification &C) {
  S.BringsLibrary = false;
  const Option &O = A.getOption();
  unsigned Id = O.getID();

  if (Id == copts::OPT_UNKNOWN) {
    std::string Spelling = A.getAsString(List);
    if (S.AssumeKnown && assumedKnown(*S.AssumeKnown, Spelling)) {
      C.DriverFlags.push_back(std::move(Spelling));
      return;
    }
    C.UnknownArgs.push_back(Spelling);
    // clang 19's driver has no -needed-l (ld64 has); record it anyway so a
    // rule can see the user's intent, while UnknownArgs makes rules decline.
    if (StringRef(Spelling).starts_with("-needed-l")) {
      S.BringsLibrary = true;
      addLibrary(C, StringRef(Spelling).drop_front(std::strlen("-needed-l")));
    }
    return;
  }
  if (Id == copts::OPT_INPUT) {
    addInput(S, List, A.getValue());
    return;
  }
  if (O.hasFlag(copts::Unsupported)) {
    // clang: "unsupported option '-dumpspecs'"; nothing runs.
    C.UnknownArgs.push_back(A.getAsString(List));
    return;
  }
  if (O.hasFlag(copts::LinkerInput))
    ++S.LinkerInputOptions;

  std::optional<Effect> E = effectOf(Id);
  if (E == Effect::EndOfOptions) {
    // Driver::BuildInputs: "anything after -- is an input, even if it starts
    // with a dash".
    for (const char *V : A.getValues())
      addInput(S, List, V);
    return;
  }
  // Macros live in Defines and include paths matter to no rule; leaving
  // them out keeps a 100,000-define @file from rendering 100,000 strings.
  if (!(E && (*E == Effect::Define || *E == Effect::Undefine)) &&
      !O.matches(copts::OPT_I_Group))
    C.DriverFlags.push_back(A.getAsString(List));
  if (!E)
    return;
  if (int Slot = phaseSlot(*E); Slot >= 0) {
    S.LastPhaseArg[static_cast<size_t>(Slot)] = &A;
    return;
  }
  if (*E == Effect::PerArchArg) {
    checkPerArchArg(A, List, C);
    return;
  }
  if (*E == Effect::ConfigFile) {
    C.Uncertain.push_back(A.getAsString(List) +
                          " reads more arguments from a configuration file");
    return;
  }
  applyEffect(*E, A, S, C);
}

bool needsOnlyValue(const Option &O) {
  const unsigned Id = O.getID();
  if (Id == copts::OPT_INPUT || Id == copts::OPT_UNKNOWN || O.hasFlag(copts::Unsupported) ||
      O.hasFlag(copts::LinkerInput))
    return false;
  // What processArg does with the rest: -D/-U change Defines, an include
  // path is left out of DriverFlags and has no effect.
  if (std::optional<Effect> E = effectOf(Id))
    return *E == Effect::Define || *E == Effect::Undefine;
  return O.matches(copts::OPT_I_Group);
}

void processLightArg(unsigned OptionId, const char *Value, State &S, Classification &C) {
  S.BringsLibrary = false;
  std::optional<Effect> E = effectOf(OptionId);
  if (E == Effect::Define)
    S.Macros.define(Value);
  else if (E == Effect::Undefine)
    S.Macros.undefine(Value);
}

} // namespace linkguard::flags
