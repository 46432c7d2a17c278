//===- ScanTest.cpp - package::scanForImages: real images, no phantoms ----===//
//
// Real images are built in the test run (bash): an ELF shared object with
// clang-19, a Mach-O arm64 dylib and a universal (arm64 + x86_64) one
// cross-linked with the recipe of scripts/lib/macho_sdk.sh. They are hidden
// in random bytes at odd offsets, as ExecuTorch's named-data segments may
// place them (alignment 1), and must be found at exactly those offsets
// with exactly their sizes. Random data, and random data with every magic
// planted under plausible header fields, must yield nothing.
//
//===----------------------------------------------------------------------===//
#include "package/Scan.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include "tests/unit/support/Catch.h"
#include "tests/unit/support/TempTree.h"

#include <cstring>
#include <map>
#include <random>

using namespace linkguard::package;
using namespace llvm;

namespace {

/// Images linked once per run by a shell script over the project's own
/// cross-link helpers; empty when the toolchain is missing.
struct Images {
  std::map<std::string, std::string> Bytes; // "elf", "macho", "fat"
  std::string Why;                          // why there are none

  Images() {
    SmallString<128> Dir;
    if (sys::fs::createUniqueDirectory("linkguard-scan", Dir)) {
      Why = "cannot create a temporary directory";
      return;
    }
    std::string Bin = LINKGUARD_LLVM_BINDIR;
    std::string Script =
        ". '" LINKGUARD_SOURCE_DIR "/scripts/lib/macho_sdk.sh' && cd '" +
        Dir.str().str() + "' && write_sdk sdk && " +
        "echo 'int k(void) { return 42; }' > k.c && " + Bin +
        "/clang -shared -fPIC k.c -o k.so && for a in arm64 x86_64; do " + Bin +
        "/clang $(macho_flags sdk $a) -shared k.c -o k-$a.dylib " +
        "-Lsdk/omp -lomp || exit 1; done && " + Bin +
        "/llvm-lipo -create k-arm64.dylib k-x86_64.dylib -output k.fat";
    StringRef Args[] = {"/bin/bash", "-c", Script};
    std::optional<StringRef> Quiet[] = {std::nullopt, StringRef(""),
                                        StringRef("")};
    if (sys::ExecuteAndWait("/bin/bash", Args, std::nullopt, Quiet) != 0) {
      Why = "clang-19 / ld64.lld / llvm-lipo cannot build the images";
    } else {
      for (auto [Key, File] : {std::pair{"elf", "k.so"},
                               {"macho", "k-arm64.dylib"},
                               {"fat", "k.fat"}}) {
        auto B = MemoryBuffer::getFile(Dir + "/" + File);
        if (B)
          Bytes[Key] = (*B)->getBuffer().str();
      }
    }
    sys::fs::remove_directories(Dir);
  }
};

const Images &images() {
  static Images I;
  return I;
}

std::string randomBytes(size_t N, unsigned Seed) {
  std::mt19937_64 Gen(Seed);
  std::string S(N, '\0');
  for (size_t I = 0; I + 8 <= N; I += 8) {
    uint64_t V = Gen();
    std::memcpy(&S[I], &V, 8);
  }
  return S;
}

template <class T> void put(std::string &S, size_t Off, T V) {
  std::memcpy(&S[Off], &V, sizeof V); // little-endian host
}

} // namespace

TEST_CASE("scan: random data holds no image", "[scan]") {
  for (unsigned Seed = 1; Seed <= 4; ++Seed) {
    std::string Blob = randomBytes(8 << 20, Seed);
    ScanResult R = scanForImages(Blob);
    CHECK(R.Images.empty());
    CHECK_FALSE(R.Exhausted);
  }
}

