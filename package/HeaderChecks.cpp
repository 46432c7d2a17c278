//===- HeaderChecks.cpp - headers read by hand, before libObject ----------===//
#include "package/HeaderChecks.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MachO.h"
#include "llvm/Support/Endian.h"

#include <algorithm>

using namespace llvm;

namespace linkguard::package {
namespace {

/// The 32-bit word at Off of D (the caller has checked the bounds).
uint32_t be32(StringRef D, size_t Off) {
  return support::endian::read32be(D.substr(Off, 4).bytes_begin());
}
uint32_t le32(StringRef D, size_t Off) {
  return support::endian::read32le(D.substr(Off, 4).bytes_begin());
}

/// The CPU types a Mach-O or universal header may name.
constexpr uint32_t KnownCPUs[] = {
    MachO::CPU_TYPE_X86,      MachO::CPU_TYPE_X86_64,   MachO::CPU_TYPE_ARM,
    MachO::CPU_TYPE_ARM64,    MachO::CPU_TYPE_ARM64_32, MachO::CPU_TYPE_POWERPC,
    MachO::CPU_TYPE_POWERPC64};

bool knownCPU(uint32_t T) { return llvm::is_contained(KnownCPUs, T); }

} // namespace

/// mach_header(_64): magic, cputype, cpusubtype, filetype, ncmds,
/// sizeofcmds, flags.
bool plausibleMachO(StringRef D) {
  uint32_t Magic = le32(D, 0);
  bool Swap = Magic == MachO::MH_CIGAM || Magic == MachO::MH_CIGAM_64;
  bool Is64 = Magic == MachO::MH_MAGIC_64 || Magic == MachO::MH_CIGAM_64;
  if (!Swap && Magic != MachO::MH_MAGIC && Magic != MachO::MH_MAGIC_64)
    return false;
  auto field = [&](size_t I) { return Swap ? be32(D, 4 * I) : le32(D, 4 * I); };
  uint64_t Header = Is64 ? 32 : 28;
  uint32_t FileType = field(3), NCmds = field(4), SizeOfCmds = field(5);
  return D.size() >= Header && knownCPU(field(1)) && FileType >= 1 &&
         FileType <= MachO::MH_FILESET && NCmds >= 1 &&
         uint64_t(NCmds) * 8 <= SizeOfCmds && SizeOfCmds <= D.size() - Header;
}

/// fat_header + fat_arch(_64) records, big-endian.
bool plausibleFat(StringRef D) {
  uint32_t Magic = be32(D, 0);
  if (Magic != MachO::FAT_MAGIC && Magic != MachO::FAT_MAGIC_64)
    return false;
  uint64_t Record = Magic == MachO::FAT_MAGIC ? 20 : 32;
  uint32_t N = be32(D, 4);
  if (N == 0 || N > 64 || 8 + N * Record > D.size())
    return false;
  for (uint32_t I = 0; I < N; ++I)
    if (!knownCPU(be32(D, 8 + I * Record)))
      return false;
  return true;
}

/// Elf32_Ehdr / Elf64_Ehdr: identification, version 1, sizes that match
/// the class, a type that is an object, executable or shared object.
bool plausibleELF(StringRef D) {
  if (!D.starts_with(ELF::ElfMagic) || D.size() < sizeof(ELF::Elf32_Ehdr))
    return false;
  unsigned char Class = D[ELF::EI_CLASS], Data = D[ELF::EI_DATA];
  if ((Class != ELF::ELFCLASS32 && Class != ELF::ELFCLASS64) ||
      (Data != ELF::ELFDATA2LSB && Data != ELF::ELFDATA2MSB) ||
      D[ELF::EI_VERSION] != ELF::EV_CURRENT)
    return false;
  for (size_t I = ELF::EI_PAD; I < ELF::EI_NIDENT; ++I)
    if (D[I] != 0)
      return false;
  bool Is64 = Class == ELF::ELFCLASS64;
  if (Is64 && D.size() < sizeof(ELF::Elf64_Ehdr))
    return false;
  auto u16 = [&](size_t Off) {
    return Data == ELF::ELFDATA2LSB ? support::endian::read16le(D.data() + Off)
                                    : support::endian::read16be(D.data() + Off);
  };
  auto u32 = [&](size_t Off) {
    return Data == ELF::ELFDATA2LSB ? le32(D, Off) : be32(D, Off);
  };
  uint16_t Type = u16(16);
  size_t Tail = Is64 ? 52 : 40; // e_ehsize
  uint16_t EhSize = u16(Tail), PhEntSize = u16(Tail + 2), PhNum = u16(Tail + 4);
  uint16_t ShEntSize = u16(Tail + 6), ShNum = u16(Tail + 8);
  uint64_t WantPh = Is64 ? sizeof(ELF::Elf64_Phdr) : sizeof(ELF::Elf32_Phdr);
  uint64_t WantSh = Is64 ? sizeof(ELF::Elf64_Shdr) : sizeof(ELF::Elf32_Shdr);
  return (Type == ELF::ET_REL || Type == ELF::ET_EXEC || Type == ELF::ET_DYN) &&
         u32(20) == ELF::EV_CURRENT &&
         EhSize == (Is64 ? sizeof(ELF::Elf64_Ehdr) : sizeof(ELF::Elf32_Ehdr)) &&
         (PhNum == 0 || PhEntSize == WantPh) &&
         (ShNum == 0 || ShEntSize == WantSh) &&
         // A linked image has program headers; an object file, sections.
         (Type == ELF::ET_REL ? ShNum != 0 : PhNum != 0);
}

bool reach(uint64_t &End, uint64_t Off, uint64_t Size) {
  if (Size == 0)
    return true;
  if (Off > UINT64_MAX - Size)
    return false;
  End = std::max(End, Off + Size);
  return true;
}

std::optional<uint64_t> elfHeaderExtent(StringRef D, WorkBudget &Budget) {
  bool Is64 = D[ELF::EI_CLASS] == ELF::ELFCLASS64;
  bool LE = D[ELF::EI_DATA] == ELF::ELFDATA2LSB;
  auto u16 = [&](uint64_t Off) {
    return LE ? support::endian::read16le(D.data() + Off)
              : support::endian::read16be(D.data() + Off);
  };
  auto u32 = [&](uint64_t Off) { return LE ? le32(D, Off) : be32(D, Off); };
  auto word = [&](uint64_t Off) -> uint64_t {
    if (!Is64)
      return u32(Off);
    return LE ? support::endian::read64le(D.data() + Off)
              : support::endian::read64be(D.data() + Off);
  };
  size_t Tail = Is64 ? 52 : 40;
  uint64_t PhOff = word(Is64 ? 32 : 28), ShOff = word(Is64 ? 40 : 32);
  uint64_t PhEnt = u16(Tail + 2), PhNum = u16(Tail + 4);
  uint64_t ShEnt = u16(Tail + 6), ShNum = u16(Tail + 8);
  uint64_t End = u16(Tail);
  auto inside = [&](uint64_t Off, uint64_t Size) {
    return reach(End, Off, Size) && End <= D.size();
  };
  // Linkers put both tables after the header, aligned to the word size.
  uint64_t Word = Is64 ? 8 : 4;
  auto table = [&](uint64_t Off, uint64_t Num) {
    return Num == 0 || (Off >= End && Off % Word == 0);
  };
  if (!table(PhOff, PhNum) || !table(ShOff, ShNum) ||
      !inside(PhOff, PhNum * PhEnt))
    return std::nullopt;
  if (ShNum == 0 && ShOff != 0) { // more than 0xff00 sections: sh_size of [0]
    // plausibleELF checked e_shentsize only for a non-zero e_shnum.
    uint64_t WantSh = Is64 ? sizeof(ELF::Elf64_Shdr) : sizeof(ELF::Elf32_Shdr);
    if (ShEnt != WantSh || !table(ShOff, 1) || !inside(ShOff, ShEnt))
      return std::nullopt;
    ShNum = word(ShOff + (Is64 ? 32 : 20));
  }
  if (ShNum > (D.size() / std::max<uint64_t>(ShEnt, 1)) ||
      !inside(ShOff, ShNum * ShEnt) || !Budget.spend((PhNum + ShNum) * ELFEntryUnits))
    return std::nullopt;
  for (uint64_t I = 0; I < PhNum; ++I) {
    uint64_t P = PhOff + I * PhEnt;
    if (!inside(word(P + (Is64 ? 8 : 4)), word(P + (Is64 ? 32 : 16))))
      return std::nullopt;
  }
  for (uint64_t I = 0; I < ShNum; ++I) {
    uint64_t S = ShOff + I * ShEnt;
    if (u32(S + 4) != ELF::SHT_NOBITS &&
        !inside(word(S + (Is64 ? 24 : 16)), word(S + (Is64 ? 32 : 20))))
      return std::nullopt;
  }
  return End;
}

} // namespace linkguard::package
