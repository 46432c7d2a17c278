//===- ClangArgParser.h - clang's ParseArgs, fast on long command lines -*- C++ -*-===//
//
// OptTable::ParseArgs searches the table for every argument: for "-DM=1" it
// walks every option from "dm" to "D" (about 2,500 instructions), so a
// 100,000-define response file spent most of its time there. parseClangArgs
// returns the same InputArgList, taking one shortcut: an argument that
// starts with the spelling of a joined option already matched in this
// command (-D, -I, -std=, ...), that is longer than that spelling, and that
// no longer spelling in the table could claim, is that option again. That is
// exactly what the search would find: options are searched longest spelling
// first, and a joined option accepts any longer argument.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Option/ArgList.h"

#include <cstdint>
#include <vector>

namespace linkguard::flags {

/// Command lines shorter than this take the table's own loop: learning a
/// spelling costs a pass over the table (~50 us).
inline constexpr size_t ShortcutThreshold = 256;

/// An argument a shortcut parsed without building an Arg: an option the
/// caller said needs only its id and value (for classify: -D, -U, -I).
/// Eight bytes: a 100,000-define command line keeps 0.8 MB of them, about
/// 200 fresh pages fewer than with the value's pointer in each.
struct LightArg {
  uint32_t Index;        // into the argument strings
  uint16_t OptionId;     // clang has ~3,500 options; learn() checks the fit
  uint16_t SpellingSize; // the value follows the spelling ("-D" + "M=1")
};

static_assert(sizeof(LightArg) == 8);

struct ParsedArgs {
  llvm::opt::InputArgList List;
  /// In index order; together with List, what ParseArgs returns.
  std::vector<LightArg> Light;

  /// The value of a light argument (a C string within its argument).
  const char *value(const LightArg &L) const {
    return List.getArgString(L.Index) + L.SpellingSize;
  }
};

/// clangOptTable().ParseArgs(Argv, ..., clangDriverVisibility()), the same
/// result, except that an argument a shortcut parses as an option for
/// which \p StaysLight is true is in Light instead of List (a 100,000
/// define command keeps 8 bytes per define, not an 88-byte Arg).
/// (Threshold: tests and fuzz_classify compare the paths on short command
/// lines.)
ParsedArgs parseClangArgs(llvm::ArrayRef<const char *> Argv, unsigned &MissingIndex,
                          unsigned &MissingCount,
                          llvm::function_ref<bool(const llvm::opt::Option &)> StaysLight = nullptr,
                          size_t Threshold = ShortcutThreshold);

} // namespace linkguard::flags
