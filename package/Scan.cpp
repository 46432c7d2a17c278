//===- Scan.cpp - plausible headers, libObject, and each image's extent ---===//
#include "package/Scan.h"

#include "package/Buffers.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MachO.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Object/Binary.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/MachO.h"
#include "llvm/Object/MachOUniversal.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <array>

using namespace llvm;
using namespace llvm::object;

namespace linkguard::package {
namespace {

/// The smallest header any candidate has (a 32-bit Mach-O header).
constexpr size_t MinHeader = 28;

/// The 32-bit word at Off of D (the caller has checked the bounds).
uint32_t be32(StringRef D, size_t Off) {
  return support::endian::read32be(D.substr(Off, 4).bytes_begin());
}
uint32_t le32(StringRef D, size_t Off) {
  return support::endian::read32le(D.substr(Off, 4).bytes_begin());
}

bool knownCPU(uint32_t T) {
  switch (T) {
  case MachO::CPU_TYPE_X86:
  case MachO::CPU_TYPE_X86_64:
  case MachO::CPU_TYPE_ARM:
  case MachO::CPU_TYPE_ARM64:
  case MachO::CPU_TYPE_ARM64_32:
  case MachO::CPU_TYPE_POWERPC:
  case MachO::CPU_TYPE_POWERPC64:
    return true;
  default:
    return false;
  }
}

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

/// What validating candidates may cost, in units of about 64 bytes read.
struct WorkBudget {
  uint64_t Left;
  bool Exhausted = false;
  bool spend(uint64_t N) {
    if (N > Left) {
      Exhausted = true;
      return false;
    }
    Left -= N;
    return true;
  }
};

/// The furthest byte an ELF image's header, program headers and sections
/// reach, read by hand: libObject reads ELF only from aligned memory, and
/// the copy that lets it must know how many bytes to take.
std::optional<uint64_t> elfHeaderExtent(StringRef D, WorkBudget &Budget);

/// End = max(End, Off + Size) for a non-empty range; overflow means "not an
/// image". An empty range (a count of zero) says nothing about its offset.
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
      !inside(ShOff, ShNum * ShEnt) || !Budget.spend(PhNum + ShNum))
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

template <class ELFT>
std::optional<uint64_t> elfExtent(const ELFObjectFile<ELFT> &Obj) {
  const ELFFile<ELFT> &F = Obj.getELFFile();
  const typename ELFT::Ehdr &H = F.getHeader();
  uint64_t End = H.e_ehsize;
  auto Phdrs = F.program_headers();
  auto Shdrs = F.sections();
  if (!Phdrs || !Shdrs) {
    consumeError(Phdrs.takeError());
    consumeError(Shdrs.takeError());
    return std::nullopt;
  }
  if (!reach(End, H.e_phoff, uint64_t(Phdrs->size()) * H.e_phentsize) ||
      (!Shdrs->empty() &&
       !reach(End, H.e_shoff, uint64_t(Shdrs->size()) * H.e_shentsize)))
    return std::nullopt;
  for (const typename ELFT::Phdr &P : *Phdrs)
    if (!reach(End, P.p_offset, P.p_filesz))
      return std::nullopt;
  for (const typename ELFT::Shdr &S : *Shdrs)
    if (S.sh_type != ELF::SHT_NOBITS && !reach(End, S.sh_offset, S.sh_size))
      return std::nullopt;
  return End;
}

std::optional<uint64_t> machOExtent(const MachOObjectFile &O) {
  uint64_t End = (O.is64Bit() ? sizeof(MachO::mach_header_64)
                              : sizeof(MachO::mach_header)) +
                 O.getHeader().sizeofcmds;
  bool Ok = true, Segment = false; // every real image has a segment
  for (const MachOObjectFile::LoadCommandInfo &L : O.load_commands()) {
    switch (L.C.cmd) {
    case MachO::LC_SEGMENT: {
      MachO::segment_command S = O.getSegmentLoadCommand(L);
      Ok &= reach(End, S.fileoff, S.filesize);
      Segment = true;
      break;
    }
    case MachO::LC_SEGMENT_64: {
      MachO::segment_command_64 S = O.getSegment64LoadCommand(L);
      Ok &= reach(End, S.fileoff, S.filesize);
      Segment = true;
      break;
    }
    case MachO::LC_SYMTAB: {
      MachO::symtab_command S = O.getSymtabLoadCommand();
      Ok &= reach(End, S.symoff, uint64_t(S.nsyms) * (O.is64Bit() ? 16 : 12)) &&
            reach(End, S.stroff, S.strsize);
      break;
    }
    case MachO::LC_DYLD_INFO:
    case MachO::LC_DYLD_INFO_ONLY: {
      MachO::dyld_info_command I = O.getDyldInfoLoadCommand(L);
      Ok &= reach(End, I.rebase_off, I.rebase_size) &&
            reach(End, I.bind_off, I.bind_size) &&
            reach(End, I.weak_bind_off, I.weak_bind_size) &&
            reach(End, I.lazy_bind_off, I.lazy_bind_size) &&
            reach(End, I.export_off, I.export_size);
      break;
    }
    case MachO::LC_CODE_SIGNATURE:
    case MachO::LC_SEGMENT_SPLIT_INFO:
    case MachO::LC_FUNCTION_STARTS:
    case MachO::LC_DATA_IN_CODE:
    case MachO::LC_DYLIB_CODE_SIGN_DRS:
    case MachO::LC_LINKER_OPTIMIZATION_HINT:
    case MachO::LC_DYLD_EXPORTS_TRIE:
    case MachO::LC_DYLD_CHAINED_FIXUPS: {
      MachO::linkedit_data_command D = O.getLinkeditDataLoadCommand(L);
      Ok &= reach(End, D.dataoff, D.datasize);
      break;
    }
    default:
      break;
    }
  }
  // Relocations of an object file (MH_OBJECT) sit after its one segment.
  for (const SectionRef &S : O.sections()) {
    DataRefImpl R = S.getRawDataRefImpl();
    uint64_t RelOff =
        O.is64Bit() ? O.getSection64(R).reloff : O.getSection(R).reloff;
    uint64_t NReloc =
        O.is64Bit() ? O.getSection64(R).nreloc : O.getSection(R).nreloc;
    if (NReloc)
      Ok &= reach(End, RelOff, NReloc * 8);
  }
  return Ok && Segment ? std::optional<uint64_t>(End) : std::nullopt;
}

std::optional<uint64_t> universalExtent(const MachOUniversalBinary &U) {
  uint64_t End = 8 + uint64_t(U.getNumberOfObjects()) *
                         (U.getMagic() == MachO::FAT_MAGIC ? 20 : 32);
  for (const MachOUniversalBinary::ObjectForArch &A : U.objects()) {
    Expected<std::unique_ptr<MachOObjectFile>> Slice = A.getAsObjectFile();
    if (!Slice) { // an archive slice is a static library, not an image
      consumeError(Slice.takeError());
      return std::nullopt;
    }
    std::optional<uint64_t> Inner = machOExtent(**Slice);
    if (!Inner || *Inner > A.getSize() ||
        !reach(End, A.getOffset(), A.getSize()))
      return std::nullopt;
  }
  return End;
}

std::optional<uint64_t> parsedExtent(StringRef Data) {
  Expected<std::unique_ptr<Binary>> Bin =
      createBinary(MemoryBufferRef(Data, "embedded"));
  if (!Bin) {
    consumeError(Bin.takeError());
    return std::nullopt;
  }
  if (auto *U = dyn_cast<MachOUniversalBinary>(Bin->get()))
    return universalExtent(*U);
  if (auto *M = dyn_cast<MachOObjectFile>(Bin->get()))
    return machOExtent(*M);
  if (auto *E = dyn_cast<ELF32LEObjectFile>(Bin->get()))
    return elfExtent(*E);
  if (auto *E = dyn_cast<ELF32BEObjectFile>(Bin->get()))
    return elfExtent(*E);
  if (auto *E = dyn_cast<ELF64LEObjectFile>(Bin->get()))
    return elfExtent(*E);
  if (auto *E = dyn_cast<ELF64BEObjectFile>(Bin->get()))
    return elfExtent(*E);
  return std::nullopt;
}

/// First bytes of every magic: ELF 7f, Mach-O ce/cf (little-endian) and fe
/// (big-endian), universal ca.
constexpr std::array<bool, 256> firstBytes() {
  std::array<bool, 256> T{};
  for (unsigned char C : {0x7f, 0xce, 0xcf, 0xfe, 0xca})
    T[C] = true;
  return T;
}

} // namespace

