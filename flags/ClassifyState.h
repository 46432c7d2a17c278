//===- ClassifyState.h - the walk over one command's arguments ---*- C++ -*-===//
//
// Private to classify(): what the walk over the parsed arguments saw (as
// ccache's ArgumentProcessingState), one function per argument, and the
// decisions taken from it afterwards (target, inputs, phase).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "flags/Classification.h"
#include "flags/Classify.h"
#include "flags/MacroTable.h"
#include "flags/OptionEffects.h"
#include "flags/ProgramName.h"

#include "llvm/Option/ArgList.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace linkguard::flags {

struct PendingInput {
  std::string Path;
  std::string ExplicitType; // from the -x in force, "" for none
  std::string LanguageArg;  // that -x rendered ("-x c++-header")
};


struct State {
  const llvm::opt::Arg *DryRun = nullptr;     // -###, -ccc-print-*, ...
  const llvm::opt::Arg *FirstProbe = nullptr; // --version, -print-*, ...
  const llvm::opt::Arg *Verbose = nullptr;    // -v
  const llvm::opt::Arg *EmitLlvm = nullptr;   // -emit-llvm
  const llvm::opt::Arg *StaticLib = nullptr;  // --emit-static-lib
  std::string DriverMode;                     // --driver-mode=
  const llvm::opt::Arg *Language = nullptr;   // the -x in force
  // Effect of the last -shared / -dynamiclib / -bundle / -r.
  std::optional<Effect> LastKind;
  const llvm::opt::Arg *LastTargetArg = nullptr;
  // Last argument per final-phase effect, indexed as PhaseEffects.
  std::array<const llvm::opt::Arg *, 7> LastPhaseArg{};
  std::vector<PendingInput> Inputs;
  unsigned LinkerInputOptions = 0; // -l, -Wl,, -Xlinker, -z, -framework, ...
  MacroTable Macros; // -D/-U in order; classify() moves it to Defines
  bool ObjC = false, ObjCXX = false;
  bool WindowsQuoting = false; // --rsp-quoting=windows
  /// ClassifyOptions::AssumeKnown: unknown spellings the user declared.
  const std::vector<std::string> *AssumeKnown = nullptr;
  /// Set by processArg for the argument just processed: it brings a library
  /// onto the link line (flag placement goes before it).
  bool BringsLibrary = false;
};

/// One argument's contribution to the state (ccache's process_option_arg).
void processArg(const llvm::opt::Arg &A, const llvm::opt::ArgList &List, State &S,
                Classification &C);

/// Options whose whole contribution to the state is their value as a macro
/// (-D, -U) or nothing (-I and the other include paths): processArg needs
/// no Arg for them (flags/ClangArgParser.h's light arguments).
bool needsOnlyValue(const llvm::opt::Option &O);

/// processArg for an option needsOnlyValue accepts, from its id and value.
void processLightArg(unsigned OptionId, const char *Value, State &S, Classification &C);

/// Records a library the link names; a path (-needed_library /x/libq.dylib)
/// is recorded by its library name ("q").
void addLibrary(Classification &C, llvm::StringRef NameOrPath);

/// --driver-mode= overrides what the compiler's name says.
ProgramName applyDriverMode(const State &S, ProgramName Prog, Classification &C);

TargetInfo decideTarget(const State &S, const ProgramName &Prog,
                        const ClassifyOptions &Opts, std::vector<std::string> Archs);

std::vector<Input> resolveInputs(const State &S, const ProgramName &Prog, bool Darwin);

/// Phase, deciding argument and output kind, in getFinalPhase's order.
void decidePhase(const State &S, const llvm::opt::ArgList &List, const ProgramName &Prog,
                 const ClassifyOptions &Opts, Classification &C);

} // namespace linkguard::flags
