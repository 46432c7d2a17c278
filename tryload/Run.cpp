//===- Run.cpp - posix_spawn the loader, read its pipe, wait --------------===//
#include "tryload/Run.h"

#include "loader/TraceData.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <ctime>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <csignal>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <poll.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__linux__)
#include <elf.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#endif

using namespace llvm;

namespace linkguard::tryload {
namespace {

// clang-format off
const LoaderVariable Variables[] = {
  {"LD_PRELOAD",                    "ld.so maps these before anything else"},
  {"LD_LIBRARY_PATH",               "ld.so searches here before RUNPATH and its cache"},
  {"LD_AUDIT",                      "ld.so maps these auditing libraries first"},
  {"LD_TRACE_LOADED_OBJECTS",       "ld.so lists the loader's dependencies (ldd) and runs nothing"},
  {"DYLD_INSERT_LIBRARIES",         "dyld maps these before anything else"},
  {"DYLD_LIBRARY_PATH",             "dyld searches here before an install name's path"},
  {"DYLD_FALLBACK_LIBRARY_PATH",    "dyld searches here when an install name's path fails"},
  {"DYLD_FRAMEWORK_PATH",           "as DYLD_LIBRARY_PATH, for frameworks"},
  {"DYLD_FALLBACK_FRAMEWORK_PATH",  "as DYLD_FALLBACK_LIBRARY_PATH, for frameworks"},
  {"DYLD_VERSIONED_LIBRARY_PATH",   "dyld prefers newer copies found here"},
  {"DYLD_VERSIONED_FRAMEWORK_PATH", "as DYLD_VERSIONED_LIBRARY_PATH, for frameworks"},
  {"DYLD_IMAGE_SUFFIX",             "dyld tries each name with this suffix first"},
};
// clang-format on

/// The loader's report, at most this long (a few hundred images).
constexpr size_t MaxReport = size_t(16) << 20;

Error sysError(const Twine &What) {
  return make_error<SpawnError>((What + ": " + std::strerror(errno)).str());
}

/// "/path\\012name" -> "/path\nname": the one escape proc(5)'s maps uses
/// (seq_file_path escapes '\n').
std::string unescapeMapsPath(StringRef P) {
  std::string Out;
  Out.reserve(P.size());
  for (size_t I = 0; I < P.size(); ++I) {
    if (P.substr(I).starts_with("\\012")) {
      Out += '\n';
      I += 3;
    } else {
      Out += P[I];
    }
  }
  return Out;
}

#if defined(__linux__)
/// The child's maps, read by this process (the child is stopped).
MapsSnapshot readMaps(pid_t Pid) {
  MapsSnapshot S;
  std::string Path = "/proc/" + std::to_string(Pid) + "/maps";
  int FD = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (FD < 0) {
    S.Problem = "cannot open " + Path + ": " + std::strerror(errno);
    return S;
  }
  std::string Text;
  char Buf[65536];
  for (;;) {
    ssize_t N = ::read(FD, Buf, sizeof Buf);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0) {
      S.Problem = "cannot read " + Path + ": " + std::strerror(errno);
      break;
    }
    if (N == 0)
      break;
    Text.append(Buf, static_cast<size_t>(N));
  }
  ::close(FD);
  if (S.Problem.empty())
    S.Files = parseMaps(Text);
  return S;
}

/// ptrace(2) takes a signal number or option bits as its data pointer.
void *ptraceData(long Value) {
  return reinterpret_cast<void *>(Value); // NOLINT(performance-no-int-to-ptr): ptrace(2)'s data
}

std::string readProcFile(const std::string &Path, bool &Ok) {
  std::string Text;
  int FD = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  Ok = FD >= 0;
  if (!Ok)
    return Text;
  char Buf[65536];
  for (;;) {
    ssize_t N = ::read(FD, Buf, sizeof Buf);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      Ok = false;
    if (N <= 0)
      break;
    Text.append(Buf, static_cast<size_t>(N));
  }
  ::close(FD);
  return Text;
}

/// The pids a /proc/PID/task/TID/children file lists (proc(5)).
SmallVector<pid_t, 16> pidsIn(StringRef Children) {
  SmallVector<StringRef, 16> Words;
  Children.split(Words, ' ', -1, /*KeepEmpty=*/false);
  SmallVector<pid_t, 16> Pids;
  for (StringRef W : Words) {
    int Pid = 0;
    if (!W.trim().getAsInteger(10, Pid) && Pid > 0)
      Pids.push_back(Pid);
  }
  return Pids;
}

/// This process's children now, from /proc/self/task/TID/children (proc(5)).
std::vector<pid_t> ownChildren() {
  std::vector<pid_t> Kids;
  DIR *Tasks = ::opendir("/proc/self/task");
  if (!Tasks)
    return Kids;
  while (struct dirent *E = ::readdir(Tasks)) {
    if (E->d_name[0] == '.')
      continue;
    bool Ok = false;
    for (pid_t Pid :
         pidsIn(readProcFile(std::string("/proc/self/task/") + E->d_name + "/children", Ok)))
      Kids.push_back(Pid);
  }
  ::closedir(Tasks);
  return Kids;
}

/// Kills and reaps every process the loader left behind: linkguard is their
/// subreaper (PR_SET_CHILD_SUBREAPER), so a fork of the library, a daemon
/// that called setsid, and their children become linkguard's children when
/// their parents end. Round by round, as a killed one's children are
/// reparented, never waiting for one child alone (a zombie traced by its
/// own child is reapable only once that tracer is gone, and the tracer is
/// reparented here, to be killed next round); bounded, should something
/// fork faster than it dies.
unsigned reapLeftovers() {
  unsigned Reaped = 0;
  for (int Round = 0; Round < 2000; ++Round) {
    std::vector<pid_t> Kids = ownChildren();
    if (Kids.empty())
      break;
    for (pid_t K : Kids)
      ::kill(K, SIGKILL);
    bool Any = false;
    while (::waitpid(-1, nullptr, WNOHANG) > 0) {
      ++Reaped;
      Any = true;
    }
    if (!Any)
      ::usleep(1000);
  }
  return Reaped;
}

/// The files mapped with code in [Lo, Hi) of the maps Text; Covered: every
/// byte of the range is mapped with code (by a file, when FileOnly).
std::vector<MappedFile> execFilesIn(StringRef Text, uint64_t Lo, uint64_t Hi,
                                    bool FileOnly, bool &Covered) {
  std::vector<MappedFile> Out;
  uint64_t Next = Lo; // the first byte not yet seen covered
  Covered = true;
  while (!Text.empty()) {
    StringRef Line;
    std::tie(Line, Text) = Text.split('\n');
    StringRef Range = Line.split(' ').first;
    uint64_t Start = 0, End = 0;
    if (Range.split('-').first.getAsInteger(16, Start) ||
        Range.split('-').second.getAsInteger(16, End) || End <= Lo || Start >= Hi)
      continue;
    std::vector<MappedFile> One = parseMaps(Line);
    StringRef Perms = Line.split(' ').second.split(' ').first;
    // A file's mmap must show that file (or some file) there: anonymous
    // memory there means another thread replaced it already.
    bool Exec = Perms.size() >= 3 && Perms[2] == 'x' && (!FileOnly || !One.empty());
    if (!Exec || Start > Next)
      Covered = false;
    if (Exec && Start <= Next)
      Next = std::max(Next, End);
    if (Exec && !One.empty())
      Out.push_back(One.front());
  }
  if (Next < Hi)
    Covered = false;
  return Out;
}


/// A thread the kernel starts for io_uring (PF_IO_WORKER, 0x10 in the
/// flags of /proc/PID/task/TID/stat, proc(5)): untraced (CLONE_UNTRACED,
/// kernel/fork.c create_io_thread), it runs no user code.
bool ioWorker(const std::string &Task) {
  bool Ok = false;
  const std::string Stat = readProcFile(Task + "/stat", Ok);
  const size_t Comm = Stat.rfind(')'); // the name may hold spaces and ')'
  if (!Ok || Comm == std::string::npos)
    return false;
  // After the name: state ppid pgrp session tty_nr tpgid flags ...
  SmallVector<StringRef, 8> Fields;
  StringRef(Stat).substr(Comm + 1).split(Fields, ' ', 8, /*KeepEmpty=*/false);
  uint64_t Flags = 0;
  return Fields.size() > 6 && !Fields[6].getAsInteger(10, Flags) && (Flags & 0x10);
}

/// The tasks findUntraced looks at, at most (threads and processes).
constexpr size_t MaxCensus = 4096;

/// A thread or process of the loader's tree that linkguard does not trace:
/// among linkguard's children (the loader, and what was reparented here)
/// and their descendants, each thread whose TracerPid is not linkguard.
/// Tracing starts before a task is visible (ptrace_init_task in the
/// kernel's copy_process), so one seen untraced started so; a zombie is
/// left out (reaped by its tracer, it waits for its parent untraced).
/// Empty: none. Past MaxCensus tasks, a message too: what was not looked
/// at is not known to be traced (fail closed: the run is undecided).
std::string findUntraced() {
  // linkguard's pid as /proc names it: the pid namespace of /proc's mount,
  // which TracerPid and the children lists use, may not be linkguard's own.
  char Self[32] = {};
  const ssize_t N = ::readlink("/proc/self", Self, sizeof Self - 1);
  const std::string Me = N > 0 ? std::string(Self, static_cast<size_t>(N))
                               : std::to_string(::getpid());
  std::vector<pid_t> Kids = ownChildren();
  std::deque<pid_t> Queue(Kids.begin(), Kids.end());
  std::set<pid_t> Seen;
  size_t Looked = 0;
  while (!Queue.empty() && Looked < MaxCensus) {
    const pid_t P = Queue.front();
    Queue.pop_front();
    if (!Seen.insert(P).second)
      continue;
    const std::string Dir = "/proc/" + std::to_string(P) + "/task";
    DIR *Tasks = ::opendir(Dir.c_str());
    if (!Tasks)
      continue; // gone meanwhile
    std::string Found;
    while (struct dirent *E = ::readdir(Tasks)) {
      if (E->d_name[0] == '.')
        continue;
      if (++Looked > MaxCensus)
        break;
      const std::string Task = Dir + "/" + E->d_name;
      bool Ok = false;
      const std::string Status = readProcFile(Task + "/status", Ok);
      StringRef State, Tracer;
      for (StringRef Rest = Status; Ok && !Rest.empty();) {
        StringRef Line;
        std::tie(Line, Rest) = Rest.split('\n');
        if (Line.consume_front("State:"))
          State = Line.trim();
        else if (Line.consume_front("TracerPid:"))
          Tracer = Line.trim();
      }
      if (Ok && !State.empty() && !State.starts_with("Z") && !State.starts_with("X") &&
          Tracer != Me && Found.empty() && !ioWorker(Task))
        Found = std::string(E->d_name) == std::to_string(P)
                    ? "process " + std::to_string(P)
                    : "thread " + std::string(E->d_name) + " of process " + std::to_string(P);
      for (pid_t Pid : pidsIn(readProcFile(Task + "/children", Ok)))
        Queue.push_back(Pid);
    }
    ::closedir(Tasks);
    if (!Found.empty())
      return "a " + Found.substr(0, Found.find(' ')) + " of the library ran untraced (" +
             Found + "): linkguard did not see it start, so what it ran cannot be known";
  }
  if (Looked > MaxCensus || (Looked == MaxCensus && !Queue.empty()))
    return "the library's process tree holds more than " + std::to_string(MaxCensus) +
           " threads and processes: linkguard cannot tell that each is traced";
  return "";
}

/// The mappings with code followed one by one (each a read of the maps,
/// which grow with them): a library loads tens, libtorch a few hundred.
constexpr unsigned MaxMappingsRead = 1024;

/// One tracee's system call that the filter handed over, between its
/// seccomp stop and its return.
struct PendingCall {
  pid_t Tid = 0;
  uint64_t Nr = 0;
  uint64_t Args[6] = {};
};

/// The traced system calls: one runs at a time (InFlight), the others wait
/// at their seccomp stop. So no other thread can map, or remap (mremap is
/// handed over too), something in place of a new mapping with code before
/// linkguard has read what it is; what untraced calls can do there
/// (munmap, a mapping without code, anonymous memory) shows at the read.
struct TraceState {
  std::optional<PendingCall> InFlight;
  std::deque<PendingCall> Waiting;
};

void recordExecFiles(LoaderRun &Run, pid_t T, uint64_t Lo, uint64_t Len, bool FileOnly,
                     bool MustCover) {
  bool Ok = false, Covered = false;
  std::string Text = readProcFile("/proc/" + std::to_string(T) + "/maps", Ok);
  std::vector<MappedFile> Files;
  if (Ok)
    Files = execFilesIn(Text, Lo, Lo + Len, FileOnly, Covered);
  for (MappedFile &F : Files)
    Run.Mapped.push_back({std::move(F), Run.Stops.size()});
  // Another thread unmapped or replaced it before linkguard could read it:
  // what was mapped there is unknown.
  if ((!Ok || (MustCover && !Covered)) && Run.TraceProblem.empty() && Len > 0)
    Run.TraceProblem = "a mapping with code was changed by another thread before "
                       "linkguard could read it";
}

void recordExecFilesBefore(LoaderRun &Run, pid_t T, uint64_t Lo, uint64_t Len) {
  bool Ok = false;
  std::string Text = readProcFile("/proc/" + std::to_string(T) + "/maps", Ok);
  if (!Ok)
    return;
  // Every file there, code or not yet: the call may make it code.
  for (StringRef Rest = Text; !Rest.empty();) {
    StringRef Line;
    std::tie(Line, Rest) = Rest.split('\n');
    StringRef Range = Line.split(' ').first;
    uint64_t Start = 0, End = 0;
    if (Range.split('-').first.getAsInteger(16, Start) ||
        Range.split('-').second.getAsInteger(16, End) || End <= Lo || Start >= Lo + Len)
      continue;
    for (MappedFile &F : parseMaps(Line)) {
      F.Executable = true;
      Run.Mapped.push_back({std::move(F), Run.Stops.size()});
    }
  }
}

/// Makes the system call that tracee T is stopped at (its seccomp stop)
/// fail with Errno, not run: its number set to -1, its return value
/// -Errno (seccomp(2), SECCOMP_RET_TRACE). False: it could not be done.
bool failSyscall(pid_t T, int Errno) {
#if defined(__x86_64__)
  struct user_regs_struct Regs {};
  if (::ptrace(PTRACE_GETREGS, T, nullptr, &Regs) != 0)
    return false;
  Regs.orig_rax = static_cast<unsigned long long>(-1LL);
  Regs.rax = static_cast<unsigned long long>(-static_cast<long long>(Errno));
  return ::ptrace(PTRACE_SETREGS, T, nullptr, &Regs) == 0;
#elif defined(__aarch64__)
  // x0 holds the return value; the number is its own register set.
  struct user_regs_struct Regs {};
  struct iovec V = {&Regs, sizeof Regs};
  if (::ptrace(PTRACE_GETREGSET, T, ptraceData(NT_PRSTATUS), &V) != 0)
    return false;
  Regs.regs[0] = static_cast<unsigned long long>(-static_cast<long long>(Errno));
  if (::ptrace(PTRACE_SETREGSET, T, ptraceData(NT_PRSTATUS), &V) != 0)
    return false;
  int Nr = -1;
  struct iovec N = {&Nr, sizeof Nr};
  return ::ptrace(PTRACE_SETREGSET, T, ptraceData(NT_ARM_SYSTEM_CALL), &N) == 0;
#else
  (void)T;
  (void)Errno;
  return false; // the loader installs no filter here
#endif
}

/// Tracee T asked for a thread or process that linkguard would not trace
/// (clone with CLONE_UNTRACED, Flags): the call fails (EPERM) and the run
/// is undecided. When it cannot be made to fail, T's process is killed:
/// it must not run untraced.
void refuseUntraced(LoaderRun &Run, pid_t T, uint64_t Flags) {
  const bool Refused = failSyscall(T, EPERM);
  if (Run.Untraced.empty())
    Run.Untraced = std::string("the library asked for ") +
                   ((Flags & CLONE_THREAD) ? "a thread" : "a process") +
                   " that linkguard would not trace (clone with CLONE_UNTRACED); " +
                   (Refused ? "refused (EPERM)" : "its process was killed") +
                   ", so what it would have run cannot be known";
  if (Refused)
    ::ptrace(PTRACE_CONT, T, nullptr, nullptr);
  else
    ::kill(T, SIGKILL); // T's whole process, even at its ptrace stop
}

/// Lets the next waiting call run, when none is running.
void startNext(LoaderRun &Run, TraceState &S) {
  while (!S.InFlight && !S.Waiting.empty()) {
    PendingCall C = S.Waiting.front();
    S.Waiting.pop_front();
    if (C.Nr == static_cast<uint64_t>(SYS_mremap)) {
      // Only serialized: it moves a mapping, with its file and rights.
      ::ptrace(PTRACE_CONT, C.Tid, nullptr, nullptr);
      continue;
    }
    if (Run.MappingsRead >= MaxMappingsRead) {
      // Each one costs a read of the whole maps: bounded.
      if (Run.TraceProblem.empty())
        Run.TraceProblem = "the process made more than " + std::to_string(MaxMappingsRead) +
                           " mappings with code; linkguard followed the first " +
                           std::to_string(MaxMappingsRead) + " as they were made";
      ::ptrace(PTRACE_CONT, C.Tid, nullptr, nullptr);
      continue;
    }
    ++Run.MappingsRead;
    // mprotect: what is there now is what it makes code (read before too:
    // another thread could replace it once the call has run).
    if (C.Nr != static_cast<uint64_t>(SYS_mmap))
      recordExecFilesBefore(Run, C.Tid, C.Args[0], C.Args[1]);
    S.InFlight = C;
    ::ptrace(PTRACE_SYSCALL, C.Tid, nullptr, nullptr); // to its return
  }
}

/// Handles the ptrace events of the traced loader and its threads and forks
/// that waitpid has for now. Returns true when the loader itself has ended
/// (Status set).
bool traceEvents(pid_t Pid, LoaderRun &Run, TraceState &S, int &Status, StopFn Stopped) {
  for (;;) {
    startNext(Run, S);
    int St = 0;
    pid_t T = ::waitpid(-1, &St, __WALL | WNOHANG);
    if (T <= 0)
      return false;
    if (WIFEXITED(St) || WIFSIGNALED(St)) {
      if (S.InFlight && S.InFlight->Tid == T)
        S.InFlight.reset();
      S.Waiting.erase(std::remove_if(S.Waiting.begin(), S.Waiting.end(),
                                     [&](const PendingCall &C) { return C.Tid == T; }),
                      S.Waiting.end());
      if (T == Pid) {
        Status = St;
        return true;
      }
      continue;
    }
    if (!WIFSTOPPED(St))
      continue;
    const int Sig = WSTOPSIG(St), Event = St >> 16;
    struct __ptrace_syscall_info Info {};
    if (Event == PTRACE_EVENT_SECCOMP) {
      if (::ptrace(PTRACE_GET_SYSCALL_INFO, T, sizeof Info, &Info) > 0 &&
          Info.op == PTRACE_SYSCALL_INFO_SECCOMP &&
          Info.seccomp.ret_data == LINKGUARD_TRACE_UNTRACED) {
        refuseUntraced(Run, T, Info.seccomp.args[0]);
      } else if (Info.op == PTRACE_SYSCALL_INFO_SECCOMP) {
        if (Run.Stops.empty())
          Run.Traced = true; // the loader's probe, before the library
        // Anonymous memory (a JIT's, the probe): no file to name, and the
        // flags are registers, not memory another thread could change.
        if (Info.seccomp.nr == static_cast<uint64_t>(SYS_mmap) &&
            (Info.seccomp.args[3] & MAP_ANONYMOUS)) {
          ::ptrace(PTRACE_CONT, T, nullptr, nullptr);
          continue;
        }
        PendingCall C;
        C.Tid = T;
        C.Nr = Info.seccomp.nr;
        std::copy(std::begin(Info.seccomp.args), std::end(Info.seccomp.args), C.Args);
        S.Waiting.push_back(C);
      } else {
        const int Err = errno;
        unsigned long Data = 0; // the filter's data: which kind of call
        const bool Known = ::ptrace(PTRACE_GETEVENTMSG, T, nullptr, &Data) == 0;
        // ESRCH: killed since its stop (only SIGKILL ends a ptrace-stop
        // linkguard did not end), so it runs nothing more.
        const bool Gone = !Known && errno == ESRCH;
        if (Known && Data == LINKGUARD_TRACE_UNTRACED) {
          refuseUntraced(Run, T, 0);
          continue;
        }
        if (Run.TraceProblem.empty())
          Run.TraceProblem = "a system call the filter handed over could not be read (" +
                             std::string(std::strerror(Err)) + ")";
        if (Known && Data == LINKGUARD_TRACE_MAPPING) {
          ::ptrace(PTRACE_CONT, T, nullptr, nullptr);
        } else if (!Gone) { // which call it is cannot be known: it must not run
          ::kill(T, SIGKILL);
          if (Run.Untraced.empty())
            Run.Untraced = "a system call the filter handed over could not be read (" +
                           std::string(std::strerror(Err)) +
                           "); its process was killed, so what it would have run cannot be "
                           "known";
        }
      }
      continue;
    }
    if (Sig == (SIGTRAP | 0x80)) { // a system call's return (TRACESYSGOOD)
      if (S.InFlight && S.InFlight->Tid == T) {
        const PendingCall C = *S.InFlight;
        if (::ptrace(PTRACE_GET_SYSCALL_INFO, T, sizeof Info, &Info) > 0 &&
            Info.op == PTRACE_SYSCALL_INFO_EXIT && !Info.exit.is_error) {
          const bool Mmap = C.Nr == static_cast<uint64_t>(SYS_mmap);
          recordExecFiles(Run, T, Mmap ? static_cast<uint64_t>(Info.exit.rval) : C.Args[0],
                          C.Args[1], /*FileOnly=*/Mmap, /*MustCover=*/true);
        }
        S.InFlight.reset();
      }
      ::ptrace(PTRACE_CONT, T, nullptr, nullptr);
      continue;
    }
    if (S.InFlight && S.InFlight->Tid == T) {
      // It stopped for something else before its call returned: that
      // return will not be seen (resumed below without PTRACE_SYSCALL).
      S.InFlight.reset();
      if (Run.TraceProblem.empty())
        Run.TraceProblem = "a mapping with code did not return to linkguard";
    }
    if (Event != 0) { // clone, fork, vfork, exec, a new task's first stop
      ::ptrace(PTRACE_CONT, T, nullptr, nullptr);
      continue;
    }
    if (T == Pid && Sig == SIGSTOP) { // the loader's stop (or the library's)
      // Every thread and process there is traced, or the run is undecided.
      if (Run.Untraced.empty())
        Run.Untraced = findUntraced();
      Run.Stops.push_back(readMaps(Pid));
      Stopped(Run);
      ::ptrace(PTRACE_CONT, T, nullptr, nullptr);
      continue;
    }
    // Any other signal: delivered as if untraced.
    ::ptrace(PTRACE_CONT, T, nullptr, ptraceData(Sig));
  }
}
#endif

/// A byte is written here whenever a child stops or ends (SIGCHLD), so the
/// wait below wakes at once rather than at its next poll timeout.
int ChildPipe[2] = {-1, -1};

extern "C" void linkguardTryLoadChild(int /*Sig*/) {
  int Saved = errno;
  char Byte = 0;
  (void)!::write(ChildPipe[1], &Byte, 1);
  errno = Saved;
}

} // namespace

