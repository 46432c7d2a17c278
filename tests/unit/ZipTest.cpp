//===- ZipTest.cpp - package::ZipArchive on honest and hostile archives ---===//
//
// Archives are written byte by byte by support/ZipBuilder.h (stored,
// deflated with zlib, zip64 extras and end records, data descriptors,
// PyTorch's "FB" padding, prepended bytes), then lied about one field at a
// time. Every refusal must be an objlib::ReadError of kind Malformed (exit
// 65 at the CLI) whose message names the archive or the member.
//
//===----------------------------------------------------------------------===//
#include "package/Container.h"
#include "package/Zip.h"

#include "objlib/Reader.h"
#include "support/ZipBuilder.h"

#include "tests/unit/support/Catch.h"
#include "tests/unit/support/TempTree.h"

#include <random>

using namespace linkguard;
using namespace linkguard::package;
using linkguard::test::ZipBuilder;
using linkguard::test::ZipItem;
using namespace llvm;

namespace {

Expected<ZipArchive> openZip(const std::string &Bytes, ZipLimits L = {}) {
  return ZipArchive::open(MemoryBufferRef(Bytes, "t.zip"), "t.zip", L);
}

/// The message of a ReadError of kind Malformed; fails the test otherwise.
std::string malformedMessage(Error E) {
  REQUIRE(static_cast<bool>(E));
  std::string Msg;
  bool Kind = false;
  handleAllErrors(std::move(E), [&](const objlib::ReadError &R) {
    Kind = R.kind() == objlib::ReadErrorKind::Malformed;
    Msg = R.message();
  });
  CHECK(Kind);
  return Msg;
}

std::string openError(const std::string &Bytes, ZipLimits L = {}) {
  Expected<ZipArchive> Z = openZip(Bytes, L);
  REQUIRE_FALSE(static_cast<bool>(Z));
  return malformedMessage(Z.takeError());
}

std::string readError(const std::string &Bytes, ZipLimits L = {}) {
  Expected<ZipArchive> Z = openZip(Bytes, L);
  REQUIRE(static_cast<bool>(Z));
  Expected<MemberData> D = Z->read(Z->entries().front());
  REQUIRE_FALSE(static_cast<bool>(D));
  return malformedMessage(D.takeError());
}

std::string readBack(const ZipArchive &Z, const ZipEntry &E) {
  Expected<MemberData> D = Z.read(E);
  REQUIRE(static_cast<bool>(D));
  return D->ref().getBuffer().str();
}

std::string randomBytes(size_t N, unsigned Seed) {
  std::mt19937_64 Gen(Seed);
  std::string S(N, '\0');
  for (char &C : S)
    C = static_cast<char>(Gen());
  return S;
}

ZipItem item(std::string Name, std::string Data, bool Deflate) {
  ZipItem I;
  I.Name = std::move(Name);
  I.Data = std::move(Data);
  I.Deflate = Deflate;
  return I;
}

const std::string Elfish = std::string("\x7f"
                                       "ELF",
                                       4) +
                           std::string(300, 'e');

} // namespace

TEST_CASE("zip: stored and deflated members read back byte for byte", "[zip]") {
  ZipBuilder B;
  B.Items = {item("m/archive_format", "pt2", false),
             item("m/data/aotinductor/model/model.so", Elfish, false),
             item("lib/big.so", randomBytes(200000, 1), true),
             item("lib/zeros.bin", std::string(100000, '\0'), true),
             item("empty", "", true),
             item("dir/", "", false)};
  B.Items[1].Padding = 21; // PyTorchStreamWriter's 64-byte alignment field
  B.Comment = "a comment with PK\x05\x06 inside";
  std::string Bytes = B.build();
  Expected<ZipArchive> Z = openZip(Bytes);
  REQUIRE(static_cast<bool>(Z));
  REQUIRE(Z->entries().size() == 6);
  for (size_t I = 0; I < B.Items.size(); ++I) {
    CHECK(Z->entries()[I].Name == B.Items[I].Name);
    CHECK(readBack(*Z, Z->entries()[I]) == B.Items[I].Data);
  }
  CHECK(Z->entries()[5].isDirectory());
  CHECK(Z->hasMember("lib/big.so"));
  CHECK_FALSE(Z->hasMember("lib/missing.so"));
  CHECK(Z->memberName(Z->entries()[1]) ==
        "t.zip!m/data/aotinductor/model/model.so");
  // peek inflates only what it is asked for.
  Expected<std::string> Head = Z->peek(Z->entries()[2], 64);
  REQUIRE(static_cast<bool>(Head));
  CHECK(*Head == B.Items[2].Data.substr(0, 64));
}

