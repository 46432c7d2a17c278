//===- Inputs.cpp - expand a FILE into the binaries it holds --------------===//
#include "commands/Inputs.h"

#include "commands/CommandLine.h"
#include "commands/Printer.h"
#include "support/Memory.h"
#include "support/Printable.h"

#include "driver/DriverError.h"
#include "objlib/Reader.h"
#include "contract/LoaderRules.h"
#include "shipment/Shipment.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace linkguard::commands {

namespace {

/// An error message must stay one line even if libObject's spans several.
std::string oneLine(std::string S) {
  for (char &C : S)
    if (C == '\n' || C == '\r')
      C = ' ';
  return S;
}

} // namespace

json::Object InputFailure::record() const {
  // Names as every record has them: a path that is not UTF-8 also as its
  // exact bytes, escaped (pathEscaped, commands/Printer.h).
  json::Object O{{"kind", Kind}};
  putName(O, "path", Path);
  putName(O, "message", oneLine(Message));
  return O;
}

InputFailure InputFailure::from(const std::string &Name, Error E) {
  InputFailure F{Name, "malformed", "", driver::ExitCode::MalformedBinary};
  handleAllErrors(
      std::move(E),
      [&](const shipment::LimitError &LE) {
        F.Kind = "undecided";
        F.Message = LE.message();
        F.Code = driver::ExitCode::Undecided;
      },
      [&](const objlib::ReadError &RE) {
        F.Kind = objlib::readErrorKindName(RE.kind());
        F.Message = RE.message();
        F.Code = driver::exitCodeFor(RE.kind());
      },
      [&](const ErrorInfoBase &EI) { F.Message = Name + ": " + EI.message(); });
  return F;
}

bool containerOptionsFrom(const opt::InputArgList &Args,
                          package::ContainerOptions &Opts, std::string &Why) {
  Opts.Scan = Args.hasArg(OPT_scan);
  const opt::Arg *A = Args.getLastArg(OPT_max_inflated_EQ);
  if (!A)
    return true;
  StringRef V = A->getValue();
  uint64_t Scale = 1;
  if (!V.empty()) {
    size_t Shift = StringRef("KMGT").find(toUpper(V.back()));
    if (Shift != StringRef::npos) {
      Scale = uint64_t(1) << (10 * (Shift + 1));
      V = V.drop_back();
    }
  }
  uint64_t N = 0;
  if (V.empty() || V.getAsInteger(10, N) || N == 0 || N > UINT64_MAX / Scale) {
    Why = "--max-inflated " + std::string(A->getValue()) +
          ": not a size (a positive number of bytes, or with K, M, G, T)";
    return false;
  }
  Opts.Limits.MaxTotalSize = N * Scale;
  return true;
}

