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
#include <fcntl.h>
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
  return std::unique_ptr<PrivateDir>(new PrivateDir(Buf));
}

PrivateDir::~PrivateDir() {
  // Best effort: nothing to report to, and nothing else to try.
  std::error_code Ignored = sys::fs::remove_directories(Dir);
  (void)Ignored;
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
  int FD = ::open(Path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0700);
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
    return Target{Arg, std::string(Abs)};
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
        T = {I.Name, (*Dir)->pathFor(I.Name)};
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
