//===- ZipMember.cpp - a member's bytes: in place, inflated, or spilled ---===//
//
// Stored members are views into the (mapped) archive: a multi-gigabyte
// AOTInductor library with its weights appended costs only the pages
// libObject touches. Deflated members are inflated with zlib (raw deflate,
// windowBits -15, as in a zip) and held to their declared size and CRC-32:
// up to ZipLimits::InMemoryCap into one heap buffer, beyond it through a
// 1 MiB window into an unlinked temporary file that is then mapped
// read-only (sort(1)'s answer to the same problem). The compressed input is
// fed in 8 MiB pieces; from a mapped archive each is dropped once consumed,
// so inflating a gigabyte keeps about ten megabytes resident. A stored
// member at an odd offset (Python's zipfile does not align) is copied, since
// libObject reads ELF only from aligned memory.
//
//===----------------------------------------------------------------------===//
#include "package/Zip.h"

#include "package/Buffers.h"
#include "package/Errors.h"

#include "llvm/ADT/ScopeExit.h"

#include <zlib.h>

#include <algorithm>
#include <unistd.h>
#include <vector>

using namespace llvm;

namespace linkguard::package {
namespace {

constexpr uint16_t MethodStored = 0, MethodDeflated = 8;
constexpr size_t Window = size_t(1) << 20;

/// Compressed input is fed in pieces of this size; with a mapped archive,
/// each piece is dropped from memory once consumed.
constexpr size_t InputPiece = size_t(8) << 20;

/// A raw-deflate stream over one member's compressed bytes.
class Inflater {
public:
  Inflater(StringRef In, bool Release) : In(In), Release(Release) {
    Z.zalloc = Z_NULL;
    Z.zfree = Z_NULL;
    Z.opaque = Z_NULL;
    Ok = inflateInit2(&Z, -MAX_WBITS) == Z_OK;
  }
  ~Inflater() {
    if (Ok)
      inflateEnd(&Z);
  }
  Inflater(const Inflater &) = delete;
  Inflater &operator=(const Inflater &) = delete;

