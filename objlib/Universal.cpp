//===- Universal.cpp - fat headers and object files without createBinary
//---===//
#include "objlib/Universal.h"

#include "llvm/BinaryFormat/MachO.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/Error.h"
#include "llvm/Object/MachO.h"
#include "llvm/Support/Endian.h"

using namespace llvm;
using namespace llvm::object;

namespace linkguard::objlib {

namespace {

/// MachOUniversalBinary::MaxSectionAlignment: a slice aligned to more than
/// 2^15 is refused.
constexpr uint32_t MaxSliceAlign = 15;

Error fatError(const Twine &Why) {
  return make_error<GenericBinaryError>("truncated or malformed fat file (" +
                                            Why + ")",
                                        object_error::parse_failed);
}

/// "cputype (N) cpusubtype (M)", the capability bits masked off.
std::string archText(const FatArch &A) {
  return "cputype (" + std::to_string(A.CpuType) + ") cpusubtype (" +
         std::to_string(A.CpuSubType & ~MachO::CPU_SUBTYPE_MASK) + ")";
}

FatArch readEntry(const uint8_t *P, bool Is64) {
  using support::endian::read32be;
  using support::endian::read64be;
  FatArch A;
  A.CpuType = read32be(P);
  A.CpuSubType = read32be(P + 4);
  if (Is64) { // fat_arch_64: offset and size 64-bit, align, reserved
    A.Offset = read64be(P + 8);
    A.Size = read64be(P + 16);
    A.Align = read32be(P + 24);
  } else {
    A.Offset = read32be(P + 8);
    A.Size = read32be(P + 12);
    A.Align = read32be(P + 16);
  }
  return A;
}

/// One slice on its own: inside the file, aligned, after the headers.
Error checkSlice(const FatArch &A, uint64_t FileSize, uint64_t HeaderSize) {
  if (A.Offset > FileSize || A.Size > FileSize - A.Offset)
    return fatError("offset plus size of " + archText(A) +
                    " extends past the end of the file");
  if (A.Align > MaxSliceAlign)
    return fatError("align (2^" + Twine(A.Align) + ") too large for " +
                    archText(A) + " (maximum 2^" + Twine(MaxSliceAlign) + ")");
  if (A.Offset % (uint64_t(1) << A.Align) != 0)
    return fatError("offset: " + Twine(A.Offset) + " for " + archText(A) +
                    " not aligned on it's alignment (2^" + Twine(A.Align) +
                    ")");
  if (A.Offset < HeaderSize)
    return fatError(archText(A) + " offset " + Twine(A.Offset) +
                    " overlaps universal headers");
  return Error::success();
}

/// Two slices: not the same architecture, not overlapping (libObject's
/// three overlap cases: A starts inside B, A ends inside B, A covers B).
Error checkPair(const FatArch &A, const FatArch &B) {
  if (A.CpuType == B.CpuType && (A.CpuSubType & ~MachO::CPU_SUBTYPE_MASK) ==
                                    (B.CpuSubType & ~MachO::CPU_SUBTYPE_MASK))
    return fatError("contains two of the same architecture (" + archText(A) +
                    ")");
  const uint64_t AEnd = A.Offset + A.Size, BEnd = B.Offset + B.Size;
  const bool StartsInside = A.Offset >= B.Offset && A.Offset < BEnd;
  const bool EndsInside = AEnd > B.Offset && AEnd < BEnd;
  const bool Covers = A.Offset <= B.Offset && AEnd >= BEnd;
  if (StartsInside || EndsInside || Covers)
    return fatError(archText(A) + " at offset " + Twine(A.Offset) +
                    " with a size of " + Twine(A.Size) + ", overlaps " +
                    archText(B) + " at offset " + Twine(B.Offset) +
                    " with a size of " + Twine(B.Size));
  return Error::success();
}

} // namespace

uint64_t FatHeader::headerSize() const {
  return sizeof(MachO::fat_header) +
         Archs.size() *
             (Is64 ? sizeof(MachO::fat_arch_64) : sizeof(MachO::fat_arch));
}

Expected<FatHeader> parseFatHeader(StringRef Data) {
  if (Data.size() < sizeof(MachO::fat_header))
    return make_error<GenericBinaryError>(
        "File too small to be a Mach-O universal file",
        object_error::invalid_file_type);
  const auto *P = reinterpret_cast<const uint8_t *>(Data.data());
  const uint32_t Magic = support::endian::read32be(P);
  const uint64_t N = support::endian::read32be(P + 4);
  if (N == 0)
    return fatError("contains zero architecture types");
  if (Magic != MachO::FAT_MAGIC && Magic != MachO::FAT_MAGIC_64)
    return fatError("bad magic number");
  FatHeader H;
  H.Is64 = Magic == MachO::FAT_MAGIC_64;
  const uint64_t EntrySize =
      H.Is64 ? sizeof(MachO::fat_arch_64) : sizeof(MachO::fat_arch);
  if (sizeof(MachO::fat_header) + N * EntrySize > Data.size())
    return fatError(Twine("fat_arch") + (H.Is64 ? "_64" : "") +
                    " structs would extend past the end of the file");
  H.Archs.reserve(N);
  for (uint64_t I = 0; I < N; ++I)
    H.Archs.push_back(
        readEntry(P + sizeof(MachO::fat_header) + I * EntrySize, H.Is64));
  for (const FatArch &A : H.Archs)
    if (Error E = checkSlice(A, Data.size(), H.headerSize()))
      return std::move(E);
  for (size_t I = 0; I < H.Archs.size(); ++I)
    for (size_t J = I + 1; J < H.Archs.size(); ++J)
      if (Error E = checkPair(H.Archs[I], H.Archs[J]))
        return std::move(E);
  return H;
}

std::string fatArchName(const FatArch &A) {
  const char *McpuDefault = nullptr, *ArchFlag = nullptr;
  MachOObjectFile::getArchTriple(A.CpuType, A.CpuSubType, &McpuDefault,
                                 &ArchFlag);
  return ArchFlag ? ArchFlag : "";
}

Expected<std::unique_ptr<MachOObjectFile>> fatSliceObject(StringRef Data,
                                                          StringRef Name,
                                                          const FatArch &A,
                                                          uint32_t Index) {
  MemoryBufferRef Slice(Data.substr(A.Offset, A.Size), Name);
  return ObjectFile::createMachOObjectFile(Slice, A.CpuType, Index);
}

bool isMachOMagic(file_magic M) {
  switch (M) {
  case file_magic::macho_object:
  case file_magic::macho_executable:
  case file_magic::macho_fixed_virtual_memory_shared_lib:
  case file_magic::macho_core:
  case file_magic::macho_preload_executable:
  case file_magic::macho_dynamically_linked_shared_lib:
  case file_magic::macho_dynamic_linker:
  case file_magic::macho_bundle:
  case file_magic::macho_dynamically_linked_shared_lib_stub:
  case file_magic::macho_dsym_companion:
  case file_magic::macho_kext_bundle:
  case file_magic::macho_file_set:
    return true;
  default:
    return false;
  }
}

bool isELFMagic(file_magic M) {
  return M == file_magic::elf || M == file_magic::elf_relocatable ||
         M == file_magic::elf_executable ||
         M == file_magic::elf_shared_object || M == file_magic::elf_core;
}

Expected<std::unique_ptr<ObjectFile>> openObjectFile(MemoryBufferRef Buffer,
                                                     file_magic Magic) {
  if (isMachOMagic(Magic))
    return ObjectFile::createMachOObjectFile(Buffer);
  if (isELFMagic(Magic))
    return ObjectFile::createELFObjectFile(Buffer);
  return errorCodeToError(object_error::invalid_file_type);
}

} // namespace linkguard::objlib
