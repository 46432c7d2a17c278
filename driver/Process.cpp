//===- Process.cpp - exec and spawn the real compiler ---------------------===//
//
// The spawn path follows ninja's subprocess-posix.cc (posix_spawn with
// POSIX_SPAWN_SETSIGMASK | SETSIGDEF | SETPGROUP, signals blocked around the
// spawn) and ccache's SignalHandler (wait for the compiler, then die by the
// signal received). Why a process group, and why not on a terminal's
// foreground job: docs/architecture.md, "Signals".
//
//===----------------------------------------------------------------------===//
#include "driver/Process.h"

#include "driver/DriverError.h"
#include "support/TerminatingSignals.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **
    environ; // NOLINT(readability-redundant-declaration): not in every unistd.h

namespace linkguard::driver {

std::vector<std::string> compilerArgv(const CompilerCommand &Cmd,
                                      const std::vector<std::string> &Args) {
  std::vector<std::string> Argv = Cmd.Prefix;
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  return Argv;
}

void markNesting(int CurrentDepth) {
  std::string Next = std::to_string(CurrentDepth + 1);
  ::setenv(config::DepthVariable, Next.c_str(), 1);
}

/// NUL-terminated argv pointing into Argv (which must outlive it).
static std::vector<char *> rawArgv(std::vector<std::string> &Argv) {
  std::vector<char *> Raw;
  Raw.reserve(Argv.size() + 1);
  for (std::string &A : Argv)
    Raw.push_back(A.data());
  Raw.push_back(nullptr);
  return Raw;
}

static llvm::Error cannotRun(const std::string &Exe, int Err) {
  return makeDriverError(Err == ENOENT ? ExitCode::NoCompiler
                                       : ExitCode::SpawnFailed,
                         "cannot run " + Exe + ": " + std::strerror(Err));
}

llvm::Error execCompiler(const CompilerCommand &Cmd,
                         const std::vector<std::string> &Args) {
  std::vector<std::string> Argv = compilerArgv(Cmd, Args);
  std::vector<char *> Raw = rawArgv(Argv);
  ::execv(Cmd.Executable.c_str(), Raw.data());
  return cannotRun(Cmd.Executable, errno);
}

namespace {

/// What one spawned job holds between spawnAndWait and finishJob/exitLike.
/// No signal handler touches it: signals are taken with sigwait, so this is
/// plain state, not shared with an asynchronous handler.
struct HeldJob {
  bool Active = false;
  sigset_t Held;            // the terminating signals not ignored at start
  sigset_t StartMask;       // the mask linkguard started with
  struct sigaction OldChld; // SIGCHLD's disposition before the spawn
  int First = 0;            // first terminating signal received, 0 if none
};
HeldJob Job;

} // namespace

// SIGCHLD is caught (never run: sigwait takes it) rather than left at its
// default: a blocked signal whose action is "ignore" may be discarded instead
// of kept pending (POSIX leaves it unspecified), and a parent's SIG_IGN would
// make the kernel reap the compiler before waitpid can read its status.
extern "C" void linkguardNoteChild(int /*Sig*/) {}

/// Blocks the terminating signals (and SIGCHLD) before the spawn, so none can
/// end linkguard between the spawn and the wait: a signal that arrives then
/// stays pending and is forwarded by the wait.
static void holdSignals() {
  sigemptyset(&Job.Held);
  // The table try-load shares (support/TerminatingSignals.h).
  forEachTerminatingSignal([](int Sig) {
    struct sigaction Cur {};
    // Ignored at start (nohup's SIGHUP, a non-interactive shell's `&` jobs'
    // SIGINT/SIGQUIT): left alone, and the compiler inherits the ignore, as
    // with exec.
    if (::sigaction(Sig, nullptr, &Cur) == 0 && Cur.sa_handler != SIG_IGN)
      sigaddset(&Job.Held, Sig);
  });
  sigset_t Block = Job.Held;
  sigaddset(&Block, SIGCHLD);
  ::pthread_sigmask(SIG_BLOCK, &Block, &Job.StartMask);
  struct sigaction Chld {};
  Chld.sa_handler = linkguardNoteChild;
  sigemptyset(&Chld.sa_mask);
  Chld.sa_flags = SA_NOCLDSTOP | SA_RESTART;
  ::sigaction(SIGCHLD, &Chld, &Job.OldChld);
  Job.First = 0;
  Job.Active = true;
}

/// True when linkguard belongs to the foreground process group of its
/// controlling terminal: then the terminal itself signals every process of
/// the job on ^C, ^\ and ^Z, and the compiler must stay in linkguard's group
/// for job control (^Z, fg, reading the terminal) to keep working.
static bool inTerminalForeground() {
  int Fd = ::open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
  if (Fd < 0)
    return false; // no controlling terminal
  pid_t Foreground = ::tcgetpgrp(Fd);
  ::close(Fd);
  return Foreground == ::getpgrp();
}

static void forwardSignal(pid_t Child, bool OwnGroup, int Sig) {
  if (!OwnGroup) {
    ::kill(Child, Sig);
    return;
  }
  // The whole group: the compiler driver and the linker it runs. Then
  // SIGCONT, as a shell's `kill` does for a job, so a stopped member does not
  // keep the signal pending forever. The group outlives the leader until
  // linkguard reaps it, so its id cannot have been reused here.
  ::kill(-Child, Sig);
  ::kill(-Child, SIGCONT);
}

llvm::Expected<ChildStatus> spawnAndWait(const CompilerCommand &Cmd,
                                         const std::vector<std::string> &Args) {
  std::vector<std::string> Argv = compilerArgv(Cmd, Args);
  std::vector<char *> Raw = rawArgv(Argv);
  bool OwnGroup = !inTerminalForeground();
  holdSignals();

  posix_spawnattr_t Attr;
  ::posix_spawnattr_init(&Attr);
  // The compiler starts with the mask and dispositions exec would have given
  // it: linkguard's start mask, and the default action for every signal
  // linkguard holds or catches (the ignored ones stay ignored).
  ::posix_spawnattr_setsigmask(&Attr, &Job.StartMask);
  sigset_t Defaults = Job.Held;
  sigaddset(&Defaults, SIGCHLD);
  ::posix_spawnattr_setsigdefault(&Attr, &Defaults);
  short Flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
  if (OwnGroup) {
    Flags |= POSIX_SPAWN_SETPGROUP;
    ::posix_spawnattr_setpgroup(&Attr, 0); // a new group, id = the child's pid
  }
  ::posix_spawnattr_setflags(&Attr, Flags);
  pid_t Child = 0;
  int Err = ::posix_spawn(&Child, Cmd.Executable.c_str(), nullptr, &Attr,
                          Raw.data(), environ);
  ::posix_spawnattr_destroy(&Attr);
  if (Err != 0) {
    finishJob(0); // a signal that came meanwhile still ends linkguard
    return cannotRun(Cmd.Executable, Err);
  }

  sigset_t Waited = Job.Held;
  sigaddset(&Waited, SIGCHLD);
  int Status = 0;
  for (;;) {
    pid_t R = ::waitpid(Child, &Status, WNOHANG);
    if (R == Child)
      break;
    if (R < 0 && errno != EINTR) {
      int E = errno;
      finishJob(0);
      return makeDriverError(ExitCode::SpawnFailed,
                             std::string("waiting for the compiler failed: ") +
                                 std::strerror(E));
    }
    int Sig = 0;
    if (::sigwait(&Waited, &Sig) != 0 || Sig == SIGCHLD)
      continue;
    if (Job.First == 0)
      Job.First = Sig;
    forwardSignal(Child, OwnGroup, Sig);
  }
  ChildStatus S;
  if (WIFSIGNALED(Status)) {
    S.Signaled = true;
    S.Code = WTERMSIG(Status);
  } else {
    S.Code = WEXITSTATUS(Status);
  }
  return S;
}

/// Dies by Sig with its default action. Only Sig is unblocked, so a second
/// pending signal cannot overtake it.
[[noreturn]] static void dieBy(int Sig) {
  std::signal(Sig, SIG_DFL);
  ::raise(Sig); // pending while blocked
  sigset_t Only;
  sigfillset(&Only);
  sigdelset(&Only, Sig);
  ::pthread_sigmask(SIG_SETMASK, &Only, nullptr);
  // Not reached for a signal whose default action terminates; report like a
  // shell would if it ever is.
  std::_Exit(128 + Sig);
}

int finishJob(int Code) {
  if (!Job.Active)
    return Code;
  Job.Active = false;
  ::sigaction(SIGCHLD, &Job.OldChld, nullptr);
  if (Job.First != 0)
    dieBy(Job.First);
  // One held during the verdict is still pending: restoring the start mask
  // delivers it (default action), so linkguard dies by it here.
  ::pthread_sigmask(SIG_SETMASK, &Job.StartMask, nullptr);
  return Code;
}

int shellStatus(const ChildStatus &S) {
  return S.Signaled ? 128 + S.Code : S.Code;
}

void exitLike(const ChildStatus &S) {
  finishJob(0);
  if (S.Signaled)
    dieBy(S.Code);
  std::exit(shellStatus(S));
}

} // namespace linkguard::driver