  /// Inflates up to Cap bytes into Out. Returns the count, or a reason.
  /// done() is true once the deflate stream has ended.
  Expected<size_t> next(char *Out, size_t Cap) {
    if (!Ok)
      return createStringError(inconvertibleErrorCode(),
                               "zlib cannot start a stream");
    Z.next_out = reinterpret_cast<Bytef *>(Out);
    Z.avail_out = static_cast<uInt>(std::min<size_t>(Cap, 1u << 30));
    size_t Before = Z.avail_out;
    while (Z.avail_out > 0 && !Done) {
      if (Z.avail_in == 0 && Used < In.size()) {
        if (Release && Used > 0)
          releaseFilePages(In.substr(Used - InputPiece, InputPiece));
        size_t N = std::min(In.size() - Used, InputPiece);
        Z.next_in =
            reinterpret_cast<Bytef *>(const_cast<char *>(In.data() + Used));
        Z.avail_in = static_cast<uInt>(N);
        Used += N;
      }
      int R = inflate(&Z, Z_NO_FLUSH);
      if (R == Z_STREAM_END) {
        Done = true;
        Trailing = Z.avail_in + (In.size() - Used);
      } else if (R == Z_BUF_ERROR && Z.avail_in == 0) {
        return createStringError(inconvertibleErrorCode(),
                                 "deflate stream is truncated");
      } else if (R != Z_OK) {
        return createStringError(inconvertibleErrorCode(),
                                 Twine("deflate stream is damaged: ") +
                                     (Z.msg ? Z.msg : "zlib error"));
      }
    }
    return Before - Z.avail_out;
  }
  bool done() const { return Done; }
  size_t trailing() const { return Trailing; }

private:
  StringRef In;
  bool Release;
  z_stream Z{};
  size_t Used = 0, Trailing = 0;
  bool Ok = false, Done = false;
};

uint32_t crcOf(uint32_t Crc, const char *P, size_t N) {
  return static_cast<uint32_t>(
      crc32_z(Crc, reinterpret_cast<const Bytef *>(P), N));
}

} // namespace

Expected<std::string> ZipArchive::peek(const ZipEntry &E, size_t N) const {
  N = static_cast<size_t>(std::min<uint64_t>(N, E.UncompressedSize));
  StringRef Data = Archive.getBuffer().substr(E.DataOffset, E.CompressedSize);
  if (E.isEncrypted())
    return memberError(E, "is encrypted");
  if (E.Method == MethodStored)
    return Data.take_front(N).str();
  if (E.Method != MethodDeflated)
    return memberError(E, "compression method " + Twine(E.Method) +
                              " is not supported (stored and deflated are)");
  std::string Out(N, '\0');
  Inflater I(Data, /*Release=*/false);
  size_t Got = 0;
  while (Got < N && !I.done()) {
    Expected<size_t> K = I.next(Out.data() + Got, N - Got);
    if (!K)
      return memberError(E, toString(K.takeError()));
    Got += *K;
  }
  Out.resize(Got);
  return Out;
}

Expected<MemberData> ZipArchive::read(const ZipEntry &E) const {
  if (Expected<std::string> Head = peek(E, 0); !Head) // method, encryption
    return Head.takeError();
  const std::string Id = memberName(E);
  if (E.UncompressedSize > Limits.MaxMemberSize)
    return memberError(E, "inflates to " + Twine(E.UncompressedSize) +
                              " bytes, more than the " +
                              Twine(Limits.MaxMemberSize) +
                              "-byte limit for one member");
  StringRef Data = Archive.getBuffer().substr(E.DataOffset, E.CompressedSize);
  if (E.Method == MethodStored) {
    // Larger stored members are read in place, unchecked: computing their
    // CRC would touch every page of a file that libObject reads a few of.
    if (E.UncompressedSize <= Limits.InMemoryCap &&
        crcOf(0, Data.data(), Data.size()) != E.Crc32)
      return memberError(E, "CRC-32 does not match its data");
    if (MappedFile) // what libObject needs it reads again
      releaseFilePages(Data);
    if (isImageAligned(Data))
      return MemberData(MemoryBufferRef(Data, Id));
    Expected<std::unique_ptr<MemoryBuffer>> Copy =
        alignedCopy(Data, Id, Limits.InMemoryCap);
    if (!Copy)
      return memberError(E, toString(Copy.takeError()));
    return MemberData(std::move(*Copy));
  }

  // Deflated: inflate everything, then ask for one byte more, so a stream
  // longer than its declared size is caught.
  const uint64_t Size = E.UncompressedSize;
  const bool InMemory = Size <= Limits.InMemoryCap;
  std::unique_ptr<WritableMemoryBuffer> Heap;
  std::vector<char> Spill;
  int FD = -1;
  if (InMemory) {
    Heap = WritableMemoryBuffer::getNewUninitMemBuffer(Size, Id);
    if (!Heap)
      return memberError(E, "cannot allocate " + Twine(Size) + " bytes");
  } else {
    Expected<int> F = anonymousFile();
    if (!F)
      return memberError(E, toString(F.takeError()));
    FD = *F;
    Spill.resize(Window);
  }
  auto closeSpill = make_scope_exit([&] {
    if (FD >= 0)
      ::close(FD);
  });

  Inflater I(Data, MappedFile);
  uint64_t Got = 0;
  uint32_t Crc = 0;
  char Extra;
  while (!I.done()) {
    char *Out = InMemory ? Heap->getBufferStart() + Got : Spill.data();
    size_t Room = static_cast<size_t>(
        std::min<uint64_t>(Size - Got, InMemory ? Size : Window));
    if (Room == 0) {
      Out = &Extra;
      Room = 1;
    }
    Expected<size_t> K = I.next(Out, Room);
    if (!K)
      return memberError(E, toString(K.takeError()));
    if (Got + *K > Size)
      return memberError(E, "inflates to more than its declared " +
                                Twine(Size) + " bytes");
    Crc = crcOf(Crc, Out, *K);
    if (!InMemory)
      if (Error W = writeAll(FD, StringRef(Out, *K)))
        return memberError(E, toString(std::move(W)));
    Got += *K;
  }
  if (Got != Size)
    return memberError(E, "inflates to only " + Twine(Got) +
                              " of its declared " + Twine(Size) + " bytes");
  if (I.trailing())
    return memberError(E, Twine(I.trailing()) +
                              " bytes follow the end of its deflate stream");
  if (Crc != E.Crc32)
    return memberError(E, "CRC-32 does not match its data");
  if (InMemory)
    return MemberData(std::move(Heap));
  Expected<std::unique_ptr<MemoryBuffer>> Mapped =
      mapAnonymousFile(FD, Size, Id);
  if (!Mapped)
    return memberError(E, toString(Mapped.takeError()));
  return MemberData(std::move(*Mapped));
}

} // namespace linkguard::package
