//===- LinkerArgs.h - the linker argument spellings linkguard knows -*- C++ -*-===//
//
// clang hands -Wl,a,b / -Xlinker a / -z a to the linker as they are; what they
// mean is the linker's business. This is the one table of linker spellings
// linkguard reads: classification (which libraries a link names, where it
// writes), flag placement (the first library on the line) and the rules all
// use it. The spellings come from the linkers' own option tables:
// lld/MachO/Options.td and ld64's man page for Mach-O, lld/ELF/Options.td and
// GNU ld's --help for ELF. An argument not in the table means nothing to
// linkguard, except that a value a table row takes is never read as a flag.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "flags/Classification.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace linkguard::flags {

enum class LinkerMeaning : std::uint8_t {
  Output,          // where the linker writes
  Library,         // a library by name (-lfoo)
  NeededLibrary,   // kept even under -dead_strip_dylibs (ld64 -needed-l...)
  WeakLibrary,     // ld64 -weak-l / -weak_library
  ReexportLibrary, // ld64 -reexport-l / -reexport_library
  LazyLibrary,     // ld64 -lazy-l / -lazy_library
  LibraryPath,     // a library by path (-needed_library /x/libfoo.dylib)
  TakesValue,      // a separate value follows that is never a flag itself
};

enum class LinkerForm : std::uint8_t {
  Separate, // "-o" "file"
  Joined,   // "-lfoo"
  JoinedEq, // "--output=file"
};

struct LinkerSpelling {
  const char *Name;
  LinkerForm Form;
  LinkerMeaning Meaning;
  bool MachO; // ld64 / ld64.lld accept it
  bool ELF;   // GNU ld / ld.lld accept it
};

/// The rows, most specific first (a Joined row never shadows a longer one).
llvm::ArrayRef<LinkerSpelling> linkerSpellings();

/// One library the linker arguments name.
struct LinkerLibrary {
  std::string Name; // "foo" for -lfoo, the path for -needed_library /x/y
  LinkerMeaning Meaning;
  size_t ArgIndex; // index into the scanned arguments
};

/// What a list of linker arguments (as clang passes them, in order) says.
struct LinkerFacts {
  std::vector<LinkerLibrary> Libraries;
  /// The value of the last output spelling: the linkers above all take the
  /// last -o.
  std::optional<std::string> Output;
  /// Set when an argument may name the output but linkguard cannot be sure
  /// (GNU ld's joined "-ofile"): the output is then unknown.
  std::string OutputAmbiguity;
  /// "@file" arguments: the linker reads more arguments from each.
  std::vector<std::string> ResponseFiles;
};

/// Scans linker arguments for the given object format (Unknown: both).
LinkerFacts scanLinkerArgs(llvm::ArrayRef<std::string> Args, ObjectFormat Format);

/// True when the single linker argument names a library (any library
/// spelling, a library file by name, or an @file that may hold one).
bool linkerArgNamesLibrary(llvm::StringRef Arg);

} // namespace linkguard::flags
