//===- MacroTable.h - the macro state after every -D and -U -----*- C++ -*-===//
//
// Classification::Defines holds each macro still defined after the command's
// -D and -U options, in the order of first definition ("-DX=1 -DX=2" keeps X
// where it was, with value 2; "-UX -DX" moves it to the end). A command line
// can carry 100,000 of them (one @file), so each -D and -U must cost the
// same whatever came before:
//  - the index is open addressing over 4-byte positions into Defines, keyed
//    by the names Defines already holds (no second copy of each name);
//  - -U marks the macro dead instead of erasing it from the middle of the
//    vector; finish() drops the dead ones once, in one pass.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace linkguard::flags {

class MacroTable {
public:
  using Entries = std::vector<std::pair<std::string, std::string>>;

  /// Room for N macros without growing.
  void reserve(size_t N);
  /// From now on, only the macros in Names are recorded (-D and -U of any
  /// other are skipped); finish() keeps this. Names are copied, sorted:
  /// each -D then costs a binary search, however many names a rules file
  /// lists.
  void track(std::vector<std::string> Names);
  /// -D Value: "NAME", "NAME=VALUE" or "F(x)=x" (the function-like macro F);
  /// a name empty after trimming is ignored, as clang's -D "" is.
  void define(llvm::StringRef Value);
  /// -U Value.
  void undefine(llvm::StringRef Value);
  /// The macros still defined, in order. The table is empty afterwards.
  Entries finish();

private:
  bool tracked(llvm::StringRef Name) const;
  /// The slot that holds Name, or the empty slot where it would go.
  uint32_t &slotFor(llvm::StringRef Name);
  void grow();

  Entries Defined;            // every macro ever defined, dead ones too
  std::vector<bool> Dead;     // parallel to Defined
  std::vector<uint32_t> Slots; // position in Defined + 1; 0 is empty
  size_t Used = 0;            // slots in use
  size_t DeadCount = 0;
  std::optional<std::vector<std::string>> Tracked; // sorted, unique; none: every macro
};

} // namespace linkguard::flags
