//===- ClangArgParser.h - clang's ParseArgs, fast on long command lines -*- C++ -*-===//
//
// OptTable::ParseArgs searches the table for every argument: for "-DM=1" it
// walks every option from "dm" to "D" (about 2,500 instructions), so a
// 100,000-define response file spent most of its time there. parseClangArgs
// returns the same arguments, taking one shortcut: an argument that
// starts with the spelling of a joined option already matched in this
// command (-D, -I, -std=, ...), that is longer than that spelling, and that
// no longer spelling in the table could claim, is that option again. That is
// exactly what the search would find: options are searched longest spelling
// first, and a joined option accepts any longer argument.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/LargeAlloc.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/Allocator.h"

#include <cstdint>
#include <initializer_list>
#include <vector>

namespace linkguard::flags {

/// Command lines shorter than this take the table's own loop: learning a
/// spelling costs a pass over the table (~50 us).
inline constexpr size_t ShortcutThreshold = 256;

/// The most shortcuts a parse keeps (a command line rarely repeats more
/// than a handful of joined options: -D, -I, -W, -f, -std=).
inline constexpr unsigned MaxShortcuts = 16;

/// An ArgList over the caller's argument strings, borrowed: ParseArgs'
/// InputArgList copies the vector of pointers first (0.8 MB, about 200
/// fresh pages, for a 100,000-argument @file). The strings must outlive
/// the list. Like InputArgList it owns its Args, and the strings
/// MakeArgString makes.
class BorrowedArgList final : public llvm::opt::ArgList {
public:
  explicit BorrowedArgList(llvm::ArrayRef<const char *> Strings) : Strings(Strings) {}
  explicit BorrowedArgList(std::vector<const char *> &&) = delete; // would dangle
  explicit BorrowedArgList(ArgVector &&) = delete;
  // ArgList's move constructor takes the base's members only.
  // NOLINTBEGIN(bugprone-use-after-move)
  BorrowedArgList(BorrowedArgList &&RHS) noexcept
      : ArgList(std::move(RHS)), Strings(RHS.Strings), Made(std::move(RHS.Made)) {}
  // NOLINTEND(bugprone-use-after-move)
  BorrowedArgList(const BorrowedArgList &) = delete;
  BorrowedArgList &operator=(const BorrowedArgList &) = delete;
  BorrowedArgList &operator=(BorrowedArgList &&) = delete;
  ~BorrowedArgList();

  const char *getArgString(unsigned Index) const override { return Strings[Index]; }
  unsigned getNumInputArgStrings() const override {
    return static_cast<unsigned>(Strings.size());
  }
  const char *MakeArgStringRef(llvm::StringRef Str) const override;

private:
  llvm::ArrayRef<const char *> Strings;
  mutable llvm::BumpPtrAllocator Made;
};

/// An argument a shortcut parsed without building an Arg: an option the
/// caller said needs only its id and value (for classify: -D, -U, -I).
/// Four bytes, the index and which shortcut parsed it: a 100,000-define
/// command line keeps 0.4 MB of them, where an Arg each would be 8.8 MB.
struct LightArg {
  uint32_t Index : 28; // into the argument strings
  uint32_t Cut : 4;    // into ParsedArgs::Cuts
};

static_assert(sizeof(LightArg) == 4);
static_assert(MaxShortcuts <= 16, "LightArg::Cut holds 4 bits");
/// The largest index a LightArg holds; an argument past it gets an Arg.
inline constexpr uint32_t MaxLightIndex = (1u << 28) - 1;

/// What a light argument's shortcut matched: the option and its spelling.
struct LightOption {
  unsigned OptionId = 0;
  unsigned SpellingSize = 0; // the value follows the spelling ("-D" + "M=1")
};

struct ParsedArgs {
  BorrowedArgList List;
  /// In index order; together with List, what ParseArgs returns.
  std::vector<LightArg, LargeAllocator<LightArg>> Light;
  LightOption Cuts[MaxShortcuts];

  unsigned optionId(LightArg L) const { return Cuts[L.Cut].OptionId; }
  /// The spelling of a light argument: the start of its string.
  llvm::StringRef spelling(LightArg L) const {
    return {List.getArgString(L.Index), Cuts[L.Cut].SpellingSize};
  }
  /// The value of a light argument (a C string within its argument).
  const char *value(LightArg L) const {
    return List.getArgString(L.Index) + Cuts[L.Cut].SpellingSize;
  }
};

/// Which options a shortcut keeps light (for classify: needsOnlyValue).
using StaysLightFn = llvm::function_ref<bool(const llvm::opt::Option &)>;

/// clangOptTable().ParseArgs(Argv, ..., clangDriverVisibility()), the same
/// result, except that the list borrows Argv's strings (which must outlive
/// it), and that an argument a shortcut parses as an option for which
/// \p StaysLight is true is in Light instead of List (a 100,000-define
/// command keeps 4 bytes per define, not an 88-byte Arg).
/// (Threshold: tests and fuzz_classify compare the paths on short command
/// lines.)
ParsedArgs parseClangArgs(llvm::ArrayRef<const char *> Argv, unsigned &MissingIndex,
                          unsigned &MissingCount, StaysLightFn StaysLight = nullptr,
                          size_t Threshold = ShortcutThreshold);

/// A temporary would not outlive the list that borrows it.
ParsedArgs parseClangArgs(std::vector<const char *> &&, unsigned &, unsigned &,
                          StaysLightFn = nullptr, size_t = ShortcutThreshold) = delete;
ParsedArgs parseClangArgs(ArgVector &&, unsigned &, unsigned &, StaysLightFn = nullptr,
                          size_t = ShortcutThreshold) = delete;
ParsedArgs parseClangArgs(std::initializer_list<const char *>, unsigned &, unsigned &,
                          StaysLightFn = nullptr, size_t = ShortcutThreshold) = delete;

} // namespace linkguard::flags