TEST_CASE("zip: members handed out are 16-byte aligned", "[zip]") {
  for (size_t Pad = 0; Pad < 16; ++Pad) {
    ZipBuilder B;
    B.Items = {item("a.so", Elfish, false)};
    B.Items[0].Padding = Pad;
    std::string Bytes = B.build();
    Expected<ZipArchive> Z = openZip(Bytes);
    REQUIRE(static_cast<bool>(Z));
    Expected<MemberData> D = Z->read(Z->entries()[0]);
    REQUIRE(static_cast<bool>(D));
    CHECK(reinterpret_cast<uintptr_t>(D->ref().getBufferStart()) % 16 == 0);
    CHECK(D->ref().getBuffer() == Elfish);
  }
}

TEST_CASE("zip: zip64 extras, zip64 end records, descriptors, prefixes",
          "[zip]") {
  ZipBuilder B;
  B.Items = {item("a.so", Elfish, false), item("b.so", Elfish, true),
             item("c.txt", "text", true)};
  B.Items[0].Zip64 = true;
  B.Items[1].Zip64 = true;
  B.Items[2].DataDescriptor = true;
  B.Zip64End = true;
  B.Prefix = "#!/bin/sh\nexit 0\n"; // a self-extractor stub before the zip
  std::string Bytes = B.build();
  Expected<ZipArchive> Z = openZip(Bytes);
  REQUIRE(static_cast<bool>(Z));
  REQUIRE(Z->entries().size() == 3);
  CHECK(readBack(*Z, Z->entries()[0]) == Elfish);
  CHECK(readBack(*Z, Z->entries()[1]) == Elfish);
  CHECK(readBack(*Z, Z->entries()[2]) == "text");
}

TEST_CASE("zip: a deflated member past the in-memory cap streams to a "
          "temporary file",
          "[zip]") {
  std::string Big = randomBytes(3 << 20, 7);
  ZipBuilder B;
  B.Items = {item("big.so", Big, true)};
  std::string Bytes = B.build();
  ZipLimits L;
  L.InMemoryCap = 64 << 10;
  Expected<ZipArchive> Z = openZip(Bytes, L);
  REQUIRE(static_cast<bool>(Z));
  Expected<MemberData> D = Z->read(Z->entries()[0]);
  REQUIRE(static_cast<bool>(D));
  CHECK(D->ref().getBuffer() == Big);
  // The same member under the default cap is inflated in memory: equal.
  Expected<ZipArchive> Z2 = openZip(Bytes);
  REQUIRE(static_cast<bool>(Z2));
  CHECK(readBack(*Z2, Z2->entries()[0]) == Big);
}

TEST_CASE("zip: lying sizes, CRCs, names and methods are refused", "[zip]") {
  auto one = [](ZipItem I) {
    ZipBuilder B;
    B.Items = {std::move(I)};
    return B.build();
  };
  ZipItem Base = item("m.so", Elfish, true);

  ZipItem I = Base;
  I.DataDescriptor = true; // the directory alone says how long the data is
  I.CentralCompressed = 1 << 20;
  CHECK_THAT(openError(one(I)),
             Catch::Contains("t.zip!m.so") && Catch::Contains("past the end"));

  I = Base;
  I.CentralUncompressed = Elfish.size() + 1; // local header disagrees
  CHECK_THAT(openError(one(I)), Catch::Contains("local header declares"));

  I = Base; // both headers agree on a size the stream does not produce
  I.CentralUncompressed = I.LocalUncompressed = Elfish.size() - 10;
  CHECK_THAT(readError(one(I)), Catch::Contains("more than its declared"));
  I.CentralUncompressed = I.LocalUncompressed = Elfish.size() + 10;
  CHECK_THAT(readError(one(I)), Catch::Contains("only 304 of its declared"));

  I = Base;
  I.Crc = 0x12345678;
  CHECK_THAT(readError(one(I)), Catch::Contains("CRC-32"));
  I.Deflate = false;
  CHECK_THAT(readError(one(I)), Catch::Contains("CRC-32"));

  I = item("m.so", Elfish, false); // stored, but sizes differ
  I.CentralUncompressed = I.LocalUncompressed = 10;
  CHECK_THAT(openError(one(I)), Catch::Contains("stored, but declares"));

  I = Base;
  I.LocalName = "other.so";
  CHECK_THAT(openError(one(I)), Catch::Contains("local header names"));

  I = Base;
  I.CentralLocalOffset = 7;
  CHECK_THAT(openError(one(I)), Catch::Contains("no local header"));

  I = Base;
  I.Method = 12; // bzip2: cannot tell whether it is a binary
  Expected<ZipArchive> Z = openZip(one(I));
  REQUIRE(static_cast<bool>(Z));
  CHECK_THAT(malformedMessage(Z->peek(Z->entries()[0], 8).takeError()),
             Catch::Contains("compression method 12 is not supported"));

  I = Base;
  I.ExtraFlags = 1;
  Z = openZip(one(I));
  REQUIRE(static_cast<bool>(Z));
  CHECK_THAT(malformedMessage(Z->read(Z->entries()[0]).takeError()),
             Catch::Contains("encrypted"));
}