char SpawnError::ID = 0;

void killChildrenNow() {
#if defined(__linux__)
  // The thread group leader's list: linkguard runs no other thread, and
  // orphans are reparented to the leader.
  char Path[64] = "/proc/self/task/";
  char Digits[16];
  int N = 0;
  for (long P = ::getpid(); P > 0 && N < 15; P /= 10)
    Digits[N++] = static_cast<char>('0' + P % 10);
  size_t L = std::strlen(Path);
  while (N > 0)
    Path[L++] = Digits[--N];
  std::memcpy(Path + L, "/children", sizeof "/children");
  for (int Round = 0; Round < 200; ++Round) {
    int FD = ::open(Path, O_RDONLY | O_CLOEXEC);
    if (FD < 0)
      return;
    char Buf[4096];
    bool Any = false;
    long Pid = 0;
    for (ssize_t R; (R = ::read(FD, Buf, sizeof Buf)) > 0;)
      for (ssize_t I = 0; I <= R; ++I) {
        if (I < R && Buf[I] >= '0' && Buf[I] <= '9') {
          Pid = Pid * 10 + (Buf[I] - '0');
        } else if (I < R && Pid > 0) {
          ::kill(static_cast<pid_t>(Pid), SIGKILL);
          Any = true;
          Pid = 0;
        }
      }
    ::close(FD);
    if (Pid > 0) {
      ::kill(static_cast<pid_t>(Pid), SIGKILL);
      Any = true;
    }
    if (!Any)
      return;
    while (::waitpid(-1, nullptr, WNOHANG) > 0) {
    }
    struct timespec Ms = {0, 1000000};
    ::nanosleep(&Ms, nullptr);
  }
#endif
}

