//===- Shipment.cpp - the binaries of a tree and the names they ship under -===//
#include "shipment/Shipment.h"

#include "shipment/LoaderRules.h"

#include "package/Container.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace linkguard::shipment {

struct Shipment::ZipHold {};

char LimitError::ID = 0;

Shipment::~Shipment() = default;

namespace {

std::string absolute(StringRef P) {
  SmallString<256> S(P);
  if (sys::fs::make_absolute(S))
    S = P;
  return normalizePath(S);
}

Error walkError(const Twine &Msg) { return make_error<LimitError>(Msg.str()); }

ShipmentFailure failureOf(const std::string &Name, Error E) {
  ShipmentFailure F{Name, objlib::ReadErrorKind::Malformed, ""};
  handleAllErrors(
      std::move(E),
      [&](const objlib::ReadError &RE) {
        F.Kind = RE.kind();
        F.Message = RE.message();
      },
      [&](const ErrorInfoBase &EI) { F.Message = Name + ": " + EI.message(); });
  return F;
}

} // namespace

Expected<std::unique_ptr<Shipment>> Shipment::directory(const std::string &Path,
                                                        const objlib::ReadOptions &Read,
                                                        TreeLimits Limits) {
  std::unique_ptr<Shipment> S(new Shipment);
  S->K = Kind::Directory;
  S->Given = Path;
  S->Root = absolute(Path);
  S->Limits = Limits;
  S->Read = Read;
  std::error_code EC;
  // Never follows a link: a link is a name (resolveLinks), not a door out.
  sys::fs::recursive_directory_iterator It(Path, EC, /*follow_symlinks=*/false), End;
  if (EC)
    return make_error<objlib::ReadError>(objlib::ReadErrorKind::Unreadable,
                                         Path + ": " + EC.message());
  // The walk's own order is the file system's: sort the images by path
  // afterwards so every run reports the same order.
  size_t Entries = 0;
  std::vector<std::string> Binaries;
  for (; It != End; It.increment(EC)) {
    if (EC)
      return make_error<objlib::ReadError>(objlib::ReadErrorKind::Unreadable,
                                           It->path() + ": " + EC.message());
    if (++Entries > Limits.MaxEntries)
      return walkError(Path + ": more than " + Twine(Limits.MaxEntries) +
                       " entries; the tree is too big to judge");
    if (unsigned(It.level()) >= Limits.MaxDepth) {
      return walkError(It->path() + ": deeper than " + Twine(Limits.MaxDepth) +
                       " levels; the tree is too deep to judge");
    }
    ErrorOr<sys::fs::basic_file_status> St = It->status();
    if (!St)
      continue; // vanished while walked
    if (St->type() != sys::fs::file_type::regular_file)
      continue; // directories are descended into, links are names only
    StringRef Full = It->path();
    std::string Rel = normalizePath(Full.drop_front(Path.size()).ltrim('/'));
    S->Files[Rel] = true;
    if (package::classifyInput(Full.str()) != package::InputKind::Binary)
      continue; // not a Mach-O or ELF file: skipped silently
    Binaries.push_back(Rel);
  }
  llvm::sort(Binaries);
  for (const std::string &Rel : Binaries) {
    std::string Name = joinPath(Path, Rel);
    Expected<objlib::BinaryInfo> Info = objlib::readBinary(joinPath(S->Root, Rel), Read);
    if (!Info) {
      ShipmentFailure F = failureOf(Name, Info.takeError());
      // objlib names the absolute path; the tree's name is what was given.
      size_t At = F.Message.find(joinPath(S->Root, Rel));
      if (At != std::string::npos)
        F.Message.replace(At, joinPath(S->Root, Rel).size(), Name);
      S->Failures.push_back(std::move(F));
      continue;
    }
    Info->Path = Name; // the tree's name, as given
    S->ByRel[Rel] = S->Images.size();
    S->Images.push_back({Rel, std::move(*Info)});
  }
  S->Walked = S->Images.size();
  return std::move(S);
}

Expected<std::unique_ptr<Shipment>> Shipment::zip(const std::string &Path,
                                                  const objlib::ReadOptions &Read) {
  std::unique_ptr<Shipment> S(new Shipment);
  S->K = Kind::Zip;
  S->Given = Path;
  S->Root = absolute(Path) + "!";
  S->Read = Read;
  package::ContainerOptions Opts;
  Error E = package::forEachImage(
      Path, Opts,
      [&](const package::Image &I) {
        Expected<objlib::BinaryInfo> Info = objlib::readBinary(I.Data, I.Name, Read);
        if (!Info) {
          S->Failures.push_back(failureOf(I.Name, Info.takeError()));
          return;
        }
        std::string Rel = normalizePath(I.Member);
        S->ByRel[Rel] = S->Images.size();
        S->Images.push_back({Rel, std::move(*Info)});
      },
      [&](const std::string &Member, Error Failed) {
        S->Failures.push_back(failureOf(Member, std::move(Failed)));
      });
  if (E)
    return std::move(E);
  S->Walked = S->Images.size();
  return std::move(S);
}

