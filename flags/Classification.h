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
  Archive,    // --emit-static-lib: clang runs the static-library tool, no linker
  Link,       // anything that runs the linker
  // enumName (support/EnumNames.h) names each enumerator up to Last.
  Last = Link,
};

const char *phaseName(Phase P);

enum class ObjectFormat { MachO, ELF, Unknown, Last = Unknown };
const char *objectFormatName(ObjectFormat F);

/// Where the target came from, for `explain`.
enum class TargetSource { TargetFlag, Arch, CompilerName, Host, Last = Host };

struct TargetInfo {
  std::string Triple; // as given or as implied ("arm64-apple-macos11")
  ObjectFormat Format = ObjectFormat::Unknown;
  TargetSource Source = TargetSource::Host;
  std::vector<std::string> Archs; // every -arch, in order
};

/// What the link step produces.
enum class OutputKind {
  Executable,
  SharedLibrary,
  Bundle,
  Relocatable,
  None,
  // enumName (support/EnumNames.h) names each enumerator up to Last.
  Last = None,
};
const char *outputKindName(OutputKind K);

/// One positional input with clang's idea of its language.
struct Input {
  std::string Path;
  /// A clang type name from Types.def ("c++", "c++-header", "object"), or
  /// one of linkguard's kinds of "object": "archive", "shared", "tbd"
  /// (flags/InputTypes.h).
  std::string Type;
  bool IsStdin = false; // the input "-"
};

/// Where a link step writes, as far as the words that run can tell
/// (docs/classification.md, "Where a link writes").
struct LinkOutput {
  /// The file the linker writes: the last linker -o, else clang's -o, else
  /// a.out; relative to the working directory the linker runs in
  /// (-working-directory). Empty when unknown.
  std::string Path;
  /// What decided it, for explain: "-o", "-Wl,-o", "default".
  std::string Source;
  /// Why it cannot be known ("-o - writes to standard output"); empty when
  /// Path is known.
  std::string Unknown;

  bool known() const { return Unknown.empty() && !Path.empty(); }
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
  /// their values ("USE_MPS" -> "" or "1"); only the names of
  /// ClassifyOptions::MacrosRead when it is set (as planJob sets it).
  std::vector<std::pair<std::string, std::string>> Defines;
  /// Libraries by name: -lfoo -> "foo", from the driver and from linker
  /// arguments in any spelling of flags/LinkerArgs.h (-needed-l too).
  std::vector<std::string> Libraries;
  std::vector<std::string> LibraryDirs; // -L
  /// Every argument the linker will see from -Wl, / -Xlinker / -z, split
  /// into single linker arguments ("-Wl,-a,-b" -> "-a", "-b").
  std::vector<std::string> LinkerArgs;
  /// Arguments clang 19 does not know. Their presence makes every rule
  /// decline (the conservative reading), and is logged.
  std::vector<std::string> UnknownArgs;
  /// Why the command clang runs may differ from the one read here
  /// (--config, CCC_OVERRIDE_OPTIONS, --rsp-quoting=windows with @files, an
  /// @file linkguard did not read). Rules decline, as for UnknownArgs.
  std::vector<std::string> Uncertain;
  /// Where the link writes (Phase::Link only).
  LinkOutput Link;
  /// -working-directory: clang resolves inputs against it and runs the
  /// linker in it.
  std::optional<std::string> WorkingDirectory;
  /// Positions in the classified arguments (before @file expansion): the
  /// first argument that brings a library onto the link line (-l, a library
  /// file, an @file, -Wl,/-Xlinker naming one), and the "--" after which
  /// every word is an input. Both are the argument count when absent. Rule
  /// flags go in front of these, never after "--".
  size_t FirstLibraryArg = 0;
  size_t EndOfOptions = 0;
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
