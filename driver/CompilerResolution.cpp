//===- CompilerResolution.cpp - find the real compiler, never ourselves ---===//
#include "driver/CompilerResolution.h"

#include "driver/CompilerFamily.h"
#include "driver/DriverError.h"
#include "flags/ProgramName.h"
#include "driver/HostSearch.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <sys/stat.h>
#include <unistd.h>

namespace linkguard::driver {

static std::string canonical(const std::string &Path) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Path, Real))
    return Path;
  return std::string(Real);
}

bool isLinkguard(const std::string &Path, const std::string &SelfPath) {
  // A file named linkguard* is ours even if it is another copy (an installed
  // one and a build tree one): calling it would loop through PATH again.
  if (llvm::sys::path::filename(Path).starts_with("linkguard"))
    return true;
  if (SelfPath.empty())
    return false;
  // The running binary itself, under any name: the same device and inode
  // (a symbolic link to it, or a hard link). A stat of each, where comparing
  // realpaths walked every component of Path with readlink; the running
  // binary's is taken once per process.
  struct stat Candidate {};
  if (::stat(Path.c_str(), &Candidate) != 0)
    return false;
  static std::string StatedSelf;
  static struct stat Self {};
  static bool SelfOk = false;
  if (StatedSelf != SelfPath || StatedSelf.empty()) {
    SelfOk = ::stat(SelfPath.c_str(), &Self) == 0;
    StatedSelf = SelfPath;
  }
  return SelfOk && Candidate.st_dev == Self.st_dev && Candidate.st_ino == Self.st_ino;
}

static bool isExecutableFile(const std::string &Path) {
  struct stat St {};
  return ::stat(Path.c_str(), &St) == 0 && !S_ISDIR(St.st_mode) &&
         ::access(Path.c_str(), X_OK) == 0;
}

/// The first executable file named Name in the PATH directories, in PATH
/// order (an empty entry is the current directory, as for execvp), that
/// Accept takes; "" when there is none. The walk stops there: the
/// directories after it are not looked at.
static std::string
firstOnPath(const std::string &Name, const std::string &PathVar,
            llvm::function_ref<bool(const std::string &)> Accept) {
  llvm::SmallVector<llvm::StringRef, 16> Dirs;
  llvm::StringRef(PathVar).split(Dirs, ':');
  for (llvm::StringRef Dir : Dirs) {
    llvm::SmallString<256> Candidate(Dir.empty() ? "." : Dir);
    llvm::sys::path::append(Candidate, Name);
    std::string C(Candidate);
    if (isExecutableFile(C) && Accept(C))
      return C;
  }
  return {};
}

/// Path made absolute. Without a current directory (removed under us) the
/// relative path still works for execv.
static std::string absolute(const std::string &Path) {
  llvm::SmallString<256> Abs(Path);
  if (llvm::sys::fs::make_absolute(Abs))
    return Path;
  return std::string(Abs);
}

std::string findExecutable(const std::string &Name, const std::string &PathVar,
                           const std::string &SelfPath) {
  if (Name.find('/') != std::string::npos)
    return absolute(Name);
  std::string C = firstOnPath(Name, PathVar, [&](const std::string &P) {
    return !isLinkguard(P, SelfPath);
  });
  return C.empty() ? C : absolute(C);
}

/// True when Path is a compiler cache's binary (ccache, sccache), under any
/// name: /usr/lib/ccache/clang++ is a link to ../../bin/ccache.
static bool isCompilerCache(const std::string &Path) {
  // The name of the file Path leads to: Path's own name when it is not a
  // symbolic link (links in the directories above it do not rename it),
  // one lstat where realpath walks every component.
  struct stat St {};
  const bool Link = ::lstat(Path.c_str(), &St) != 0 || S_ISLNK(St.st_mode);
  const std::string Real = Link ? canonical(Path) : Path;
  llvm::StringRef Name = llvm::sys::path::filename(Real);
  return Name == "ccache" || Name == "sccache";
}

