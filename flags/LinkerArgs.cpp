//===- LinkerArgs.cpp - the table of linker spellings ----------------------===//
//
// Mach-O rows follow ld64 (man ld) and lld/MachO/Options.td; ELF rows follow
// lld/ELF/Options.td and GNU ld. ld64 matches option names exactly, so on
// Mach-O only the exact "-o" writes the output. GNU ld parses with
// getopt_long_only, where "-ofile" is "-o file" but "-out" may abbreviate
// "--output": on ELF an argument that starts with "-o" and is not in the
// table makes the output unknown rather than guessed.
//
//===----------------------------------------------------------------------===//
#include "flags/LinkerArgs.h"

#include "libnames/LibraryNames.h"

#include "llvm/ADT/StringRef.h"

namespace linkguard::flags {

namespace {

using LM = LinkerMeaning;
using LF = LinkerForm;

// clang-format off
constexpr LinkerSpelling Rows[] = {
    // name                 form          meaning              MachO  ELF
    {"-o",                  LF::Separate, LM::Output,          true,  true},
    {"--output=",           LF::JoinedEq, LM::Output,          false, true},
    {"--output",            LF::Separate, LM::Output,          false, true},
    {"-needed-l",           LF::Joined,   LM::NeededLibrary,   true,  false},
    {"-needed_library",     LF::Separate, LM::NeededLibrary,   true,  false},
    {"-needed_framework",   LF::Separate, LM::NeededLibrary,   true,  false},
    {"-weak-l",             LF::Joined,   LM::WeakLibrary,     true,  false},
    {"-weak_library",       LF::Separate, LM::WeakLibrary,     true,  false},
    {"-weak_framework",     LF::Separate, LM::WeakLibrary,     true,  false},
    {"-reexport-l",         LF::Joined,   LM::ReexportLibrary, true,  false},
    {"-reexport_library",   LF::Separate, LM::ReexportLibrary, true,  false},
    {"-reexport_framework", LF::Separate, LM::ReexportLibrary, true,  false},
    {"-lazy-l",             LF::Joined,   LM::LazyLibrary,     true,  false},
    {"-lazy_library",       LF::Separate, LM::LazyLibrary,     true,  false},
    {"-lazy_framework",     LF::Separate, LM::LazyLibrary,     true,  false},
    {"-framework",          LF::Separate, LM::Library,         true,  false},
    {"--library=",          LF::JoinedEq, LM::Library,         false, true},
    {"--library",           LF::Separate, LM::Library,         false, true},
    // Values that must never be read as flags or libraries.
    {"-install_name",       LF::Separate, LM::TakesValue,      true,  false},
    {"-rpath",              LF::Separate, LM::TakesValue,      true,  true},
    {"-syslibroot",         LF::Separate, LM::TakesValue,      true,  false},
    {"-arch",               LF::Separate, LM::TakesValue,      true,  false},
    {"-exported_symbols_list", LF::Separate, LM::TakesValue,   true,  false},
    {"-exported_symbol",    LF::Separate, LM::TakesValue,      true,  false},
    {"-order_file",         LF::Separate, LM::TakesValue,      true,  false},
    {"-filelist",           LF::Separate, LM::TakesValue,      true,  false},
    {"-map",                LF::Separate, LM::TakesValue,      true,  false},
    {"-object_path_lto",    LF::Separate, LM::TakesValue,      true,  false},
    {"-lto_library",        LF::Separate, LM::TakesValue,      true,  false},
    {"-mllvm",              LF::Separate, LM::TakesValue,      true,  true},
    {"-undefined",          LF::Separate, LM::TakesValue,      true,  false},
    {"-bundle_loader",      LF::Separate, LM::TakesValue,      true,  false},
    {"-soname",             LF::Separate, LM::TakesValue,      false, true},
    {"-h",                  LF::Separate, LM::TakesValue,      false, true},
    {"-T",                  LF::Separate, LM::TakesValue,      false, true},
    {"-z",                  LF::Separate, LM::TakesValue,      false, true},
    {"-u",                  LF::Separate, LM::TakesValue,      true,  true},
    {"-e",                  LF::Separate, LM::TakesValue,      true,  true},
    // Last: the shortest joined spelling ("-lto_library" is not -l).
    {"-l",                  LF::Joined,   LM::Library,         true,  true},
};
// clang-format on

/// Spellings that start with "-o" on ELF and do not name the output.
constexpr const char *ElfNotOutput[] = {"-omagic", "--omagic", "-oformat",
                                        "--oformat"};

bool accepts(const LinkerSpelling &S, ObjectFormat F) {
  switch (F) {
  case ObjectFormat::MachO:
    return S.MachO;
  case ObjectFormat::ELF:
    return S.ELF;
  case ObjectFormat::Unknown:
    return true;
  }
  return true;
}

/// The row an argument matches, and its value if the row is joined.
const LinkerSpelling *match(llvm::StringRef Arg, ObjectFormat F,
                            llvm::StringRef &Value) {
  for (const LinkerSpelling &S : Rows) {
    if (!accepts(S, F))
      continue;
    llvm::StringRef Name(S.Name);
    switch (S.Form) {
    case LF::Separate:
      if (Arg == Name)
        return &S;
      break;
    case LF::Joined:
    case LF::JoinedEq:
      if (Arg.size() > Name.size() && Arg.starts_with(Name)) {
        Value = Arg.drop_front(Name.size());
        return &S;
      }
      break;
    }
  }
  return nullptr;
}

bool isLibraryMeaning(LinkerMeaning M) {
  return M != LM::Output && M != LM::TakesValue;
}

} // namespace

llvm::ArrayRef<LinkerSpelling> linkerSpellings() { return Rows; }

LinkerFacts scanLinkerArgs(llvm::ArrayRef<std::string> Args, ObjectFormat Format) {
  LinkerFacts Facts;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A(Args[I]);
    if (A.size() > 1 && A.front() == '@') {
      Facts.ResponseFiles.push_back(A.drop_front().str());
      continue;
    }
    llvm::StringRef Joined;
    const LinkerSpelling *S = match(A, Format, Joined);
    if (!S) {
      bool ElfLike = Format != ObjectFormat::MachO;
      bool MaybeOutput = A.starts_with("-o") || A.starts_with("--o");
      if (ElfLike && MaybeOutput && !llvm::is_contained(ElfNotOutput, A) &&
          !A.starts_with("-oformat") && !A.starts_with("--oformat"))
        Facts.OutputAmbiguity =
            "the linker argument '" + A.str() + "' may name the output (GNU ld reads "
            "'-ofile' as '-o file', and '-out' or '--outp=' as '--output')";
      continue;
    }
    std::string Value = Joined.str();
    if (S->Form == LF::Separate) {
      if (I + 1 >= Args.size())
        continue; // the linker fails: "missing argument"
      Value = Args[++I];
    }
    if (S->Meaning == LM::Output)
      Facts.Output = Value;
    else if (isLibraryMeaning(S->Meaning))
      Facts.Libraries.push_back({Value, S->Meaning, S->Form == LF::Separate ? I - 1 : I});
  }
  return Facts;
}

bool linkerArgNamesLibrary(llvm::StringRef Arg) {
  if (Arg.size() > 1 && Arg.front() == '@')
    return true;
  llvm::StringRef Value;
  if (const LinkerSpelling *S = match(Arg, ObjectFormat::Unknown, Value))
    return isLibraryMeaning(S->Meaning);
  return libnames::isLibraryFileName(Arg);
}

} // namespace linkguard::flags
