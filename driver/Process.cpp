//===- Process.cpp - exec and spawn the real compiler ---------------------===//
#include "driver/Process.h"

#include "driver/DriverError.h"

#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/exe.hpp>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

namespace bp = boost::process;

namespace linkguard::driver {

std::vector<std::string> compilerArgv(const CompilerCommand &Cmd,
                                      const std::vector<std::string> &Args) {
  std::vector<std::string> Argv = Cmd.Prefix;
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  return Argv;
}

void markNesting(int CurrentDepth) {
  std::string Next = std::to_string(CurrentDepth + 1);
  ::setenv(DepthVariable, Next.c_str(), 1);
}

llvm::Error execCompiler(const CompilerCommand &Cmd,
                         const std::vector<std::string> &Args) {
  std::vector<std::string> Argv = compilerArgv(Cmd, Args);
  std::vector<char *> Raw;
  Raw.reserve(Argv.size() + 1);
  for (std::string &A : Argv)
    Raw.push_back(A.data());
  Raw.push_back(nullptr);
  ::execv(Cmd.Executable.c_str(), Raw.data());
  int Err = errno;
  return makeDriverError(Err == ENOENT ? ExitCode::NoCompiler : ExitCode::SpawnFailed,
                         "cannot run " + Cmd.Executable + ": " + std::strerror(Err));
}

// The child being waited for, for the forwarding handler. A signal handler
// can reach nothing else, so this is the one mutable global in linkguard.
static volatile sig_atomic_t ForwardTo = 0;

extern "C" void forwardSignal(int Sig) {
  if (ForwardTo > 0)
    ::kill(static_cast<pid_t>(ForwardTo), Sig);
}

namespace {
/// Installs the forwarding handlers for the lifetime of one wait.
class SignalForwarding {
public:
  explicit SignalForwarding(pid_t Child) {
    ForwardTo = Child;
    struct sigaction Act {};
    Act.sa_handler = forwardSignal;
    sigemptyset(&Act.sa_mask);
    Act.sa_flags = SA_RESTART;
    for (size_t I = 0; I < std::size(Signals); ++I)
      ::sigaction(Signals[I], &Act, &Old[I]);
  }
  ~SignalForwarding() {
    for (size_t I = 0; I < std::size(Signals); ++I)
      ::sigaction(Signals[I], &Old[I], nullptr);
    ForwardTo = 0;
  }
  SignalForwarding(const SignalForwarding &) = delete;
  SignalForwarding &operator=(const SignalForwarding &) = delete;

private:
  static constexpr int Signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
  struct sigaction Old[std::size(Signals)];
};
} // namespace

llvm::Expected<ChildStatus> spawnAndWait(const CompilerCommand &Cmd,
                                         const std::vector<std::string> &Args) {
  std::vector<std::string> Argv = compilerArgv(Cmd, Args);
  std::error_code EC;
  // Boost.Process v1 sets argv[0] to the exe; pass the rest as args.
  std::vector<std::string> Rest(Argv.begin() + 1, Argv.end());
  bp::child Child(bp::exe = Cmd.Executable, bp::args = Rest, EC);
  if (EC)
    return makeDriverError(ExitCode::SpawnFailed,
                           "cannot run " + Cmd.Executable + ": " + EC.message());
  int Raw = 0;
  {
    SignalForwarding Forward(Child.id());
    // Wait ourselves rather than through bp::child::wait: the raw status
    // keeps the signal number, and EINTR from a forwarded signal is retried.
    pid_t R;
    do {
      R = ::waitpid(Child.id(), &Raw, 0);
    } while (R < 0 && errno == EINTR);
    if (R < 0)
      return makeDriverError(ExitCode::SpawnFailed,
                             std::string("waiting for the compiler failed: ") +
                                 std::strerror(errno));
  }
  Child.detach(); // already reaped above
  ChildStatus S;
  if (WIFSIGNALED(Raw)) {
    S.Signaled = true;
    S.Code = WTERMSIG(Raw);
  } else {
    S.Code = WEXITSTATUS(Raw);
  }
  return S;
}

int shellStatus(const ChildStatus &S) { return S.Signaled ? 128 + S.Code : S.Code; }

void exitLike(const ChildStatus &S) {
  if (S.Signaled) {
    std::signal(S.Code, SIG_DFL);
    sigset_t Set;
    sigemptyset(&Set);
    sigaddset(&Set, S.Code);
    sigprocmask(SIG_UNBLOCK, &Set, nullptr);
    ::raise(S.Code);
    // A signal whose default action does not kill (rare): report like a shell.
  }
  std::exit(shellStatus(S));
}

} // namespace linkguard::driver
