//===- Invocation.h - what linkguard was called as ---------------*- C++ -*-===//
//
// One binary, several names (multi-call, like busybox):
//   linkguard-clang++ / linkguard-clang   the drop-in driver (CXX=...)
//   clang++ / c++ / clang / cc / g++ ...  a masquerade symlink in a directory
//                                         put first on PATH (ccache style)
//   linkguard [OPTIONS] [--] <compiler> args...
//                                         launcher form (CMAKE_*_LINKER_LAUNCHER);
//                                         OPTIONS state what the link line
//                                         cannot show (--assume-define=USE_MPS)
//   linkguard <subcommand> ...            inspect, check, try-load, explain, run, env
//
//===----------------------------------------------------------------------===//
#pragma once

#include "driver/CompilerResolution.h"
#include "config/Config.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace linkguard::driver {

enum class InvocationKind { CompilerDriver, Subcommand, TopLevelHelp, TopLevelVersion, Usage };

/// How a compiler command reached linkguard (CompilerDriver only).
enum class InvocationForm {
  Wrapper,    // linkguard-clang++ ARGS (CXX=linkguard-clang++)
  Masquerade, // clang++ ARGS through a symlink first on PATH
  Launcher,   // linkguard [OPTIONS] [--] COMPILER ARGS
  // enumName (support/EnumNames.h) names each enumerator up to Last.
  Last = Launcher,
};
const char *invocationFormName(InvocationForm F); // "wrapper", ...

struct Invocation {
  InvocationKind Kind = InvocationKind::Usage;
  InvocationForm Form = InvocationForm::Wrapper; // for CompilerDriver
  ResolveRequest Request;        // for CompilerDriver
  std::vector<std::string> Args; // compiler args, or the subcommand's args
  std::string Subcommand;        // for Subcommand
  std::string Problem;           // for Usage: what was wrong, when known
  /// Launcher options: facts about the whole target that its link line does
  /// not carry. CMake passes compile definitions to compile lines only, so a
  /// CMake link of a USE_MPS target shows no -DUSE_MPS (docs/integration.md).
  /// --assume-define=NAME[=VALUE], in order.
  std::vector<std::pair<std::string, std::string>> AssumedDefines;
  /// --assume-aot[=1|0]: the same as LINKGUARD_AOT for this one command.
  std::optional<bool> AssumeAot;
};

/// The subcommands `linkguard NAME` dispatches to, and "help", "version".
bool isSubcommand(const std::string &Name);

/// The subcommand Word is a near miss of ("chek" -> "check"), or "".
std::string nearestSubcommand(const std::string &Word);

Invocation parseInvocation(const std::string &Argv0,
                           const std::vector<std::string> &Args);

} // namespace linkguard::driver