TEST_CASE("scan: magics planted under plausible headers are not images",
          "[scan]") {
  std::string Blob = randomBytes(4 << 20, 11);
  std::mt19937_64 Gen(5);
  for (int N = 0; N < 20000; ++N) {
    size_t Off = Gen() % (Blob.size() - 128);
    switch (N % 4) {
    case 0: // ELF64 LE shared object with random tables
      std::memcpy(&Blob[Off],
                  "\x7f"
                  "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0",
                  16);
      put<uint16_t>(Blob, Off + 16, 3);
      put<uint32_t>(Blob, Off + 20, 1);
      put<uint16_t>(Blob, Off + 52, 64);
      put<uint16_t>(Blob, Off + 54, 56);
      put<uint16_t>(Blob, Off + 58, 64);
      break;
    case 1: // Mach-O 64 arm64 dylib, a few load commands
      put<uint32_t>(Blob, Off, 0xfeedfacf);
      put<uint32_t>(Blob, Off + 4, 0x0100000c);
      put<uint32_t>(Blob, Off + 12, 6);
      put<uint32_t>(Blob, Off + 16, 1 + Gen() % 4);
      put<uint32_t>(Blob, Off + 20, 64);
      break;
    case 2: // universal, two arm64 slices
      std::memcpy(&Blob[Off], "\xca\xfe\xba\xbe\0\0\0\x02\x01\0\0\x0c", 12);
      std::memcpy(&Blob[Off + 28], "\x01\0\0\x0c", 4);
      break;
    default: // ELF32 BE executable
      std::memcpy(&Blob[Off],
                  "\x7f"
                  "ELF\x01\x02\x01\0\0\0\0\0\0\0\0\0\0\x02",
                  18);
      std::memcpy(&Blob[Off + 20], "\0\0\0\x01", 4);
      std::memcpy(&Blob[Off + 40], "\0\x34\0\x20", 4);
      break;
    }
  }
  CHECK(scanForImages(Blob).Images.empty());
}

TEST_CASE("scan: real images at odd offsets are found exactly", "[scan]") {
  const Images &I = images();
  if (!I.Why.empty()) {
    linkguard::testsupport::skipTest(I.Why);
  }
  REQUIRE(I.Bytes.size() == 3);
  std::string Blob = randomBytes(1001, 21);
  std::vector<EmbeddedImage> Want;
  for (const char *Key : {"elf", "macho", "fat", "elf"}) {
    Want.push_back({Blob.size(), I.Bytes.at(Key).size()});
    Blob += I.Bytes.at(Key) + randomBytes(7 + Blob.size() % 13, 3);
  }
  ScanResult R = scanForImages(Blob);
  REQUIRE(R.Images.size() == Want.size());
  for (size_t K = 0; K < Want.size(); ++K) {
    CHECK(R.Images[K].Offset == Want[K].Offset);
    CHECK(R.Images[K].Size == Want[K].Size);
    CHECK(imageExtent(StringRef(Blob).substr(Want[K].Offset)) == Want[K].Size);
  }
  // An image cut short is not an image (the price of no phantoms).
  const std::string &Elf = I.Bytes.at("elf");
  CHECK_FALSE(imageExtent(StringRef(Elf).drop_back(1)).has_value());
  CHECK(scanForImages(StringRef(Elf).drop_back(1)).Images.empty());
}

TEST_CASE("scan: a blob of plausible headers stops, and says so", "[scan]") {
  // Every 32 bytes a Mach-O header whose first load command is malformed:
  // each costs a libObject parse, and there are more than the budget allows.
  std::string Blob(64 << 20, '\0');
  for (size_t Off = 0; Off + 32 <= Blob.size(); Off += 32) {
    put<uint32_t>(Blob, Off, 0xfeedfacf);
    put<uint32_t>(Blob, Off + 4, 0x0100000c);
    put<uint32_t>(Blob, Off + 12, 6);
    put<uint32_t>(Blob, Off + 16, 1);
    put<uint32_t>(Blob, Off + 20, 8);
  }
  ScanResult R = scanForImages(Blob);
  CHECK(R.Images.empty());
  CHECK(R.Exhausted);
}

