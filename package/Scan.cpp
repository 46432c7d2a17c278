//===- Scan.cpp - libObject's reading of a candidate, and the scan --------===//
#include "package/Scan.h"

#include "objlib/Reader.h"
#include "objlib/Universal.h"
#include "package/Buffers.h"
#include "package/HeaderChecks.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MachO.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/MachO.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <array>
#include <cstddef>

using namespace llvm;
using namespace llvm::object;

namespace linkguard::package {
namespace {

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

/// What libObject's reading of the thin Mach-O image that starts D costs,
/// spent from Budget as the load commands are walked, before libObject is
/// asked: MachOObjectFile::create visits every one of ncmds commands, and
/// machOExtent visits them again with their sections; each section's
/// contents and relocations are checked against every range already listed
/// (checkOverlappingElement keeps a sorted std::list, so that check is
/// quadratic in the sections). Charging min(size, 64 KiB) / 64 instead let
/// a chain of plausible headers, each one's commands the rest of the chain,
/// cost the square of its length (issue 28). Returns false when the budget
/// runs out, or when libObject would certainly refuse the commands (one
/// shorter than 8 bytes, or running past sizeofcmds), so it is not asked.
bool chargeMachO(StringRef D, WorkBudget &Budget) {
  if (D.size() < sizeof(MachO::mach_header))
    return false;
  uint32_t Magic = support::endian::read32le(D.data());
  bool Swap = Magic == MachO::MH_CIGAM || Magic == MachO::MH_CIGAM_64;
  bool Is64 = Magic == MachO::MH_MAGIC_64 || Magic == MachO::MH_CIGAM_64;
  auto u32 = [&](uint64_t Off) {
    return Swap ? support::endian::read32be(D.data() + Off)
                : support::endian::read32le(D.data() + Off);
  };
  auto u64 = [&](uint64_t Off) {
    return Swap ? support::endian::read64be(D.data() + Off)
                : support::endian::read64le(D.data() + Off);
  };
  const uint64_t Header =
      Is64 ? sizeof(MachO::mach_header_64) : sizeof(MachO::mach_header);
  if (D.size() < Header)
    return false;
  const uint64_t NCmds = u32(16);
  const uint64_t CmdsEnd =
      std::min<uint64_t>(D.size(), Header + uint64_t(u32(20)));
  if (!Budget.spend(ParseUnits + (CmdsEnd - Header) / 8))
    return false;
  // Sections, and the ranges libObject lists for them: contents of a
  // non-empty section, relocations of one that has any.
  uint64_t Ranges = 0, Off = Header;
  for (uint64_t I = 0; I < NCmds; ++I) {
    if (!Budget.spend(CommandUnits))
      return false;
    if (Off + 8 > CmdsEnd)
      return false; // "extends past the end all load commands"
    uint32_t Cmd = u32(Off), Size = u32(Off + 4);
    if (Size < 8)
      return false; // "cmdsize too small"
    const bool Seg32 = Cmd == MachO::LC_SEGMENT;
    const bool Seg64 = Cmd == MachO::LC_SEGMENT_64;
    const uint64_t SegSize = Seg64 ? sizeof(MachO::segment_command_64)
                                   : sizeof(MachO::segment_command);
    const uint64_t SectSize =
        Seg64 ? sizeof(MachO::section_64) : sizeof(MachO::section);
    if ((Seg32 || Seg64) && Size >= SegSize && Off + Size <= CmdsEnd) {
      // libObject refuses a segment whose sections do not fit in it.
      uint64_t N = std::min<uint64_t>(
          u32(Off + (Seg64 ? offsetof(MachO::segment_command_64, nsects)
                           : offsetof(MachO::segment_command, nsects))),
          (Size - SegSize) / SectSize);
      if (!Budget.spend(N * CommandUnits))
        return false;
      for (uint64_t K = 0; K < N; ++K) {
        uint64_t S = Off + SegSize + K * SectSize;
        bool HasSize = Seg64 ? u64(S + 40) != 0 : u32(S + 36) != 0;
        uint32_t NReloc = u32(S + (Seg64 ? 60 : 52));
        Ranges += uint64_t(HasSize) + uint64_t(NReloc != 0);
      }
    }
    Off += Size;
  }
  return Budget.spend(Ranges * (Ranges + 1) / 2 * ListStepUnits);
}

/// ncmds of the Mach-O header that starts D, as libObject will read it.
uint64_t headerCommands(StringRef D) {
  if (D.size() < sizeof(MachO::mach_header))
    return 0;
  uint32_t Magic = support::endian::read32le(D.data());
  bool Swap = Magic == MachO::MH_CIGAM || Magic == MachO::MH_CIGAM_64;
  return Swap ? support::endian::read32be(D.data() + 16)
              : support::endian::read32le(D.data() + 16);
}

std::optional<uint64_t> universalExtent(StringRef Data, WorkBudget &Budget) {
  Expected<objlib::FatHeader> U = objlib::parseFatHeader(Data);
  if (!U) {
    consumeError(U.takeError());
    return std::nullopt;
  }
  uint64_t End = U->headerSize();
  for (const objlib::FatArch &A : U->Archs) // parseFatHeader: inside Data
    if (!chargeMachO(Data.substr(A.Offset, A.Size), Budget))
      return std::nullopt;
  for (uint32_t I = 0; I < U->Archs.size(); ++I) {
    const objlib::FatArch &A = U->Archs[I];
    Budget.LoadCommands += headerCommands(Data.substr(A.Offset, A.Size));
    Expected<std::unique_ptr<MachOObjectFile>> Slice =
        objlib::fatSliceObject(Data, "embedded", A, I);
    if (!Slice) { // an archive slice is a static library, not an image
      consumeError(Slice.takeError());
      return std::nullopt;
    }
    std::optional<uint64_t> Inner = machOExtent(**Slice);
    if (!Inner || *Inner > A.Size || !reach(End, A.Offset, A.Size))
      return std::nullopt;
  }
  return End;
}

/// Not createBinary: objlib/Universal.h says why. The caller has charged
/// Budget for a thin Mach-O or an ELF image; a universal one charges its
/// slices here.
std::optional<uint64_t> parsedExtent(StringRef Data, WorkBudget &Budget) {
  const file_magic Magic = identify_magic(Data);
  if (Magic == file_magic::macho_universal_binary)
    return universalExtent(Data, Budget);
  if (objlib::isMachOMagic(Magic))
    Budget.LoadCommands += headerCommands(Data);
  Expected<std::unique_ptr<ObjectFile>> Obj =
      objlib::openObjectFile(MemoryBufferRef(Data, "embedded"), Magic);
  if (!Obj) {
    consumeError(Obj.takeError());
    return std::nullopt;
  }
  if (auto *M = dyn_cast<MachOObjectFile>(Obj->get()))
    return machOExtent(*M);
  if (auto *E = dyn_cast<ELFObjectFileBase>(Obj->get())) {
    bool Little = E->isLittleEndian();
    if (E->getBytesInAddress() == 8)
      return Little ? elfExtent(cast<ELF64LEObjectFile>(*E))
                    : elfExtent(cast<ELF64BEObjectFile>(*E));
    return Little ? elfExtent(cast<ELF32LEObjectFile>(*E))
                  : elfExtent(cast<ELF32BEObjectFile>(*E));
  }
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
  return objlib::isBinaryMagic(identify_magic(Head));
}

namespace {

std::optional<uint64_t> extentWithin(StringRef Data, WorkBudget &Budget) {
  if (Data.size() < MinHeader)
    return std::nullopt;
  if (plausibleELF(Data)) {
    std::optional<uint64_t> End = elfHeaderExtent(Data, Budget);
    if (!End || !Budget.spend(*End / CopyBytesPerUnit))
      return std::nullopt;
    // libObject validates an aligned copy of exactly those bytes.
    Expected<std::unique_ptr<MemoryBuffer>> Copy =
        alignedCopy(Data.take_front(*End), "embedded", uint64_t(64) << 20);
    if (!Copy) {
      consumeError(Copy.takeError());
      return std::nullopt;
    }
    std::optional<uint64_t> Parsed =
        parsedExtent((*Copy)->getBuffer(), Budget);
    return Parsed == End ? End : std::nullopt;
  }
  // Mach-O is read with memcpy throughout: any alignment will do.
  if (plausibleMachO(Data)) {
    if (!chargeMachO(Data, Budget))
      return std::nullopt;
  } else if (!plausibleFat(Data)) {
    return std::nullopt;
  }
  std::optional<uint64_t> End = parsedExtent(Data, Budget);
  if (!End || *End > Data.size())
    return std::nullopt;
  return End;
}

} // namespace

std::optional<uint64_t> imageExtent(StringRef Data) {
  WorkBudget Budget{UINT64_MAX};
  return extentWithin(Data, Budget);
}

uint64_t scanBudget(uint64_t Size) {
  return Size > UINT64_MAX - FixedUnits ? UINT64_MAX : Size + FixedUnits;
}

ScanResult scanForImages(StringRef Data,
                         function_ref<void(uint64_t UpTo)> Consumed) {
  constexpr uint64_t Report = uint64_t(16) << 20;
  uint64_t NextReport = Report;
  static constexpr std::array<bool, 256> First = firstBytes();
  ScanResult R;
  // Work allowed for candidates that pass the header checks: ample for any
  // real file, finite for one built to hold a plausible header everywhere.
  WorkBudget Budget{scanBudget(Data.size())};
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
  R.Work = Budget.Spent;
  R.LoadCommands = Budget.LoadCommands;
  return R;
}

} // namespace linkguard::package
