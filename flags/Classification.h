//===- Classification.h - what one compiler command will do -----*- C++ -*-===//
//
// The plain-data result of reading a compiler command line. Classification
// follows clang's Driver::getFinalPhase order (-E/-M/-MM, --precompile,
// -fsyntax-only, -S, -c, link) with link as the default, plus the immediate
// arguments clang handles before building any job (--version, -###, -print-*).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace linkguard::flags {

enum class Phase {
  Probe,      // --version, -v alone, -###, -dumpversion, -print-*, --help
  Preprocess, // -E, -M/-MM without -MD/-MMD
  Pch,        // header inputs (-x c++-header, .h/.hpp), --precompile
  Compile,    // -c, -S, -fsyntax-only, --analyze, -emit-ast, -emit-llvm w/o link
  Link,       // anything that runs the linker
};

const char *phaseName(Phase P);

enum class ObjectFormat { MachO, ELF, Unknown };
const char *objectFormatName(ObjectFormat F);

/// Where the target came from, for `explain`.
enum class TargetSource { TargetFlag, Arch, CompilerName, Host };

struct TargetInfo {
  std::string Triple; // as given or as implied ("arm64-apple-macos11")
  ObjectFormat Format = ObjectFormat::Unknown;
  TargetSource Source = TargetSource::Host;
  std::vector<std::string> Archs; // every -arch, in order
};

/// What the link step produces.
enum class OutputKind { Executable, SharedLibrary, Bundle, Relocatable, None };
const char *outputKindName(OutputKind K);

/// One positional input with clang's idea of its language.
struct Input {
  std::string Path;
  std::string Type; // "c++", "c++-header", "object", "archive", "shared", ...
  bool IsStdin = false; // the input "-"
};

struct Classification {
  Phase Ph = Phase::Link;
  /// The argument that decided the phase ("-c", "-E", "-x c++-header", or
  /// "(default)" for a link), kept for `explain`.
  std::string DecidingArg = "(default)";
  std::vector<Input> Inputs;
  std::optional<std::string> Output; // -o
  TargetInfo Target;
  OutputKind Kind = OutputKind::None;

  /// Macro state after every -D/-U in order: the names still defined, with
  /// their values ("USE_MPS" -> "" or "1").
  std::vector<std::pair<std::string, std::string>> Defines;
  std::vector<std::string> Libraries;   // -lfoo -> "foo" (-needed-l too)
  /// The subset of Libraries the linker must keep even under
  /// -dead_strip_dylibs: -needed-lfoo -> "foo", -needed_library p -> "p",
  /// -needed_framework F -> "F" (from the driver or from -Wl,/-Xlinker).
  std::vector<std::string> NeededLibraries;
  std::vector<std::string> LibraryDirs; // -L
  /// Every argument the linker will see from -Wl, / -Xlinker / -z, split
  /// into single linker arguments ("-Wl,-a,-b" -> "-a", "-b").
  std::vector<std::string> LinkerArgs;
  /// Arguments clang 19 does not know. Their presence makes every rule
  /// decline (the conservative reading), and is logged.
  std::vector<std::string> UnknownArgs;
  /// Response files that were expanded to read the command.
  std::vector<std::string> ResponseFiles;
  /// Every option as clang spells it after response-file expansion, in
  /// order ("-fopenmp", "-fopenmp=libomp", "-Xclang -fopenmp"); rules match
  /// driver flags against it (flags/RuleSpec.h). -D/-U (see Defines) and
  /// include paths (-I, -isystem, ...) are left out.
  std::vector<std::string> DriverFlags;

  bool isDefined(const std::string &Macro) const;
  bool hasLinkerArg(const std::string &Arg) const;
};

} // namespace linkguard::flags
