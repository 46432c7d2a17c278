//===- ClangOptionTable.h - clang 19's own driver option table ---*- C++ -*-===//
//
// linkguard never keeps a hand-written option list: it parses every command
// with the rows clang itself was generated from (libclang-19-dev's
// clang/Driver/Options.inc), so "-MQ -c" or "-sectcreate a b c.o" are read the
// way clang reads them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/Option/OptTable.h"

#include <string>
#include <vector>

namespace linkguard::flags {

/// The clang driver option table, built once on first use. The table is
/// immutable after construction, so sharing it is safe.
const llvm::opt::OptTable &clangOptTable();

/// Visibility mask the clang (not clang-cl, not flang) driver parses with.
llvm::opt::Visibility clangDriverVisibility();

/// Every spelling in the table (each prefix + name, whatever its visibility)
/// that starts with \p Spelling and is longer: the options that could claim
/// an argument before the option spelled \p Spelling does.
std::vector<std::string> clangSpellingsExtending(llvm::StringRef Spelling);

} // namespace linkguard::flags
