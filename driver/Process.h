//===- Process.h - run the real compiler -------------------------*- C++ -*-===//
//
// Two ways to run it. Non-link steps (and links no rule claims) are exec'd:
// linkguard disappears, and the compiler's stdio, exit status and signals are
// its own. Link steps that linkguard must verify are spawned (Boost.Process)
// and waited for; a death by signal is re-raised on linkguard so its parent
// sees the same death (ccache's execute returns -1 there and loses it).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "driver/CompilerResolution.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace linkguard::driver {

/// How a child ended.
struct ChildStatus {
  bool Signaled = false;
  int Code = 0; // exit code, or signal number when Signaled
};

/// The full argv: the compiler prefix, then Args unchanged.
std::vector<std::string> compilerArgv(const CompilerCommand &Cmd,
                                      const std::vector<std::string> &Args);

/// Marks the environment one level deeper (the recursion guard) before
/// running the compiler.
void markNesting(int CurrentDepth);

/// execv of the compiler. Returns only on failure.
llvm::Error execCompiler(const CompilerCommand &Cmd,
                         const std::vector<std::string> &Args);

/// Spawns the compiler with inherited stdio, forwards SIGINT/SIGTERM/SIGHUP/
/// SIGQUIT to it while waiting, and returns how it ended.
llvm::Expected<ChildStatus> spawnAndWait(const CompilerCommand &Cmd,
                                         const std::vector<std::string> &Args);

/// Ends linkguard the way the child ended: same exit code, or the same
/// signal (re-raised with the default action).
[[noreturn]] void exitLike(const ChildStatus &S);

/// The status a shell would report for S (128 + signal).
int shellStatus(const ChildStatus &S);

} // namespace linkguard::driver