/// What a cache's own lookup of Name runs, in masquerade mode
/// (/usr/lib/ccache/clang++) or as `ccache clang++`: the first Name on PATH
/// that is not the cache (ccache's find_executable_in_path). True when that
/// is linkguard: with linkguard's and ccache's masquerade directories both
/// on PATH the two would call each other until the depth guard stops them
/// (exit 68).
static bool cacheWouldRunLinkguard(const std::string &Name,
                                   const std::string &PathVar,
                                   const std::string &SelfPath) {
  std::string C = firstOnPath(
      Name, PathVar, [](const std::string &P) { return !isCompilerCache(P); });
  return !C.empty() && isLinkguard(C, SelfPath);
}

/// The real compiler past linkguard and past any cache masquerade, as ccache
/// finds the compiler past itself. Empty when PATH holds none.
static std::string findPastCaches(const std::string &Name,
                                  const std::string &PathVar,
                                  const std::string &SelfPath) {
  std::string C = firstOnPath(Name, PathVar, [&](const std::string &P) {
    return !isLinkguard(P, SelfPath) && !isCompilerCache(P);
  });
  return C.empty() ? C : absolute(C);
}

std::string compilerPastCacheMasquerade(const std::string &Exe, const std::string &PathVar,
                                        const std::string &SelfPath) {
  if (!isCompilerCache(Exe))
    return {};
  llvm::StringRef Name = llvm::sys::path::filename(Exe);
  if (Name == llvm::sys::path::filename(canonical(Exe)))
    return {}; // the cache under its own name: its next word is the compiler
  return findPastCaches(Name.str(), PathVar, SelfPath);
}

/// Breaks the ccache <-> linkguard loop in Words (an absolute first word):
///  - the first word is a cache's masquerade link (named like a compiler)
///    whose own lookup would run linkguard: run the cache explicitly with
///    the real compiler, `/usr/bin/ccache /usr/bin/clang++`;
///  - the first word is the cache named explicitly (`ccache clang++`) and
///    the bare compiler after it leads to linkguard: name the real compiler.
/// Otherwise Words are left as they are: without a loop the cache finds
/// what it always finds. An error when no real compiler follows.
static llvm::Error skipCacheLoop(std::vector<std::string> &Words,
                                 const std::string &Origin,
                                 const std::string &PathVar,
                                 const std::string &SelfPath) {
  const std::string Exe = Words.front();
  if (!isCompilerCache(Exe))
    return llvm::Error::success();
  const std::string Canonical = canonical(Exe);
  llvm::StringRef Cache = llvm::sys::path::filename(Canonical);
  const bool Masquerade = llvm::sys::path::filename(Exe) != Cache;
  std::string Name = Masquerade         ? llvm::sys::path::filename(Exe).str()
                     : Words.size() > 1 ? Words[1]
                                        : std::string();
  if (Name.empty() || Name.front() == '-' ||
      Name.find('/') != std::string::npos ||
      !cacheWouldRunLinkguard(Name, PathVar, SelfPath))
    return llvm::Error::success();
  std::string Real = findPastCaches(Name, PathVar, SelfPath);
  if (Real.empty())
    return makeDriverError(
        ExitCode::Recursion,
        Origin + " leads to " + Exe + ", which would run linkguard as '" +
            Name + "' again, and no real '" + Name +
            "' follows on PATH; set LINKGUARD_CXX to the real compiler");
  if (Masquerade)
    Words.insert(Words.begin() + 1, Real);
  else
    Words[1] = Real;
  Words.front() = Canonical;
  return llvm::Error::success();
}

/// The command Words (an absolute first word) run, with any ccache <->
/// linkguard loop broken (skipCacheLoop).
static llvm::Expected<CompilerCommand>
commandPastCacheLoop(std::vector<std::string> Words, const std::string &Origin,
                     const std::string &PathVar, const std::string &SelfPath) {
  if (llvm::Error E = skipCacheLoop(Words, Origin, PathVar, SelfPath))
    return std::move(E);
  CompilerCommand Cmd;
  Cmd.Executable = Words.front();
  Cmd.Prefix = std::move(Words);
  Cmd.Origin = Origin;
  return Cmd;
}

