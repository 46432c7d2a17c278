//===- Inputs.cpp - expand a FILE into the binaries it holds --------------===//
#include "driver/Inputs.h"

#include "objlib/Reader.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace linkguard::driver {

void forEachInputBinary(
    const std::string &Path, bool Scan,
    function_ref<void(const std::string &, Expected<objlib::BinaryInfo>,
                      const package::Image *)>
        Visit) {
  package::InputKind Kind = package::classifyInput(Path);
  bool Container = Kind == package::InputKind::Zip ||
                   (Scan && Kind == package::InputKind::Other);
  if (!Container) {
    // A binary, or a file objlib explains the trouble with.
    Visit(Path, objlib::readBinary(Path), nullptr);
    return;
  }
  package::ContainerOptions Opts;
  Opts.Scan = Scan;
  Error E = package::forEachImage(
      Path, Opts,
      [&](const package::Image &I) {
        Visit(I.Name, objlib::readBinary(I.Data, I.Name), &I);
      },
      [&](const std::string &Member, Error Failed) {
        Visit(Member, std::move(Failed), nullptr);
      });
  if (E)
    Visit(Path, std::move(E), nullptr);
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
    return Archive && Archive->hasMember(Rel);
  };
  return {Root, std::move(Exists)};
}

} // namespace linkguard::driver