TEST_CASE("scan: a bare header whose tables overlap it is not an image",
          "[scan]") {
  // fuzz_package found this ELF32 header composed of planted fields in
  // otherwise random data: no program header, and one empty section whose
  // header overlaps the ELF header at offset 1. libObject accepts it.
  const unsigned char Header[] = {
      0x7f, 0x45, 0x4c, 0x46, 0x01, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01, 0x00, 0x01, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01,
      0x00, 0x00, 0x00, 0xcf, 0xfa, 0xed, 0xfe, 0x34, 0x00, 0x20, 0x00,
      0x00, 0x00, 0x28, 0x00, 0x01, 0x00, 0x00, 0x0c};
  std::string Blob = randomBytes(4096, 9);
  std::memcpy(&Blob[1000], Header, sizeof Header);
  CHECK_FALSE(imageExtent(StringRef(Blob).substr(1000)).has_value());
  CHECK(scanForImages(Blob).Images.empty());
}

namespace {

/// Issue 28's chain: 36-byte units, each a plausible 32-bit Mach-O header
/// (x86, a dylib) followed by the first 8 bytes of an unknown load command
/// of 36 bytes whose rest is the next unit's header. The header of unit K
/// declares the rest of the chain as its commands, so libObject walks them
/// all for every unit: quadratic in the chain's length.
std::string chain(size_t Size) {
  const size_t N = (Size - 32) / 36;
  std::string Blob(4, '\0'); // not a Mach-O file itself
  for (size_t K = 0; K < N; ++K) {
    const auto Left = static_cast<uint32_t>(N - K);
    for (uint32_t V : {0xfeedfaceu, 7u, 3u, 6u, Left, 36 * Left, 0u, 0x7fffu,
                       36u})
      Blob.append(reinterpret_cast<const char *>(&V), 4);
  }
  Blob.append(Size - Blob.size(), '\0');
  return Blob;
}

} // namespace

TEST_CASE("scan: a chain of plausible headers costs what its size allows, "
          "not its square (issue 28)",
          "[scan]") {
  for (size_t Size : {size_t(64) << 10, size_t(1) << 20, size_t(4) << 20}) {
    const std::string Blob = chain(Size);
    // The blob is what the issue describes: the first header's commands
    // are the whole chain.
    REQUIRE(Blob.compare(4, 4, "\xce\xfa\xed\xfe") == 0);
    ScanResult R = scanForImages(Blob);
    INFO("size " << Size << ", work " << R.Work << ", load commands "
                 << R.LoadCommands);
    CHECK(R.Images.empty());
    // The work charged stays within the budget, which is linear in the
    // size; and the load commands libObject was really handed, counted
    // apart from the charges, fit in it too: each is charged.
    CHECK(R.Work <= scanBudget(Blob.size()));
    CHECK(scanBudget(Blob.size()) <= Blob.size() + (uint64_t(1) << 18));
    CHECK(R.LoadCommands * 8 <= scanBudget(Blob.size()));
  }
}

TEST_CASE("scan: a segment of many sections is charged for libObject's "
          "quadratic overlap check",
          "[scan]") {
  // One 32-bit header, one LC_SEGMENT with 100 000 one-byte sections in
  // ascending order: MachOObjectFile::create checks each against every one
  // before it (a sorted std::list), seconds for this one candidate.
  const uint32_t S = 100000, CmdSize = 56 + 68 * S;
  const uint32_t Total = 28 + CmdSize + S;
  std::string Blob(4, '\0');
  auto u32 = [&](uint32_t V) { Blob.append(reinterpret_cast<char *>(&V), 4); };
  for (uint32_t V : {0xfeedfaceu, 7u, 3u, 6u, 1u, CmdSize, 0u, 1u, CmdSize})
    u32(V);
  Blob.append("__X\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
  for (uint32_t V : {0u, Total, 0u, Total, 7u, 7u, S, 0u})
    u32(V);
  for (uint32_t I = 0; I < S; ++I) {
    Blob.append(16, 's');
    Blob.append("__X\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
    for (uint32_t V : {I, 1u, 28 + CmdSize + I, 0u, 0u, 0u, 0u, 0u, 0u})
      u32(V);
  }
  Blob.append(S, '\x11');
  ScanResult R = scanForImages(Blob);
  CHECK(R.Images.empty());
  CHECK(R.Exhausted); // stopped before libObject was asked
  CHECK(R.Work <= scanBudget(Blob.size()));
}