/// The first copy of linkguard that PATH holds under Name, or "". When the
/// lookup finds nothing else, PATH leads only back to us: that is the
/// recursion case (68, a masquerade directory with no real compiler after
/// it), not a missing compiler (69).
static std::string linkguardOnPath(const std::string &Name, const std::string &PathVar,
                                   const std::string &SelfPath) {
  return firstOnPath(Name, PathVar, [&](const std::string &P) {
    return isLinkguard(P, SelfPath);
  });
}

/// Turns a word list into a command: the first word is looked up on PATH.
/// Errors when it is missing, not executable, or linkguard itself.
static llvm::Expected<CompilerCommand>
commandFromWords(std::vector<std::string> Words, const std::string &Origin,
                 const config::Config &Cfg, const std::string &SelfPath) {
  if (Words.empty())
    return makeDriverError(ExitCode::NoCompiler,
                           Origin + " is empty: it should name the real compiler");
  std::string PathVar = Cfg.env("PATH").value_or("/usr/local/bin:/usr/bin:/bin");
  const std::string &First = Words.front();
  if (First.find('/') != std::string::npos) {
    if (isLinkguard(First, SelfPath))
      return makeDriverError(ExitCode::Recursion,
                             Origin + " names linkguard itself (" + First +
                                 "); set LINKGUARD_CXX to the real compiler");
    struct stat St {};
    if (::stat(First.c_str(), &St) != 0)
      return makeDriverError(ExitCode::NoCompiler, "real compiler " + First +
                                                       " (from " + Origin +
                                                       ") does not exist");
    if (S_ISDIR(St.st_mode) || ::access(First.c_str(), X_OK) != 0)
      return makeDriverError(ExitCode::NoCompiler,
                             "real compiler " + First + " (from " + Origin +
                                 ") is not an executable file");
  }
  std::string Exe = findExecutable(First, PathVar, SelfPath);
  // A name with a slash is not looked up on PATH: only a name that found
  // nothing there may have found only linkguard.
  if (std::string Self = Exe.empty() ? linkguardOnPath(First, PathVar, SelfPath) : "";
      !Self.empty())
    return makeDriverError(ExitCode::Recursion,
                           Origin + " leads back to linkguard: '" + First +
                               "' on PATH is only " + Self +
                               "; set LINKGUARD_CXX to the real compiler");
  if (Exe.empty())
    return makeDriverError(
        ExitCode::NoCompiler,
        "real compiler '" + First + "' (from " + Origin +
            ") was not found on PATH, or only linkguard was");
  // argv[0] is the path we exec: clang finds its resource directory and any
  // target prefix ("arm64-apple-darwin-clang++") from it.
  Words.front() = Exe;
  return commandPastCacheLoop(std::move(Words), Origin, PathVar, SelfPath);
}

bool anyWordIsLinkguard(const std::vector<std::string> &Words, const config::Config &Cfg,
                        const std::string &SelfPath) {
  std::string PathVar = Cfg.env("PATH").value_or("");
  for (const std::string &W : Words) {
    if (W.empty() || W.front() == '-')
      continue;
    if (llvm::sys::path::filename(W).starts_with("linkguard"))
      return true;
    if (W.find('/') != std::string::npos && isLinkguard(W, SelfPath))
      return true;
    if (W.find('/') == std::string::npos) {
      // A bare name that PATH resolves to us (a masquerade directory).
      std::string Found =
          firstOnPath(W, PathVar, [](const std::string &) { return true; });
      if (!Found.empty() && isLinkguard(Found, SelfPath))
        return true;
    }
  }
  return false;
}

/// The words of a compiler variable. A value that names an existing
/// executable file as a whole is one word, spaces and all ("/opt/my
/// tools/clang++"), as CMake reads CXX; anything else is a word list.
static llvm::Expected<std::vector<std::string>> commandWordsOf(const std::string &Value) {
  std::string Whole = llvm::StringRef(Value).trim().str();
  if (Whole.find_first_of(" \t") != std::string::npos && isExecutableFile(Whole))
    return std::vector<std::string>{Whole};
  return splitCommandWords(Value);
}

