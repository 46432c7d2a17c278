//===- ClangArgParser.cpp - clang's ParseArgs with a joined-option shortcut -===//
//
// The loop is OptTable::internalParseArgs (LLVM 19) for a table without
// grouped short options or "--" parsing, which clang's is: nullptr and
// empty arguments are skipped, a missing value stops the parse. It runs
// for every command, over a list that borrows the strings.
//
//===----------------------------------------------------------------------===//
#include "flags/ClangArgParser.h"

#include "flags/ClangOptionTable.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Option/Arg.h"
#include "llvm/Option/Option.h"

#include <bitset>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace llvm;
using namespace llvm::opt;

namespace linkguard::flags {

BorrowedArgList::~BorrowedArgList() {
  for (Arg *A : *this)
    delete A;
}

const char *BorrowedArgList::MakeArgStringRef(StringRef Str) const {
  char *Copy = Made.Allocate<char>(Str.size() + 1);
  if (!Str.empty())
    std::memcpy(Copy, Str.data(), Str.size());
  Copy[Str.size()] = '\0';
  return Copy;
}

namespace {

/// A joined option seen in this command, with the spellings that extend its
/// own (for "-I": "-I-", for "-W": "-Wl,", "-Wall", ...).
struct Shortcut {
  std::string Spelling;
  Option Opt;
  std::vector<std::string> Longer;
  std::bitset<256> NextChars; // the byte after Spelling in each of Longer
  bool Light = false;         // parsed into a LightArg

  /// The argument is this option again. False also when it could be one of
  /// Longer (-Wl, -Wa, -Wp and the named warnings share "-W"): the table is
  /// searched then.
  bool claims(StringRef Arg) const {
    return Arg.size() > Spelling.size() && Arg.starts_with(Spelling) &&
           !NextChars.test(static_cast<unsigned char>(Arg[Spelling.size()]));
  }
};

class Shortcuts {
public:
  /// The number of the shortcut that knows argument \p Str, or -1.
  int find(StringRef Str) const {
    for (size_t I = 0; I < Known.size(); ++I)
      if (Known[I].claims(Str))
        return static_cast<int>(I);
    return -1;
  }
  const Shortcut &operator[](size_t I) const { return Known[I]; }
  size_t count() const { return Known.size(); }

  /// Remembers the option of an Arg the table made from one argument, when
  /// it is joined and was given in its joined form: the new shortcut, or
  /// null.
  const Shortcut *learn(const Arg &A, StringRef ArgString, StaysLightFn StaysLight) {
    if (Known.size() == MaxShortcuts || A.getAlias())
      return nullptr;
    const Option &O = A.getOption();
    if (O.getKind() != Option::JoinedClass && O.getKind() != Option::JoinedOrSeparateClass)
      return nullptr;
    StringRef Spelling = A.getSpelling();
    if (Spelling.empty() || ArgString.size() <= Spelling.size() ||
        ArgString.data() != Spelling.data())
      return nullptr;
    for (const Shortcut &Cut : Known)
      if (Cut.Spelling == Spelling)
        return nullptr;
    const bool Light = StaysLight && StaysLight(O);
    Shortcut Cut{Spelling.str(), O, clangSpellingsExtending(Spelling), {}, Light};
    for (const std::string &L : Cut.Longer)
      Cut.NextChars.set(static_cast<unsigned char>(L[Spelling.size()]));
    Known.push_back(std::move(Cut));
    return &Known.back();
  }

private:
  SmallVector<Shortcut, 4> Known;
};

} // namespace

ParsedArgs parseClangArgs(ArrayRef<const char *> Argv, unsigned &MissingIndex,
                          unsigned &MissingCount,
                          StaysLightFn StaysLight, size_t Threshold) {
  const OptTable &Table = clangOptTable();
  ParsedArgs Out{BorrowedArgList(Argv), {}, {}};
  BorrowedArgList &List = Out.List;
  MissingIndex = MissingCount = 0;
  const bool UseShortcuts = Argv.size() >= Threshold;
  // Capacity only: pages are touched as entries are written, never copied.
  if (UseShortcuts && StaysLight)
    Out.Light.reserve(Argv.size());
  Shortcuts Cuts;
  unsigned Index = 0;
  const auto End = static_cast<unsigned>(Argv.size());
  while (Index < End) {
    const char *Str = List.getArgString(Index);
    if (!Str || !*Str) {
      ++Index;
      continue;
    }
    if (int N = UseShortcuts ? Cuts.find(Str) : -1; N >= 0) {
      // Option::acceptInternal for a joined argument: the spelling is the
      // matched part of the string, the value the rest.
      const Shortcut &Cut = Cuts[static_cast<size_t>(N)];
      const size_t Len = Cut.Spelling.size();
      if (Cut.Light && Index <= MaxLightIndex)
        Out.Light.push_back({Index, static_cast<uint32_t>(N)});
      else
        List.append(new Arg(Cut.Opt, StringRef(Str, Len), Index, Str + Len));
      ++Index;
      continue;
    }
    const unsigned Prev = Index;
    std::unique_ptr<Arg> A = Table.ParseOneArg(List, Index, clangDriverVisibility());
    if (!A) {
      MissingIndex = Prev;
      MissingCount = Index - Prev - 1;
      break;
    }
    if (UseShortcuts && Index == Prev + 1)
      if (const Shortcut *New = Cuts.learn(*A, Str, StaysLight))
        Out.Cuts[Cuts.count() - 1] = {New->Opt.getID(),
                                      static_cast<unsigned>(New->Spelling.size())};
    List.append(A.release());
  }
  return Out;
}

} // namespace linkguard::flags
