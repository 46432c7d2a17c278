//===- CompilerResolution.cpp - find the real compiler, never ourselves ---===//
#include "driver/CompilerResolution.h"

#include "driver/DriverError.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <unistd.h>

namespace linkguard::driver {

llvm::Expected<std::vector<std::string>> splitCommandWords(const std::string &S) {
  std::vector<std::string> Words;
  std::string Current;
  bool InWord = false;
  char Quote = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    char Ch = S[I];
    if (Quote == '\'') {
      if (Ch == '\'') Quote = 0;
      else Current += Ch;
      continue;
    }
    if (Quote == '"') {
      if (Ch == '"') Quote = 0;
      else if (Ch == '\\' && I + 1 < S.size() &&
               llvm::StringRef("\"\\$`").contains(S[I + 1]))
        Current += S[++I];
      else Current += Ch;
      continue;
    }
    if (Ch == ' ' || Ch == '\t' || Ch == '\n') {
      if (InWord) Words.push_back(std::move(Current));
      Current.clear();
      InWord = false;
      continue;
    }
    InWord = true;
    if (Ch == '\'' || Ch == '"') Quote = Ch;
    else if (Ch == '\\' && I + 1 < S.size()) Current += S[++I];
    else Current += Ch;
  }
  if (Quote)
    return makeDriverError(ExitCode::BadConfig,
                           "unterminated quote in compiler command: " + S);
  if (InWord) Words.push_back(std::move(Current));
  return Words;
}

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
  return !SelfPath.empty() && canonical(Path) == SelfPath;
}

static bool isExecutableFile(const std::string &Path) {
  return llvm::sys::fs::exists(Path) && !llvm::sys::fs::is_directory(Path) &&
         ::access(Path.c_str(), X_OK) == 0;
}

/// Every executable file named Name in the PATH directories, in PATH order
/// (an empty entry is the current directory, as for execvp).
static std::vector<std::string> executablesOnPath(const std::string &Name,
                                                  const std::string &PathVar) {
  std::vector<std::string> Found;
  llvm::SmallVector<llvm::StringRef, 16> Dirs;
  llvm::StringRef(PathVar).split(Dirs, ':');
  for (llvm::StringRef Dir : Dirs) {
    llvm::SmallString<256> Candidate(Dir.empty() ? "." : Dir);
    llvm::sys::path::append(Candidate, Name);
    std::string C(Candidate);
    if (isExecutableFile(C))
      Found.push_back(std::move(C));
  }
  return Found;
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
  for (const std::string &C : executablesOnPath(Name, PathVar))
    if (!isLinkguard(C, SelfPath))
      return absolute(C);
  return {};
}

/// True when Path is a compiler cache's binary (ccache, sccache), under any
/// name: /usr/lib/ccache/clang++ is a link to ../../bin/ccache.
static bool isCompilerCache(const std::string &Path) {
  const std::string Real = canonical(Path);
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
  for (const std::string &C : executablesOnPath(Name, PathVar))
    if (!isCompilerCache(C))
      return isLinkguard(C, SelfPath);
  return false;
}

/// The real compiler past linkguard and past any cache masquerade, as ccache
/// finds the compiler past itself. Empty when PATH holds none.
static std::string findPastCaches(const std::string &Name,
                                  const std::string &PathVar,
                                  const std::string &SelfPath) {
  for (const std::string &C : executablesOnPath(Name, PathVar))
    if (!isLinkguard(C, SelfPath) && !isCompilerCache(C))
      return absolute(C);
  return {};
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

/// The first copy of linkguard that PATH holds under Name, or "". When the
/// lookup finds nothing else, PATH leads only back to us: that is the
/// recursion case (68, a masquerade directory with no real compiler after
/// it), not a missing compiler (69).
static std::string linkguardOnPath(const std::string &Name, const std::string &PathVar,
                                   const std::string &SelfPath) {
  for (const std::string &C : executablesOnPath(Name, PathVar))
    if (isLinkguard(C, SelfPath))
      return C;
  return {};
}

/// Turns a word list into a command: the first word is looked up on PATH.
/// Errors when it is missing, not executable, or linkguard itself.
static llvm::Expected<CompilerCommand>
commandFromWords(std::vector<std::string> Words, const std::string &Origin,
                 const Config &Cfg, const std::string &SelfPath) {
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
    if (!llvm::sys::fs::exists(First))
      return makeDriverError(ExitCode::NoCompiler, "real compiler " + First +
                                                       " (from " + Origin +
                                                       ") does not exist");
    if (llvm::sys::fs::is_directory(First) || ::access(First.c_str(), X_OK) != 0)
      return makeDriverError(ExitCode::NoCompiler,
                             "real compiler " + First + " (from " + Origin +
                                 ") is not an executable file");
  }
  std::string Exe = findExecutable(First, PathVar, SelfPath);
  if (std::string Self = linkguardOnPath(First, PathVar, SelfPath);
      Exe.empty() && !Self.empty())
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
  if (llvm::Error E = skipCacheLoop(Words, Origin, PathVar, SelfPath))
    return std::move(E);
  CompilerCommand Cmd;
  Cmd.Executable = Words.front();
  Cmd.Prefix = std::move(Words);
  Cmd.Origin = Origin;
  return Cmd;
}

bool anyWordIsLinkguard(const std::vector<std::string> &Words, const Config &Cfg,
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
      std::vector<std::string> Found = executablesOnPath(W, PathVar);
      if (!Found.empty() && isLinkguard(Found.front(), SelfPath))
        return true;
    }
  }
  return false;
}

llvm::Expected<CompilerCommand> resolveCompiler(const ResolveRequest &Req,
                                                const Config &Cfg) {
  if (!Req.LauncherCommand.empty())
    return commandFromWords(Req.LauncherCommand, "the launcher command", Cfg,
                            Req.SelfPath);

  const bool Cxx = Req.Lang == Language::Cxx;
  const std::string Own = Cxx ? "LINKGUARD_CXX" : "LINKGUARD_CC";
  if (auto V = Cfg.env(Own); V && !llvm::StringRef(*V).trim().empty()) {
    auto Words = splitCommandWords(*V);
    if (!Words)
      return Words.takeError();
    return commandFromWords(std::move(*Words), Own, Cfg, Req.SelfPath);
  }

  const std::string User = Cxx ? "CXX" : "CC";
  if (auto V = Cfg.env(User); V && !llvm::StringRef(*V).trim().empty()) {
    auto Words = splitCommandWords(*V);
    if (!Words)
      return Words.takeError();
    // CXX=linkguard-clang++ is how users install us; then CXX says nothing
    // about the real compiler and PATH decides.
    if (!anyWordIsLinkguard(*Words, Cfg, Req.SelfPath))
      return commandFromWords(std::move(*Words), User, Cfg, Req.SelfPath);
  }

  std::string PathVar = Cfg.env("PATH").value_or("/usr/local/bin:/usr/bin:/bin");
  for (const std::string &Name :
       {Req.WantedName, std::string(Cxx ? "clang++" : "clang")}) {
    std::string Exe = findExecutable(Name, PathVar, Req.SelfPath);
    if (!Exe.empty()) {
      std::vector<std::string> Words{Exe};
      if (llvm::Error E = skipCacheLoop(Words, "PATH", PathVar, Req.SelfPath))
        return std::move(E);
      CompilerCommand Cmd;
      Cmd.Executable = Words.front();
      Cmd.Prefix = std::move(Words);
      Cmd.Origin = "PATH";
      return Cmd;
    }
  }
  for (const std::string &Name :
       {Req.WantedName, std::string(Cxx ? "clang++" : "clang")})
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
