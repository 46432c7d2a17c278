//===- Zip.h - read a zip archive's members without unpacking it -*- C++
//-*-===//
//
// Models ship inside zip files: AOTInductor's .pt2 package is a zip written
// by PyTorchStreamWriter (pytorch/pytorch: caffe2/serialize/
// inline_container.cc; stored records under "<archive name>/", each payload
// 64-byte aligned through an "FB" extra field, zip64 when large), wheels
// are deflated zips. This reader takes the central directory as the truth
// (APPNOTE.TXT 4.3.12-4.3.16, zip64 4.3.14/4.5.3), checks every entry's
// local header against it, and hands a member out as bytes: a view into
// the archive for a stored member, an inflated copy (zlib, raw deflate) for
// a deflated one. Nothing is written under the member's name, nothing is
// printed.
//
// Limits, so that a hostile archive costs nothing: every count and offset
// is bounded by the archive's size; entries whose bytes overlap are refused
// (the overlapping-file zip bomb); a deflated member may not declare more
// than deflate can produce from its compressed size (1032:1), nor more than
// ZipLimits::MaxMemberSize; inflation stops at the declared size and a
// stream that ends early, runs long or fails its CRC is a lie. Members up
// to ZipLimits::InMemoryCap are inflated into memory; larger ones stream
// through a fixed window into an unlinked temporary file that is then
// mapped, so the heap never holds more than the cap.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace linkguard::package {

/// The archive-wide limit when none is given: the larger of this floor and
/// this ratio times the archive's size (ZipLimits::MaxTotalSize).
inline constexpr uint64_t DefaultTotalInflated = uint64_t(2) << 30;
inline constexpr uint64_t TotalInflatedRatio = 100;

struct ZipLimits {
  /// Deflated members up to this size are inflated into memory.
  uint64_t InMemoryCap = uint64_t(64) << 20;
  /// No member may inflate to more than this (a zip bomb, or not a binary).
  uint64_t MaxMemberSize = uint64_t(4) << 30;
  /// The members together may declare no more than this (unpacked), decided
  /// from the central directory before anything is inflated. 0: the larger
  /// of 2 GiB and 100 times the archive's size.
  uint64_t MaxTotalSize = 0;
  /// What the archives of one tree may still declare in all (a directory
  /// holding many archives, each under its own limit: package/Container.h
  /// treeBudget), charged as each archive is opened; null: no tree.
  std::shared_ptr<uint64_t> TreeBudget;
};

/// One central-directory entry, validated against its local header.
struct ZipEntry {
  std::string Name;
  uint16_t Method = 0; // 0 stored, 8 deflated
  uint16_t Flags = 0;  // general purpose bit flag
  uint32_t Crc32 = 0;
  uint64_t CompressedSize = 0;
  uint64_t UncompressedSize = 0;
  uint64_t LocalHeaderOffset = 0; // in the archive buffer (prefix applied)
  uint64_t DataOffset = 0;        // first byte of the member's data
  uint16_t VersionMadeBy = 0;     // high byte: the host system (3 = Unix)
  uint32_t ExternalAttributes = 0; // Unix: st_mode in the high 16 bits

  bool isDirectory() const { return llvm::StringRef(Name).ends_with("/"); }
  /// A symbolic link stored by a Unix zip (Info-ZIP's -y): its data is the
  /// link's target. pip and wheel installers create no links, so such an
  /// entry ships no file under its name (APPNOTE.TXT 4.4.2, 4.4.15).
  bool isSymlink() const {
    return (VersionMadeBy >> 8) == 3 &&
           ((ExternalAttributes >> 16) & 0170000) == 0120000;
  }
  bool isEncrypted() const { return Flags & 1; }
};

/// A member's bytes: a view into the archive, or memory this object owns.
class MemberData {
public:
  explicit MemberData(llvm::MemoryBufferRef View) : View(View) {}
  explicit MemberData(std::unique_ptr<llvm::MemoryBuffer> Owned)
      : View(Owned->getMemBufferRef()), Owned(std::move(Owned)) {}
  llvm::MemoryBufferRef ref() const { return View; }

private:
  llvm::MemoryBufferRef View;
  std::unique_ptr<llvm::MemoryBuffer> Owned;
};

/// True when Head (the first bytes of a file) starts a zip archive: a local
/// file header, or the end record of an empty archive.
bool looksLikeZip(llvm::StringRef Head);

/// True when a zip archive with at least one entry ends Data, whatever is
/// before it (a binary, a self-extractor stub): its end of central
/// directory record, searched from the end as Python's zipfile and libzip
/// do, leads to a central directory.
bool endsWithZip(llvm::StringRef Data);

class ZipArchive {
public:
  /// Reads the central directory of Archive. Name prefixes every message
  /// ("pkg.pt2: ..." and "pkg.pt2!member: ..."). Errors are
  /// objlib::ReadError (Malformed): the archive cannot be trusted.
  /// MappedFile: Archive is a read-only mapping of a file, whose pages may
  /// be dropped once read (package/Buffers.h releaseFilePages).
  static llvm::Expected<ZipArchive> open(llvm::MemoryBufferRef Archive,
                                         llvm::StringRef Name,
                                         ZipLimits Limits = {},
                                         bool MappedFile = false);

  const std::vector<ZipEntry> &entries() const { return Entries; }
  llvm::StringRef name() const { return Name; }
  /// A member of that name that is a file, not a directory or a symlink
  /// entry (ZipEntry::isSymlink: it ships nothing).
  bool hasMember(llvm::StringRef MemberName) const;

  /// Up to N leading bytes of the member, inflating no further than that.
  llvm::Expected<std::string> peek(const ZipEntry &E, size_t N) const;

  /// The whole member, checked against its declared size and (up to the
  /// in-memory cap) its CRC-32.
  llvm::Expected<MemberData> read(const ZipEntry &E) const;

  /// "pkg.pt2!member".
  std::string memberName(const ZipEntry &E) const;

  /// Where the archive's first entry (or, empty, its central directory)
  /// starts: the bytes before it are a prefix (`cat lib.so pkg.zip`, a
  /// self-extractor stub) that Python's zipfile skips, and a loader that
  /// maps the file reads.
  uint64_t prefixSize() const { return Start; }

  /// What the members may declare in all (ZipLimits::MaxTotalSize).
  uint64_t totalLimit() const;

private:
  ZipArchive(llvm::MemoryBufferRef Archive, std::string Name, ZipLimits L,
             bool MappedFile)
      : Archive(Archive), Name(std::move(Name)), Limits(std::move(L)),
        MappedFile(MappedFile) {}

  llvm::Error readDirectory();
  llvm::Error checkLocalHeader(ZipEntry &E) const;
  llvm::Error checkOverlaps() const;
  llvm::Error memberError(const ZipEntry &E, const llvm::Twine &Why) const;

  llvm::MemoryBufferRef Archive;
  std::string Name;
  ZipLimits Limits;
  bool MappedFile;
  std::vector<ZipEntry> Entries;
  uint64_t Start = 0;
};

} // namespace linkguard::package
