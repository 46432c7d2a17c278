//===- ZipDirectory.cpp - the central directory and local headers ---------===//
//
// APPNOTE.TXT (PKWARE) sections cited by number. The end of central
// directory record (4.3.16) is found from the end of the file; a zip64
// locator just before it (4.3.15) leads to the zip64 end record (4.3.14),
// whose 64-bit counts win. Bytes before the archive (a self-extracting stub,
// or a zip appended to another file) shift every offset by the same amount:
// that shift is where the directory really ends minus where it says it
// ends, as Info-ZIP and Python's zipfile compute it.
//
//===----------------------------------------------------------------------===//
#include "package/Zip.h"

#include "package/Errors.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"

#include <algorithm>
#include <optional>

using namespace llvm;

namespace linkguard::package {
namespace {

constexpr uint32_t LocalSig = 0x04034b50;
constexpr uint32_t CentralSig = 0x02014b50;
constexpr uint32_t EndSig = 0x06054b50;
constexpr uint32_t Zip64EndSig = 0x06064b50;
constexpr uint32_t Zip64LocatorSig = 0x07064b50;
constexpr uint64_t EndSize = 22, LocatorSize = 20, Zip64EndSize = 56;
constexpr uint64_t CentralSize = 46, LocalSize = 30;
constexpr uint32_t Escape32 = 0xffffffff;
constexpr uint16_t Escape16 = 0xffff;
constexpr uint16_t Zip64ExtraId = 0x0001;
constexpr uint16_t FlagDataDescriptor = 1 << 3;
constexpr uint16_t MethodStored = 0, MethodDeflated = 8;
/// deflate's best case: a 258-byte match coded in about two bits (zlib FAQ:
/// "the limit is 1032:1"). A member that declares more is lying or a bomb.
constexpr uint64_t MaxDeflateRatio = 1032;
/// Without --max-inflated, the members of an archive may declare this much
/// in all, or TotalRatio times the archive's size if that is more.
constexpr uint64_t DefaultTotal = DefaultTotalInflated;
constexpr uint64_t TotalRatio = TotalInflatedRatio;

/// Little-endian reads with bounds checks.
struct Bytes {
  StringRef B;
  bool has(uint64_t Off, uint64_t N) const {
    return Off <= B.size() && N <= B.size() - Off;
  }
  uint16_t u16(uint64_t Off) const {
    return support::endian::read16le(B.data() + Off);
  }
  uint32_t u32(uint64_t Off) const {
    return support::endian::read32le(B.data() + Off);
  }
  uint64_t u64(uint64_t Off) const {
    return support::endian::read64le(B.data() + Off);
  }
};

/// The values a zip64 extended information extra field (4.5.3) replaces:
/// each is present only when its 32-bit field holds the escape value.
struct Zip64Fields {
  uint64_t *Uncompressed = nullptr, *Compressed = nullptr, *Offset = nullptr;
  uint32_t *Disk = nullptr;