bool hasBinaryMagic(StringRef Head) {
  switch (identify_magic(Head)) {
  case file_magic::elf:
  case file_magic::elf_relocatable:
  case file_magic::elf_executable:
  case file_magic::elf_shared_object:
  case file_magic::elf_core:
  case file_magic::macho_universal_binary:
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

namespace {

std::optional<uint64_t> extentWithin(StringRef Data, WorkBudget &Budget) {
  if (Data.size() < MinHeader)
    return std::nullopt;
  if (plausibleELF(Data)) {
    std::optional<uint64_t> End = elfHeaderExtent(Data, Budget);
    if (!End || !Budget.spend(*End / 64))
      return std::nullopt;
    // libObject validates an aligned copy of exactly those bytes.
    Expected<std::unique_ptr<MemoryBuffer>> Copy =
        alignedCopy(Data.take_front(*End), "embedded", uint64_t(64) << 20);
    if (!Copy) {
      consumeError(Copy.takeError());
      return std::nullopt;
    }
    std::optional<uint64_t> Parsed = parsedExtent((*Copy)->getBuffer());
    return Parsed == End ? End : std::nullopt;
  }
  if (!plausibleMachO(Data) && !plausibleFat(Data))
    return std::nullopt;
  // Mach-O is read with memcpy throughout: any alignment will do.
  uint64_t Cost = std::min<uint64_t>(Data.size(), uint64_t(1) << 16) / 64 + 1;
  if (!Budget.spend(Cost))
    return std::nullopt;
  std::optional<uint64_t> End = parsedExtent(Data);
  if (!End || *End > Data.size())
    return std::nullopt;
  return End;
}

} // namespace

std::optional<uint64_t> imageExtent(StringRef Data) {
  WorkBudget Budget{UINT64_MAX};
  return extentWithin(Data, Budget);
}

ScanResult scanForImages(StringRef Data,
                         function_ref<void(uint64_t UpTo)> Consumed) {
  constexpr uint64_t Report = uint64_t(16) << 20;
  uint64_t NextReport = Report;
  static constexpr std::array<bool, 256> First = firstBytes();
  ScanResult R;
  // Work allowed for candidates that pass the header checks: ample for any
  // real file, finite for one built to hold a plausible header everywhere.
  WorkBudget Budget{Data.size() + (uint64_t(8) << 20)};
  const auto *P = reinterpret_cast<const unsigned char *>(Data.data());
  for (uint64_t I = 0; I + MinHeader <= Data.size();) {
    if (Consumed && I >= NextReport) {
      Consumed(I);
      NextReport = I + Report;
    }
    if (!First[P[I]]) {
      ++I;
      continue;
    }
    if (std::optional<uint64_t> Size = extentWithin(Data.substr(I), Budget)) {
      R.Images.push_back({I, *Size});
      I += std::max<uint64_t>(*Size, 1);
      continue;
    }
    if (Budget.Exhausted) {
      R.Exhausted = true;
      break;
    }
    ++I;
  }
  return R;
}

} // namespace linkguard::package
