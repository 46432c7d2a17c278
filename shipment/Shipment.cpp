//===- Shipment.cpp - the binaries of a tree and the names they ship under -===//
#include "shipment/Shipment.h"
#include "shipment/Roots.h"
#include "shipment/TreeWalk.h"

#include "contract/LoaderRules.h"

#include "package/Container.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <cstring>
#include <memory>
#include <utility>
#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace linkguard::shipment {

using contract::joinPath;
using contract::normalizePath;

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

/// What the first bytes of a file of the tree say it is.
enum class Head { Binary, BinaryAndArchive, Archive, Model, Other, Gone, Unreadable };

/// An ExecuTorch program: a flatbuffer whose file identifier, at offset 4,
/// is "ET" and two digits ("ET12": pytorch/executorch schema/program.fbs).
bool looksLikeExecuTorchProgram(StringRef Bytes) {
  return Bytes.size() >= 8 && Bytes.substr(4, 2) == "ET" && isDigit(Bytes[6]) &&
         isDigit(Bytes[7]);
}

const char *objectWhy(const objlib::BinaryInfo &Info) {
  return Info.Fmt == objlib::Format::MachO
             ? "an object file (MH_OBJECT): linked into images, never loaded"
             : "an object file (ET_REL): linked into images, never loaded";
}

/// Whether Bytes hold a zip end record's signature "PK\5\6" anywhere:
/// memchr for its first byte (vectorized) and a compare where it is;
/// glibc's memmem took four times as long over a binary's last 64 KiB.
bool hasEndSignature(StringRef Bytes) {
  const char *P = Bytes.data(), *const E = Bytes.data() + Bytes.size();
  while (E - P >= 4) {
    P = static_cast<const char *>(::memchr(P, 'P', size_t(E - P) - 3));
    if (!P)
      return false;
    if (P[1] == 'K' && P[2] == 5 && P[3] == 6)
      return true;
    ++P;
  }
  return false;
}

