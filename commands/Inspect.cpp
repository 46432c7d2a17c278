//===- Inspect.cpp - `linkguard inspect`: what a binary depends on --------===//
//
// Reads each file with objlib (a zip's members, --scan's embedded images)
// and describes it once, as a JSON record (inspectRecord). The text layout
// reads that record (and, for --symbols, objlib's import lists directly: a
// record per import costs ~4 KB, and a big dylib has tens of thousands) and
// copies llvm-otool -L (llvm-objdump's PrintDylibs): a "FILE:" line, the
// dylib's own LC_ID_DYLIB first, then one tab-indented line per dependency
// with ", weak" / ", reexport" / ", lazy" / ", upward" before the closing
// parenthesis. Extras (--symbols, --rpaths) only add lines, so the default
// output stays diffable against otool. Every name goes through printable():
// a newline in an install name must not forge a dependency line.
//
//===----------------------------------------------------------------------===//
#include "commands/Commands.h"

#include "commands/CommandLine.h"
#include "commands/Inputs.h"
#include "commands/Printer.h"
#include "commands/Shipments.h"
#include "driver/ExitCode.h"
#include "libnames/LibraryNames.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Object/MachO.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;
using namespace linkguard::objlib;

namespace linkguard::commands {

namespace {

const CommandSpec Spec = {
    "inspect", InspectVis, "linkguard inspect [options] FILE|DIR...",
    "Prints the libraries a Mach-O (thin or universal) or ELF file depends on, in the\n"
    "layout of `otool -L`. A zip archive (.pt2, wheel) is read as a container: each\n"
    "Mach-O or ELF member is listed as PKG!path/in/archive; a directory, as each Mach-O\n"
    "or ELF file in it. --tree prints the load closure instead, like lddtree. Every\n"
    "name printed is accepted back as FILE: PKG!member (quote it where '!' is history\n"
    "expansion, or write PKG/member), FILE@0xOFFSET.",
    "EXIT STATUS: 0 all files read, 64 usage, 65 malformed or unsupported file (also:\n"
    "a damaged or lying zip, a container with no image), 66 missing or unreadable\n"
    "file; with several files, the first failure's code.\n",
    "no input file"};

json::Value orNull(const std::string &S) { return S.empty() ? json::Value(nullptr) : json::Value(S); }

/// The imports, for --json only (text prints objlib's lists): each is a
/// json::Object, ~4 KB (a DenseMap of at least 64 buckets), and a dylib can
/// have tens of thousands.
json::Array importsRecord(const std::vector<Import> &Imports, bool With) {
  json::Array A;
  if (!With)
    return A;
  for (const Import &I : Imports) {
    json::Object R{{"source", bindSourceName(I.Source)}, {"weak", I.Weak}};
    putName(R, "symbol", I.Symbol);
    A.push_back(std::move(R));
  }
  return A;
}

const char *searchPathKindName(Format F, SearchPathKind K) {
  if (F == Format::MachO)
    return "LC_RPATH";
  return K == SearchPathKind::RPath ? "DT_RPATH" : "DT_RUNPATH";
}

json::Object sliceRecord(const BinaryInfo &Info, const Slice &S, bool WithImports) {
  json::Array Deps, Paths, Warnings;
  for (const Dependency &D : S.Dependencies) {
    json::Object R{
        {"kind", dependencyKindName(D.Kind)},
        {"ordinal", D.Ordinal},
        {"currentVersion", orNull(D.CurrentVersion)},
        {"compatibilityVersion", orNull(D.CompatibilityVersion)},
        {"referenced", referencedName(D.IsReferenced)},
        {"imports", importsRecord(D.Imports, WithImports)},
    };
    putName(R, "name", D.Name);
    Deps.push_back(std::move(R));
  }
  for (const SearchPath &P : S.SearchPaths) {
    json::Object R{{"kind", searchPathKindName(Info.Fmt, P.Kind)}};
    putName(R, "path", P.Path);
    Paths.push_back(std::move(R));
  }
  for (const std::string &W : S.Warnings)
    Warnings.push_back(W);
  json::Object R{
      {"arch", S.Arch},
      {"fileType", S.FileType},
      {"installName", nullptr},
      {"currentVersion", orNull(S.CurrentVersion)},
      {"compatibilityVersion", orNull(S.CompatibilityVersion)},
      {"dependencies", std::move(Deps)},
      {"searchPaths", std::move(Paths)},
      {"dynamicLookupImports", importsRecord(S.DynamicLookupImports, WithImports)},
      {"executableImports", importsRecord(S.ExecutableImports, WithImports)},
      {"weakLookupImports", importsRecord(S.WeakLookupImports, WithImports)},
      {"unattributedImports", importsRecord(S.UnattributedImports, WithImports)},
      {"warnings", std::move(Warnings)},
  };
  if (S.InstallName)
    putName(R, "installName", *S.InstallName);
  return R;
}

/// One file (or member, or embedded image), as inspect describes it.
json::Object inspectRecord(const BinaryInfo &Info, const package::Image *Source,
                           bool WithImports) {
  json::Array Slices;
  for (const Slice &S : Info.Slices)
    Slices.push_back(sliceRecord(Info, S, WithImports));
  json::Object R{{"format", Info.Fmt == Format::MachO ? "mach-o" : "elf"},
                 {"universal", Info.Universal},
                 {"slices", std::move(Slices)},
                 {"container", containerToJSON(Source)}};
  putName(R, "path", Info.Path);
  return R;
}

//===--- The text layout ----------------------------------------------------===//

const char *kindSuffix(StringRef Kind) {
  return StringSwitch<const char *>(Kind)
      .Case("LC_LOAD_WEAK_DYLIB", ", weak")
      .Case("LC_REEXPORT_DYLIB", ", reexport")
      .Case("LC_LAZY_LOAD_DYLIB", ", lazy")
      .Case("LC_LOAD_UPWARD_DYLIB", ", upward")
      .Default("");
}

const json::Array &arrayAt(const json::Object &O, StringRef Key) {
  static const json::Array Empty;
  const json::Array *A = O.getArray(Key);
  return A ? *A : Empty;
}

/// Imports are printed from objlib's lists, not from the record: the text
/// output needs no json::Object per import (importsRecord).
void printImports(raw_ostream &OS, const std::vector<Import> &Imports) {
  for (const Import &I : Imports) {
    OS << "\t\t" << printable(I.Symbol) << " (" << bindSourceName(I.Source);
    if (I.Weak)
      OS << ", weak import";
    OS << ")\n";
  }
}

std::string versions(const json::Object &O, StringRef Suffix = "") {
  return " (compatibility version " + str(O, "compatibilityVersion") + ", current version " +
         str(O, "currentVersion") + Suffix.str() + ")";
}

std::string sliceTitle(const json::Object &File, const json::Object &S) {
  std::string Path = printableName(File, "path");
  if (File.getBoolean("universal").value_or(false))
    return Path + " (architecture " + str(S, "arch") + ")";
  return Path;
}

void printSlice(raw_ostream &OS, const json::Object &File, const json::Object &S,
                const Slice &Raw, bool Symbols, bool RPaths) {
  const bool MachO = str(File, "format") == "mach-o";
  OS << sliceTitle(File, S) << ":\n";
  // otool -L lists LC_ID_DYLIB among the dependencies; ELF's DT_SONAME is
  // not a dependency and is not printed.
  if (MachO && S.getString("installName"))
    OS << "\t" << printableName(S, "installName") << versions(S) << "\n";
  const json::Array &Deps = arrayAt(S, "dependencies");
  for (size_t I = 0; I < Deps.size(); ++I) {
    const json::Object &D = *Deps[I].getAsObject();
    OS << "\t" << printableName(D, "name");
    if (MachO)
      OS << versions(D, kindSuffix(str(D, "kind")));
    OS << "\n";
    if (Symbols) {
      OS << "\t\treferenced: " << str(D, "referenced") << "\n";
      printImports(OS, Raw.Dependencies[I].Imports);
    }
  }
  if (Symbols)
    for (auto [List, Title] : {std::pair{&Raw.DynamicLookupImports, "dynamic lookup"},
                               {&Raw.ExecutableImports, "executable"},
                               {&Raw.WeakLookupImports, "weak lookup"},
                               {&Raw.UnattributedImports, "unattributed"}})
      if (!List->empty()) {
        OS << "\t" << Title << ":\n";
        printImports(OS, *List);
      }
  if (RPaths)
    for (const json::Value &V : arrayAt(S, "searchPaths")) {
      const json::Object &P = *V.getAsObject();
      OS << "\t" << str(P, "kind") << " " << printableName(P, "path") << "\n";
    }
}

bool isKnownArch(StringRef A) {
  return object::MachOObjectFile::isValidArch(A) ||
         Triple::getArchTypeForLLVMName(A) != Triple::UnknownArch;
}

/// Mach-O says arm64 where ELF and LLVM say aarch64.
bool archMatches(StringRef Want, StringRef Have) {
  auto canon = [](StringRef A) { return A == "aarch64" ? "arm64" : A; };
  return canon(Want) == canon(Have);
}

/// inspect --tree: the load closure of each FILE (a tree, or a file looked
/// up in its own directory), one record per root, like lddtree/libtree.
int inspectTree(const ParsedCommandLine &CL) {
  if (CL.Args.hasArg(OPT_symbols, OPT_rpaths, OPT_arch_EQ) || CL.Args.hasArg(OPT_scan))
    return usageError(Spec, "--tree takes no --symbols, --rpaths, --arch or --scan");
  const bool Json = CL.Args.hasArg(OPT_json);
  const bool Why = CL.Args.hasArg(OPT_why);
  auto Out = makePrinter(Json, outs(), "linkguard-inspect-tree/2", DocumentShape::Files,
                         {printRootRecord, [](raw_ostream &OS, const json::Object &Doc) {
                            for (const std::string &K : stringsOf(Doc, "conflicts"))
                              OS << "conflict: " << printable(K) << "\n";
                          }});
  int Status = 0;
  auto fail = [&](const InputFailure &F) {
    Out->error(F.record());
    if (Status == 0)
      Status = driver::toInt(F.Code);
  };
  shipment::ClosureOptions CO;
  CO.SearchDirs = CL.Args.getAllArgValues(OPT_search_EQ);
  if (const opt::Arg *Exe = CL.Args.getLastArg(OPT_executable_EQ))
    CO.Executable = Exe->getValue();
  CO.Unique = {"openmp"};
  CO.Roots = CL.Args.getAllArgValues(OPT_root_EQ);
  CO.KeepTries = Why; // what the search that placed each edge tried
  if (std::optional<std::string> Bad = configuredRoots(CO.Roots)) {
    errs() << "linkguard: error: " << printable(*Bad) << "\n";
    return driver::toInt(driver::ExitCode::BadConfig);
  }
  objlib::ReadOptions Read;
  Read.Imports = false; // the closure needs names and search paths only
  // --unique: a runtime under another name is one by what it defines, as
  // check tells it (libnames::runtimeMarkers).
  Read.Exports = !CO.Unique.empty();
  if (Read.Exports)
    Read.ExportsAmong = libnames::runtimeMarkerNames();
  json::Array Conflicts;
  for (const std::string &Path : CL.Positionals) {
    std::unique_ptr<shipment::Shipment> S = openShipment(Path, "", Read, fail);
    if (!S)
      continue;
    shipment::Closure C = shipment::computeClosure(*S, CO);
    if (undecidedRoots(Path, *S, CO) && Status == 0)
      Status = driver::toInt(driver::ExitCode::Undecided);
    for (size_t RI = 0; RI < C.Roots.size(); ++RI)
      Out->result(rootRecord(*S, C, RI, Why));
    std::vector<std::string> Said;
    Said.reserve(C.Conflicts.size());
    for (const shipment::Conflict &K : C.Conflicts)
      Said.push_back(conflictMessage(*S, C, K));
    // A machine whose ld.so searches fewer subdirectories: its process
    // too, said once (by the first machine that has it).
    if (!CO.Unique.empty())
      for (const shipment::MachineClosure &MC : shipment::otherMachineClosures(*S, C, CO))
        for (const shipment::Conflict &K : MC.C.Conflicts) {
          std::string M = conflictMessage(*S, MC.C, K);
          if (llvm::none_of(Said, [&](std::string &X) {
                return shipment::absorbMachineMessage(X, M, MC.Searched);
              }))
            Said.push_back(M + shipment::machineNote(MC.Searched));
        }
    for (std::string &M : Said)
      Conflicts.push_back(std::move(M));
    if (C.Truncated && Status == 0) {
      errs() << "linkguard: error: " << printable(Path)
             << ": the load closure is too large to resolve\n";
      Status = driver::toInt(driver::ExitCode::Undecided);
    }
  }
  Out->finish(json::Object{{"conflicts", json::Value(std::move(Conflicts))}});
  return Status;
}

} // namespace

int runInspect(const std::vector<std::string> &Args) {
  ParsedCommandLine CL;
  if (std::optional<int> Stop = parseCommandLine(Spec, Args, CL))
    return *Stop;
  package::ContainerOptions Containers;
  if (std::string Why; !containerOptionsFrom(CL.Args, Containers, Why))
    return usageError(Spec, Why);
  std::optional<std::string> Arch;
  if (const opt::Arg *A = CL.Args.getLastArg(OPT_arch_EQ)) {
    if (!isKnownArch(A->getValue()))
      return usageError(Spec, "unknown architecture '" + std::string(A->getValue()) + "'");
    Arch = A->getValue();
  }
  const bool Symbols = CL.Args.hasArg(OPT_symbols), RPaths = CL.Args.hasArg(OPT_rpaths);

  if (CL.Args.hasArg(OPT_tree))
    return inspectTree(CL);
  if (CL.Args.hasArg(OPT_executable_EQ, OPT_search_EQ, OPT_root_EQ, OPT_why))
    return usageError(Spec, "--executable, --search, --root and --why need --tree");

  // The file being printed, for its import lists (printImports).
  const BinaryInfo *Current = nullptr;
  TextLayout Text;
  Text.Result = [&](raw_ostream &OS, const json::Object &File) {
    const json::Array &Slices = arrayAt(File, "slices");
    for (size_t I = 0; I < Slices.size(); ++I)
      printSlice(OS, File, *Slices[I].getAsObject(), Current->Slices[I], Symbols, RPaths);
  };
  const bool Json = CL.Args.hasArg(OPT_json);
  auto Out = makePrinter(Json, outs(), "linkguard-inspect/1",
                         DocumentShape::Files, std::move(Text));
  int Status = 0;
  auto fail = [&](const InputFailure &F) {
    Out->error(F.record());
    if (Status == 0)
      Status = driver::toInt(F.Code);
  };
  // Text without --symbols prints no import; JSON always lists them.
  objlib::ReadOptions Read;
  if (!Symbols && !Json)
    Read.ListImportsOf = [](StringRef) { return false; };
  for (const std::string &Path : CL.Positionals)
    forEachInputBinary(
        Path, Containers, Read,
        [&](const std::string &Name, BinaryInfo &Info, const package::Image *Source) {
          if (Arch) {
            std::vector<Slice> Kept;
            for (Slice &S : Info.Slices)
              if (archMatches(*Arch, S.Arch))
                Kept.push_back(std::move(S));
            if (Kept.empty()) {
              InputFailure F{Name, "usage", Name + ": does not contain architecture " + *Arch,
                             driver::ExitCode::Usage};
              errs() << "linkguard: error: " << printable(F.Message) << "\n";
              return fail(F);
            }
            Info.Slices = std::move(Kept);
          }
          json::Object Record = inspectRecord(Info, Source, Json);
          Current = &Info;
          // Warnings go to stderr so stdout stays comparable with otool's.
          for (const json::Value &S : arrayAt(Record, "slices"))
            for (const json::Value &W : arrayAt(*S.getAsObject(), "warnings"))
              errs() << "linkguard: warning: " << sliceTitle(Record, *S.getAsObject()) << ": "
                     << printable(W.getAsString().value_or("")) << "\n";
          Out->result(std::move(Record));
        },
        fail);
  Out->finish({});
  return Status;
}

} // namespace linkguard::commands