TEST_CASE("zip: bombs are refused before anything is inflated", "[zip]") {
  // Overlapping entries: many directory entries share one local header.
  ZipBuilder B;
  B.Items = {item("a.so", std::string(5000, 'a'), true),
             item("b.so", std::string(5000, 'a'), true)};
  B.Items[1].CentralLocalOffset = 0;
  B.Items[1].LocalName = "a.so";
  B.Items[1].Name = "a.so";
  CHECK_THAT(openError(B.build()), Catch::Contains("share bytes"));

  // A ratio no deflate stream can reach.
  ZipItem I = item("bomb.so", std::string(5000, 'a'), true);
  I.CentralUncompressed = I.LocalUncompressed = uint64_t(1) << 40;
  I.Zip64 = true;
  ZipBuilder C;
  C.Items = {I};
  CHECK_THAT(openError(C.build()),
             Catch::Contains("more than deflate can produce"));

  // Honest but over the per-member limit: refused when read, not inflated.
  ZipBuilder D;
  D.Items = {item("noise.so", randomBytes(2 << 20, 3), true)};
  ZipLimits L;
  L.MaxMemberSize = 1 << 20;
  CHECK_THAT(readError(D.build(), L), Catch::Contains("limit for one member"));
}

TEST_CASE("zip: truncated and inconsistent directories are refused", "[zip]") {
  ZipBuilder B;
  B.Items = {item("a.so", Elfish, true), item("b.txt", "text", false)};
  std::string Good = B.build();
  // Every truncation: an error naming the archive, never a crash.
  for (size_t N = 0; N < Good.size(); ++N) {
    Expected<ZipArchive> Z = openZip(Good.substr(0, N));
    INFO("truncated to " << N);
    REQUIRE_FALSE(static_cast<bool>(Z));
    CHECK_THAT(malformedMessage(Z.takeError()), Catch::StartsWith("t.zip"));
  }

  B.DeclaredEntries = 1000;
  CHECK_THAT(openError(B.build()), Catch::Contains("declares 1000 entries"));
  B.DeclaredEntries = 1;
  CHECK_THAT(openError(B.build()), Catch::Contains("central directory holds"));
  B.DeclaredEntries.reset();
  B.DeclaredDirOffset = 1 << 30;
  CHECK_THAT(openError(B.build()), Catch::Contains("does not fit"));

  B.DeclaredDirOffset.reset();
  B.Zip64End = true;
  std::string Z64 = B.build();
  // Break the zip64 end record's signature: the locator leads nowhere.
  size_t Rec = Z64.rfind(std::string("PK\x06\x06", 4));
  REQUIRE(Rec != std::string::npos);
  Z64[Rec] = 'X';
  CHECK_THAT(openError(Z64), Catch::Contains("zip64 end of central directory"));

  CHECK_THAT(openError("PK\x03\x04 not really a zip"),
             Catch::Contains("end of central directory record"));
  CHECK_THAT(openError("PK\x03\x04 not really a zip, only a long header"),
             Catch::Contains("no end of central directory record"));
}

namespace {

/// The names forEachImage gives the images of the file Bytes (written to a
/// temporary file), and its error, if any.
std::vector<std::string> imageNames(const std::string &Bytes, bool Scan,
                                    std::string &Error) {
  linkguard::testsupport::TempTree T;
  std::string Path = T.file("poly.whl", Bytes);
  ContainerOptions Opts;
  Opts.Scan = Scan;
  std::vector<std::string> Names;
  llvm::Error E = forEachImage(
      Path, Opts,
      [&](const Image &I) {
        Names.push_back(I.Name.substr(Path.size() - 8)); // "poly.whl..."
        if (I.Offset) // the prefix: exactly the bytes before the archive
          CHECK(I.Data.getBuffer() == Elfish);
      },
      [&](const std::string &Name, llvm::Error Err) {
        Error += Name + ": " + toString(std::move(Err));
      });
  if (E)
    Error += toString(std::move(E));
  return Names;
}

} // namespace