Expected<std::unique_ptr<Shipment>> Shipment::file(const std::string &Path,
                                                   const std::string &Root,
                                                   const objlib::ReadOptions &Read,
                                                   TreeLimits Limits) {
  std::unique_ptr<Shipment> S(new Shipment);
  S->K = Kind::File;
  S->Given = Path;
  std::string Abs = absolute(Path);
  S->Root = Root.empty() ? sys::path::parent_path(Abs, sys::path::Style::posix).str()
                         : absolute(Root);
  if (S->Root.empty())
    S->Root = "/";
  S->Limits = Limits;
  S->Read = Read;
  Expected<objlib::BinaryInfo> Info = objlib::readBinary(Path, Read);
  if (!Info)
    return Info.takeError();
  StringRef Rel = Abs;
  if (S->Root == "/" ? !Rel.consume_front("/")
                     : !(Rel.consume_front(S->Root) && Rel.consume_front("/")))
    return make_error<objlib::ReadError>(objlib::ReadErrorKind::Unreadable,
                                         Path + ": not under the bundle root " + S->Root);
  S->ByRel[Rel] = 0;
  S->Tried[Rel] = true;
  S->Images.push_back({Rel.str(), std::move(*Info)});
  S->Walked = 1;
  return std::move(S);
}

std::optional<std::string> Shipment::resolveLinks(StringRef Rel) const {
  // Components still to walk, last first (so a link's target is pushed).
  SmallVector<std::string, 16> Todo;
  auto push = [&](StringRef P) {
    SmallVector<StringRef, 16> Parts;
    P.split(Parts, '/', -1, /*KeepEmpty=*/false);
    for (auto I = Parts.rbegin(); I != Parts.rend(); ++I)
      Todo.push_back(I->str());
  };
  push(Rel);
  SmallVector<std::string, 16> Done;
  unsigned Hops = 0;
  while (!Todo.empty()) {
    std::string C = Todo.pop_back_val();
    if (C == ".")
      continue;
    if (C == "..") {
      if (Done.empty())
        return std::nullopt; // above the root
      Done.pop_back();
      continue;
    }
    std::string Here = Root;
    for (const std::string &D : Done)
      Here += "/" + D;
    Here += "/" + C;
    struct stat St;
    if (::lstat(Here.c_str(), &St) != 0)
      return std::nullopt;
    if (S_ISLNK(St.st_mode)) {
      if (++Hops > Limits.MaxLinkHops)
        return std::nullopt; // a loop, or too long a chain: names nothing
      char Buf[4096];
      ssize_t N = ::readlink(Here.c_str(), Buf, sizeof(Buf));
      if (N <= 0 || size_t(N) >= sizeof(Buf))
        return std::nullopt;
      StringRef Target(Buf, size_t(N));
      if (Target.starts_with("/")) {
        // Absolute: counts only if it points back into the tree.
        std::string T = normalizePath(Target);
        StringRef R = T;
        if (!(R.consume_front(Root) && (R.empty() || R.consume_front("/"))))
          return std::nullopt;
        Done.clear();
        push(R);
      } else {
        push(Target);
      }
      continue;
    }
    Done.push_back(C);
    if (!S_ISDIR(St.st_mode) && !Todo.empty())
      return std::nullopt; // a file used as a directory
  }
  std::string Out;
  for (const std::string &D : Done)
    Out += (Out.empty() ? "" : "/") + D;
  return Out;
}

std::optional<size_t> Shipment::readLazily(const std::string &Rel, bool *NotBinary) {
  if (Tried.count(Rel))
    return std::nullopt;
  Tried[Rel] = true;
  std::string Abs = joinPath(Root, Rel);
  if (package::classifyInput(Abs) != package::InputKind::Binary) {
    if (NotBinary)
      *NotBinary = true;
    return std::nullopt;
  }
  Expected<objlib::BinaryInfo> Info = objlib::readBinary(Abs, Read);
  if (!Info) {
    Failures.push_back(failureOf(Abs, Info.takeError()));
    return std::nullopt;
  }
  ByRel[Rel] = Images.size();
  Images.push_back({Rel, std::move(*Info)});
  return Images.size() - 1;
}

std::optional<size_t> Shipment::lookup(StringRef Rel, bool *NotBinary) {
  std::string Norm = normalizePath(Rel);
  if (StringRef(Norm).starts_with(".."))
    return std::nullopt;
  if (K == Kind::Zip) {
    auto It = ByRel.find(Norm);
    if (It != ByRel.end())
      return It->second;
    return std::nullopt;
  }
  std::optional<std::string> Real = resolveLinks(Norm);
  if (!Real)
    return std::nullopt;
  auto It = ByRel.find(*Real);
  if (It != ByRel.end())
    return It->second;
  if (K == Kind::File)
    return readLazily(*Real, NotBinary);
  if (NotBinary && Files.count(*Real))
    *NotBinary = true;
  return std::nullopt;
}

std::string Shipment::printName(size_t I) const {
  const std::string &Rel = Images[I].Rel;
  switch (K) {
  case Kind::Zip:
    return Given + "!" + Rel;
  case Kind::File:
    if (I == 0)
      return Given;
    return joinPath(Root, Rel);
  case Kind::Directory:
    break;
  }
  return joinPath(Given, Rel);
}

std::string Shipment::absPath(size_t I) const { return joinPath(Root, Images[I].Rel); }

} // namespace linkguard::shipment