  /// The two sizes, each when it holds the escape value.
  static Zip64Fields sizes(uint64_t &Uncompressed, uint64_t &Compressed) {
    Zip64Fields F;
    if (Uncompressed == Escape32)
      F.Uncompressed = &Uncompressed;
    if (Compressed == Escape32)
      F.Compressed = &Compressed;
    return F;
  }
};

/// Walks the extra fields in Extra and applies the zip64 one. Returns a
/// reason when the extra data is malformed.
std::optional<std::string> applyZip64(StringRef Extra, Zip64Fields F) {
  Bytes X{Extra};
  for (uint64_t Off = 0; Off < Extra.size();) {
    if (!X.has(Off, 4))
      return std::string("extra field header is truncated");
    uint16_t Id = X.u16(Off), Len = X.u16(Off + 2);
    if (!X.has(Off + 4, Len))
      return "extra field 0x" + utohexstr(Id) + " is truncated";
    if (Id == Zip64ExtraId) {
      uint64_t P = Off + 4, End = P + Len;
      auto take64 = [&](uint64_t *V) {
        if (!V)
          return true;
        if (P + 8 > End)
          return false;
        *V = X.u64(P);
        P += 8;
        return true;
      };
      if (!take64(F.Uncompressed) || !take64(F.Compressed) || !take64(F.Offset))
        return std::string("zip64 extra field is too short");
      if (F.Disk) {
        if (P + 4 > End)
          return std::string("zip64 extra field is too short");
        *F.Disk = X.u32(P);
      }
      return std::nullopt;
    }
    Off += 4 + uint64_t(Len);
  }
  if (F.Uncompressed || F.Compressed || F.Offset || F.Disk)
    return std::string("a field holds the zip64 escape value but there is "
                       "no zip64 extra field");
  return std::nullopt;
}

} // namespace

bool looksLikeZip(StringRef Head) {
  return Head.starts_with(StringRef("PK\x03\x04", 4)) ||
         Head.starts_with(StringRef("PK\x05\x06", 4));
}

Expected<ZipArchive> ZipArchive::open(MemoryBufferRef Archive, StringRef Name,
                                      ZipLimits Limits, bool MappedFile) {
  ZipArchive Z(Archive, Name.str(), std::move(Limits), MappedFile);
  if (Error E = Z.readDirectory())
    return std::move(E);
  return std::move(Z);
}

bool ZipArchive::hasMember(StringRef MemberName) const {
  return std::any_of(Entries.begin(), Entries.end(),
                     [&](const ZipEntry &E) {
                       return E.Name == MemberName && !E.isSymlink();
                     });
}

std::string ZipArchive::memberName(const ZipEntry &E) const {
  return Name + "!" + E.Name;
}

Error ZipArchive::memberError(const ZipEntry &E, const Twine &Why) const {
  return malformedError(memberName(E) + ": " + Why);
}

namespace {

/// What an end of central directory record (and the zip64 records it leads
/// to) declares, read from the record at Pos.
struct EndRecord {
  uint64_t Pos = 0;
  uint64_t Disk = 0, DirDisk = 0, OnDisk = 0, Total = 0;
  uint64_t DirSize = 0, DirOffset = 0;
  uint64_t DirEnd = 0; // where the central directory must end
};

/// Reads the end record at P (B holds EndSize bytes there). Returns the
/// reason when it leads nowhere usable.
std::optional<std::string> readEndRecord(const Bytes &B, uint64_t P,
                                         EndRecord &R) {
  R.Pos = P;
  R.Disk = B.u16(P + 4);
  R.DirDisk = B.u16(P + 6);
  R.OnDisk = B.u16(P + 8);
  R.Total = B.u16(P + 10);
  R.DirSize = B.u32(P + 12);
  R.DirOffset = B.u32(P + 16);
  R.DirEnd = P;
  if (P >= LocatorSize && B.u32(P - LocatorSize) == Zip64LocatorSig) {
    uint64_t L = P - LocatorSize;
    if (B.u32(L + 4) != 0 || B.u32(L + 16) > 1)
      return std::string("spans several disks, which is not supported");
    // The zip64 end record is where the locator says, or (bytes prepended)
    // right before the locator, as Python's zipfile assumes.
    uint64_t Z = B.u64(L + 8);
    if (!(B.has(Z, Zip64EndSize) && Z + Zip64EndSize <= L &&
          B.u32(Z) == Zip64EndSig)) {
      if (L < Zip64EndSize || B.u32(L - Zip64EndSize) != Zip64EndSig)
        return std::string("zip64 end of central directory record is missing");
      Z = L - Zip64EndSize;
    }
    R.Disk = B.u32(Z + 16);
    R.DirDisk = B.u32(Z + 20);
    R.OnDisk = B.u64(Z + 24);
    R.Total = B.u64(Z + 32);
    R.DirSize = B.u64(Z + 40);
    R.DirOffset = B.u64(Z + 48);
    R.DirEnd = Z;
  }
  if (R.Disk != 0 || R.DirDisk != 0 || R.OnDisk != R.Total)
    return std::string("spans several disks, which is not supported");
  if (R.DirSize > R.DirEnd || R.DirOffset > R.DirEnd - R.DirSize)
    return "central directory (" + std::to_string(R.DirSize) +
           " bytes at offset " + std::to_string(R.DirOffset) +
           ") does not fit before its end record";
  if (R.Total > R.DirSize / CentralSize)
    return "declares " + std::to_string(R.Total) + " entries, more than its " +
           std::to_string(R.DirSize) + "-byte central directory can hold";
  return std::nullopt;
}

/// The record leads to a central directory: its first entry's signature is
/// where the record says the directory starts (after the shift), or the
/// archive is empty. What Python's zipfile checks before it trusts the
/// record ("Bad magic number for central directory").
bool leadsToDirectory(const Bytes &B, uint64_t P, bool AllowEmpty) {
  EndRecord R;
  if (readEndRecord(B, P, R))
    return false;
  if (R.Total == 0)
    return AllowEmpty && R.DirSize == 0;
  uint64_t DirStart = R.DirEnd - R.DirSize;
  return B.has(DirStart, CentralSize) && B.u32(DirStart) == CentralSig;
}

/// The end record of the zip archive that ends Data, searched from the end
/// as Python's zipfile, libzip and Info-ZIP do: the record is followed only
/// by its comment, at most 65535 bytes. The last record that leads to a
/// central directory wins (zipfile takes the last signature; a comment may
/// hold a stray one). Without one, when Strict is false, the last record
/// whose comment ends exactly at the end of Data, for the error it leads to.
std::optional<uint64_t> findEndRecord(const Bytes &B, bool AllowEmpty,
                                      bool Strict) {
  if (B.B.size() < EndSize)
    return std::nullopt;
  uint64_t Lowest =
      B.B.size() > EndSize + Escape16 ? B.B.size() - EndSize - Escape16 : 0;
  std::optional<uint64_t> Exact;
  for (uint64_t P = B.B.size() - EndSize + 1; P-- > Lowest;) {
    if (B.u32(P) != EndSig)
      continue;
    if (leadsToDirectory(B, P, AllowEmpty))
      return P;
    if (!Exact && P + EndSize + B.u16(P + 20) == B.B.size())
      Exact = P;
  }
  return Strict ? std::nullopt : Exact;
}

} // namespace

bool endsWithZip(StringRef Data) {
  // A file that does not start like a zip is one only when a real central
  // directory with at least one entry is behind the record: four bytes
  // "PK\5\6" near the end of a binary (a constant in its data) are not.
  return findEndRecord(Bytes{Data}, /*AllowEmpty=*/false, /*Strict=*/true)
      .has_value();
}

Error ZipArchive::readDirectory() {
  Bytes B{Archive.getBuffer()};
  auto bad = [&](const Twine &Why) {
    return malformedError(Name + ": " + Why);
  };
  if (B.B.size() < EndSize)
    return bad("not a zip archive: too short for an end of central "
               "directory record");

  std::optional<uint64_t> EndPos =
      findEndRecord(B, /*AllowEmpty=*/true, /*Strict=*/false);
  if (!EndPos)
    return bad("not a zip archive: no end of central directory record");
  EndRecord R;
  if (std::optional<std::string> Why = readEndRecord(B, *EndPos, R))
    return bad(*Why);
  const uint64_t Total = R.Total, DirSize = R.DirSize, DirEnd = R.DirEnd;
  const uint64_t Shift = DirEnd - DirSize - R.DirOffset; // bytes prepended
  const uint64_t DirStart = R.DirOffset + Shift;
  Start = DirStart;

  Entries.reserve(Total);
  uint64_t Off = DirStart;
  for (uint64_t I = 0; I < Total; ++I) {
    if (Off + CentralSize > DirEnd || B.u32(Off) != CentralSig)
      return bad("central directory entry " + Twine(I) +
                 " is truncated or has no signature");
    ZipEntry E;
    E.VersionMadeBy = B.u16(Off + 4);
    E.Flags = B.u16(Off + 8);
    E.Method = B.u16(Off + 10);
    E.Crc32 = B.u32(Off + 16);
    E.CompressedSize = B.u32(Off + 20);
    E.UncompressedSize = B.u32(Off + 24);
    uint64_t NameLen = B.u16(Off + 28), ExtraLen = B.u16(Off + 30);
    uint64_t CommentLen = B.u16(Off + 32);
    uint32_t DiskStart = B.u16(Off + 34);
    E.ExternalAttributes = B.u32(Off + 38);
    uint64_t Local = B.u32(Off + 42);
    uint64_t Len = CentralSize + NameLen + ExtraLen + CommentLen;
    if (Off + Len > DirEnd)
      return bad("central directory entry " + Twine(I) + " is truncated");
    E.Name = B.B.substr(Off + CentralSize, NameLen).str();
    Zip64Fields F = Zip64Fields::sizes(E.UncompressedSize, E.CompressedSize);
    if (Local == Escape32)
      F.Offset = &Local;
    if (DiskStart == Escape16)
      F.Disk = &DiskStart;
    if (auto Why =
            applyZip64(B.B.substr(Off + CentralSize + NameLen, ExtraLen), F))
      return memberError(E, *Why);
    if (DiskStart != 0)
      return memberError(E, "starts on another disk");
    if (Local > B.B.size() - Shift)
      return memberError(E, "local header offset " + Twine(Local) +
                                " is past the end of the archive");
    E.LocalHeaderOffset = Local + Shift;
    Entries.push_back(std::move(E));
    Off += Len;
  }
  if (Off != DirEnd)
    return bad("central directory holds " + Twine(DirEnd - DirStart) +
               " bytes but its " + Twine(Total) + " entries take " +
               Twine(Off - DirStart));
  for (const ZipEntry &E : Entries)
    Start = std::min(Start, E.LocalHeaderOffset);
  for (ZipEntry &E : Entries) {
    if (Error Err = checkLocalHeader(E))
      return Err;
    if (E.DataOffset + E.CompressedSize > DirStart)
      return memberError(E, "data runs into the central directory");
  }
  if (Error Err = checkOverlaps())
    return Err;
  // Before anything is inflated: what the members declare in all. Each
  // declared size is held to deflate's ratio (above) and to the stream
  // itself when read; this bounds their sum, so the time and the temporary
  // space a walk takes (4 deflated members of 1 GiB each fit in 4 MiB).
  uint64_t Declared = 0;
  for (const ZipEntry &E : Entries)
    Declared = E.UncompressedSize > UINT64_MAX - Declared
                   ? UINT64_MAX
                   : Declared + E.UncompressedSize;
  const uint64_t Allowed = totalLimit();
  if (Declared > Allowed) {
    std::string Why =
        Limits.MaxTotalSize
            ? std::string(" (--max-inflated)")
            : " for a " + std::to_string(B.B.size()) +
                  "-byte archive (the larger of 2 GiB and 100 times its "
                  "size; --max-inflated raises it)";
    return bad("its members declare " + Twine(Declared) +
               " bytes in all, more than the " + Twine(Allowed) +
               " allowed" + Why);
  }
  if (Limits.TreeBudget) {
    if (Declared > *Limits.TreeBudget)
      return bad("its members declare " + Twine(Declared) +
                 " bytes in all, more than the " + Twine(*Limits.TreeBudget) +
                 " the tree's archives may still declare (the larger of 2 GiB and "
                 "100 times their size, for all of them together; --max-inflated "
                 "sets it)");
    *Limits.TreeBudget -= Declared;
  }
  return Error::success();
}

uint64_t ZipArchive::totalLimit() const {
  if (Limits.MaxTotalSize)
    return Limits.MaxTotalSize;
  uint64_t Size = Archive.getBufferSize();
  uint64_t Scaled = Size > UINT64_MAX / TotalRatio ? UINT64_MAX
                                                   : Size * TotalRatio;
  return std::max(DefaultTotal, Scaled);
}

Error ZipArchive::checkLocalHeader(ZipEntry &E) const {
  Bytes B{Archive.getBuffer()};
  uint64_t Off = E.LocalHeaderOffset;
  if (!B.has(Off, LocalSize) || B.u32(Off) != LocalSig)
    return memberError(E, "no local header at offset " + Twine(Off));
  uint16_t Method = B.u16(Off + 8);
  uint32_t Crc = B.u32(Off + 14);
  uint64_t Compressed = B.u32(Off + 18), Uncompressed = B.u32(Off + 22);
  uint64_t NameLen = B.u16(Off + 26), ExtraLen = B.u16(Off + 28);
  if (!B.has(Off + LocalSize, NameLen + ExtraLen))
    return memberError(E, "local header is truncated");
  StringRef LocalName = B.B.substr(Off + LocalSize, NameLen);
  if (LocalName != E.Name)
    return memberError(E, "local header names '" + LocalName + "'");
  if (Method != E.Method)
    return memberError(E, "local header says compression method " +
                              Twine(Method) + ", the central directory " +
                              Twine(E.Method));
  if (!(E.Flags & FlagDataDescriptor)) {
    // Without a data descriptor the local header carries the real values.
    Zip64Fields F = Zip64Fields::sizes(Uncompressed, Compressed);
    if (auto Why =
            applyZip64(B.B.substr(Off + LocalSize + NameLen, ExtraLen), F))
      return memberError(E, "local header: " + *Why);
    if (Crc != E.Crc32 || Compressed != E.CompressedSize ||
        Uncompressed != E.UncompressedSize)
      return memberError(
          E, "local header declares " + Twine(Compressed) + " -> " +
                 Twine(Uncompressed) + " bytes, the central directory " +
                 Twine(E.CompressedSize) + " -> " + Twine(E.UncompressedSize));
  }
  E.DataOffset = Off + LocalSize + NameLen + ExtraLen;
  if (!B.has(E.DataOffset, E.CompressedSize))
    return memberError(E, Twine(E.CompressedSize) +
                              " bytes of data extend past the end of the "
                              "archive");
  uint64_t Encryption = E.isEncrypted() ? 12 : 0; // traditional PKWARE
  if (E.Method == MethodStored &&
      E.CompressedSize != E.UncompressedSize + Encryption)
    return memberError(E, "stored, but declares " + Twine(E.UncompressedSize) +
                              " bytes in " + Twine(E.CompressedSize));
  if (E.Method == MethodDeflated &&
      E.UncompressedSize / MaxDeflateRatio > E.CompressedSize)
    return memberError(E, "declares " + Twine(E.UncompressedSize) +
                              " bytes from " + Twine(E.CompressedSize) +
                              " compressed, more than deflate can produce "
                              "(a zip bomb or a lie)");
  return Error::success();
}

Error ZipArchive::checkOverlaps() const {
  // Each entry owns [local header, end of data). Two entries sharing bytes
  // is how a small archive claims terabytes (the overlapping-file bomb).
  std::vector<const ZipEntry *> Order;
  Order.reserve(Entries.size());
  for (const ZipEntry &E : Entries)
    Order.push_back(&E);
  std::sort(Order.begin(), Order.end(), [](const auto *A, const auto *B) {
    return A->LocalHeaderOffset < B->LocalHeaderOffset;
  });
  for (size_t I = 1; I < Order.size(); ++I) {
    const ZipEntry &Prev = *Order[I - 1], &Cur = *Order[I];
    if (Cur.LocalHeaderOffset < Prev.DataOffset + Prev.CompressedSize)
      return malformedError(Name + ": entries '" + Prev.Name + "' and '" +
                            Cur.Name +
                            "' share bytes (an overlapping-entry zip bomb)");
  }
  return Error::success();
}

} // namespace linkguard::package
