//===- ParseCompare.h - flags::parseClangArgs against OptTable::ParseArgs -===//
//
// The parse as a list of lines, one per argument in index order
// ("3 OPT_D -D MACRO=1"), so the shortcut path of flags/ClangArgParser.h and
// clang's own ParseArgs can be compared whole. A light argument has no Arg:
// its line is built from the id and value it kept, which must then equal
// the line of the Arg ParseArgs made (one value, the same spelling).
// render() does the same for a whole Classification. Used by
// ClangArgParserTest and fuzz_classify.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "flags/ClangArgParser.h"
#include "flags/ClangOptionTable.h"
#include "flags/Classification.h"
#include "support/StableSort.h"

#include "llvm/Option/Arg.h"
#include "llvm/Option/Option.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace linkguard::fuzz {

using ParseLines = std::vector<std::pair<unsigned, std::string>>;

inline std::string parseLine(unsigned Id, llvm::StringRef Spelling,
                             llvm::ArrayRef<const char *> Values) {
  std::string L = std::to_string(Id) + " " + Spelling.str();
  for (const char *V : Values)
    (L += " ") += V;
  return L;
}

inline ParseLines linesOf(const llvm::opt::ArgList &List) {
  ParseLines Out;
  for (const llvm::opt::Arg *A : List) {
    // An alias arrives unaliased (option and spelling of the aliased
    // option); the shortcuts never learn an alias.
    Out.emplace_back(A->getIndex(),
                     parseLine(A->getOption().getID(), A->getSpelling(), A->getValues()));
  }
  return Out;
}

/// Both parses of Argv, with the missing-value result appended as a line
/// (shortcuts from the first argument on, unless Threshold says otherwise).
inline std::pair<ParseLines, ParseLines>
bothParses(llvm::ArrayRef<const char *> Argv,
           llvm::function_ref<bool(const llvm::opt::Option &)> StaysLight,
           size_t Threshold = 0) {
  unsigned MI = 0, MC = 0, FI = 0, FC = 0;
  llvm::opt::InputArgList Full = flags::clangOptTable().ParseArgs(
      Argv, MI, MC, flags::clangDriverVisibility());
  flags::ParsedArgs Fast = flags::parseClangArgs(Argv, FI, FC, StaysLight, Threshold);
  ParseLines Want = linesOf(Full), Got = linesOf(Fast.List);
  for (const flags::LightArg &L : Fast.Light) {
    // The spelling is the argument up to the value.
    Got.emplace_back(L.Index, parseLine(Fast.optionId(L), Fast.spelling(L), {Fast.value(L)}));
  }
  stableSort(Got,
             [](const auto &A, const auto &B) { return A.first < B.first; });
  Want.emplace_back(~0u, "missing " + std::to_string(MI) + " " + std::to_string(MC));
  Got.emplace_back(~0u, "missing " + std::to_string(FI) + " " + std::to_string(FC));
  return {std::move(Want), std::move(Got)};
}

/// Every field of a Classification as text, to compare two classifications
/// of one command whole.
inline std::string render(const flags::Classification &C) {
  std::string Out;
  auto Line = [&](const char *Key, const std::string &V) {
    ((((Out += Key) += "=") += V) += "\n");
  };
  auto List = [&](const char *Key, const std::vector<std::string> &V) {
    for (const std::string &S : V)
      Line(Key, S);
  };
  Line("phase", flags::phaseName(C.Ph));
  Line("deciding", C.DecidingArg);
  for (const flags::Input &I : C.Inputs)
    Line("input", I.Path + " " + I.Type + (I.IsStdin ? " stdin" : ""));
  Line("output", C.Output.value_or("(none)"));
  Line("target", C.Target.Triple + " " + flags::objectFormatName(C.Target.Format));
  List("arch", C.Target.Archs);
  Line("kind", flags::outputKindName(C.Kind));
  for (const auto &[Name, Value] : C.Defines)
    Line("define", Name + "=" + Value);
  List("library", C.Libraries);
  List("libdir", C.LibraryDirs);
  List("linkerarg", C.LinkerArgs);
  List("unknown", C.UnknownArgs);
  List("uncertain", C.Uncertain);
  Line("link", C.Link.Path + " " + C.Link.Source + " " + C.Link.Unknown);
  Line("workdir", C.WorkingDirectory.value_or("(none)"));
  Line("firstlib", std::to_string(C.FirstLibraryArg));
  Line("endofoptions", std::to_string(C.EndOfOptions));
  List("rsp", C.ResponseFiles);
  List("driverflag", C.DriverFlags);
  return Out;
}

} // namespace linkguard::fuzz