TEST_CASE("zip: an archive behind a binary or random bytes is a zip, and "
          "the binary in front is judged too (issue 28)",
          "[zip]") {
  ZipBuilder B;
  B.Items = {item("lib/m.so", Elfish, true), item("meta.json", "{}", false)};
  const std::string Zip = B.build();
  linkguard::testsupport::TempTree T;

  // `cat clean.so model.pt2 > poly.whl`: zipfile and unzip read the members.
  std::string Poly = Elfish + Zip;
  CHECK(endsWithZip(Poly));
  CHECK(classifyInput(T.file("a.whl", Poly)) == InputKind::Zip);
  Expected<ZipArchive> Z = openZip(Poly);
  REQUIRE(static_cast<bool>(Z));
  CHECK(Z->prefixSize() == Elfish.size());
  CHECK(readBack(*Z, Z->entries()[0]) == Elfish);
  std::string Error;
  CHECK(imageNames(Poly, false, Error) ==
        std::vector<std::string>{"poly.whl@0x0", "poly.whl!lib/m.so"});
  CHECK(Error.empty());

  // 100 random bytes in front: the member, and nothing for the prefix
  // unless --scan looks inside it.
  std::string Noise = randomBytes(100, 28) + Zip;
  Noise[0] = 'x'; // no magic by chance
  CHECK(classifyInput(T.file("b.whl", Noise)) == InputKind::Zip);
  CHECK(imageNames(Noise, false, Error) ==
        std::vector<std::string>{"poly.whl!lib/m.so"});
  CHECK(Error.empty());

  // zipfile also reads an archive followed by bytes its record does not
  // announce.
  CHECK(endsWithZip(Poly + "trailing"));
  CHECK(static_cast<bool>(openZip(Poly + "trailing")));

  // A plain zip has no prefix.
  Z = openZip(Zip);
  REQUIRE(static_cast<bool>(Z));
  CHECK(Z->prefixSize() == 0);
}

TEST_CASE("zip: four bytes PK\\5\\6 near the end of a binary are not a zip",
          "[zip]") {
  linkguard::testsupport::TempTree T;
  // An empty archive's record (a constant in a binary's data): no entry.
  std::string Empty = Elfish + std::string("PK\x05\x06", 4) +
                      std::string(18, '\0') + std::string(500, 'e');
  CHECK_FALSE(endsWithZip(Empty));
  // A record whose directory is not there.
  std::string Stray = Elfish + std::string("PK\x05\x06", 4) +
                      std::string("\0\0\0\0\x01\0\x01\0\x2e\0\0\0\x10\0\0\0\0\0",
                                  18);
  CHECK_FALSE(endsWithZip(Stray));
  CHECK(classifyInput(T.file("stray.so", Stray)) == InputKind::Binary);
  std::string Random = randomBytes(70000, 6);
  Random.replace(69000, 4, "PK\x05\x06");
  CHECK_FALSE(endsWithZip(Random));
  CHECK(classifyInput(T.file("random.bin", Random)) == InputKind::Other);
}

TEST_CASE("zip: members that declare more than the archive-wide limit are "
          "refused before anything is inflated (issue 28)",
          "[zip]") {
  // Three members that each declare 1 GiB from 1.1 MB: under deflate's
  // ratio and the per-member limit, 3 GiB together from a 3.3 MB archive.
  ZipBuilder B;
  for (int I = 0; I < 3; ++I) {
    B.Items.push_back(item("lib" + std::to_string(I) + ".so",
                           randomBytes(1100000, 40 + I), true));
    B.Items.back().CentralUncompressed = B.Items.back().LocalUncompressed =
        uint64_t(1) << 30;
  }
  const std::string Bytes = B.build();
  std::string Msg = openError(Bytes);
  CHECK_THAT(Msg, Catch::StartsWith("t.zip: its members declare 3221225472 "
                                    "bytes in all, more than the 2147483648 "
                                    "allowed for a " +
                                    std::to_string(Bytes.size()) +
                                    "-byte archive"));
  CHECK_THAT(Msg, Catch::Contains("--max-inflated"));

  // Raised, the archive opens; each lie is then caught when read.
  ZipLimits L;
  L.MaxTotalSize = uint64_t(4) << 30;
  Expected<ZipArchive> Z = openZip(Bytes, L);
  REQUIRE(static_cast<bool>(Z));
  CHECK(Z->totalLimit() == L.MaxTotalSize);

  // The default: the larger of 2 GiB and 100 times the archive's size.
  ZipBuilder Small;
  Small.Items = {item("a.so", Elfish, true)};
  Z = openZip(Small.build());
  REQUIRE(static_cast<bool>(Z));
  CHECK(Z->totalLimit() == uint64_t(2) << 30);
  // Set lower, it holds for an honest archive too.
  L.MaxTotalSize = 100;
  CHECK_THAT(openError(Small.build(), L),
             Catch::Contains("declare 304 bytes in all, more than the 100 "
                             "allowed (--max-inflated)"));
}
