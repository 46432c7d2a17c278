//===- Target.cpp - find the library, write it out if it is inside --------===//
#include "tryload/Target.h"

#include "objlib/Reader.h"
#include "package/Buffers.h"
#include "package/Container.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace linkguard::tryload {

char AmbiguousTarget::ID = 0;
char CantCreate::ID = 0;

void AmbiguousTarget::log(raw_ostream &OS) const {
  OS << File << " holds " << Names.size() << " binaries; name one:";
  for (const std::string &N : Names)
    OS << " '" << N << "'";
}

std::string PrivateDir::temporaryDirectory() {
  const char *Env = std::getenv("TMPDIR");
  if (Env && Env[0] == '/')
    return Env;
  if (Env) // empty or relative
    return "/tmp";
  SmallString<128> Dir; // unset: /tmp, or the per-user one on macOS
  sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Dir);
  return sys::path::is_absolute(Dir) ? std::string(Dir) : "/tmp";
}

Expected<std::unique_ptr<PrivateDir>> PrivateDir::create() {
  SmallString<128> Model(temporaryDirectory());
  sys::path::append(Model, "linkguard-try-load-XXXXXX");
  std::string Buf(Model.str());
  if (!::mkdtemp(Buf.data())) // mode 0700
    return make_error<CantCreate>("cannot create a private directory like " +
                                  Buf + ": " + std::strerror(errno));
  int Fd = ::open(Buf.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (Fd < 0) {
    int E = errno;
    ::rmdir(Buf.c_str());
    return make_error<CantCreate>("cannot open the private directory " + Buf +
                                  ": " + std::strerror(E));
  }
  return std::unique_ptr<PrivateDir>(new PrivateDir(Buf, Fd));
}

namespace {

/// Removes every entry of the directory open at Fd, and what is in its
/// subdirectories, through descriptors: nothing outside it, whatever links
/// it holds. Depth-bounded (a deeper tree is left as it is).
void removeContents(int Fd, int Depth) {
  int Copy = ::dup(Fd);
  DIR *D = Copy < 0 ? nullptr : ::fdopendir(Copy);
  if (!D) {
    if (Copy >= 0)
      ::close(Copy);
    return;
  }
  std::vector<std::string> Names;
  while (struct dirent *E = ::readdir(D))
    if (std::strcmp(E->d_name, ".") != 0 && std::strcmp(E->d_name, "..") != 0)
      Names.push_back(E->d_name);
  ::closedir(D);
  for (const std::string &N : Names) {
    if (::unlinkat(Fd, N.c_str(), 0) == 0 || Depth >= 16)
      continue;
    int Sub = ::openat(Fd, N.c_str(),
                       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (Sub < 0)
      continue;
    removeContents(Sub, Depth + 1);
    ::close(Sub);
    ::unlinkat(Fd, N.c_str(), AT_REMOVEDIR);
  }
}

bool sameDirectory(const char *Path, const struct stat &Want) {
  struct stat St;
  return ::lstat(Path, &St) == 0 && S_ISDIR(St.st_mode) &&
         St.st_dev == Want.st_dev && St.st_ino == Want.st_ino;
}

} // namespace

PrivateDir::~PrivateDir() {
  // Best effort: nothing to report to, and nothing else to try.
  struct stat Mine;
  if (::fstat(Fd, &Mine) != 0) {
    ::close(Fd);
    return;
  }
  removeContents(Fd, 0);
  if (sameDirectory(Dir.c_str(), Mine)) {
    ::rmdir(Dir.c_str());
  } else {
    // Renamed: where it is now, if the system says (Linux), and only if
    // that is still it. rmdir removes an empty directory and nothing else.
    char Now[4096];
    std::string Self = "/proc/self/fd/" + std::to_string(Fd);
    ssize_t N = ::readlink(Self.c_str(), Now, sizeof Now - 1);
    if (N > 0) {
      Now[N] = '\0';
      if (Now[0] == '/' && sameDirectory(Now, Mine))
        ::rmdir(Now);
    }
  }
  ::close(Fd);
}

std::string PrivateDir::pathFor(StringRef Name) const {
  std::string Safe;
  for (char C :
       Name.rsplit('/').second.empty() ? Name : Name.rsplit('/').second)
    Safe += isAlnum(C) || StringRef("._+-").contains(C) ? C : '_';
  if (Safe.empty() || Safe[0] == '.')
    Safe = "library" + Safe;
  if (Safe.size() > 121) // NAME_MAX is 255 on every file system that matters
    Safe = Safe.substr(0, 60) + "_" + Safe.substr(Safe.size() - 60);
  return Dir + "/" + Safe;
}

Error PrivateDir::write(const std::string &Path, StringRef Bytes) const {
  std::string Base = sys::path::filename(Path).str();
  int FD = ::openat(Fd, Base.c_str(),
                    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0700);
  if (FD < 0)
    return make_error<CantCreate>("cannot create " + Path + ": " +
                                  std::strerror(errno));
  Error E = package::writeAll(FD, Bytes);
  ::close(FD);
  if (E)
    return make_error<CantCreate>("cannot write " + Path + ": " +
                                  toString(std::move(E)));
  return Error::success();
}


Expected<Target>
resolveTarget(const std::string &Arg, const package::ContainerOptions &Given,
              function_ref<Expected<const PrivateDir *>()> GetDir,
              function_ref<void(const std::string &)> BeforeWrite) {
  std::string Container = Arg;
  std::string Wanted = Arg; // as forEachImage names it
  bool Named = false;       // Arg names one member or image
  bool Embedded = false;
  if (!sys::fs::exists(Arg)) {
    std::optional<package::ImageName> N = package::parseImageName(Arg);
    if (!N)
      return make_error<objlib::ReadError>(
          objlib::ReadErrorKind::Unreadable,
          Arg + ": no such file, nor a member of an archive");
    Container = N->Container;
    Wanted = N->Name;
    Embedded = N->Embedded;
    Named = true;
  }
  package::InputKind Kind = package::classifyInput(Container);
  if (!Named && (Kind == package::InputKind::Binary ||
                 Kind == package::InputKind::Unreadable ||
                 (Kind == package::InputKind::Other && !Given.Scan))) {
    // A library (objlib explains any trouble with it first).
    if (Expected<objlib::BinaryInfo> Info = objlib::readBinary(Arg); !Info)
      return Info.takeError();
    SmallString<256> Abs(Arg);
    if (sys::fs::make_absolute(Abs)) // no working directory: as given
      Abs = Arg;
    return Target{Arg, std::string(Abs), std::nullopt};
  }

  package::ContainerOptions Opts = Given;
  Opts.Scan = Given.Scan || Embedded;
  std::vector<std::string> Names;
  Target T;
  Error Failed = Error::success();
  Error Walk = package::forEachImage(
      Container, Opts,
      [&](const package::Image &I) {
        if (Named && I.Name != Wanted)
          return;
        Names.push_back(I.Name);
        if (Names.size() > 1 || Failed)
          return;
        Expected<const PrivateDir *> Dir = GetDir();
        if (!Dir) {
          Failed = Dir.takeError();
          return;
        }
        T = {I.Name, (*Dir)->pathFor(I.Name), I};
        T.Source->Data = MemoryBufferRef();
        T.Source->Archive = nullptr;
        BeforeWrite(T.Library);
        Failed = (*Dir)->write(T.Library, I.Data.getBuffer());
      },
      [&](const std::string &Member, Error E) {
        if (!Named || Member == Wanted)
          Failed = joinErrors(std::move(Failed), std::move(E));
        else
          consumeError(std::move(E));
      });
  if (Walk)
    return joinErrors(std::move(Walk), std::move(Failed));
  if (Failed)
    return std::move(Failed);
  if (Names.empty())
    return make_error<objlib::ReadError>(objlib::ReadErrorKind::Unreadable,
                                         Container + " holds no binary named " +
                                             Wanted);
  if (Names.size() > 1)
    return make_error<AmbiguousTarget>(Container, std::move(Names));
  return T;
}

} // namespace linkguard::tryload
