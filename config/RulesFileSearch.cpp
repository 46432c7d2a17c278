//===- RulesFileSearch.cpp - find linkguard.toml, the safe.directory way --===//
#include "config/RulesFileSearch.h"

#include "flags/BoundedRead.h"
#include "support/EnumNames.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <fcntl.h>
#include <unistd.h>

namespace linkguard::config {

using namespace flags;

const char *rulesFileOriginName(RulesFileOrigin O) {
  return enumName(O, {"LINKGUARD_CONFIG", "project", "user"});
}

std::optional<std::string> untrustedBecause(const struct stat &St,
                                            unsigned User) {
  if (St.st_uid != User && St.st_uid != 0)
    return "owned by uid " + std::to_string(St.st_uid) + ", not by you (uid " +
           std::to_string(User) + ") or root";
  if (St.st_mode & S_IWOTH)
    return std::string("writable by everyone");
  // A user private group (gid == uid) has only its user in it.
  if ((St.st_mode & S_IWGRP) && St.st_gid != St.st_uid)
    return "writable by group " + std::to_string(St.st_gid);
  return std::nullopt;
}

namespace {

/// A directory descriptor, closed on scope exit.
class DirFd {
public:
  explicit DirFd(int Fd = -1) : Fd(Fd) {}
  DirFd(const DirFd &) = delete;
  DirFd &operator=(const DirFd &) = delete;
  DirFd(DirFd &&O) noexcept : Fd(O.Fd) { O.Fd = -1; }
  DirFd &operator=(DirFd &&O) noexcept {
    std::swap(Fd, O.Fd);
    return *this;
  }
  ~DirFd() {
    if (Fd >= 0)
      ::close(Fd);
  }
  int get() const { return Fd; }
  bool valid() const { return Fd >= 0; }

private:
  int Fd;
};

/// A directory to look in, not to list: Linux's O_PATH needs only search
/// permission, so a parent with mode 0711 does not end the walk early.
/// Elsewhere a directory that cannot be read ends it (the safe side).
DirFd openDir(int At, const char *Name) {
#ifdef O_PATH
  const int Mode = O_PATH;
#else
  const int Mode = O_RDONLY;
#endif
  return DirFd(::openat(At, Name, Mode | O_DIRECTORY | O_CLOEXEC | O_NOCTTY));
}

std::string inDir(const std::string &Dir, const char *Name) {
  return Dir == "/" ? std::string("/") + Name : Dir + "/" + Name;
}

bool sameFile(const struct stat &A, const struct stat &B) {
  return A.st_dev == B.st_dev && A.st_ino == B.st_ino;
}

/// The linkguard.toml in Dir (which has one): trusted and read, trusted but
/// unusable (Error), or ignored with the reason.
void judge(const DirFd &Dir, const struct stat &DirSt,
           const std::string &DirPath, RulesFileOrigin Origin,
           const RulesFileSearch &Where, RulesFileLookup &Out) {
  std::string Path = inDir(DirPath, RulesFileName);
  if (std::optional<std::string> Why = untrustedBecause(DirSt, Where.User)) {
    Out.Ignored.push_back({Path, "its directory " + DirPath + " is " + *Why});
    return;
  }
  BoundedFile F = readBounded(Dir.get(), RulesFileName, Where.MaxBytes);
  if (F.Outcome == ReadOutcome::Missing) {
    Out.Ignored.push_back({Path, "a symbolic link to nothing"});
    return;
  }
  // The opened descriptor's owner (readBounded's fstat), after any
  // symbolic link: a link in a trusted directory may point anywhere, but
  // only at a file that is the user's or root's.
  if (std::optional<std::string> Why = untrustedBecause(F.St, Where.User)) {
    Out.Ignored.push_back({Path, "it is " + *Why});
    return;
  }
  if (F.Outcome == ReadOutcome::NotRegular) {
    Out.Ignored.push_back({Path, "not a regular file (" + F.Reason + ")"});
    return;
  }
  FoundRulesFile Found{Path, DirPath, Origin, {}, std::nullopt};
  if (F.Outcome == ReadOutcome::Ok)
    Found.Text = std::move(F.Text);
  else
    Found.Error = Path + ": " + F.Reason;
  Out.File = std::move(Found);
}

/// The real path of WorkingDir's Levels-th parent, for messages. Computed
/// only when a file is found: a step with no rules file reads no links.
std::string levelPath(const std::string &WorkingDir, unsigned Levels) {
  llvm::SmallString<256> Real;
  std::string Path = WorkingDir;
  if (!llvm::sys::fs::real_path(WorkingDir, Real))
    Path = std::string(Real);
  for (unsigned I = 0; I < Levels; ++I) {
    std::string Up = llvm::sys::path::parent_path(Path).str();
    Path = Up.empty() ? std::string("/") : Up;
  }
  return Path;
}

/// Walks up from WorkingDir to the first linkguard.toml, if any. Per level:
/// one fstatat for the file, one openat and one fstat for the parent.
void searchProject(const RulesFileSearch &Where, RulesFileLookup &Out) {
  if (Where.WorkingDir.empty())
    return;
  DirFd Dir = openDir(AT_FDCWD, Where.WorkingDir.c_str());
  struct stat Start {
  }, Home{};
  if (!Dir.valid() || ::fstat(Dir.get(), &Start) != 0)
    return;
  bool HasHome = Where.Home && !Where.Home->empty() &&
                 ::stat(Where.Home->c_str(), &Home) == 0;
  struct stat DirSt = Start;
  // Each level is a real parent (".."), however the path was spelled; the
  // bound is only a guard against a filesystem that loops.
  for (unsigned Level = 0; Level < 4096; ++Level) {
    if (DirSt.st_dev != Start.st_dev)
      return; // a filesystem boundary
    struct stat Candidate {};
    if (::fstatat(Dir.get(), RulesFileName, &Candidate, AT_SYMLINK_NOFOLLOW) ==
        0) {
      judge(Dir, DirSt, levelPath(Where.WorkingDir, Level), RulesFileOrigin::Project, Where,
            Out);
      return;
    }
    if (HasHome && sameFile(DirSt, Home))
      return;
    DirFd Parent = openDir(Dir.get(), "..");
    struct stat ParentSt {};
    if (!Parent.valid() || ::fstat(Parent.get(), &ParentSt) != 0 ||
        sameFile(ParentSt, DirSt))
      return; // the root
    Dir = std::move(Parent);
    DirSt = ParentSt;
  }
}

void searchUser(const RulesFileSearch &Where, RulesFileLookup &Out) {
  // XDG base directory spec: a relative $XDG_CONFIG_HOME is invalid.
  std::string ConfigHome;
  if (Where.XdgConfigHome && llvm::sys::path::is_absolute(*Where.XdgConfigHome))
    ConfigHome = *Where.XdgConfigHome;
  else if (Where.Home && !Where.Home->empty())
    ConfigHome = *Where.Home + "/.config";
  if (ConfigHome.empty())
    return;
  std::string DirPath = ConfigHome + "/linkguard";
  DirFd Dir = openDir(AT_FDCWD, DirPath.c_str());
  struct stat DirSt {
  }, Candidate{};
  if (!Dir.valid() || ::fstat(Dir.get(), &DirSt) != 0 ||
      ::fstatat(Dir.get(), RulesFileName, &Candidate, AT_SYMLINK_NOFOLLOW) != 0)
    return;
  judge(Dir, DirSt, DirPath, RulesFileOrigin::User, Where, Out);
}

FoundRulesFile readExplicit(const std::string &Path, size_t MaxBytes) {
  FoundRulesFile Found;
  Found.Path = Path;
  Found.Directory = llvm::sys::path::parent_path(Path).str();
  if (Found.Directory.empty())
    Found.Directory = ".";
  Found.Origin = RulesFileOrigin::Explicit;
  BoundedFile F = readBounded(AT_FDCWD, Path.c_str(), MaxBytes);
  switch (F.Outcome) {
  case ReadOutcome::Ok:
    Found.Text = std::move(F.Text);
    break;
  case ReadOutcome::Missing:
    Found.Error = "LINKGUARD_CONFIG=" + Path + ": no such file";
    break;
  case ReadOutcome::NotRegular:
    Found.Error =
        "LINKGUARD_CONFIG=" + Path + ": not a regular file (" + F.Reason + ")";
    break;
  case ReadOutcome::TooLarge:
  case ReadOutcome::Failed:
    Found.Error = "LINKGUARD_CONFIG=" + Path + ": " + F.Reason;
    break;
  }
  return Found;
}

} // namespace

RulesFileLookup findRulesFile(const RulesFileSearch &Where) {
  RulesFileLookup Out;
  if (Where.Explicit) {
    Out.File = readExplicit(*Where.Explicit, Where.MaxBytes);
    return Out;
  }
  searchProject(Where, Out);
  // An ignored project file leaves the user's own file in force.
  if (!Out.File)
    searchUser(Where, Out);
  return Out;
}

} // namespace linkguard::config
