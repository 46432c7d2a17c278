//===- Pattern.h - a dependency name pattern ---------------------*- C++
//-*-===//
//
// What `check --forbid/--require/--provided` and the system allowlist match
// dependency names with. Kept apart from Contract.h so Portability.h can use
// it without the whole contract.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/Support/Error.h"

#include <string>

namespace linkguard::contract {

/// A dependency name pattern: a built-in group ("openmp", "libsystem", in any
/// case) or a glob matched against the whole install name and against its
/// file name; a bare word (no wildcard, no slash, not a group) also matches
/// the file name's stems ("libomp" matches libomp.5.dylib, libomp.so.5:
/// libnames::nameStems).
struct Pattern {
  std::string Text;
  bool matches(const std::string &InstallName) const;
  /// Like matches(), but only against the whole name: a glob on the file
  /// name alone must not vouch for an absolute path ("libomp*" says nothing
  /// about /opt/llvm-openmp/lib/libomp.dylib being where dyld will look).
  bool matchesWholeName(const std::string &InstallName) const;
};

/// No wildcard, no slash, not a group: a word that names a library by stem.
bool isBareWord(const std::string &Text);

/// Checks that Text is a built-in group or a valid glob (llvm::GlobPattern
/// syntax), for the CLI to reject a bad pattern up front.
llvm::Error validatePattern(const std::string &Text);

} // namespace linkguard::contract
