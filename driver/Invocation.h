//===- Invocation.h - what linkguard was called as ---------------*- C++ -*-===//
//
// One binary, several names (multi-call, like busybox):
//   linkguard-clang++ / linkguard-clang   the drop-in driver (CXX=...)
//   clang++ / c++ / clang / cc / g++ ...  a masquerade symlink in a directory
//                                         put first on PATH (ccache style)
//   linkguard <compiler> args...          launcher form (CMAKE_*_LINKER_LAUNCHER)
//   linkguard <subcommand> ...            inspect, check, explain, run, env
//
//===----------------------------------------------------------------------===//
#pragma once

#include "driver/CompilerResolution.h"

#include <string>
#include <vector>

namespace linkguard::driver {

enum class InvocationKind { CompilerDriver, Subcommand, TopLevelHelp, TopLevelVersion, Usage };

struct Invocation {
  InvocationKind Kind = InvocationKind::Usage;
  ResolveRequest Request;        // for CompilerDriver
  std::vector<std::string> Args; // compiler args, or the subcommand's args
  std::string Subcommand;        // for Subcommand
};

/// The subcommands `linkguard NAME` dispatches to.
bool isSubcommand(const std::string &Name);

Invocation parseInvocation(const std::string &Argv0,
                           const std::vector<std::string> &Args);

} // namespace linkguard::driver
