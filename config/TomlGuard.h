//===- TomlGuard.h - text toml++ 3.3 cannot parse safely -------*- C++ -*-===//
//
// toml++ 3.3 reaches __builtin_unreachable() on some non-ASCII text (see
// TomlGuard.cpp); parseRulesText() rejects such text before toml++ sees it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace linkguard::config {

/// Why toml++ must not parse T (and the line, in Line), or nothing.
std::optional<std::string> textTomlCannotParseSafely(llvm::StringRef T,
                                                     unsigned &Line);

} // namespace linkguard::config
