//===- TerminatingSignals.h - the signals that end a process ----*- C++ -*-===//
//
// One table for every place linkguard must not die without a word: the
// wrapper's spawn path holds and forwards these to the compiler
// (driver/Process.cpp), try-load removes its private directory and passes
// them to linkguard-loader (commands/TryLoad.cpp). Each is a catchable
// signal whose default action ends the process (signal(7): "Term" or
// "Core"), sent by someone else: kill(1), a terminal, the kernel's limits
// (XCPU, XFSZ), timers (ALRM, VTALRM, PROF), a closed pipe, seccomp (SYS),
// and the real-time signals SIGRTMIN..SIGRTMAX. Left out: KILL and STOP
// (no process can catch them) and the faults of the process's own code
// (SEGV, BUS, FPE, ILL, ABRT): a bug in linkguard, not a request to stop.
// Header only.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <csignal>

namespace linkguard {

// clang-format off
inline constexpr int FixedTerminatingSignals[] = {
    SIGHUP,  SIGINT,  SIGQUIT, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2,
    SIGTRAP, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGSYS,
#if defined(__linux__)
    SIGIO, SIGPWR, SIGSTKFLT, // "Term" on Linux (SIGIO is SIGPOLL there)
#endif
#if defined(SIGEMT)
    SIGEMT, // macOS, BSDs
#endif
};
// clang-format on

/// Calls F(Sig) for each terminating signal, the real-time ones (where the
/// system has them; their numbers are known only at run time) last.
template <class Fn> void forEachTerminatingSignal(Fn F) {
  for (int Sig : FixedTerminatingSignals)
    F(Sig);
#if defined(SIGRTMIN) && defined(SIGRTMAX)
  for (int Sig = SIGRTMIN; Sig <= SIGRTMAX; ++Sig)
    F(Sig);
#endif
}

} // namespace linkguard
