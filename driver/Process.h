//===- Process.h - run the real compiler -------------------------*- C++
//-*-===//
//
// Two ways to run it. Non-link steps (and links no rule claims) are exec'd:
// linkguard disappears, and the compiler's stdio, exit status and signals are
// its own. Link steps that linkguard must verify are spawned (posix_spawn)
// and waited for, as one job: from just before the spawn until linkguard
// ends, the catchable terminating signals are held (blocked), each one that
// arrives while the compiler runs is passed on to the compiler's whole
// process group, and linkguard then ends by the first of them, after the
// verdict on the output is complete (docs/architecture.md, "Signals").
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

/// Spawns the compiler with inherited stdio, environment and signal mask and
/// waits for it. The terminating signals linkguard was not started with
/// ignored (support/TerminatingSignals.h: HUP INT QUIT PIPE ALRM TERM USR1
/// USR2 TRAP XCPU XFSZ VTALRM PROF SYS ..., the real-time ones) are blocked before the
/// spawn and stay held when this returns: end the step with exitLike or
/// finishJob, which end linkguard by a signal it received. Each one that
/// arrives while the compiler runs is forwarded: to the compiler's own
/// process group (linker children included), or, when linkguard is the
/// foreground job of its terminal, to the compiler, which then shares
/// linkguard's group so the terminal's job control covers it.
llvm::Expected<ChildStatus> spawnAndWait(const CompilerCommand &Cmd,
                                         const std::vector<std::string> &Args);

/// Ends the step that spawnAndWait began: if linkguard received a
/// terminating signal since (forwarded, or held during the verdict), it now
/// dies by the first one; otherwise returns Code.
int finishJob(int Code);

/// Ends linkguard the way the child ended: same exit code, or the same
/// signal (re-raised with the default action). A terminating signal
/// linkguard itself received wins (finishJob).
[[noreturn]] void exitLike(const ChildStatus &S);

/// The status a shell would report for S (128 + signal).
int shellStatus(const ChildStatus &S);

} // namespace linkguard::driver
