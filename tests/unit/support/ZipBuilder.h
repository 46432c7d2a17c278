//===- ZipBuilder.h - write zip archives, honest or lying, for tests -*- C++
//-*-===//
//
// Writes the APPNOTE.TXT structures byte by byte (local headers, data,
// optional data descriptors, central directory, zip64 end record and
// locator, end record) with every field the reader checks open to a lie:
// sizes, CRC, method, names, offsets, counts. Deflate is zlib's raw
// deflate, as in a real zip.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <zlib.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace linkguard::test {

struct ZipItem {
  std::string Name;
  std::string Data;
  bool Deflate = false;
  bool Zip64 = false;             // escape sizes and offset, use zip64 extras
  bool DataDescriptor = false;    // flag bit 3: local header sizes are 0
  uint16_t ExtraFlags = 0;        // ORed into the flags (1 = encrypted)
  std::optional<uint16_t> Method; // declared, both headers
  std::optional<uint32_t> Crc;    // declared, both headers
  std::optional<uint64_t> CentralCompressed; // declared in the directory
  std::optional<uint64_t> CentralUncompressed;
  std::optional<uint64_t> LocalUncompressed;  // declared in the local header
  std::optional<uint64_t> CentralLocalOffset; // where the directory points
  std::optional<std::string> LocalName;       // name in the local header
  size_t Padding = 0; // extra-field bytes in the local header (PyTorch's "FB")
};

class ZipBuilder {
public:
  std::vector<ZipItem> Items;
  std::string Prefix;    // bytes before the archive (a self-extractor stub)
  bool Zip64End = false; // zip64 end record + locator, escaped end record
  std::optional<uint64_t> DeclaredEntries; // entries the end record claims
  std::optional<uint64_t> DeclaredDirOffset;
  std::string Comment;

