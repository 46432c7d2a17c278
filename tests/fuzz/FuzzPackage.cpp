//===- FuzzPackage.cpp - libFuzzer entry point for package/ ---------------===//
//
// The first byte picks what the rest is:
//   0  a zip archive: open it, peek and read every member under small
//      limits, scan the members that are not binaries, read every image
//      with objlib. Must return data or a ReadError, never crash or hang.
//   1  a blob: scan it. Every image reported must lie inside the blob, in
//      order, without overlap, and imageExtent at its offset must give its
//      size again; objlib then reads it. The work the scan spent, and the
//      load commands libObject was handed (counted apart from the charges,
//      8 units each), must fit in scanBudget(size): linear in the size
//      (issue 28's chain of headers was quadratic). After 'R', the next
//      bytes (up to 256) are one unit, repeated to 512 KiB: a plausible
//      header everywhere.
//      In mode 0, the archive's members may declare 32 MiB in all; what is
//      read from them must fit in it.
//   2  a seed: the rest is expanded (SplitMix64) into 64 KiB of
//      pseudo-random bytes, which the fuzzer cannot steer. The scan must
//      find nothing: a phantom image aborts ("no false positive on random
//      data").
//   3  the same, with the magics planted at offsets the input chooses, each
//      under plausible header fields (a known CPU type, ELF version 1 and
//      the right entry sizes), never two within 64 bytes of each other; the
//      remaining fields stay random. Nothing may be found either.
// Seeds: scripts/fuzz writes zips (stored, deflated, zip64) and .pte-shaped
// blobs around real images; tests/regression/fuzz_package holds the inputs
// that once broke it.
//
//===----------------------------------------------------------------------===//
#include "objlib/Reader.h"
#include "package/Buffers.h"
#include "package/Scan.h"
#include "package/Zip.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace linkguard;
using namespace llvm;

