//===- Shipment.h - a tree of files that ships as one -----------*- C++ -*-===//
//
// What a user ships is a tree: a directory, an .app, a wheel or other zip.
// A Shipment holds every Mach-O and ELF file in it (read with objlib,
// non-binaries skipped after their first bytes) and answers which image a
// path under the root names, as the loader would open it:
//  - a directory: component by component, following symbolic links only
//    while they stay inside the tree (a link out of it, or one that loops,
//    names nothing), at most MaxLinkHops links per lookup;
//  - a zip: the stored member names; a symlink entry ships nothing (pip and
//    wheel installers create no links).
// The walk never follows a link, never leaves the tree, and stops at
// MaxDepth levels or MaxEntries entries (an error: the tree is too big to
// judge, never silently cut).
//
// Also a single file (inspect --tree FILE, check --unique FILE): its
// directory (or a given root) is the tree, and a path is looked up and read
// only when the closure reaches it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "objlib/BinaryInfo.h"
#include "objlib/Reader.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "package/Container.h"

namespace linkguard::shipment {

/// The walk stopped at a limit (TreeLimits): the tree is too big or too
/// deep to judge, so no verdict about it can be given (exit 92).
class LimitError : public llvm::ErrorInfo<LimitError> {
public:
  static char ID;
  explicit LimitError(std::string Message) : Message(std::move(Message)) {}
  std::string message() const override { return Message; }
  void log(llvm::raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }

private:
  std::string Message;
};

struct TreeLimits {
  unsigned MaxDepth = 64;
  size_t MaxEntries = 200000;
  unsigned MaxLinkHops = 40; // Linux's MAXSYMLINKS
  /// Also list every other regular file as a container (--scan: a blob
  /// such as a .pte may carry images).
  bool KeepOthers = false;
};

/// A file of a directory tree that holds images the walk does not judge
/// itself: a zip archive (a .pt2, a wheel), a binary with a zip behind it,
/// or (TreeLimits::KeepOthers) any other file. Their members are judged as
/// the container's own (DIR/pkg.pt2!member), never skipped as non-binaries.
struct TreeContainer {
  std::string Rel;
  bool PrefixIsImage = false; // the binary in front is one of images()
  bool Archive = true;        // a zip; false: another file (KeepOthers)
};

/// The archive-wide inflation limit for all the archives of a tree
/// together (package::treeBudget): Limits with TreeBudget set.
package::ZipLimits treeZipLimits(const package::ZipLimits &Limits, const std::string &Dir,
                                 const std::vector<TreeContainer> &Containers);

struct ShippedImage {
  std::string Rel; // path under the root, '/' separated
  objlib::BinaryInfo Info; // Info.Path: the printed name (Shipment::printName)
  std::string Abs; // root() + "/" + Rel
  /// A zip's image that is no member: the binary in front of the archive
  /// (`cat lib.so pkg.whl`), named FILE@0xOFFSET as check and inspect name
  /// it outside a tree.
  std::optional<uint64_t> Offset;
  /// A zip's member name (Rel is where it is installed or extracted).
  std::string Member;
  /// false: a member the package's loader does not extract (a .pt2's
  /// records outside its models): judged as a file, never looked up or a
  /// root of the closure (shipment/Roots.h).
  bool Present = true;
  /// Why this image is a root of its own besides any root that reaches it
  /// (a Python extension module, a .pt2's model library); empty: none.
  std::string RootWhy;
};

/// A Mach-O or ELF file of the tree that is no shipped image: an object
/// file (MH_OBJECT, ET_REL; a build directory's .o, recognised by its type,
/// not its name) is linked into images and never loaded. Counted as
/// skipped, never judged nor a root; lookup() still sees it as a file
/// (Object), one the loader cannot load.
struct SkippedFile {
  std::string Name; // as printed: DIR/rel, PKG!member
  std::string Why;  // "an object file (MH_OBJECT)"
};

/// Whether every slice of Info is an object file (MH_OBJECT, ET_REL).
bool isObjectFile(const objlib::BinaryInfo &Info);

/// A file of the tree that is a model, not a binary: an ExecuTorch
/// program (.pte: a flatbuffer with the file identifier "ET" and two
/// digits at offset 4, pytorch/executorch schema/program.fbs). Its images
/// are embedded (package/Scan.h) and judged without --scan: its runtime
/// writes them to a file and dlopens them (issue 37 part 4).
struct TreeModel {
  std::string Rel;
};

/// A file that could not be read.
struct ShipmentFailure {
  std::string Name; // as printed: DIR/rel, PKG!member
  objlib::ReadErrorKind Kind = objlib::ReadErrorKind::Malformed;
  std::string Message;
};

/// What the kernel reaches at a path under the root, walked component by
/// component as open(2) walks it: ".." only after a directory, symbolic
/// links followed (MaxLinkHops at most, as ELOOP).
struct PathProbe {
  enum class What {
    Missing,   // ENOENT / ENOTDIR: the loader goes on
    Directory, // a directory
    File,      // a regular file (Real)
    Special,   // a FIFO, socket or device: open(2) of a FIFO blocks
    Outside,   // a link, or "..", leads out of the tree: the host's file
    Loop,      // more than MaxLinkHops links (ELOOP)
  };
  What Is = What::Missing;
  std::string Real;          // File, Directory, Special: the path under the root
  std::string Target;        // Outside: where it leads (a link's target)
  bool AbsoluteLink = false; // an absolute link back into the tree was followed
  bool NotDir = false;       // Missing: a file where a directory was walked (ENOTDIR)
  unsigned Hops = 0;         // links followed, the ones before the walk included
};

class Shipment {
public:
  enum class Kind { Directory, Zip, File };

