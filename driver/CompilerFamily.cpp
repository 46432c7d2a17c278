//===- CompilerFamily.cpp - the drop-in's name and the compiler's family --===//
#include "driver/CompilerFamily.h"

#include "driver/FrontCache.h"
#include "driver/Logging.h"
#include "support/Printable.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace linkguard::driver {

const char *compilerFamilyName(CompilerFamily F) {
  switch (F) {
  case CompilerFamily::Clang:
    return "clang";
  case CompilerFamily::Gcc:
    return "GCC";
  case CompilerFamily::Unknown:
    break;
  }
  return "unknown";
}

CompilerFamily familyOfName(llvm::StringRef Name) {
  // cpp_builder._is_clang, then _is_gcc (see the header).
  if (Name.contains("clang"))
    return CompilerFamily::Clang;
  if (Name.contains("gcc") || Name.contains("g++") || Name.contains("gnu-c++"))
    return CompilerFamily::Gcc;
  return CompilerFamily::Unknown;
}

CompilerFamily familyOfExecutable(const std::string &Exe) {
  CompilerFamily F = familyOfName(llvm::sys::path::filename(Exe));
  if (F != CompilerFamily::Unknown || Exe.empty())
    return F;
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Exe, Real))
    return CompilerFamily::Unknown;
  return familyOfName(llvm::sys::path::filename(Real));
}

CompilerFamily familyOfCommand(const std::vector<std::string> &Words,
                               const std::string &PathVar, const std::string &SelfPath) {
  if (Words.empty())
    return CompilerFamily::Unknown;
  const std::string &Word = Words[std::min(compilerWordIndex(Words), Words.size() - 1)];
  CompilerFamily F = familyOfName(llvm::sys::path::filename(Word));
  if (F != CompilerFamily::Unknown)
    return F;
  return familyOfExecutable(findExecutable(Word, PathVar, SelfPath));
}

const char *dropInName(CompilerFamily F, Language L) {
  if (F == CompilerFamily::Gcc)
    return L == Language::Cxx ? "linkguard-g++" : "linkguard-gcc";
  return L == Language::Cxx ? "linkguard-clang++" : "linkguard-clang";
}

/// This process tree: its process group (a shell gives each command line
/// its own; make, ninja, python and their children stay in it), the
/// session, and on Linux the group leader's start time, so that a group id
/// used again later is another tree.
static std::string processTree() {
  std::string Id = std::to_string(::getsid(0)) + " " + std::to_string(::getpgrp());
#if defined(__linux__)
  // /proc/PGID/stat: field 22 (starttime) counts from the ")" that ends
  // field 2, the command name, which may hold spaces and parentheses.
  std::string Path = "/proc/" + std::to_string(::getpgrp()) + "/stat";
  int Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd >= 0) {
    char Buf[1024];
    ssize_t N = ::read(Fd, Buf, sizeof(Buf));
    ::close(Fd);
    if (N > 0) {
      llvm::StringRef Stat(Buf, static_cast<size_t>(N));
      size_t Close = Stat.rfind(')');
      if (Close != llvm::StringRef::npos) {
        llvm::SmallVector<llvm::StringRef, 24> Fields;
        Stat.drop_front(Close + 1).split(Fields, ' ', 21, false);
        // Fields[0] is field 3 (state); field 22 is Fields[19].
        if (Fields.size() > 19)
          Id += " " + Fields[19].str();
      }
    }
  }
#endif
  return Id;
}

/// True when this process tree has been told already; records it when
/// not. The record is one line, the last tree told, in
/// $XDG_STATE_HOME/linkguard/family-told (~/.local/state), under flock(2)
/// so that of parallel steps one says it. Without a place to record it:
/// false (said every time rather than never).
static bool toldThisTree(const config::Config &Cfg) {
  llvm::SmallString<256> Dir;
  if (auto State = Cfg.env("XDG_STATE_HOME"); State && llvm::sys::path::is_absolute(*State))
    Dir = *State;
  else if (auto Home = Cfg.env("HOME"); Home && llvm::sys::path::is_absolute(*Home))
    llvm::sys::path::append(Dir, *Home, ".local", "state");
  else
    return false;
  llvm::sys::path::append(Dir, "linkguard");
  if (llvm::sys::fs::create_directories(Dir))
    return false;
  llvm::sys::path::append(Dir, "family-told");
  int Fd = ::open(Dir.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (Fd < 0)
    return false;
  bool Told = false;
  if (::flock(Fd, LOCK_EX) == 0) {
    const std::string Tree = processTree() + "\n";
    char Buf[256];
    ssize_t N;
    do
      N = ::pread(Fd, Buf, sizeof(Buf), 0);
    while (N < 0 && errno == EINTR);
    Told = N >= 0 && llvm::StringRef(Buf, static_cast<size_t>(N)) == Tree;
    if (!Told && ::ftruncate(Fd, 0) == 0)
      (void)!::pwrite(Fd, Tree.data(), Tree.size(), 0);
  }
  ::close(Fd); // releases the lock
  return Told;
}

void warnIfFamilyDiffers(const std::string &Invoked, const std::string &CompilerName,
                         const std::string &Executable, const config::Config &Cfg,
                         bool IsLink) {
  const CompilerFamily Named = familyOfName(llvm::sys::path::filename(Invoked));
  if (Named == CompilerFamily::Unknown)
    return;
  CompilerFamily Real = familyOfName(llvm::sys::path::filename(CompilerName));
  if (Real == CompilerFamily::Unknown)
    Real = familyOfExecutable(Executable);
  if (Real == CompilerFamily::Unknown || Real == Named)
    return;
  // The channel ccache does not replay (driver/FrontCache.h); a compile
  // step behind a cache without it says nothing rather than have its
  // warning stored with the object.
  int Channel = uncachedErrFd(Cfg);
  if (Channel < 0) {
    if (!IsLink && detectFrontCache(Cfg, IsLink).Kind != FrontCacheKind::None)
      return;
    Channel = STDERR_FILENO;
  }
  if (toldThisTree(Cfg))
    return;
  const Language L = llvm::StringRef(Invoked).contains("++") ? Language::Cxx : Language::C;
  const std::string Want = dropInName(Real, L);
  const std::string Text =
      printable(Invoked) + " is a " + compilerFamilyName(Named) + " name" +
      ", but the compiler it runs, " + printable(Executable) + ", is " +
      compilerFamilyName(Real) +
      ": a build that reads the name (PyTorch inductor's cpp_builder) adds " +
      compilerFamilyName(Named) + "-only flags the compiler rejects; use " + Want +
      " (CXX/CC, or `linkguard run` and `linkguard env`, which pick it) "
      "(docs/integration.md). Said once per process tree.";
  const std::string Line = "linkguard: warning: " + Text + "\n";
  const char *P = Line.data();
  size_t Left = Line.size();
  while (Left > 0) {
    ssize_t N = ::write(Channel, P, Left);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    P += N;
    Left -= static_cast<size_t>(N);
  }
  mirrorToLogFile("warning", Text);
}

} // namespace linkguard::driver