void forEachInputBinary(
    const std::string &Path, const package::ContainerOptions &Opts,
    const objlib::ReadOptions &Read,
    function_ref<void(const std::string &, objlib::BinaryInfo &, const package::Image *)>
        OnBinary,
    function_ref<void(const InputFailure &)> OnFailure, bool SkipPrefix) {
  size_t Visited = 0; // images and failures reported
  auto Visit = [&](const std::string &Name, Expected<objlib::BinaryInfo> Info,
                   const package::Image *Source) {
    ++Visited;
    if (Info) {
      OnBinary(Name, *Info, Source);
      return;
    }
    InputFailure F = InputFailure::from(Name, Info.takeError());
    // One line, a name's control bytes escaped (support/Printable.h).
    errs() << "linkguard: error: " << printable(F.Message) << "\n";
    OnFailure(F);
  };
  keepFreedMemoryForReuse();
  // The images of the container at File (Named: the one image a printed
  // name stands for); SkipPrefix: not the binary in front of a zip, which
  // a tree judges as a file of its own.
  auto walkContainer = [&](const std::string &File, const package::ContainerOptions &Walk,
                           const std::optional<package::ImageName> &Named, bool SkipPrefix) {
    bool Found = false;
    Error E = package::forEachImage(
        File, Walk,
        [&](const package::Image &I) {
          if (Named && I.Name != Named->Name)
            return;
          if (SkipPrefix && I.Member.empty())
            return;
          Found = true;
          Visit(I.Name, objlib::readBinary(I.Data, I.Name, Read), &I);
        },
        [&](const std::string &Member, Error Failed) {
          if (Named && Member != Named->Name) {
            consumeError(std::move(Failed));
            return;
          }
          Found = true;
          Visit(Member, std::move(Failed), nullptr);
        });
    if (E)
      Visit(Named ? Path : File, std::move(E), nullptr);
    else if (Named && !Found)
      Visit(Path,
            make_error<objlib::ReadError>(objlib::ReadErrorKind::Unreadable,
                                          Named->Container + " holds no binary named " +
                                              Named->Name),
            nullptr);
  };
  if (sys::fs::is_directory(Path)) {
    // A tree (a directory, an .app): every Mach-O and ELF file in it, in
    // path order; links are not followed (shipment/Shipment.h). Then the
    // members of each archive in it (with --scan, the images of every
    // other file): what a tree ships inside a .pt2 or a wheel ships too.
    shipment::TreeLimits Limits;
    Limits.KeepOthers = Opts.Scan;
    Expected<std::unique_ptr<shipment::Shipment>> S =
        shipment::Shipment::directory(Path, Read, Limits);
    if (!S) {
      Visit(Path, S.takeError(), nullptr);
      return;
    }
    for (const shipment::ShipmentFailure &F : (*S)->failures())
      Visit(F.Name, make_error<objlib::ReadError>(F.Kind, F.Message), nullptr);
    for (size_t I = 0; I < (*S)->images().size(); ++I, ++Visited)
      OnBinary((*S)->printName(I), (*S)->images()[I].Info, nullptr);
    package::ContainerOptions Walk = Opts;
    Walk.EmptyIsFine = true;
    Walk.Limits = shipment::treeZipLimits(Opts.Limits, Path, (*S)->containers());
    for (const shipment::TreeContainer &C : (*S)->containers())
      walkContainer(contract::joinPath(Path, C.Rel), Walk, std::nullopt, C.PrefixIsImage);
    if (Visited == 0) // an empty tree judged nothing: never "holds"
      Visit(Path,
            make_error<objlib::ReadError>(objlib::ReadErrorKind::Malformed,
                                          Path + ": no Mach-O or ELF file in the tree" +
                                              ((*S)->skipped().empty()
                                                   ? std::string()
                                                   : " (" +
                                                         std::to_string((*S)->skipped().size()) +
                                                         " object file(s) skipped: linked "
                                                         "into images, never loaded)")),
            nullptr);
    return;
  }
  // A name this command printed ("pkg.pt2!a/b.so", "blob.pte@0x40", or
  // "pkg.pt2/a/b.so"): that one image of its container.
  std::optional<package::ImageName> Named;
  if (!sys::fs::exists(Path))
    Named = package::parseImageName(Path);
  package::InputKind Kind = package::classifyInput(Named ? Named->Container : Path);
  bool Container = Named || Kind == package::InputKind::Zip ||
                   (Opts.Scan && Kind == package::InputKind::Other);
  if (!Container) {
    // A binary, or a file objlib explains the trouble with.
    Expected<objlib::BinaryInfo> Info = objlib::readBinary(Path, Read);
    if (!Info && Kind == package::InputKind::Other && !Opts.Scan)
      Info = handleErrors(Info.takeError(), [&](const objlib::ReadError &E) -> Error {
        // "not an object file": a .pte or a blob may still carry images.
        return make_error<objlib::ReadError>(
            E.kind(), E.message() + " (to look for Mach-O/ELF images embedded in it, "
                                    "as in a .pte, add --scan)");
      });
    Visit(Path, std::move(Info), nullptr);
    return;
  }
  package::ContainerOptions Walk = Opts;
  Walk.Scan = Opts.Scan || (Named && Named->Embedded);
  walkContainer(Named ? Named->Container : Path, Walk, Named, SkipPrefix);
}

json::Value containerToJSON(const package::Image *Source) {
  if (!Source)
    return nullptr;
  json::Object C{{"path", Source->Container},
                 {"kind", Source->Offset ? "embedded" : "zip"}};
  C["member"] = Source->Member.empty() ? json::Value(nullptr)
                                       : json::Value(Source->Member);
  C["offset"] = Source->Offset ? json::Value(int64_t(*Source->Offset))
                               : json::Value(nullptr);
  return std::move(C);
}

std::string absolutePath(StringRef P) {
  SmallString<256> S(P);
  // make_absolute fails only when the working directory cannot be read
  // (removed under us); the path as given is then the best there is.
  if (sys::fs::make_absolute(S))
    S = P;
  sys::path::remove_dots(S, /*remove_dot_dot=*/true);
  return std::string(S.str());
}

ContainerPlacement placeInContainer(const package::Image &Source,
                                    objlib::BinaryInfo &Binary,
                                    const contract::FileProbe &RealExists) {
  std::string Base = absolutePath(Source.Container);
  std::string Root;
  if (!Source.Offset) {
    Root = Base + "!";
    Binary.Path = Root + "/" + Source.Member;
  } else {
    Root = package::embeddedName(
        Source.Member.empty() ? Base : Base + "!/" + Source.Member,
        *Source.Offset);
    Binary.Path = Root + "/image";
  }
  const package::ZipArchive *Archive = Source.Offset ? nullptr : Source.Archive;
  contract::FileProbe Exists = [Root, Archive,
                                RealExists](const std::string &P) {
    StringRef Rel = P;
    if (!Rel.consume_front(Root + "/"))
      return RealExists(P);
    // A member's path as the loader would open it after extraction,
    // lexically ("x/.." of a member directory x).
    return Archive && Archive->hasMember(contract::normalizePath(Rel));
  };
  return {Root, std::move(Exists)};
}

} // namespace linkguard::commands