  /// Walks the directory Path. Failures of single files are collected; an
  /// error is returned only when the walk itself cannot be done (the
  /// directory is unreadable, or past the limits).
  static llvm::Expected<std::unique_ptr<Shipment>>
  directory(const std::string &Path, const objlib::ReadOptions &Read,
            TreeLimits Limits = {});
  /// The Mach-O and ELF members of the zip archive at Path, and a binary
  /// in front of it (PKG@0x0) unless SkipPrefix (a tree judges that file
  /// itself).
  static llvm::Expected<std::unique_ptr<Shipment>>
  zip(const std::string &Path, const objlib::ReadOptions &Read,
      const package::ContainerOptions &Opts = {}, bool SkipPrefix = false);
  /// One file; Root ("" = the file's directory) is the tree it is looked up
  /// in, lazily.
  static llvm::Expected<std::unique_ptr<Shipment>>
  file(const std::string &Path, const std::string &Root,
       const objlib::ReadOptions &Read, TreeLimits Limits = {});

  Kind kind() const { return K; }
  /// Absolute, "." and ".." removed; a zip's is "/abs/pkg.whl!".
  const std::string &root() const { return Root; }
  /// As given on the command line.
  const std::string &given() const { return Given; }
  std::vector<ShippedImage> &images() { return Images; }
  const std::vector<ShippedImage> &images() const { return Images; }
  const std::vector<ShipmentFailure> &failures() const { return Failures; }
  /// The object files of the walk, in path order (not images()).
  const std::vector<SkippedFile> &skipped() const { return Skipped; }
  /// Directory: the ExecuTorch programs among its other files.
  const std::vector<TreeModel> &models() const { return Models; }
  /// Directory: the archives (and with KeepOthers, the other files) in
  /// it, in path order.
  const std::vector<TreeContainer> &containers() const { return Containers; }
  /// How many images the walk found (a File shipment: 1); images read
  /// later by lookup() come after them.
  size_t walked() const { return Walked; }
  /// What the package's loader does that cannot be judged here (a .pt2
  /// model compiled at load time): each one makes the verdict undecided.
  const std::vector<std::string> &undecided() const { return Undecided; }

  /// The image the path Rel under the root names, following in-tree links
  /// (a directory) and walking "." and ".." as the kernel does (a zip:
  /// lexically); nullopt when it names no Mach-O/ELF file of the tree.
  /// NotBinary is set when Rel names a file that is not one; Object too
  /// when that file is an object file (SkippedFile): a file the loader
  /// opens and cannot load, not an absent one.
  std::optional<size_t> lookup(llvm::StringRef Rel, bool *NotBinary = nullptr,
                               bool *Object = nullptr);

  /// What the kernel reaches at Rel under the root (PathProbe). A zip:
  /// its members, lexically; directories are the members' parents.
  /// HopsBefore: links the kernel already followed to reach Rel (a
  /// directory resolved before, whose real path Rel starts with): ELOOP
  /// counts the whole path's links.
  PathProbe probe(llvm::StringRef Rel, unsigned HopsBefore = 0);
  /// Whether the directory at DirReal (a PathProbe's Real: no link, no
  /// "..") holds an entry named Name, from the walk's record (a directory,
  /// a zip) or one read of the directory (a File shipment, kept); nullopt
  /// when that cannot be said (unreadable, past MaxEntries): probe it.
  /// A name that is not there cannot be opened, so the loaders' search
  /// asks this before it walks a candidate (issue 37 part 5).
  std::optional<bool> hasEntry(llvm::StringRef DirReal, llvm::StringRef Name);
  /// The image at Real (a PathProbe's File), read now for a File shipment;
  /// nullopt when it is no Mach-O or ELF file linkguard could read
  /// (Unreadable set when it is one that failed to read).
  std::optional<size_t> imageAt(const std::string &Real, bool *Unreadable = nullptr);

