//===- Universal.h - fat headers and object files without createBinary -*- C++
//-*-===//
//
// llvm::object::createBinary and MachOUniversalBinary are the usual doors
// into libObject, but the files that define them (Binary.cpp,
// MachOUniversal.cpp) also reach IRObjectFile, the bitcode reader, TAPI and
// archives: linked statically, that brings LLVM IR, MC and their option
// registrations into every linkguard process, and their static initializers
// run on every compile step (docs/reliability.md, "Start-up"). objlib reads
// only Mach-O and ELF, so it opens them by their format's own factory
// (ObjectFile::createMachOObjectFile, ObjectFile::createELFObjectFile) and
// reads a universal file's fat header itself, with the checks and the
// messages of MachOUniversalBinary::create (llvm/lib/Object/MachOUniversal.cpp,
// LLVM 19): every slice inside the file, aligned, past the headers, no two
// of one architecture, no two overlapping.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm::object {
class MachOObjectFile;
class ObjectFile;
} // namespace llvm::object

namespace linkguard::objlib {

/// One fat_arch or fat_arch_64 entry, in host byte order.
struct FatArch {
  uint32_t CpuType = 0;
  uint32_t CpuSubType = 0;
  uint64_t Offset = 0;
  uint64_t Size = 0;
  uint32_t Align = 0;
};

/// A universal file's header: FAT_MAGIC or FAT_MAGIC_64, and its slices in
/// table order.
struct FatHeader {
  bool Is64 = false;
  std::vector<FatArch> Archs;
  /// The size of the header and its table: no slice starts before it.
  uint64_t headerSize() const;
};

/// Parses and validates the fat header at the start of Data (the whole
/// file) as MachOUniversalBinary::create does; errors are the ones it
/// returns ("truncated or malformed fat file (...)"). The caller bounds
/// the number of entries before calling (objlib/Reader.cpp: MaxFatArchs).
llvm::Expected<FatHeader> parseFatHeader(llvm::StringRef Data);

/// The architecture's name as lipo and MachOUniversalBinary spell it
/// ("arm64", "x86_64"), or "" for a cputype LLVM does not know.
std::string fatArchName(const FatArch &A);

/// The slice as a Mach-O object file (ObjectForArch::getAsObjectFile).
/// Data is the whole file, Name the file's name.
llvm::Expected<std::unique_ptr<llvm::object::MachOObjectFile>>
fatSliceObject(llvm::StringRef Data, llvm::StringRef Name, const FatArch &A,
               uint32_t Index);

/// createBinary for the two formats objlib reads: a thin Mach-O or an ELF
/// file of any class and byte order, by Magic (identify_magic of Buffer).
/// Any other kind, universal files included, is object_error::
/// invalid_file_type, as createBinary reports a file it does not recognize.
llvm::Expected<std::unique_ptr<llvm::object::ObjectFile>>
openObjectFile(llvm::MemoryBufferRef Buffer, llvm::file_magic Magic);

/// Whether Magic is one of the Mach-O or ELF kinds openObjectFile opens.
bool isMachOMagic(llvm::file_magic Magic);
bool isELFMagic(llvm::file_magic Magic);

} // namespace linkguard::objlib
