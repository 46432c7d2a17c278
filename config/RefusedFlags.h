//===- RefusedFlags.h - flags no rules file may add ------------*- C++ -*-===//
//
// A rules file adds flags to someone's link. Whatever it adds, it must not
// make the compiler or the linker run a program it names by path, load code
// into itself, or read more arguments or another configuration from a file:
// a linkguard.toml checked into a repository would otherwise run its own
// code on every link of everyone who builds it. The flags are read with
// clang 19's own option table (ClangOptionTable.h), so every spelling of an
// option -- joined, separate, an alias ("--prefix" for "-B") -- is the same
// option id, and the values of the forwarding options (-Xclang, -Wp,,
// -Xpreprocessor, -Xarch_*, -Xopenmp-target, -Wl,, -Xlinker,
// -Xoffload-linker) are read too. docs/rules.md lists the options and why.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace linkguard::config {

enum class Refusal : std::uint8_t {
  RunsProgram, // -B, --ld-path=, --gcc-toolchain=, --sysroot=, ...
  PathValue,   // -fuse-ld=: refused when the value is a path
  LoadsCode,   // -fplugin=, -fpass-plugin=, -Xclang -load, ...
  ReadsConfig, // --config=, --config-system-dir=, --config-user-dir=
  ToCc1,       // -Xclang, -Wp,, -Xpreprocessor: the values are cc1 options
  ToDriver,    // -Xarch_*, -Xopenmp-target: the value is a driver option
  ToLinker,    // -Wl,, -Xlinker, -Xoffload-linker: the values are linker args
};

struct RefusedOption {
  unsigned Id; // clang::driver::options::ID, unaliased
  Refusal Why;
};

/// The rows, sorted by option id (tests/unit/RefusedFlagsTest.cpp checks).
llvm::ArrayRef<RefusedOption> refusedOptions();

/// Linker arguments that load code into the linker, without dashes:
/// "plugin" (GNU ld, gold, mold: -plugin/--plugin), "load-pass-plugin"
/// (lld), "lto_library" (ld64, ld64.lld).
llvm::ArrayRef<const char *> refusedLinkerOptions();

struct RefusedFlag {
  size_t Index;    // into the list given to refusedRuleFlag
  std::string Why; // "'-B/x' makes the compiler run programs from a directory"
};

/// The first flag of one rule's [rule.add] flags that a rules file may not
/// add, or nothing. Besides the options above it refuses an "@file"
/// anywhere (more arguments from a file), an option clang 19 does not
/// know (linkguard cannot tell what it does), and a list that ends in an
/// option missing its value (it would take the next argument of the
/// command as its value).
std::optional<RefusedFlag> refusedRuleFlag(llvm::ArrayRef<std::string> Flags);

} // namespace linkguard::config