std::vector<MappedFile> parseMaps(StringRef Text) {
  // "START-END PERMS OFFSET MAJ:MIN INODE      PATH", one mapping a line.
  // Linear in the text: a library can map ~65,000 files (vm.max_map_count).
  std::vector<MappedFile> Files;
  std::map<std::tuple<uint64_t, uint64_t, uint64_t, std::string>, size_t> Index;
  while (!Text.empty()) {
    StringRef Line;
    std::tie(Line, Text) = Text.split('\n');
    StringRef Rest = Line;
    StringRef Range, Perms, Offset, Dev, Inode;
    std::tie(Range, Rest) = Rest.ltrim(' ').split(' ');
    std::tie(Perms, Rest) = Rest.ltrim(' ').split(' ');
    std::tie(Offset, Rest) = Rest.ltrim(' ').split(' ');
    std::tie(Dev, Rest) = Rest.ltrim(' ').split(' ');
    std::tie(Inode, Rest) = Rest.ltrim(' ').split(' ');
    StringRef Name = Rest.ltrim(' ');
    StringRef Maj, Min;
    std::tie(Maj, Min) = Dev.split(':');
    MappedFile F;
    if (Perms.size() < 3 || Maj.getAsInteger(16, F.Major) ||
        Min.getAsInteger(16, F.Minor) || Inode.getAsInteger(10, F.Inode) ||
        F.Inode == 0 || Name.empty() || Name.front() == '[')
      continue; // anonymous memory, [heap], [vdso], or not a mapping line
    F.Path = unescapeMapsPath(Name);
    F.Executable = Perms[2] == 'x';
    auto [It, New] =
        Index.try_emplace({F.Major, F.Minor, F.Inode, F.Path}, Files.size());
    if (New)
      Files.push_back(std::move(F));
    else
      Files[It->second].Executable |= F.Executable;
  }
  return Files;
}