namespace {

void readImage(StringRef Bytes) {
  Expected<std::unique_ptr<MemoryBuffer>> Copy =
      package::alignedCopy(Bytes, "image", uint64_t(16) << 20);
  if (!Copy) {
    consumeError(Copy.takeError());
    return;
  }
  auto Info = objlib::readBinary((*Copy)->getMemBufferRef(), "image");
  if (!Info)
    handleAllErrors(Info.takeError(), [](const objlib::ReadError &) {});
}

void checkScan(StringRef Blob) {
  package::ScanResult R = package::scanForImages(Blob);
  const uint64_t Budget = package::scanBudget(Blob.size());
  if (R.Work > Budget || R.LoadCommands > Budget / 8) {
    std::fprintf(stderr,
                 "scan: %llu bytes cost %llu units and %llu load commands, "
                 "budget %llu\n",
                 (unsigned long long)Blob.size(), (unsigned long long)R.Work,
                 (unsigned long long)R.LoadCommands,
                 (unsigned long long)Budget);
    std::abort();
  }
  uint64_t Next = 0;
  for (const package::EmbeddedImage &I : R.Images) {
    if (I.Offset < Next || I.Size == 0 || I.Offset + I.Size > Blob.size() ||
        package::imageExtent(Blob.substr(I.Offset)) != I.Size) {
      std::fprintf(stderr, "scan: inconsistent image at %llu size %llu\n",
                   (unsigned long long)I.Offset, (unsigned long long)I.Size);
      std::abort();
    }
    Next = I.Offset + I.Size;
    readImage(Blob.substr(I.Offset, I.Size));
  }
}

void fuzzZip(StringRef Bytes) {
  package::ZipLimits L;
  L.InMemoryCap = 1 << 20;
  L.MaxMemberSize = 16 << 20;
  L.MaxTotalSize = 32 << 20;
  // Found from the end (a prefix allowed) only when a directory is there.
  bool AtEnd = package::endsWithZip(Bytes);
  auto Z =
      package::ZipArchive::open(MemoryBufferRef(Bytes, "f.zip"), "f.zip", L);
  if (!Z) {
    handleAllErrors(Z.takeError(), [](const objlib::ReadError &) {});
    return;
  }
  if (Z->prefixSize() > Bytes.size() || (!AtEnd && !Z->entries().empty()))
    std::abort(); // an archive with entries is one endsWithZip finds
  uint64_t Declared = 0, Inflated = 0;
  for (const package::ZipEntry &E : Z->entries())
    Declared = std::min<uint64_t>(Declared + std::min<uint64_t>(
                                                 E.UncompressedSize, 1ull << 62),
                                  1ull << 62);
  if (Declared > L.MaxTotalSize) {
    std::fprintf(stderr, "zip: %llu bytes declared, over the archive limit\n",
                 (unsigned long long)Declared);
    std::abort();
  }
  for (const package::ZipEntry &E : Z->entries()) {
    Expected<std::string> Head = Z->peek(E, 64);
    if (!Head) {
      handleAllErrors(Head.takeError(), [](const objlib::ReadError &) {});
      continue;
    }
    Expected<package::MemberData> D = Z->read(E);
    if (!D) {
      handleAllErrors(D.takeError(), [](const objlib::ReadError &) {});
      continue;
    }
    if (!D->ref().getBuffer().starts_with(*Head))
      std::abort(); // peek and read must agree
    Inflated += D->ref().getBufferSize();
    if (Inflated > L.MaxTotalSize)
      std::abort(); // more than the members declared in all
    if (package::hasBinaryMagic(*Head))
      readImage(D->ref().getBuffer());
    else
      checkScan(D->ref().getBuffer());
  }
}

/// 64 KiB that only the seed decides.
std::string randomBlob(StringRef Seed) {
  uint64_t S = 0x9e3779b97f4a7c15ULL;
  for (unsigned char C : Seed)
    S = (S ^ C) * 0x100000001b3ULL;
  std::string Out(64 << 10, '\0');
  for (size_t I = 0; I < Out.size(); I += 8) {
    uint64_t Z = (S += 0x9e3779b97f4a7c15ULL);
    Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebULL;
    Z ^= Z >> 31;
    std::memcpy(&Out[I], &Z, 8);
  }
  return Out;
}

void plant(std::string &Blob, size_t Off, unsigned Kind) {
  static const char *const Heads[] = {
      "\x7f"
      "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0", // ELF64 LE ET_DYN
      "\xcf\xfa\xed\xfe\x0c\0\0\x01",            // Mach-O 64 arm64
      "\xca\xfe\xba\xbe\0\0\0\x01\x01\0\0\x0c",  // universal, arm64
      "\x7f"
      "ELF\x01\x01\x01\0\0\0\0\0\0\0\0\0\x02\0", // ELF32 LE ET_EXEC
  };
  static const size_t Lens[] = {18, 8, 12, 18};
  if (Off + 64 > Blob.size())
    return;
  std::memcpy(&Blob[Off], Heads[Kind % 4], Lens[Kind % 4]);
  if (Kind % 4 == 0) {
    std::memcpy(&Blob[Off + 20], "\x01\0\0\0", 4);
    std::memcpy(&Blob[Off + 52], "\x40\0\x38\0", 4);
    std::memcpy(&Blob[Off + 58], "\x40\0", 2);
  } else if (Kind % 4 == 3) {
    std::memcpy(&Blob[Off + 20], "\x01\0\0\0", 4);
    std::memcpy(&Blob[Off + 40], "\x34\0\x20\0", 4);
    std::memcpy(&Blob[Off + 46], "\x28\0", 2);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0)
    return 0;
  StringRef Rest(reinterpret_cast<const char *>(Data) + 1, Size - 1);
  switch (Data[0] % 4) {
  case 0:
    fuzzZip(Rest);
    break;
  case 1: {
    // A copy at a fixed misalignment, so odd offsets are the normal case.
    std::string Blob = " " + Rest.str();
    if (Rest.size() > 1 && Rest[0] == 'R') {
      StringRef Unit = Rest.drop_front(1).take_front(256);
      Blob = " ";
      while (Blob.size() < (512 << 10) + 1)
        Blob += Unit.str();
    }
    checkScan(StringRef(Blob).drop_front(1));
    break;
  }
  default: {
    std::string Blob = randomBlob(Rest);
    // Plants never overlap: overlapping ones would let the input write
    // chosen bytes anywhere, and the data would no longer be random.
    std::vector<bool> Used(Blob.size() / 64);
    if (Data[0] % 4 == 3)
      for (size_t I = 0; I + 3 <= Rest.size(); I += 3) {
        size_t Slot =
            (uint8_t(Rest[I]) << 8 | uint8_t(Rest[I + 1])) % (Used.size() - 1);
        if (Used[Slot] || Used[Slot + 1])
          continue;
        Used[Slot] = Used[Slot + 1] = true;
        plant(Blob, Slot * 64 + uint8_t(Rest[I + 2]) % 64,
              uint8_t(Rest[I + 2]) / 64);
      }
    for (const package::EmbeddedImage &I :
         package::scanForImages(Blob).Images) {
      std::fprintf(stderr,
                   "scan: an image in pseudo-random data at %llu, "
                   "%llu bytes:",
                   (unsigned long long)I.Offset, (unsigned long long)I.Size);
      for (uint64_t K = I.Offset; K < I.Offset + std::min<uint64_t>(I.Size, 96);
           ++K)
        std::fprintf(stderr, " %02x", (unsigned char)Blob[K]);
      std::fprintf(stderr, "\n");
      std::abort();
    }
    break;
  }
  }
  return 0;
}
