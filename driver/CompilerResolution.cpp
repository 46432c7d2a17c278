//===- CompilerResolution.cpp - find the real compiler, never ourselves ---===//
#include "driver/CompilerResolution.h"

#include "driver/DriverError.h"
#include "driver/HostSearch.h"

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

std::string findExecutable(const std::string &Name, const std::string &PathVar,
                           const std::string &SelfPath) {
  if (Name.find('/') != std::string::npos) {
    llvm::SmallString<256> Abs(Name);
    // Without a current directory (removed under us) the relative path
    // still works for execv.
    if (llvm::sys::fs::make_absolute(Abs))
      return Name;
    return std::string(Abs);
  }
  for (const std::string &C : executablesOnPath(Name, PathVar)) {
    if (isLinkguard(C, SelfPath))
      continue;
    llvm::SmallString<256> Candidate(C);
    if (llvm::sys::fs::make_absolute(Candidate))
      return C; // no current directory: the relative candidate still runs
    return std::string(Candidate);
  }
  return {};
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
    return makeDriverError(ExitCode::NoCompiler,
                           "real compiler '" + First + "' (from " + Origin +
                               ") was not found on PATH, or only linkguard was");
  CompilerCommand Cmd;
  Cmd.Executable = Exe;
  // argv[0] is the path we exec: clang finds its resource directory and any
  // target prefix ("arm64-apple-darwin-clang++") from it.
  Words.front() = Exe;
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

  // PATH, then the host's compiler directories (driver/HostSearch.h).
  std::string PathVar = fallbackSearchPath(Cfg.env("PATH"), hostCompilerDirs());
  for (const std::string &Name :
       {Req.WantedName, std::string(Cxx ? "clang++" : "clang")}) {
    std::string Exe = findExecutable(Name, PathVar, Req.SelfPath);
    if (!Exe.empty()) {
      CompilerCommand Cmd;
      Cmd.Executable = Exe;
      Cmd.Prefix = {Exe};
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
