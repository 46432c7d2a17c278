//===- Inputs.h - the binaries one command-line FILE stands for --*- C++
//-*-===//
//
// `inspect` and `check` take files; a file may be a binary, a zip archive
// (.pt2, wheel) whose binary members are judged one by one, or, with
// --scan, any file with images embedded in it (.pte). This is the one loop
// both commands share; package/ does the reading.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "contract/Portability.h"
#include "driver/ExitCode.h"
#include "objlib/BinaryInfo.h"
#include "objlib/Reader.h"
#include "package/Container.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace linkguard::commands {

/// A binary that could not be read: the name, "unreadable" / "malformed" /
/// "unsupported", the message, and the exit status it stands for (66, 65).
struct InputFailure {
  std::string Path;
  std::string Kind;
  std::string Message;
  driver::ExitCode Code = driver::ExitCode::MalformedBinary;

  /// {"path", "kind", "message"}, as the "errors" of inspect and check.
  llvm::json::Object record() const;

  /// The failure E stands for: a shipment's LimitError is "undecided" (92),
  /// an objlib ReadError its kind and exit status, anything else
  /// "malformed" (65) with Name in front of its message.
  static InputFailure from(const std::string &Name, llvm::Error E);
};

/// Calls OnBinary once per binary that Path stands for (Opts: --scan,
/// --max-inflated), in order, with the
/// name to print ("pkg.pt2!a/b.so", "prog.pte@0x1f3", or Path), what objlib
/// read, and where the bytes came from (null for a plain file); OnFailure
/// for each one that could not be read, after one "linkguard: error: ..."
/// line on stderr. A container that cannot be read, or holds no image, is
/// one failure named Path. A name printed for one member or image
/// ("pkg.pt2!a/b.so", "blob.pte@0x4c0", "poly.whl@0x0") stands for that
/// binary alone (66 when the container holds none of that name). Read says which import lists objlib keeps.
/// A directory is a tree: its binaries, then the images of every archive
/// in it (with --scan, of every other file). SkipPrefix: of a zip, not the
/// binary in front of it (a tree judges that file as its own).
void forEachInputBinary(
    const std::string &Path, const package::ContainerOptions &Opts,
    const objlib::ReadOptions &Read,
    llvm::function_ref<void(const std::string &Name, objlib::BinaryInfo &Info,
                            const package::Image *Source)>
        OnBinary,
    llvm::function_ref<void(const InputFailure &)> OnFailure, bool SkipPrefix = false);

/// --scan and --max-inflated (a size: digits, then K, M, G or T for powers
/// of 1024). Returns false with the reason in Why for a bad size.
bool containerOptionsFrom(const llvm::opt::InputArgList &Args,
                          package::ContainerOptions &Opts, std::string &Why);

/// "container" in the JSON of inspect and check: null for a plain file,
/// else {"path", "kind": "zip"|"embedded", "member", "offset"}.
llvm::json::Value containerToJSON(const package::Image *Source);

/// --portable for an image inside a container. What ships is the
/// container: a zip member's @loader_path / $ORIGIN is its directory in
/// the archive, and a dependency is shipped when the archive holds it; an
/// embedded image ships alone (its runtime writes it out to a temporary
/// directory). Binary.Path is set to a path under a virtual root
/// ("/abs/pkg.pt2!/lib/a.so"), which becomes the bundle root.
struct ContainerPlacement {
  std::string BundleRoot;
  contract::FileProbe Exists;
};
ContainerPlacement placeInContainer(const package::Image &Source,
                                    objlib::BinaryInfo &Binary,
                                    const contract::FileProbe &RealExists);

/// P made absolute against the working directory, "." and ".." removed.
std::string absolutePath(llvm::StringRef P);

} // namespace linkguard::commands