  /// A directory's binary at Real (a PathProbe's File) as the walk read
  /// it: its first bytes (at most 64), so that a loader's check of a
  /// candidate's header (ld.so's open_verify) reads no file again; nullopt
  /// when the walk kept none (not a binary, unreadable, not a directory).
  std::optional<llvm::ArrayRef<unsigned char>> walkedHead(llvm::StringRef Real) const;
  /// A directory's entries at DirReal ("" for the root) in the order the
  /// walk listed them; nullptr when the walk did not list it (not a
  /// Directory shipment, not a directory of the tree).
  const std::vector<std::string> *walkedNames(llvm::StringRef DirReal) const;
  /// What the walk keeps of each binary it read the head of.
  struct WalkedHead {
    unsigned char Bytes[64] = {};
    uint8_t Size = 0;
    uint64_t Dev = 0, Ino = 0; // fstat of the file the walk opened
    bool Kept = false;
  };

  /// The printed name of the file at Rel under the root, as an image
  /// there would be named: "DIR/rel", "PKG!rel", or (a file shipment) the
  /// absolute path.
  std::string nameOf(llvm::StringRef Rel) const;
  /// The printed name of image I: "DIR/rel", "PKG!rel", or the file.
  const std::string &printName(size_t I) const { return Images[I].Info.Path; }
  /// The absolute path of image I under root().
  const std::string &absPath(size_t I) const { return Images[I].Abs; }

  /// The path under root() a raw absolute path names ("" for the root
  /// itself), or nullopt when it is not under the root (the host's).
  /// Textual: ".." and links are the caller's (probe, resolveLinks).
  std::optional<std::string> relOf(llvm::StringRef Raw) const;

  /// A zip's member installed as a file that is no image (a script, data,
  /// a text stub, a linker script): where a loader's search meets it, it
  /// is what opens. Its size, or nullopt when Real is no such member.
  std::optional<uint64_t> plainMember(llvm::StringRef Real) const;

  /// A directory's entries by their lower-case names (Dyld.cpp's check
  /// for names that differ only in case), kept across roots.
  using CaseNames = llvm::StringMap<std::vector<std::string>>;
  llvm::StringMap<CaseNames> &caseListings() { return CaseListings; }

  ~Shipment();

private:
  Shipment() = default;
  std::optional<std::string> resolveLinks(llvm::StringRef Rel) const;
  /// The first image looked up that is the same file as image I (device
  /// and inode), or I itself.
  std::optional<size_t> sameFile(size_t I);
  std::map<std::pair<uint64_t, uint64_t>, size_t> ByInode;
  llvm::DenseMap<size_t, size_t> SameAs; // sameFile's answers, by image
  std::optional<size_t> readLazily(const std::string &Rel, bool *NotBinary, bool *Object);

  Kind K = Kind::Directory;
  std::string Root, Given;
  std::vector<ShippedImage> Images;
  std::vector<ShipmentFailure> Failures;
  std::vector<SkippedFile> Skipped;
  std::vector<TreeModel> Models;
  std::vector<TreeContainer> Containers;
  std::vector<std::string> Undecided;
  size_t Walked = 0;
  llvm::StringMap<size_t> ByRel;      // image rel -> index
  llvm::StringMap<bool> Files;        // every regular file / member rel
  llvm::StringMap<bool> Dirs;         // Directory: every real directory the walk saw
  llvm::StringMap<bool> Links;        // Directory: every symbolic link it saw
  llvm::StringMap<bool> Specials;     // Directory: every FIFO, socket, device it saw
  llvm::StringMap<bool> ZipDirs;      // Zip: every parent directory of a member
  llvm::StringMap<uint64_t> ZipFiles; // Zip: every member installed as a file, image or not: its size
  llvm::StringMap<bool> Unread;       // rels of binaries objlib could not read
  llvm::StringMap<bool> Tried;        // File shipments: rels read or refused
  llvm::StringMap<bool> Objects;      // object files (Skipped), by rel
  llvm::StringMap<WalkedHead> Heads;  // Directory: each binary's, by rel (walkedHead)
  llvm::StringMap<std::vector<std::string>> Children; // Directory: each directory's names (walkedNames)
  /// File shipments: each directory's names, read once (hasEntry); a
  /// directory that could not be read, or held too many, is absent.
  llvm::StringMap<std::optional<llvm::StringMap<bool>>> Listings;
  size_t Listed = 0; // names held in Listings, all together (MaxEntries)
  TreeLimits Limits;
  objlib::ReadOptions Read;
  llvm::StringMap<CaseNames> CaseListings;
  struct ZipHold;
  std::unique_ptr<ZipHold> Zip;
};

} // namespace linkguard::shipment
