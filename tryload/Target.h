//===- Target.h - what `try-load FILE` loads ---------------------*- C++
//-*-===//
//
// FILE is a library; or a zip archive (a .pt2 package) whose member is named
// "PKG!path/in/archive" or is its only binary member; or, as "FILE@0xOFF"
// (or with --scan the file's only image), a library embedded in a blob such
// as a .pte program. A member or embedded image is written, alone, to a
// private directory (mkdtemp, mode 0700) that is removed afterwards: the
// dynamic loader only opens files.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "package/Container.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace linkguard::tryload {

/// The private directory or the file in it could not be made: TMPDIR is
/// missing, not writable, full (exit 73, docs/exit-codes.md).
class CantCreate : public llvm::ErrorInfo<CantCreate> {
public:
  static char ID;
  explicit CantCreate(std::string Message) : Message(std::move(Message)) {}
  void log(llvm::raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string Message;
};

/// A directory only this user can enter, removed with its contents when
/// destroyed.
class PrivateDir {
public:
  /// mkdtemp in TMPDIR when it is an absolute path; an empty or relative
  /// TMPDIR is ignored for /tmp, as mkstemp(3) users such as mktemp(1) do
  /// (a relative one would name a different directory for the loader, and
  /// "-x/..." would read as an option). Errors: CantCreate.
  static llvm::Expected<std::unique_ptr<PrivateDir>> create();
  /// The directory create() would use.
  static std::string temporaryDirectory();
  /// Removes what is in the directory through its descriptor (never
  /// following a symbolic link), then the directory itself only if its path
  /// still names it: the library under test can rename the directory and
  /// put a link to any other directory in its place.
  ~PrivateDir();
  PrivateDir(const PrivateDir &) = delete;
  PrivateDir &operator=(const PrivateDir &) = delete;

  const std::string &path() const { return Dir; }
  /// Where a file named after Name (reduced to [A-Za-z0-9._+-], and to
  /// at most 121 bytes, its start and its end, so any member name fits a
  /// file system's 255) goes.
  std::string pathFor(llvm::StringRef Name) const;
  /// Writes Bytes to the new file Path (mode 0700), one pathFor() gave,
  /// through the directory's descriptor. Errors: CantCreate.
  llvm::Error write(const std::string &Path, llvm::StringRef Bytes) const;
  /// The directory, open (O_NOFOLLOW) since it was made: what is removed
  /// is what is in it, wherever its name now leads.
  int fd() const { return Fd; }

private:
  PrivateDir(std::string Dir, int Fd) : Dir(std::move(Dir)), Fd(Fd) {}
  std::string Dir;
  int Fd;
};

/// FILE names more than one binary: which ones, so the user can pick.
class AmbiguousTarget : public llvm::ErrorInfo<AmbiguousTarget> {
public:
  static char ID;
  AmbiguousTarget(std::string File, std::vector<std::string> Names)
      : File(std::move(File)), Names(std::move(Names)) {}
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string File;
  std::vector<std::string> Names;
};

struct Target {
  std::string Name;    // as printed: "model.so", "pkg.pt2!a/b.so"
  std::string Library; // the absolute path to dlopen
  /// Where a member or embedded image came from (Data left empty: the
  /// bytes are in Library); none for a library file. Name is formed from
  /// it, so a '!' in a directory's name never has to be split again.
  std::optional<package::Image> Source;
};

/// Resolves Arg (Given: --scan, --max-inflated). A library inside a
/// container is written to the private directory GetDir makes (only then: a
/// library file needs none), after BeforeWrite has seen the path it will
/// take (a signal handler's cue).
/// Errors: objlib::ReadError (cannot read, malformed, nothing there),
/// AmbiguousTarget, CantCreate.
llvm::Expected<Target>
resolveTarget(const std::string &Arg, const package::ContainerOptions &Given,
              llvm::function_ref<llvm::Expected<const PrivateDir *>()> GetDir,
              llvm::function_ref<void(const std::string &)> BeforeWrite);

} // namespace linkguard::tryload
