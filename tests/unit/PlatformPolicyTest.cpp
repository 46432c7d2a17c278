// contract/PlatformPolicy: wheel file names to platform promises, and a
// crafted CodeDirectory's bounds (signature/). Real files are judged in
// tests/e2e/platform.bash, signatures.bash and signatures_npm.bash.
#include "contract/PlatformPolicy.h"
#include "signature/CodeSignature.h"

#include "tests/unit/support/Catch.h"

#include <string>

using namespace linkguard;
using namespace linkguard::contract;

TEST_CASE("macOS versions pack as Mach-O stores them", "[platform]") {
  CHECK(parseMacOSVersion("11.0") == std::optional<uint32_t>(11u << 16));
  CHECK(parseMacOSVersion("10.15.4") == std::optional<uint32_t>(10u << 16 | 15u << 8 | 4u));
  CHECK(parseMacOSVersion("14") == std::optional<uint32_t>(14u << 16));
  CHECK_FALSE(parseMacOSVersion("eleven"));
  CHECK_FALSE(parseMacOSVersion("10.256"));
  CHECK_FALSE(parseMacOSVersion("1.2.3.4"));
  CHECK(formatMacOSVersion(10u << 16 | 15u << 8 | 4u) == "10.15.4");
  CHECK(formatMacOSVersion(11u << 16) == "11.0");
}

TEST_CASE("a wheel's name gives its platform promises", "[platform]") {
  CHECK_FALSE(wheelTarget("pkg.zip"));
  CHECK_FALSE(wheelTarget("not-a-wheel.whl"));
  std::optional<PlatformTarget> Pure = wheelTarget("six-1.16.0-py2.py3-none-any.whl");
  REQUIRE(Pure);
  CHECK(Pure->empty());

  std::optional<PlatformTarget> U = wheelTarget("/d/pkg-1.0-cp312-cp312-macosx_10_9_universal2.whl");
  REQUIRE(U);
  REQUIRE(U->Mac.size() == 2);
  CHECK(U->Mac[0].Arch == "arm64");
  CHECK(U->Mac[1].Arch == "x86_64");
  CHECK(U->Mac[1].MinOS == (10u << 16 | 9u << 8));
  CHECK(U->Mac[0].Required);

  // A tag set with a build number: both spellings of one policy are one promise.
  std::optional<PlatformTarget> L = wheelTarget(
      "pkg-1.0-1-cp312-cp312-manylinux_2_17_x86_64.manylinux2014_x86_64.whl");
  REQUIRE(L);
  REQUIRE(L->Linux.size() == 1);
  CHECK(L->Linux[0].Policy == "manylinux_2_17");
  CHECK(L->Linux[0].Arch == "x86_64");
  CHECK(L->Unknown.empty());

  std::optional<PlatformTarget> M = wheelTarget("pkg-1.0-cp312-cp312-musllinux_1_2_aarch64.whl");
  REQUIRE(M);
  REQUIRE(M->Linux.size() == 1);
  CHECK(M->Linux[0].Policy == "musllinux_1_2");

  // What cannot be judged is said, never dropped.
  std::optional<PlatformTarget> X =
      wheelTarget("pkg-1.0-cp312-cp312-manylinux_2_99_x86_64.macosx_11_0_sparc.whl");
  REQUIRE(X);
  CHECK(X->Unknown.size() == 2);
  CHECK(knownLinuxPolicy("manylinux_2_5", "i686"));
  CHECK_FALSE(knownLinuxPolicy("manylinux_2_5", "aarch64"));
}

TEST_CASE("a code signature's counts past its blob are malformed, never valid", "[signature]") {
  // A thin arm64 dylib header with one LC_CODE_SIGNATURE pointing at a
  // SuperBlob that claims 2^32-1 blobs.
  std::string B(4096 + 64, '\0');
  auto le32 = [&](size_t Off, uint32_t V) {
    for (int I = 0; I < 4; ++I)
      B[Off + I] = char(V >> (8 * I));
  };
  auto be32 = [&](size_t Off, uint32_t V) {
    for (int I = 0; I < 4; ++I)
      B[Off + I] = char(V >> (24 - 8 * I));
  };
  le32(0, 0xfeedfacf), le32(4, 0x0100000c), le32(12, 6 /*MH_DYLIB*/), le32(16, 1), le32(20, 16);
  le32(32, 0x1d), le32(36, 16), le32(40, 4096), le32(44, 64);
  be32(4096, 0xfade0cc0), be32(4100, 64), be32(4104, 0xffffffff);
  signature::SliceSignature R = signature::verifySlice(B, "arm64");
  CHECK(R.St == signature::State::Malformed);
  CHECK(R.Why.find("index entries") != std::string::npos);
  // The blob runs past the file.
  le32(44, 0x7fffffff);
  R = signature::verifySlice(B, "arm64");
  CHECK(R.St == signature::State::Malformed);
  // No LC_CODE_SIGNATURE: unsigned.
  le32(32, 0x19 /*LC_SEGMENT_64, as a placeholder*/);
  R = signature::verifySlice(B, "arm64");
  CHECK(R.St == signature::State::Unsigned);
  // The file's scope: an x86_64 slice is not judged unless asked.
  le32(4, 0x01000007);
  CHECK(signature::verifyFile(B, signature::Scope::Arm64).empty());
  CHECK(signature::verifyFile(B, signature::Scope::All).size() == 1);
}
