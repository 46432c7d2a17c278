//===- CodeSignature.cpp - a Mach-O code signature against its bytes ------===//

#include "signature/CodeSignature.h"

#include "objlib/Universal.h"

#include "llvm/BinaryFormat/MachO.h"
#include "llvm/Object/MachO.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

// The digests' own functions (deprecated in OpenSSL 3, kept in libcrypto),
// not EVP: EVP_MD_fetch links the provider machinery and every algorithm of
// the default provider into a static binary (9.7 MB instead of 5.6 MB), for
// three hashes. They use the CPU's SHA instructions where it has them.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <thread>

namespace linkguard::signature {
namespace {

using llvm::StringRef;
namespace endian = llvm::support::endian;

// osfmk/kern/cs_blobs.h
constexpr uint32_t CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
constexpr uint32_t CSMAGIC_CODEDIRECTORY = 0xfade0c02;
constexpr uint32_t CSSLOT_CODEDIRECTORY = 0;
constexpr uint32_t CSSLOT_ALTERNATE_CODEDIRECTORIES = 0x1000;
constexpr uint32_t CSSLOT_ALTERNATE_CODEDIRECTORY_MAX = 5;
constexpr uint32_t CS_SUPPORTSSCATTER = 0x20100;
constexpr uint32_t CS_SUPPORTSCODELIMIT64 = 0x20300;
constexpr uint32_t CS_ADHOC = 0x2, CS_LINKER_SIGNED = 0x20000;
constexpr uint32_t LC_CODE_SIGNATURE = 0x1d;
// The special slots whose blob is in the SuperBlob itself.
constexpr unsigned InBlobSlots[] = {2 /*requirements*/, 5 /*entitlements*/,
                                    7 /*DER entitlements*/};

/// One digest of Data into Out (its full length, at most 64 bytes).
using DigestFn = void (*)(const unsigned char *Data, size_t Size, unsigned char *Out);
// Init/Update/Final, not the one-shot SHA256(): in OpenSSL 3 that one goes
// through EVP_Q_digest, and so through the providers.
void sha1(const unsigned char *D, size_t N, unsigned char *Out) {
  SHA_CTX C;
  SHA1_Init(&C), SHA1_Update(&C, D, N), SHA1_Final(Out, &C);
}
void sha256(const unsigned char *D, size_t N, unsigned char *Out) {
  SHA256_CTX C;
  SHA256_Init(&C), SHA256_Update(&C, D, N), SHA256_Final(Out, &C);
}
void sha384(const unsigned char *D, size_t N, unsigned char *Out) {
  SHA512_CTX C;
  SHA384_Init(&C), SHA384_Update(&C, D, N), SHA384_Final(Out, &C);
}

struct HashKind {
  unsigned Type;
  const char *Name;
  DigestFn Digest;
  unsigned Size; // bytes stored per hash
  int Rank;      // xnu's preference: the kernel validates with the best
};
// xnu bsd/kern/ubc_subr.c: cs_supported_hash_types / hashPriorities.
constexpr HashKind HashKinds[] = {{1, "SHA-1", sha1, 20, 1},
                                  {3, "SHA-256 (truncated)", sha256, 20, 2},
                                  {2, "SHA-256", sha256, 32, 3},
                                  {4, "SHA-384", sha384, 48, 4}};
constexpr size_t MaxDigest = 64;

const HashKind *hashKind(unsigned Type) {
  for (const HashKind &K : HashKinds)
    if (K.Type == Type)
      return &K;
  return nullptr;
}

uint32_t be32(StringRef B, uint64_t Off) { return endian::read32be(B.data() + Off); }

/// A CodeDirectory, its fields checked against its blob.
struct CodeDirectory {
  StringRef Blob; // the whole CodeDirectory
  uint32_t Version = 0, Flags = 0, HashOffset = 0, NSpecial = 0, NCode = 0;
  uint64_t CodeLimit = 0;
  const HashKind *Kind = nullptr;
  uint64_t PageSize = 0; // 0: one page
};

/// Parses the CodeDirectory in Blob; returns the reason it cannot be used.
std::string parseCodeDirectory(StringRef Blob, CodeDirectory &CD) {
  // magic .. spare2: 44 bytes; then scatterOffset, teamOffset, spare3,
  // codeLimit64 as the version grows.
  if (Blob.size() < 44)
    return "a CodeDirectory shorter than its header";
  CD.Blob = Blob;
  CD.Version = be32(Blob, 8);
  CD.Flags = be32(Blob, 12);
  CD.HashOffset = be32(Blob, 16);
  CD.NSpecial = be32(Blob, 24);
  CD.NCode = be32(Blob, 28);
  CD.CodeLimit = be32(Blob, 32);
  const unsigned HashSize = static_cast<uint8_t>(Blob[36]);
  const unsigned HashType = static_cast<uint8_t>(Blob[37]);
  const unsigned PageShift = static_cast<uint8_t>(Blob[39]);
  CD.Kind = hashKind(HashType);
  if (!CD.Kind)
    return "hash type " + std::to_string(HashType) + " is not one the kernel knows";
  if (HashSize != CD.Kind->Size)
    return "hash size " + std::to_string(HashSize) + " does not fit its hash type";
  if (PageShift != 0 && (PageShift < 9 || PageShift > 30))
    return "page size 2^" + std::to_string(PageShift) + " is out of range";
  CD.PageSize = PageShift ? uint64_t(1) << PageShift : 0;
  if (CD.Version >= CS_SUPPORTSSCATTER && Blob.size() >= 48 && be32(Blob, 44) != 0)
    return "a scatter list (not supported here)";
  if (CD.Version >= CS_SUPPORTSCODELIMIT64) {
    if (Blob.size() < 64)
      return "a CodeDirectory shorter than its version's header";
    uint64_t Limit64 = endian::read64be(Blob.data() + 56);
    if (Limit64 != 0)
      CD.CodeLimit = Limit64;
  }
  // The hashes lie within the blob, the special ones below hashOffset.
  const uint64_t Special = uint64_t(CD.NSpecial) * HashSize;
  const uint64_t Code = uint64_t(CD.NCode) * HashSize;
  if (CD.HashOffset > Blob.size() || Special > CD.HashOffset ||
      Code > Blob.size() - CD.HashOffset)
    return "its hash slots lie outside the CodeDirectory";
  const uint64_t Pages =
      CD.PageSize ? (CD.CodeLimit + CD.PageSize - 1) / CD.PageSize : (CD.CodeLimit ? 1 : 0);
  if (Pages != CD.NCode)
    return std::to_string(CD.NCode) + " code slots for " + std::to_string(Pages) +
           " pages of " + std::to_string(CD.CodeLimit) + " bytes";
  return "";
}

void digest(const HashKind &K, StringRef Data, unsigned char *Out) {
  K.Digest(reinterpret_cast<const unsigned char *>(Data.data()), Data.size(), Out);
}

/// Pages a thread hashes at least: below it a thread costs more than the
/// hashing (4 MiB of 16 KiB pages is ~2 ms of SHA-256).
constexpr uint64_t MinPagesPerThread = 256;
constexpr unsigned MaxThreads = 8;

/// Compares the code page hashes of CD with Slice's bytes, in parallel
/// chunks; fills the bad pages of R.
void checkPages(StringRef Slice, const CodeDirectory &CD, SliceSignature &R) {
  const uint64_t Pages = CD.NCode;
  const uint64_t PageSize = CD.PageSize ? CD.PageSize : CD.CodeLimit;
  const unsigned HashSize = CD.Kind->Size;
  unsigned Threads = 1;
  if (Pages >= 2 * MinPagesPerThread) {
    unsigned Hw = std::max(1u, std::thread::hardware_concurrency());
    const uint64_t Cap = std::min<uint64_t>(Hw, MaxThreads);
    Threads = static_cast<unsigned>(std::min<uint64_t>(Cap, Pages / MinPagesPerThread));
  }
  struct Chunk {
    uint64_t Begin = 0, End = 0, BadCount = 0;
    std::vector<uint64_t> Bad;
  };
  std::vector<Chunk> Chunks(Threads);
  const uint64_t Per = (Pages + Threads - 1) / Threads;
  auto run = [&](Chunk &C) {
    unsigned char Out[MaxDigest];
    for (uint64_t I = C.Begin; I < C.End; ++I) {
      const uint64_t Off = I * PageSize;
      StringRef Page = Slice.substr(Off, std::min(PageSize, CD.CodeLimit - Off));
      digest(*CD.Kind, Page, Out);
      if (std::memcmp(Out, CD.Blob.data() + CD.HashOffset + I * HashSize, HashSize) != 0) {
        if (C.Bad.size() < MaxListedPages)
          C.Bad.push_back(I);
        ++C.BadCount;
      }
    }
  };
  for (unsigned T = 0; T < Threads; ++T) {
    Chunks[T].Begin = std::min(Pages, T * Per);
    Chunks[T].End = std::min(Pages, (T + 1) * Per);
  }
  std::vector<std::thread> Workers;
  for (unsigned T = 1; T < Threads; ++T)
    Workers.emplace_back(run, std::ref(Chunks[T]));
  run(Chunks[0]);
  for (std::thread &W : Workers)
    W.join();
  R.CodePages = Pages;
  for (const Chunk &C : Chunks) {
    R.BadPageCount += C.BadCount;
    for (uint64_t P : C.Bad)
      if (R.BadPages.size() < MaxListedPages)
        R.BadPages.push_back(P);
  }
}

SliceSignature malformed(SliceSignature R, std::string Why) {
  R.St = State::Malformed;
  R.Why = std::move(Why);
  return R;
}

/// Whether a Mach-O file type is an image a process maps and runs.
bool isLinkedImage(uint32_t FileType) {
  switch (FileType) {
  case llvm::MachO::MH_EXECUTE:
  case llvm::MachO::MH_FVMLIB:
  case llvm::MachO::MH_PRELOAD:
  case llvm::MachO::MH_DYLIB:
  case llvm::MachO::MH_DYLINKER:
  case llvm::MachO::MH_BUNDLE:
  case llvm::MachO::MH_KEXT_BUNDLE:
  case llvm::MachO::MH_FILESET:
    return true;
  default:
    return false;
  }
}

/// The header of a thin Mach-O slice: little- or big-endian, 32 or 64 bit.
struct Header {
  bool Ok = false, BigEndian = false, Is64 = false;
  uint32_t CPUType = 0, CPUSubType = 0, FileType = 0, NCmds = 0, SizeOfCmds = 0;
};

Header readHeader(StringRef B) {
  Header H;
  if (B.size() < 28)
    return H;
  const uint32_t Le = endian::read32le(B.data());
  if (Le == llvm::MachO::MH_MAGIC_64 || Le == llvm::MachO::MH_MAGIC) {
    H.Is64 = Le == llvm::MachO::MH_MAGIC_64;
  } else if (Le == llvm::MachO::MH_CIGAM_64 || Le == llvm::MachO::MH_CIGAM) {
    H.Is64 = Le == llvm::MachO::MH_CIGAM_64;
    H.BigEndian = true;
  } else {
    return H;
  }
  if (H.Is64 && B.size() < 32)
    return H;
  auto rd = [&](uint64_t Off) {
    return H.BigEndian ? endian::read32be(B.data() + Off) : endian::read32le(B.data() + Off);
  };
  H.CPUType = rd(4), H.CPUSubType = rd(8), H.FileType = rd(12), H.NCmds = rd(16),
  H.SizeOfCmds = rd(20);
  H.Ok = true;
  return H;
}

bool isArm64(uint32_t CPUType) { return CPUType == llvm::MachO::CPU_TYPE_ARM64; }

} // namespace

SliceSignature verifySlice(StringRef B, StringRef Arch) {
  SliceSignature R;
  R.Arch = Arch.str();
  const Header H = readHeader(B);
  if (!H.Ok)
    return malformed(R, "not a Mach-O header");
  auto rd = [&](uint64_t Off) {
    return H.BigEndian ? endian::read32be(B.data() + Off) : endian::read32le(B.data() + Off);
  };
  // The load commands, within sizeofcmds and the slice.
  const uint64_t Start = H.Is64 ? 32 : 28;
  const uint64_t End = std::min<uint64_t>(B.size(), Start + uint64_t(H.SizeOfCmds));
  uint64_t Off = Start;
  bool Found = false;
  uint32_t DataOff = 0, DataSize = 0;
  for (uint32_t I = 0; I < H.NCmds && Off + 8 <= End; ++I) {
    const uint32_t Cmd = rd(Off), Size = rd(Off + 4);
    if (Size < 8 || Size > End - Off)
      return malformed(R, "load command " + std::to_string(I + 1) + " runs past the commands");
    if (Cmd == LC_CODE_SIGNATURE) {
      if (Size < 16)
        return malformed(R, "LC_CODE_SIGNATURE is shorter than its fields");
      if (Found)
        return malformed(R, "two LC_CODE_SIGNATURE commands");
      Found = true;
      DataOff = rd(Off + 8);
      DataSize = rd(Off + 12);
    }
    Off += Size;
  }
  if (!Found) {
    R.St = State::Unsigned;
    return R;
  }
  if (uint64_t(DataOff) + DataSize > B.size())
    return malformed(R, "LC_CODE_SIGNATURE's blob (" + std::to_string(DataSize) +
                            " bytes at " + std::to_string(DataOff) +
                            ") runs past the end of the file (" + std::to_string(B.size()) +
                            " bytes)");
  StringRef Sig = B.substr(DataOff, DataSize);
  if (Sig.size() < 12 || be32(Sig, 0) != CSMAGIC_EMBEDDED_SIGNATURE)
    return malformed(R, "the signature is not an embedded-signature SuperBlob");
  const uint64_t Length = be32(Sig, 4), Count = be32(Sig, 8);
  if (Length < 12 || Length > Sig.size())
    return malformed(R, "the SuperBlob's length (" + std::to_string(Length) +
                            ") does not fit LC_CODE_SIGNATURE's " + std::to_string(Sig.size()) +
                            " bytes");
  Sig = Sig.take_front(Length);
  if (Count > (Length - 12) / 8)
    return malformed(R, "the SuperBlob's " + std::to_string(Count) +
                            " index entries run past its length");
  // Each indexed blob, within the SuperBlob.
  std::vector<std::pair<uint32_t, StringRef>> Blobs;
  for (uint64_t I = 0; I < Count; ++I) {
    const uint32_t Type = be32(Sig, 12 + 8 * I), BlobOff = be32(Sig, 16 + 8 * I);
    if (uint64_t(BlobOff) + 8 > Length)
      return malformed(R, "blob " + std::to_string(I) + " starts past the SuperBlob");
    const uint32_t BlobLen = be32(Sig, BlobOff + 4);
    if (BlobLen < 8 || BlobLen > Length - BlobOff)
      return malformed(R, "blob " + std::to_string(I) + " runs past the SuperBlob");
    Blobs.push_back({Type, Sig.substr(BlobOff, BlobLen)});
  }
  // The CodeDirectory the kernel would validate with: the best hash type.
  CodeDirectory Best;
  std::string Why = "no CodeDirectory in the signature";
  for (const auto &[Type, Blob] : Blobs) {
    const bool Slot = Type == CSSLOT_CODEDIRECTORY ||
                      (Type >= CSSLOT_ALTERNATE_CODEDIRECTORIES &&
                       Type < CSSLOT_ALTERNATE_CODEDIRECTORIES + CSSLOT_ALTERNATE_CODEDIRECTORY_MAX);
    if (!Slot || be32(Blob, 0) != CSMAGIC_CODEDIRECTORY)
      continue;
    CodeDirectory CD;
    if (std::string Problem = parseCodeDirectory(Blob, CD); !Problem.empty()) {
      Why = "CodeDirectory: " + Problem;
      continue;
    }
    if (!Best.Kind || CD.Kind->Rank > Best.Kind->Rank)
      Best = CD;
  }
  if (!Best.Kind)
    return malformed(R, Why);
  R.HashType = Best.Kind->Type;
  R.PageSize = Best.PageSize;
  R.CodeLimit = Best.CodeLimit;
  R.AdHoc = Best.Flags & CS_ADHOC;
  R.LinkerSigned = Best.Flags & CS_LINKER_SIGNED;
  if (Best.CodeLimit > B.size())
    return malformed(R, "the CodeDirectory signs " + std::to_string(Best.CodeLimit) +
                            " bytes, more than the file's " + std::to_string(B.size()));
  checkPages(B, Best, R);
  // The special slots whose blobs are in the signature.
  unsigned char Out[MaxDigest];
  const unsigned HashSize = Best.Kind->Size;
  for (unsigned Slot : InBlobSlots) {
    if (Slot > Best.NSpecial)
      continue;
    StringRef Want = Best.Blob.substr(Best.HashOffset - uint64_t(Slot) * HashSize, HashSize);
    if (Want.find_first_not_of('\0') == StringRef::npos)
      continue; // no such blob signed
    StringRef Have;
    for (const auto &[Type, Blob] : Blobs)
      if (Type == Slot)
        Have = Blob;
    if (!Have.data()) {
      R.BadSpecialSlots.push_back(Slot);
      continue;
    }
    digest(*Best.Kind, Have, Out);
    if (std::memcmp(Out, Want.data(), HashSize) != 0)
      R.BadSpecialSlots.push_back(Slot);
  }
  R.St = R.BadPageCount || !R.BadSpecialSlots.empty() ? State::Modified : State::Valid;
  return R;
}

std::vector<SliceSignature> verifyFile(StringRef Bytes, Scope S) {
  std::vector<SliceSignature> Out;
  if (Bytes.size() < 8)
    return Out;
  const uint32_t Magic = endian::read32be(Bytes.data());
  auto one = [&](StringRef Slice, StringRef Arch) {
    const Header H = readHeader(Slice);
    if (!H.Ok || !isLinkedImage(H.FileType) || (S == Scope::Arm64 && !isArm64(H.CPUType)))
      return;
    Out.push_back(verifySlice(Slice, Arch));
  };
  if (Magic == llvm::MachO::FAT_MAGIC || Magic == llvm::MachO::FAT_MAGIC_64) {
    // Java class files share FAT_MAGIC: objlib tells them apart; a count
    // this large is no universal file objlib read.
    if (endian::read32be(Bytes.data() + 4) > 64)
      return Out;
    llvm::Expected<objlib::FatHeader> Fat = objlib::parseFatHeader(Bytes);
    if (!Fat) {
      SliceSignature R;
      Out.push_back(malformed(R, llvm::toString(Fat.takeError())));
      return Out;
    }
    for (const objlib::FatArch &A : Fat->Archs) {
      std::string Name = objlib::fatArchName(A);
      if (Name.empty())
        Name = "cputype " + std::to_string(A.CpuType);
      one(Bytes.substr(A.Offset, A.Size), Name);
    }
    return Out;
  }
  const Header H = readHeader(Bytes);
  if (!H.Ok)
    return Out;
  const char *ArchFlag = nullptr;
  llvm::object::MachOObjectFile::getArchTriple(H.CPUType, H.CPUSubType, nullptr, &ArchFlag);
  one(Bytes, ArchFlag ? ArchFlag : "cputype " + std::to_string(H.CPUType));
  return Out;
}

void judgeSignatures(StringRef Bytes, Scope S, StringRef Name, bool Universal,
                     contract::Verdict &V) {
  for (const SliceSignature &R : verifyFile(Bytes, S)) {
    if (R.St == State::Valid)
      continue;
    contract::Finding F;
    F.Rule = "code-signature";
    F.Slice = Universal ? R.Arch : "";
    const bool Arm = StringRef(R.Arch).starts_with("arm64");
    const std::string Fix = "; re-sign it after the last change: codesign -f -s - " + Name.str();
    std::string M;
    llvm::raw_string_ostream OS(M);
    if (R.St == State::Malformed) {
      F.Kind = contract::FindingKind::Unknown;
      OS << "its code signature cannot be read (" << R.Why << "): whether "
         << (Arm ? "Apple silicon" : "macOS") << " loads it is undecided" << Fix;
    } else if (R.St == State::Unsigned) {
      OS << "unsigned (no LC_CODE_SIGNATURE): "
         << (Arm ? "Apple silicon refuses to load an arm64 image without a code signature"
                 : "--signatures=all asks every slice for a code signature")
         << "; sign it after the last change: codesign -f -s - " << Name;
    } else {
      OS << "changed after signing: ";
      if (R.BadPageCount) {
        OS << R.BadPageCount << " of " << R.CodePages
           << " code pages do not match the CodeDirectory's hashes (page";
        OS << (R.BadPageCount == 1 ? " " : "s ");
        const uint64_t PageSize = R.PageSize ? R.PageSize : R.CodeLimit;
        for (size_t I = 0; I < R.BadPages.size(); ++I)
          OS << (I ? ", " : "") << R.BadPages[I] << " at "
             << llvm::format_hex(R.BadPages[I] * PageSize, 1);
        if (R.BadPageCount > R.BadPages.size())
          OS << ", ...";
        OS << ")";
      }
      for (size_t I = 0; I < R.BadSpecialSlots.size(); ++I) {
        unsigned Slot = R.BadSpecialSlots[I];
        OS << (R.BadPageCount || I ? "; " : "") << "the hash of its "
           << (Slot == 2   ? "requirements"
               : Slot == 5 ? "entitlements"
                           : "DER entitlements")
           << " (special slot " << Slot << ") does not match";
      }
      OS << (Arm ? "; the kernel kills a process that maps such a page (Killed: 9)"
                 : "; macOS refuses pages that do not match their signature")
         << Fix;
    }
    F.Message = std::move(OS.str());
    V.Findings.push_back(std::move(F));
  }
}

} // namespace linkguard::signature