ArrayRef<LoaderVariable> loaderVariables() { return Variables; }

std::vector<std::string> scrubEnvironment(const std::vector<std::string> &Env,
                                          bool KeepEnv,
                                          std::vector<std::string> &Removed) {
  std::vector<std::string> Out;
  for (const std::string &E : Env) {
    StringRef Name = StringRef(E).split('=').first;
    bool Drop = false;
    for (const LoaderVariable &V : Variables)
      Drop |= !KeepEnv && Name == V.Name;
    if (Drop)
      Removed.push_back(Name.str());
    else
      Out.push_back(E);
  }
  return Out;
}

Expected<LoaderRun> runLoader(const TryLoadRequest &Request,
                              const std::vector<std::string> &Env,
                              function_ref<void(pid_t)> Started,
                              StopFn Stopped) {
#if defined(__linux__)
  const bool Watch = true;
#else
  const bool Watch = false; // no /proc/PID/maps: docs/try-load.md
#endif
  std::vector<std::string> Args = {Request.LoaderPath};
  if (Request.Lazy)
    Args.push_back("--lazy");
  if (Watch) {
    Args.push_back("--stop");
    Args.push_back("--traced");
    Args.push_back("--parent");
    Args.push_back(std::to_string(::getpid()));
  }
  if (Request.Call) {
    Args.push_back("--call");
    Args.push_back(*Request.Call);
  }
  for (const std::string &H : Request.Hide) {
    Args.push_back("--hide");
    Args.push_back(H);
  }
  Args.push_back("--"); // a library path is never an option ("-x/lib.so")
  Args.push_back(Request.Library);
  std::vector<char *> Argv, Envp;
  for (std::string &A : Args)
    Argv.push_back(A.data());
  Argv.push_back(nullptr);
  std::vector<std::string> EnvCopy = Env;
  for (std::string &E : EnvCopy)
    Envp.push_back(E.data());
  Envp.push_back(nullptr);

  int Pipe[2];
  if (::pipe(Pipe) != 0) // pipe2 is not on macOS
    return sysError("pipe");
  ::fcntl(Pipe[0], F_SETFD, FD_CLOEXEC);
  // Keep the write end off descriptor 3: dup2(3, 3) would leave it
  // close-on-exec.
  int Write = ::fcntl(Pipe[1], F_DUPFD_CLOEXEC, 10);
  ::close(Pipe[1]);
  auto CloseRead = make_scope_exit([&] { ::close(Pipe[0]); });
  if (Write < 0)
    return sysError("fcntl");

  // Descriptor 4 (Linux): linkguard's answer whether it traces the loader.
  int Go[2] = {-1, -1};
  if (Watch) {
    int Raw[2];
    if (::pipe(Raw) != 0)
      return sysError("pipe");
    Go[0] = ::fcntl(Raw[0], F_DUPFD_CLOEXEC, 10);
    Go[1] = ::fcntl(Raw[1], F_DUPFD_CLOEXEC, 10);
    ::close(Raw[0]);
    ::close(Raw[1]);
    if (Go[0] < 0 || Go[1] < 0)
      return sysError("fcntl");
  }
  auto CloseGo = make_scope_exit([&] {
    for (int FD : Go)
      if (FD >= 0)
        ::close(FD);
  });

  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_adddup2(&Actions, Write, 3);
  if (Watch)
    posix_spawn_file_actions_adddup2(&Actions, Go[0], 4);
  posix_spawn_file_actions_addopen(&Actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&Actions, 2, 1);
#if defined(__linux__)
  // What the library forks is reparented here, not to init, when its parent
  // ends: it is killed with the rest at the end (reapLeftovers).
  int WasSubreaper = 0;
  ::prctl(PR_GET_CHILD_SUBREAPER, &WasSubreaper);
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  auto Unreaper = make_scope_exit([&] { ::prctl(PR_SET_CHILD_SUBREAPER, WasSubreaper); });
#endif
  pid_t Pid = -1;
  int Err =
      ::posix_spawn(&Pid, Argv[0], &Actions, nullptr, Argv.data(), Envp.data());
  posix_spawn_file_actions_destroy(&Actions);
  ::close(Write);
  if (Err != 0) {
    errno = Err;
    return sysError("cannot start " + Request.LoaderPath);
  }
  Started(Pid);
#if defined(__linux__)
  // Trace it (its threads and forks too), so that each mapping with code is
  // seen as it is made; it dies with linkguard (EXITKILL). Refused (a
  // container without ptrace, Yama's scope 3): the stops alone.
  bool Tracing = false;
  if (Watch) {
    Tracing = ::ptrace(PTRACE_SEIZE, Pid, nullptr,
                       ptraceData(PTRACE_O_TRACESECCOMP | PTRACE_O_TRACESYSGOOD |
                                  PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK |
                                  PTRACE_O_TRACEVFORK | PTRACE_O_EXITKILL)) == 0;
    char Answer = Tracing ? 'y' : 'n';
    (void)!::write(Go[1], &Answer, 1);
  }
  TraceState Trace;
#endif

  // SIGCHLD, stops included, wakes the poll below (restored afterwards).
  struct sigaction OldChld {};
  bool Woken = ::pipe(ChildPipe) == 0;
  if (Woken) {
    for (int FD : ChildPipe) {
      ::fcntl(FD, F_SETFD, FD_CLOEXEC);
      ::fcntl(FD, F_SETFL, O_NONBLOCK);
    }
    struct sigaction Act {};
    Act.sa_handler = linkguardTryLoadChild;
    sigemptyset(&Act.sa_mask);
    Act.sa_flags = SA_RESTART;
    ::sigaction(SIGCHLD, &Act, &OldChld);
  }
  auto Unwake = make_scope_exit([&] {
    if (!Woken)
      return;
    ::sigaction(SIGCHLD, &OldChld, nullptr);
    ::close(ChildPipe[0]);
    ::close(ChildPipe[1]);
    ChildPipe[0] = ChildPipe[1] = -1;
  });

  // Read until the loader is gone, not until every copy of the pipe is
  // closed: a process the library forked may hold one for ever.
  ::fcntl(Pipe[0], F_SETFL, O_NONBLOCK);
  std::string Text;
  char Buf[65536];
  auto drain = [&] {
    for (;;) {
      ssize_t N = ::read(Pipe[0], Buf, sizeof Buf);
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0)
        return N == 0; // end of file
      if (Text.size() < MaxReport)
        Text.append(Buf, static_cast<size_t>(N));
    }
  };
  LoaderRun Run;
  Run.Watched = Watch;
  int Status = 0;
  bool Exited = false, Closed = false;
  using Clock = std::chrono::steady_clock;
  const Clock::time_point Deadline =
      Clock::now() + std::chrono::seconds(Request.TimeoutSeconds);
  while (!Exited) {
    struct pollfd P[2] = {{Closed ? -1 : Pipe[0], POLLIN, 0},
                          {Woken ? ChildPipe[0] : -1, POLLIN, 0}};
    if (Request.TimeoutSeconds && !Run.TimedOutAfter && Clock::now() >= Deadline) {
      // SIGKILL ends it in any state: spinning, stopped, or held in a
      // ptrace-stop by a process the library started.
      ::kill(Pid, SIGKILL);
      Run.TimedOutAfter = Request.TimeoutSeconds;
    }
    if (::poll(P, 2, 100) > 0) {
      if (P[0].revents)
        Closed = drain();
      char Bytes[64];
      while (P[1].revents && ::read(ChildPipe[0], Bytes, sizeof Bytes) > 0) {
      }
    }
#if defined(__linux__)
    if (Tracing) {
      Exited = traceEvents(Pid, Run, Trace, Status, Stopped);
      continue;
    }
#endif
    pid_t W = ::waitpid(Pid, &Status, WNOHANG | WUNTRACED);
    if (W < 0 && errno != EINTR)
      return sysError("waitpid");
    if (W == Pid && WIFSTOPPED(Status)) {
#if defined(__linux__)
      // Whoever stopped it (the loader, or the library itself), the maps
      // read now are the kernel's, not the process's word.
      Run.Stops.push_back(readMaps(Pid));
      Stopped(Run);
      // The library may have made linkguard its tracer
      // (ptrace(PTRACE_TRACEME)): then this is a ptrace-stop, which SIGCONT
      // does not end, and the loader would wait here for ever. Detach,
      // delivering the signal it stopped for as if it had not been traced
      // (a SIGSTOP then stops it again, untraced; the SIGTRAP of an exec
      // under PTRACE_TRACEME is ptrace's own, not delivered). Not traced by
      // linkguard: ESRCH, nothing happens.
      const int StopSig = WSTOPSIG(Status);
      if (::ptrace(PTRACE_DETACH, Pid, nullptr, ptraceData(StopSig == SIGTRAP ? 0 : StopSig)) == 0)
        continue;
#else
      (void)Stopped;
#endif
      ::kill(Pid, SIGCONT);
      continue;
    }
    Exited = W == Pid;
  }
  Started(0); // reaped: its pid may be reused, no signal goes there now
  if (!Closed)
    drain(); // what the loader wrote before it exited
#if defined(__linux__)
  // What the loader left behind must have been traced too.
  if (Tracing && Run.Untraced.empty())
    Run.Untraced = findUntraced();
  Run.Leftovers = reapLeftovers();
#endif

  Expected<LoaderReport> Report = parseLoaderReport(Text);
  if (Report)
    Run.Report = std::move(*Report);
  else
    Run.ReportProblem = toString(Report.takeError());
  if (WIFSIGNALED(Status))
    Run.Signal = WTERMSIG(Status);
  else
    Run.ExitStatus = WEXITSTATUS(Status);
  return Run;
}

} // namespace linkguard::tryload
