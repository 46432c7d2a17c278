//===- Classify.h - read one compiler command line --------------*- C++ -*-===//
//
// classify() reads the arguments of one compiler invocation (argv without
// argv[0]) the way clang 19's driver would, using clang's own option table
// (ClangOptionTable.h) and linkguard's sorted table of option meanings
// (OptionEffects.h), and returns a plain Classification. It is a pure
// function except for reading @response files; the caller still executes the
// original argv byte for byte. docs/classification.md describes the rules.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "flags/Classification.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace linkguard::flags {

/// The object format of the machine linkguard was built for: Mach-O on a
/// macOS host, ELF elsewhere. Tests override it through ClassifyOptions.
ObjectFormat hostObjectFormat();

struct ClassifyOptions {
  /// The name the compiler was invoked as (argv[0] or the resolved real
  /// compiler). A target prefix ("arm64-apple-darwin-clang++") implies the
  /// target, as clang's getTargetAndModeFromProgramName does; a name ending in
  /// "++" makes .c inputs C++, as for clang++.
  std::string CompilerName = "clang++";
  /// The object format assumed when nothing on the command line names a
  /// target. Decides whether a bare `-arch` means Apple/Mach-O.
  ObjectFormat HostFormat = hostObjectFormat();
  /// The host triple; empty means "derive from HostFormat" (the build host's
  /// default triple when that matches, otherwise a generic one).
  std::string HostTriple;
  /// Directory that relative @response files are read from; empty means the
  /// process's current directory.
  std::string WorkingDir;
  /// The value of CCC_OVERRIDE_OPTIONS when set: clang edits its argv with
  /// it before reading it, so the command read here is not the one that runs.
  std::string OverrideOptions;
  /// Arguments clang 19's table does not know that the user declared
  /// harmless (LINKGUARD_ASSUME_KNOWN): globs over the spelling. They stay
  /// in DriverFlags and leave UnknownArgs.
  std::vector<std::string> AssumeKnown;
  /// Command lines with at least this many arguments are parsed with
  /// flags/ClangArgParser.h's shortcuts. Tests and fuzz_classify set 0 and
  /// SIZE_MAX to compare the two paths on the same command.
  size_t ParseShortcutThreshold = 256;
  /// When set, Defines records only these macros (repeats allowed). planJob
  /// passes the names its rules ask about (RuleMatch::Defined and
  /// NotDefined) and those the launcher assumes (applyAssumptions reads
  /// Defines for them): the only readers of Defines. A command with
  /// 100,000 -D builds no 100,000-entry table that nothing reads; explain
  /// shows the same plan. Unset: every macro.
  std::optional<std::vector<std::string>> MacrosRead;
};

/// Classifies one command. Fails only when a response file cannot be read
/// (ResponseFileError, see ResponseFiles.h): everything else that clang
/// would reject is still classified, with unknown options in UnknownArgs.
llvm::Expected<Classification> classify(llvm::ArrayRef<std::string> Args,
                                        const ClassifyOptions &Opts);

} // namespace linkguard::flags
