//===- ZipTest.cpp - package::ZipArchive on honest and hostile archives ---===//
//
// Archives are written byte by byte by support/ZipBuilder.h (stored,
// deflated with zlib, zip64 extras and end records, data descriptors,
// PyTorch's "FB" padding, prepended bytes), then lied about one field at a
// time. Every refusal must be an objlib::ReadError of kind Malformed (exit
// 65 at the CLI) whose message names the archive or the member.
//
//===----------------------------------------------------------------------===//
#include "package/Zip.h"

#include "objlib/Reader.h"
#include "support/ZipBuilder.h"

#include "tests/unit/support/Catch.h"

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