/// Whether a compiler command's compiler word carries the same target
/// prefix as Name (both none counts).
static bool sameTargetPrefix(const std::vector<std::string> &Words, const std::string &Name) {
  if (Words.empty())
    return false;
  size_t W = compilerWordIndex(Words);
  return flags::targetPrefixOfCompilerName(Words[W]) ==
         flags::targetPrefixOfCompilerName(Name);
}

llvm::Expected<CompilerCommand> resolveCompiler(const ResolveRequest &Req,
                                                const config::Config &Cfg) {
  if (!Req.LauncherCommand.empty())
    return commandFromWords(Req.LauncherCommand, "the launcher command", Cfg,
                            Req.SelfPath);

  const bool Cxx = Req.Lang == Language::Cxx;
  const std::string Own = Cxx ? "LINKGUARD_CXX" : "LINKGUARD_CC";
  if (auto V = Cfg.env(Own); V && !llvm::StringRef(*V).trim().empty()) {
    auto Words = commandWordsOf(*V);
    if (!Words)
      return Words.takeError();
    // A masquerade name asks for a target by its prefix; LINKGUARD_CXX for
    // another target (or none) is not that compiler.
    if (!Req.Masquerade || sameTargetPrefix(*Words, Req.WantedName))
      return commandFromWords(std::move(*Words), Own, Cfg, Req.SelfPath);
  }

  // The user's CXX is the project's compiler setting; a build that calls a
  // masquerade name did not use it (ccache's masquerade mode, too, finds the
  // compiler by its name only).
  const std::string User = Cxx ? "CXX" : "CC";
  if (auto V = Cfg.env(User); !Req.Masquerade && V && !llvm::StringRef(*V).trim().empty()) {
    auto Words = commandWordsOf(*V);
    if (!Words)
      return Words.takeError();
    // CXX=linkguard-clang++ is how users install us; then CXX says nothing
    // about the real compiler and PATH decides.
    if (!anyWordIsLinkguard(*Words, Cfg, Req.SelfPath))
      return commandFromWords(std::move(*Words), User, Cfg, Req.SelfPath);
  }

  // PATH, then the host's compiler directories (driver/HostSearch.h).
  std::string PathVar = fallbackSearchPath(Cfg.env("PATH"), hostCompilerDirs());
  // A name with a target prefix ("aarch64-linux-gnu-clang++") asks for that
  // target: falling back to plain clang++ would build for the host without a
  // word (docs/compiler-resolution.md).
  // Nor does a GCC name (linkguard-g++) fall back to clang++: a build that
  // chose it by name adds GCC's flags (driver/CompilerFamily.h).
  const bool MayFallBack = flags::targetPrefixOfCompilerName(Req.WantedName).empty() &&
                           familyOfName(llvm::sys::path::filename(Req.WantedName)) !=
                               CompilerFamily::Gcc;
  std::vector<std::string> Names = {Req.WantedName};
  if (MayFallBack)
    Names.push_back(Cxx ? "clang++" : "clang");
  for (const std::string &Name : Names) {
    std::string Exe = findExecutable(Name, PathVar, Req.SelfPath);
    if (!Exe.empty())
      return commandPastCacheLoop({Exe}, "PATH", PathVar, Req.SelfPath);
  }
  // A cross compiler that is missing is a missing compiler (69), even where
  // linkguard itself answers to the name.
  if (!MayFallBack)
    return makeDriverError(
        ExitCode::NoCompiler,
        "no real compiler found: '" + Req.WantedName +
            "' is not on PATH (other than linkguard); linkguard does not fall back "
            "to clang++ for a name with a target prefix, which would build for the "
            "host, nor for a GCC name, whose flags clang rejects; set " + Own +
            " to the compiler to run");
  for (const std::string &Name : Names)
    if (std::string Self = linkguardOnPath(Name, PathVar, Req.SelfPath); !Self.empty())
      return makeDriverError(ExitCode::Recursion,
                             "PATH leads only back to linkguard: '" + Name + "' is " +
                                 Self + " and no real compiler follows it; set " +
                                 Own + " to the compiler to run");
  return makeDriverError(ExitCode::NoCompiler,
                         "no real compiler found: '" + Req.WantedName +
                             "' is not on PATH (other than linkguard); set " +
                             Own + " to the compiler to run");
}

} // namespace linkguard::driver