/// The first bytes of the file: one open, one read, one close (no stat, no
/// signal masking), so a tree of many small non-binaries costs little. A
/// file that vanished while walked is Gone; one that cannot be opened or
/// read is Unreadable (an error: a file the check cannot read may be what
/// breaks the contract). Archive: a zip archive, or a file starting like a
/// binary with a zip behind it (`cat lib.so pkg.whl`), judged by its
/// members (package/Container.h).
/// Name is opened in the directory open at DirFD (AT_FDCWD: Name is a
/// path); Path names the same file for package::classifyInput. A binary's
/// first bytes and identity go to Keep when given (Shipment::walkedHead),
/// and its descriptor, still open, to HeldFD when given (objlib reads the
/// binary through it; -1 otherwise).
Head readHead(int DirFD, const char *Name, const std::string &Path, int &Errno,
              Shipment::WalkedHead *Keep = nullptr, int *HeldFD = nullptr) {
  if (HeldFD)
    *HeldFD = -1;
  // O_NONBLOCK: a FIFO put there since the walk saw a file does not block
  // the open (its read then fails: an error, never a hang).
  int FD = ::openat(DirFD, Name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (FD < 0) {
    Errno = errno;
    return Errno == ENOENT ? Head::Gone : Head::Unreadable;
  }
  char Buf[64];
  ssize_t N = ::pread(FD, Buf, sizeof(Buf), 0);
  Errno = N < 0 ? errno : 0;
  if (N < 0) {
    ::close(FD);
    return Head::Unreadable;
  }
  StringRef Bytes(Buf, size_t(N));
  if (package::looksLikeZip(Bytes)) {
    ::close(FD);
    return Head::Archive;
  }
  if (N < 4 || !objlib::isBinaryMagic(identify_magic(Bytes))) {
    ::close(FD);
    return looksLikeExecuTorchProgram(Bytes) ? Head::Model : Head::Other;
  }
  // A zip behind the binary ends with an end record ("PK\5\6") in its
  // last 64 KiB + 22 bytes: only a file that has one there is looked at
  // as a whole (package::classifyInput).
  struct stat St;
  bool MaybeZip = true;
  if (::fstat(FD, &St) == 0) {
    if (Keep) {
      std::memcpy(Keep->Bytes, Buf, size_t(N));
      Keep->Size = uint8_t(N);
      Keep->Dev = uint64_t(St.st_dev);
      Keep->Ino = uint64_t(St.st_ino);
      Keep->Kept = true;
    }
    constexpr off_t Tail = 65535 + 22;
    const off_t From = St.st_size > Tail ? St.st_size - Tail : 0;
    // In windows from the end, each overlapping the next by the three
    // bytes a signature may straddle: one small buffer stays in cache.
    constexpr off_t Window = 16384;
    static thread_local char Buf2[Window];
    MaybeZip = false;
    for (off_t End = St.st_size; End > From && !MaybeZip;) {
      const off_t Begin = std::max(From, End - Window);
      ssize_t M = ::pread(FD, Buf2, size_t(End - Begin), Begin);
      if (M < 0) {
        MaybeZip = true; // unreadable here: classifyInput says
        break;
      }
      MaybeZip = hasEndSignature(StringRef(Buf2, size_t(M)));
      if (Begin == From)
        break;
      End = Begin + 3;
    }
  }
  if (HeldFD)
    *HeldFD = FD;
  else
    ::close(FD);
  if (!MaybeZip)
    return Head::Binary;
  return package::classifyInput(Path) == package::InputKind::Zip ? Head::BinaryAndArchive
                                                                  : Head::Binary;
}

/// Why a file named Rel is a Python extension module (a root of its own),
/// empty when it is none: a tagged extension suffix by name, a plain
/// ".so" only when Bytes export PyInit_<name> (shipment/Roots.h).
std::string extensionRootWhy(StringRef Rel, function_ref<std::optional<MemoryBufferRef>()> Bytes) {
  StringRef File = sys::path::filename(Rel, sys::path::Style::posix);
  if (hasTaggedExtensionSuffix(File))
    return "a Python extension module (its name ends in an extension suffix of "
           "importlib.machinery.EXTENSION_SUFFIXES)";
  std::string Module = plainExtensionModuleName(File);
  if (Module.empty())
    return "";
  if (std::optional<MemoryBufferRef> B = Bytes())
    if (exportsSymbol(*B, "PyInit_" + Module))
      return "a Python extension module (it exports PyInit_" + Module + ")";
  return "";
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
  // Never follows a link: a link is a name (resolveLinks), not a door out.
  // The walk's own order is the file system's: sort the images by path
  // afterwards so every run reports the same order.
  // Each binary with the descriptor its head was read through (objlib
  // reads the rest through it), at most MaxHeld of them open at once:
  // the others are opened again by name.
  struct Held {
    std::vector<std::pair<std::string, int>> Binaries;
    size_t Open = 0;
    ~Held() {
      for (const auto &B : Binaries)
        if (B.second >= 0)
          ::close(B.second);
    }
  } Bins;
  // A process given few descriptors (ulimit -n) holds fewer: an eighth of
  // its limit, so that the walk's own (one a level) and the reads' never
  // run out.
  size_t MaxHeld = 64;
  if (struct rlimit RL; ::getrlimit(RLIMIT_NOFILE, &RL) == 0 && RL.rlim_cur != RLIM_INFINITY)
    MaxHeld = std::min<size_t>(MaxHeld, size_t(RL.rlim_cur / 8));
  // The walk counts the entries as it lists them: it never holds more
  // than MaxEntries names, also of one directory.
  auto TooMany = [&] {
    return walkError(Path + ": more than " + Twine(Limits.MaxEntries) +
                     " entries; the tree is too big to judge");
  };
  Error Walked = walkTree(Path, Limits.MaxEntries, TooMany, [&](const WalkEntry &W) -> Error {
    if (W.Level >= Limits.MaxDepth)
      return walkError(W.Full + ": deeper than " + Twine(Limits.MaxDepth) +
                       " levels; the tree is too deep to judge");
    const std::string Rel = W.Rel.str();
    // What the walk saw spares lookups a system call per component.
    switch (W.T) {
    case WalkEntry::Type::Directory:
      S->Dirs[Rel] = true;
      return Error::success(); // descended into
    case WalkEntry::Type::Link:
      S->Links[Rel] = true;
      return Error::success(); // a name only
    case WalkEntry::Type::Special:
      S->Specials[Rel] = true;
      return Error::success();
    case WalkEntry::Type::Regular:
      break;
    }
    S->Files[Rel] = true;
    int Errno = 0;
    WalkedHead Kept;
    int FD = -1;
    const Head H = readHead(W.DirFD, W.Name, W.Full.str(), Errno, &Kept,
                            Bins.Open < MaxHeld ? &FD : nullptr);
    if (FD >= 0)
      ++Bins.Open;
    if (Kept.Kept && (H == Head::Binary || H == Head::BinaryAndArchive))
      S->Heads[Rel] = Kept;
    switch (H) {
    case Head::Gone:
      break; // vanished while walked
    case Head::Unreadable:
      S->Failures.push_back({joinPath(Path, Rel), objlib::ReadErrorKind::Unreadable,
                             joinPath(Path, Rel) + ": " +
                                 std::error_code(Errno, std::generic_category()).message()});
      break;
    case Head::Model:
      // An ExecuTorch program: its runtime writes the libraries it embeds
      // to a file and dlopens them, so they are judged without --scan.
      S->Models.push_back({Rel});
      S->Containers.push_back({Rel, false, false});
      break;
    case Head::Other:
      if (Limits.KeepOthers)
        S->Containers.push_back({Rel, false, false}); // --scan: a blob may carry images
      break; // not a Mach-O or ELF file: skipped silently
    case Head::Archive:
      S->Containers.push_back({Rel, false, true});
      break;
    case Head::BinaryAndArchive:
      S->Containers.push_back({Rel, true, true});
      Bins.Binaries.emplace_back(Rel, FD); // the binary in front loads as one
      break;
    case Head::Binary:
      Bins.Binaries.emplace_back(Rel, FD);
      break;
    }
    return Error::success();
  }, [&](StringRef Rel, std::vector<std::string> &&Names) {
    S->Children[Rel] = std::move(Names);
  });
  if (Walked)
    return std::move(Walked);
  llvm::sort(Bins.Binaries);
  llvm::sort(S->Containers, [](const TreeContainer &A, const TreeContainer &B) {
    return A.Rel < B.Rel;
  });
  for (auto &[Rel, FD] : Bins.Binaries) {
    std::string Name = joinPath(Path, Rel);
    std::string Abs = joinPath(S->Root, Rel);
    const int Own = std::exchange(FD, -1); // objlib's from here
    Expected<objlib::BinaryInfo> Info =
        Own >= 0 ? objlib::readBinary(Own, Abs, Read) : objlib::readBinary(Abs, Read);
    if (!Info) {
      S->Unread[Rel] = true;
      ShipmentFailure F = failureOf(Name, Info.takeError());
      // objlib names the absolute path; the tree's name is what was given.
      size_t At = F.Message.find(Abs);
      if (At != std::string::npos)
        F.Message.replace(At, Abs.size(), Name);
      S->Failures.push_back(std::move(F));
      continue;
    }
    if (isObjectFile(*Info)) {
      S->Skipped.push_back({Name, objectWhy(*Info)});
      S->Objects[Rel] = true;
      continue;
    }
    Info->Path = Name; // the tree's name, as given
    std::unique_ptr<MemoryBuffer> Buf;
    std::string Why = extensionRootWhy(Rel, [&]() -> std::optional<MemoryBufferRef> {
      ErrorOr<std::unique_ptr<MemoryBuffer>> B =
          MemoryBuffer::getFile(Abs, /*IsText=*/false, /*RequiresNullTerminator=*/false);
      if (!B)
        return std::nullopt;
      Buf = std::move(*B);
      return Buf->getMemBufferRef();
    });
    S->ByRel[Rel] = S->Images.size();
    S->Images.push_back({Rel, std::move(*Info), std::move(Abs)});
    S->Images.back().RootWhy = std::move(Why);
  }
  S->Walked = S->Images.size();
  return std::move(S);
}

Expected<std::unique_ptr<Shipment>> Shipment::zip(const std::string &Path,
                                                  const objlib::ReadOptions &Read,
                                                  const package::ContainerOptions &Opts,
                                                  bool SkipPrefix) {
  std::unique_ptr<Shipment> S(new Shipment);
  S->K = Kind::Zip;
  S->Given = Path;
  S->Root = absolute(Path) + "!";
  S->Read = Read;
  // Where each member is when the package is used (shipment/Roots.h): a
  // wheel as pip installs it, a .pt2 as its loader extracts it.
  std::optional<ArchiveLayout> Layout;
  std::vector<ShippedImage> ObjectMembers;
  std::vector<std::string> FailedMembers; // "PKG!member", read by nothing
  Error E = package::forEachImage(
      Path, Opts,
      [&](const package::Image &I) {
        const bool Prefix = I.Member.empty();
        if (!Layout && I.Archive) {
          Layout = ArchiveLayout::of(Path, I.Archive->entries());
          S->Undecided = Layout->undecided();
          // Every member the installer writes is a file there, image or
          // not (pip's ZipBackedFile.save copies a link's entry as its
          // bytes): ld.so's open_verify meets a text file or a stub
          // where it searches and ends the load (issue 37 review).
          for (const package::ZipEntry &En : I.Archive->entries()) {
            if (En.isDirectory())
              continue;
            Placement W = Layout->place(En.Name);
            if (!W.Present)
              continue;
            std::string R = normalizePath(W.Rel);
            S->ZipFiles[R] = En.UncompressedSize;
            for (StringRef D = sys::path::parent_path(R, sys::path::Style::posix); !D.empty();
                 D = sys::path::parent_path(D, sys::path::Style::posix))
              S->ZipDirs[D] = true;
          }
        }
        auto unread = [&] {
          if (Layout && !I.Member.empty() && !I.Offset)
            S->Unread[normalizePath(Layout->place(I.Member).Rel)] = true;
        };
        if (Prefix && SkipPrefix)
          return;
        Expected<objlib::BinaryInfo> Info = objlib::readBinary(I.Data, I.Name, Read);
        if (!Info) {
          unread();
          S->Failures.push_back(failureOf(I.Name, Info.takeError()));
          return;
        }
        if (I.Member.empty()) {
          // In front of the archive, no member: no name under the root
          // resolves to it, and it keeps its own name (FILE@0x0).
          Info->Path = package::embeddedName(Path, I.Offset.value_or(0));
          S->Images.push_back({"", std::move(*Info), joinPath(S->Root, ""), I.Offset.value_or(0)});
          return;
        }
        Placement Where = Layout ? Layout->place(I.Member) : Placement{true, I.Member, false};
        std::string Rel = normalizePath(Where.Rel);
        if (isObjectFile(*Info)) {
          S->Skipped.push_back({I.Name, objectWhy(*Info)});
          if (!I.Offset && Where.Present) {
            // A member the loader would open and refuse: kept after the
            // walked images (no root, never judged) for imageAt().
            S->Objects[Rel] = true;
            Info->Path = Path + "!" + normalizePath(I.Member);
            ObjectMembers.push_back({Rel, std::move(*Info), joinPath(S->Root, Rel), std::nullopt,
                                     normalizePath(I.Member), true});
          }
          return;
        }
        if (I.Offset) {
          // With --scan, an image found inside a member (PKG!m.pte@0x4c0):
          // named as check and inspect accept it back
          // (package::parseImageName), and no file a loader opens by name.
          Info->Path = I.Name;
          S->Images.push_back({Rel, std::move(*Info), joinPath(S->Root, Rel), I.Offset,
                               normalizePath(I.Member), Where.Present});
          return;
        }
        Info->Path = Path + "!" + normalizePath(I.Member);
        ShippedImage Img{Rel, std::move(*Info), joinPath(S->Root, Rel), std::nullopt,
                         normalizePath(I.Member), Where.Present};
        if (Where.ModelLibrary)
          Img.RootWhy = "the model library the .pt2's package loader loads";
        else if (Where.Present)
          Img.RootWhy = extensionRootWhy(Rel, [&] { return std::optional<MemoryBufferRef>(I.Data); });
        if (Where.Present)
          S->ByRel[Rel] = S->Images.size(); // its directories: ZipDirs, above
        S->Images.push_back(std::move(Img));
      },
      [&](const std::string &Member, Error Failed) {
        FailedMembers.push_back(Member);
        S->Failures.push_back(failureOf(Member, std::move(Failed)));
      });
  if (E)
    return std::move(E);
  // "PKG!member": a member that could not be read is undecided where a
  // search meets it, never a plain file; marked once the layout is known
  // (a member that fails before the first image comes before it).
  for (StringRef M : FailedMembers)
    if (Layout && M.consume_front(Path + "!"))
      S->Unread[normalizePath(Layout->place(M).Rel)] = true;
  S->Walked = S->Images.size();
  for (ShippedImage &O : ObjectMembers) {
    S->ByRel[O.Rel] = S->Images.size();
    S->Images.push_back(std::move(O));
  }
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
  Info->Path = Path;
  S->Images.push_back({Rel.str(), std::move(*Info), Abs});
  S->Walked = 1;
  return std::move(S);
}

bool isObjectFile(const objlib::BinaryInfo &Info) {
  if (Info.Slices.empty())
    return false;
  for (const objlib::Slice &S : Info.Slices)
    if (S.FileType != "object" && S.FileType != "ET_REL")
      return false;
  return true;
}

package::ZipLimits treeZipLimits(const package::ZipLimits &Limits, const std::string &Dir,
                                 const std::vector<TreeContainer> &Containers) {
  std::vector<std::string> Archives;
  for (const TreeContainer &C : Containers)
    if (C.Archive)
      Archives.push_back(joinPath(Dir, C.Rel));
  package::ZipLimits L = Limits;
  L.TreeBudget = package::treeBudget(Limits, Archives);
  return L;
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
    std::string RelHere;
    for (const std::string &D : Done)
      RelHere += D + "/";
    RelHere += C;
    if (K == Kind::Directory) {
      // The walk saw the whole tree: a directory or file it saw is one, a
      // name it did not see (neither a link) is not there.
      bool Dir = Dirs.count(RelHere), File = Files.count(RelHere);
      if (Dir || File) {
        Done.push_back(C);
        if (File && !Todo.empty())
          return std::nullopt; // a file used as a directory
        continue;
      }
      if (!Links.count(RelHere))
        return std::nullopt;
    }
    std::string Here = Root + "/" + RelHere;
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
        // Root "/" (a single file's closure, which follows files wherever
        // they are): every absolute path is under it.
        const bool Inside = Root == "/" ? R.consume_front("/")
                                        : R.consume_front(Root) &&
                                              (R.empty() || R.consume_front("/"));
        if (!Inside)
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

std::optional<size_t> Shipment::readLazily(const std::string &Rel, bool *NotBinary,
                                           bool *Object) {
  if (Tried.count(Rel))
    return std::nullopt;
  Tried[Rel] = true;
  std::string Abs = joinPath(Root, Rel);
  // As the tree's walk takes it (readHead): a binary with a zip behind it
  // (`cat lib.so pkg.whl`) loads as the binary in front.
  int Errno = 0;
  Head H = readHead(AT_FDCWD, Abs.c_str(), Abs, Errno);
  if (H != Head::Binary && H != Head::BinaryAndArchive) {
    if (NotBinary)
      *NotBinary = true;
    return std::nullopt;
  }
  Expected<objlib::BinaryInfo> Info = objlib::readBinary(Abs, Read);
  if (!Info) {
    Unread[Rel] = true;
    Failures.push_back(failureOf(Abs, Info.takeError()));
    return std::nullopt;
  }
  if (isObjectFile(*Info)) {
    Objects[Rel] = true;
    if (NotBinary)
      *NotBinary = true;
    if (Object)
      *Object = true;
    return std::nullopt;
  }
  Info->Path = Abs;
  ByRel[Rel] = Images.size();
  Images.push_back({Rel, std::move(*Info), Abs});
  return Images.size() - 1;
}

std::optional<size_t> Shipment::lookup(StringRef Rel, bool *NotBinary, bool *Object) {
  std::string Norm = normalizePath(Rel);
  if (StringRef(Norm).starts_with(".."))
    return std::nullopt;
  auto object = [&](const std::string &R) {
    if (!Objects.count(R))
      return false;
    if (NotBinary)
      *NotBinary = true;
    if (Object)
      *Object = true;
    return true;
  };
  if (K == Kind::Zip) {
    if (object(Norm))
      return std::nullopt;
    auto It = ByRel.find(Norm);
    if (It != ByRel.end())
      return It->second;
    return std::nullopt;
  }
  // As the kernel walks it: "x/.." only when x is a directory of the tree
  // (resolveLinks checks each component before a ".." takes it back), so
  // "nonexistent/../lib.so" names nothing, as it loads nothing.
  std::optional<std::string> Real = resolveLinks(Rel);
  if (!Real)
    return std::nullopt;
  auto It = ByRel.find(*Real);
  if (It != ByRel.end())
    return It->second;
  if (object(*Real))
    return std::nullopt;
  if (K == Kind::File)
    return readLazily(*Real, NotBinary, Object);
  if (NotBinary && Files.count(*Real))
    *NotBinary = true;
  return std::nullopt;
}

PathProbe Shipment::probe(StringRef Rel, unsigned HopsBefore) {
  PathProbe P;
  P.Hops = HopsBefore;
  if (K == Kind::Zip) {
    // pip creates no links: a member is where its name says.
    std::string Norm = normalizePath(Rel);
    if (StringRef(Norm).starts_with("..") || Norm.empty()) {
      P.Is = Norm.empty() ? PathProbe::What::Directory : PathProbe::What::Outside;
      return P;
    }
    P.Real = Norm;
    if (ByRel.count(Norm) || ZipFiles.count(Norm))
      P.Is = PathProbe::What::File;
    else if (ZipDirs.count(Norm))
      P.Is = PathProbe::What::Directory;
    return P;
  }
  // Components still to walk, last first (so a link's target is pushed).
  SmallVector<std::string, 16> Todo;
  auto push = [&](StringRef Path) {
    SmallVector<StringRef, 16> Parts;
    Path.split(Parts, '/', -1, /*KeepEmpty=*/false);
    for (auto I = Parts.rbegin(); I != Parts.rend(); ++I)
      Todo.push_back(I->str());
  };
  push(Rel);
  SmallVector<std::string, 16> Done;
  unsigned &Hops = P.Hops;
  bool LastIsDir = true; // the root
  auto here = [&](const std::string &C) {
    std::string R;
    for (const std::string &D : Done)
      R += D + "/";
    return R + C;
  };
  while (!Todo.empty()) {
    std::string C = Todo.pop_back_val();
    if (C == ".")
      continue;
    if (C == "..") {
      if (Done.empty()) {
        P.Is = PathProbe::What::Outside; // above the root: the host's
        P.Target = "..";
        return P;
      }
      Done.pop_back();
      continue;
    }
    std::string RelHere = here(C);
    if (K == Kind::Directory && !Dirs.count(RelHere) && !Files.count(RelHere) &&
        !Links.count(RelHere) && !Specials.count(RelHere))
      return P; // the walk saw the whole tree: not there
    std::string Abs = Root == "/" ? "/" + RelHere : Root + "/" + RelHere;
    struct stat St;
    // A directory or regular file the walk saw (readdir's d_type, no link)
    // is one: no lstat per component, as lookup() takes it (issue 36).
    if (K == Kind::Directory && Dirs.count(RelHere))
      St.st_mode = S_IFDIR;
    else if (K == Kind::Directory && Files.count(RelHere))
      St.st_mode = S_IFREG;
    else if (::lstat(Abs.c_str(), &St) != 0)
      return P;
    if (S_ISLNK(St.st_mode)) {
      if (++Hops > Limits.MaxLinkHops) {
        P.Is = PathProbe::What::Loop;
        return P;
      }
      char Buf[4096];
      ssize_t N = ::readlink(Abs.c_str(), Buf, sizeof(Buf));
      if (N <= 0 || size_t(N) >= sizeof(Buf))
        return P;
      StringRef Target(Buf, size_t(N));
      if (Target.starts_with("/")) {
        std::string T = normalizePath(Target);
        StringRef R = T;
        const bool Inside = Root == "/" ? R.consume_front("/")
                                        : R.consume_front(Root) &&
                                              (R.empty() || R.consume_front("/"));
        if (!Inside) {
          P.Is = PathProbe::What::Outside;
          P.Target = Target.str();
          return P;
        }
        P.AbsoluteLink |= Root != "/";
        Done.clear();
        push(R);
      } else {
        push(Target);
      }
      continue;
    }
    if (!LastIsDir) {
      P.NotDir = true; // a file used as a directory: ENOTDIR
      return P;
    }
    Done.push_back(C);
    LastIsDir = S_ISDIR(St.st_mode);
    if (Todo.empty()) {
      P.Real = here("");
      if (!P.Real.empty())
        P.Real.pop_back();
      P.Is = S_ISDIR(St.st_mode)   ? PathProbe::What::Directory
             : S_ISREG(St.st_mode) ? PathProbe::What::File
                                   : PathProbe::What::Special;
      return P;
    }
    if (!LastIsDir) {
      P.NotDir = true; // ENOTDIR
      return P;
    }
  }
  // Rel named the root itself (or ended in "." / ".."): a directory.
  for (const std::string &D : Done)
    P.Real += (P.Real.empty() ? "" : "/") + D;
  P.Is = PathProbe::What::Directory;
  return P;
}

std::optional<bool> Shipment::hasEntry(StringRef DirReal, StringRef Name) {
  std::string Rel = DirReal.empty() ? Name.str() : (DirReal + "/" + Name).str();
  if (K == Kind::Zip)
    return ByRel.count(Rel) || ZipDirs.count(Rel) || ZipFiles.count(Rel);
  if (K == Kind::Directory)
    // The walk saw the whole tree (probe() answers the same way).
    return Dirs.count(Rel) || Files.count(Rel) || Links.count(Rel) || Specials.count(Rel);
  auto It = Listings.find(DirReal);
  if (It == Listings.end()) {
    std::optional<StringMap<bool>> Names;
    std::string Abs =
        DirReal.empty() ? Root : (Root == "/" ? std::string("/") : Root + "/") + DirReal.str();
    if (DIR *D = ::opendir(Abs.c_str())) {
      Names.emplace();
      while (struct dirent *E = ::readdir(D)) {
        if (++Listed > Limits.MaxEntries) {
          Names.reset(); // too many to hold: each candidate is probed
          break;
        }
        Names->try_emplace(E->d_name, true);
      }
      ::closedir(D);
    }
    It = Listings.try_emplace(DirReal, std::move(Names)).first;
  }
  const std::optional<llvm::StringMap<bool>> &Names = It->second;
  if (!Names)
    return std::nullopt;
  return Names->count(Name) != 0;
}

std::optional<size_t> Shipment::sameFile(size_t I) {
  // The loaders' file identity: ld.so's _dl_map_object_from_fd compares
  // device and inode ("Look again to see if the real name matched another
  // already loaded"), dyld's getLoader the inode and mtime
  // ("already-loaded-by-inode-mtime"): a hard link is the image it links.
  if (K == Kind::Zip)
    return I;
  // Asked once per image: every edge to it asks again (issue 36).
  if (auto Known = SameAs.find(I); Known != SameAs.end())
    return Known->second;
  // The walk's fstat of the file, or a stat now (a file read lazily).
  std::pair<uint64_t, uint64_t> Id;
  if (auto H = Heads.find(Images[I].Rel); H != Heads.end()) {
    Id = {H->second.Dev, H->second.Ino};
  } else {
    struct stat St;
    if (::stat(Images[I].Abs.c_str(), &St) != 0)
      return SameAs[I] = I;
    Id = {uint64_t(St.st_dev), uint64_t(St.st_ino)};
  }
  auto [It, New] = ByInode.try_emplace(Id, I);
  return SameAs[I] = New ? I : It->second;
}

std::string Shipment::nameOf(StringRef Rel) const {
  switch (K) {
  case Kind::Directory:
    return joinPath(Given, Rel);
  case Kind::Zip:
    return Given + "!" + normalizePath(Rel);
  case Kind::File:
    break;
  }
  return joinPath(Root, Rel);
}

const std::vector<std::string> *Shipment::walkedNames(StringRef DirReal) const {
  auto It = Children.find(DirReal);
  return It == Children.end() ? nullptr : &It->second;
}

std::optional<ArrayRef<unsigned char>> Shipment::walkedHead(StringRef Real) const {
  auto It = Heads.find(Real);
  if (It == Heads.end())
    return std::nullopt;
  return ArrayRef<unsigned char>(It->second.Bytes, It->second.Size);
}

std::optional<size_t> Shipment::imageAt(const std::string &Real, bool *Unreadable) {
  auto It = ByRel.find(Real);
  if (It != ByRel.end())
    return sameFile(It->second);
  if (K == Kind::File) {
    bool NotBinary = false;
    std::optional<size_t> I = readLazily(Real, &NotBinary, nullptr);
    if (!I && Unreadable && Unread.count(Real))
      *Unreadable = true;
    return I ? sameFile(*I) : I;
  }
  if (Unreadable && Unread.count(Real))
    *Unreadable = true;
  return std::nullopt;
}

std::optional<std::string> Shipment::relOf(StringRef Raw) const {
  if (Root == "/")
    return Raw.starts_with("/") ? std::optional<std::string>(Raw.drop_front().str())
                                : std::nullopt;
  if (Raw == Root)
    return std::string();
  if (Raw.starts_with(Root) && Raw.drop_front(Root.size()).starts_with("/"))
    return Raw.drop_front(Root.size() + 1).str();
  return std::nullopt;
}

std::optional<uint64_t> Shipment::plainMember(StringRef Real) const {
  auto It = ZipFiles.find(Real);
  if (K != Kind::Zip || It == ZipFiles.end() || ByRel.count(Real) || Unread.count(Real))
    return std::nullopt;
  return It->second;
}

} // namespace linkguard::shipment
