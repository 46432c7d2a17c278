//===- OptionEffects.h - linkguard's meanings of options -------*- C++ -*-===//
//
// clang's option table (ClangOptionTable.h) says how an option is spelled and
// which values it takes; this table says what an option *means* to linkguard.
// One sorted constexpr array of {OPT_id, Effect} rows, like zig's
// known_options and sccache's ArgData: every option not listed has no effect
// on classification. tests/unit/OptionEffectsTest.cpp checks that the rows
// are sorted, unique, and name real options of clang's table (ccache's
// compopt_verify_sortedness).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>

namespace linkguard::flags {

enum class Effect : std::uint8_t {
  // Immediate arguments: clang answers them before building any job.
  DryRun,       // -###, -ccc-print-phases/-bindings, -fdriver-only: no job runs
  Probe,        // --version, -dumpversion, -dumpmachine, -print-*, --help
  VerboseProbe, // -v / --verbose: a probe only when there are no inputs

  // Final-phase arguments, in clang's Driver::getFinalPhase precedence.
  Preprocess,     // -E
  Dependencies,   // -M, -MM (-MD/-MMD are other options and never stop)
  Precompile,     // --precompile, -extract-api, -fmodule-header[=]
  CompileOnly,    // -fsyntax-only, --analyze, -emit-ast, ...
  Backend,        // -S
  Assemble,       // -c
  InterfaceStubs, // -emit-interface-stubs (stops at the IFS merge, no link)
  EmitLlvm,       // -emit-llvm: clang 19 rejects it on a link step

  // What a link produces.
  SharedOutput,      // -shared, -dynamiclib
  BundleOutput,      // -bundle
  RelocatableOutput, // -r

  // Values linkguard records.
  Output,          // -o, --output=, --output
  Language,        // -x <language>, applies to the inputs after it
  LanguageObjC,    // -ObjC: source inputs are Objective-C
  LanguageObjCXX,  // -ObjC++: source inputs are Objective-C++
  Define,          // -D
  Undefine,        // -U
  Library,         // -l
  WeakLibrary,     // -weak-l
  ReexportLibrary, // -reexport-l
  LibraryDir,      // -L
  LinkerCommaArgs, // -Wl,a,b
  LinkerArg,       // -Xlinker a
  LinkerZ,         // -z a (passed on as "-z" "a")
  Target,          // --target=, -target
  Arch,            // -arch (Darwin)
  WorkingDirectory, // -working-directory: inputs and the link's output
                    // are relative to it
  EndOfOptions,     // --: every later word is an input

  StaticLibOutput, // --emit-static-lib: clang runs the archiver, no linker
  DriverMode,      // --driver-mode=: cpp, g++, gcc, cl, flang, dxc
  PerArchArg,      // -Xarch_<arch> ARG, -Xarch_host/-Xarch_device ARG

  // Arguments that make the command clang runs differ from the one read.
  ConfigFile,  // --config=, --config-system-dir=, --config-user-dir=
  RspQuoting,  // --rsp-quoting=: how @files are split

  // enumName (support/EnumNames.h) names each enumerator up to Last.
  Last = RspQuoting,
};

struct OptionEffect {
  unsigned Id; // clang::driver::options::ID
  Effect Eff;
};

/// The rows, sorted by option id.
llvm::ArrayRef<OptionEffect> optionEffects();

/// The effect of an (unaliased) option id, if linkguard knows one.
std::optional<Effect> effectOf(unsigned OptId);

const char *effectName(Effect E);

} // namespace linkguard::flags