  std::string build() const {
    std::string Out;
    std::vector<uint64_t> Offsets;
    std::vector<std::string> Packed;
    for (const ZipItem &I : Items) {
      std::string Body = I.Deflate ? deflate(I.Data) : I.Data;
      Packed.push_back(Body);
      Offsets.push_back(Out.size());
      uint32_t Crc = I.Crc.value_or(crc(I.Data));
      uint64_t Comp = Body.size(), Uncomp = I.Data.size();
      std::string LName = I.LocalName.value_or(I.Name);
      std::string Extra;
      if (I.Zip64)
        Extra = zip64Extra({I.LocalUncompressed.value_or(Uncomp), Comp});
      if (I.Padding) {
        put16(Extra, 0x4246); // "FB"
        put16(Extra, static_cast<uint16_t>(I.Padding));
        Extra.append(I.Padding, 'Z');
      }
      put32(Out, 0x04034b50);
      put16(Out, 45);
      put16(Out, flags(I));
      put16(Out, I.Method.value_or(I.Deflate ? 8 : 0));
      put32(Out, 0); // time, date
      bool DD = I.DataDescriptor;
      put32(Out, DD ? 0 : Crc);
      put32(Out, DD ? 0 : I.Zip64 ? 0xffffffff : uint32_t(Comp));
      put32(Out, DD        ? 0
                 : I.Zip64 ? 0xffffffff
                           : uint32_t(I.LocalUncompressed.value_or(Uncomp)));
      put16(Out, static_cast<uint16_t>(LName.size()));
      put16(Out, static_cast<uint16_t>(Extra.size()));
      Out += LName + Extra + Body;
      if (DD) {
        put32(Out, 0x08074b50);
        put32(Out, Crc);
        put32(Out, uint32_t(Comp));
        put32(Out, uint32_t(Uncomp));
      }
    }
    uint64_t DirStart = Out.size();
    for (size_t K = 0; K < Items.size(); ++K) {
      const ZipItem &I = Items[K];
      uint64_t Comp = I.CentralCompressed.value_or(Packed[K].size());
      uint64_t Uncomp = I.CentralUncompressed.value_or(I.Data.size());
      uint64_t Local = I.CentralLocalOffset.value_or(Offsets[K]);
      std::string Extra;
      if (I.Zip64)
        Extra = zip64Extra({Uncomp, Comp, Local});
      put32(Out, 0x02014b50);
      put16(Out, 45);
      put16(Out, 45);
      put16(Out, flags(I));
      put16(Out, I.Method.value_or(I.Deflate ? 8 : 0));
      put32(Out, 0);
      put32(Out, I.Crc.value_or(crc(I.Data)));
      put32(Out, I.Zip64 ? 0xffffffff : uint32_t(Comp));
      put32(Out, I.Zip64 ? 0xffffffff : uint32_t(Uncomp));
      put16(Out, static_cast<uint16_t>(I.Name.size()));
      put16(Out, static_cast<uint16_t>(Extra.size()));
      put16(Out, 0); // comment
      put16(Out, 0); // disk
      put16(Out, 0); // internal attributes
      put32(Out, 0); // external attributes
      put32(Out, I.Zip64 ? 0xffffffff : uint32_t(Local));
      Out += I.Name + Extra;
    }
    uint64_t DirSize = Out.size() - DirStart;
    uint64_t Entries = DeclaredEntries.value_or(Items.size());
    uint64_t DirOffset = DeclaredDirOffset.value_or(DirStart);
    if (Zip64End) {
      uint64_t End64 = Out.size();
      put32(Out, 0x06064b50);
      put64(Out, 44);
      put16(Out, 45);
      put16(Out, 45);
      put32(Out, 0);
      put32(Out, 0);
      put64(Out, Entries);
      put64(Out, Entries);
      put64(Out, DirSize);
      put64(Out, DirOffset);
      put32(Out, 0x07064b50);
      put32(Out, 0);
      put64(Out, End64);
      put32(Out, 1);
    }
    put32(Out, 0x06054b50);
    put16(Out, 0);
    put16(Out, 0);
    put16(Out, Zip64End ? 0xffff : uint16_t(Entries));
    put16(Out, Zip64End ? 0xffff : uint16_t(Entries));
    put32(Out, Zip64End ? 0xffffffff : uint32_t(DirSize));
    put32(Out, Zip64End ? 0xffffffff : uint32_t(DirOffset));
    put16(Out, static_cast<uint16_t>(Comment.size()));
    Out += Comment;
    return Prefix + Out;
  }

  static std::string deflate(const std::string &In) {
    z_stream Z{};
    deflateInit2(&Z, 9, Z_DEFLATED, -MAX_WBITS, 9, Z_DEFAULT_STRATEGY);
    std::string Out(deflateBound(&Z, In.size()), '\0');
    Z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(In.data()));
    Z.avail_in = static_cast<uInt>(In.size());
    Z.next_out = reinterpret_cast<Bytef *>(Out.data());
    Z.avail_out = static_cast<uInt>(Out.size());
    ::deflate(&Z, Z_FINISH);
    Out.resize(Z.total_out);
    deflateEnd(&Z);
    return Out;
  }

  static uint32_t crc(const std::string &S) {
    return static_cast<uint32_t>(
        crc32_z(0, reinterpret_cast<const Bytef *>(S.data()), S.size()));
  }

private:
  static uint16_t flags(const ZipItem &I) {
    return static_cast<uint16_t>((I.DataDescriptor ? 8 : 0) | I.ExtraFlags);
  }
  static std::string zip64Extra(std::vector<uint64_t> Values) {
    std::string E;
    put16(E, 1);
    put16(E, static_cast<uint16_t>(8 * Values.size()));
    for (uint64_t V : Values)
      put64(E, V);
    return E;
  }
  static void put16(std::string &S, uint16_t V) {
    S += char(V & 0xff);
    S += char(V >> 8);
  }
  static void put32(std::string &S, uint32_t V) {
    put16(S, uint16_t(V & 0xffff));
    put16(S, uint16_t(V >> 16));
  }
  static void put64(std::string &S, uint64_t V) {
    put32(S, uint32_t(V & 0xffffffff));
    put32(S, uint32_t(V >> 32));
  }
};

} // namespace linkguard::test
