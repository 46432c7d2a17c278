//===- ELFLoad.cpp - the parts of an ELF file that objlib reads -----------===//
//
// objlib/Image.h loads only what is read. For ELF that is, before
// ELFObjectFile::create: the ELF header, the program headers and the
// section headers (create walks the section headers to find the symbol
// tables); then, before ELFReader.cpp runs: the PT_INTERP and PT_DYNAMIC
// segments and the SHT_DYNAMIC section, the string table DT_STRTAB/DT_STRSZ
// names (mapped through PT_LOAD as the loader does), and the contents of .dynsym,
// .gnu.version and .gnu.version_r with the sections they link to (with
// ReadOptions::Imports and Exports false: .gnu.version_r only for
// VersionNeeds). Code,
// data and the static symbol table are never read.
//
// Where a header is damaged, nothing more is loaded: the reader then reports
// the damage from the same libObject calls.
//
//===----------------------------------------------------------------------===//
#include "objlib/FormatReaders.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"

using namespace llvm;
using namespace llvm::object;

namespace linkguard::objlib {
namespace {

template <class ELFT> Error loadHeadersAs(Image &Img) {
  Expected<ELFFile<ELFT>> F = ELFFile<ELFT>::create(Img.buffer().getBuffer());
  if (!F) {
    consumeError(F.takeError()); // createBinary reports it
    return Error::success();
  }
  const typename ELFT::Ehdr &H = F->getHeader();
  if (Error E = Img.load(H.e_phoff, uint64_t(H.e_phnum) * H.e_phentsize))
    return E;
  // With e_shnum == 0 the first section header holds the count: load it,
  // then what sections() says the table is.
  if (Error E = Img.load(H.e_shoff, sizeof(typename ELFT::Shdr)))
    return E;
  Expected<typename ELFT::ShdrRange> Sections = F->sections();
  if (!Sections) {
    consumeError(Sections.takeError());
    return Error::success();
  }
  uint64_t Offset =
      reinterpret_cast<const uint8_t *>(Sections->data()) - F->base();
  return Img.load(Offset, Sections->size() * sizeof(typename ELFT::Shdr));
}

template <class ELFT>
Error loadSection(Image &Img, const typename ELFT::Shdr &Sec) {
  if (Sec.sh_type == ELF::SHT_NOBITS)
    return Error::success();
  return Img.load(Sec.sh_offset, Sec.sh_size);
}

/// The string table the dynamic section names, as ELFReader's
/// dynamicStrings() finds it: the last DT_STRTAB and DT_STRSZ, through the
/// program headers.
template <class ELFT>
Error loadDynamicStrings(Image &Img, const ELFFile<ELFT> &F) {
  Expected<typename ELFT::DynRange> Dyn = F.dynamicEntries();
  if (!Dyn) {
    consumeError(Dyn.takeError());
    return Error::success();
  }
  std::optional<uint64_t> Addr, Size;
  for (const typename ELFT::Dyn &D : *Dyn) {
    if (D.d_tag == ELF::DT_STRTAB)
      Addr = D.getPtr();
    else if (D.d_tag == ELF::DT_STRSZ)
      Size = D.getVal();
  }
  if (!Addr || !Size)
    return Error::success();
  Expected<const uint8_t *> Ptr =
      F.toMappedAddr(*Addr, [](const Twine &) { return Error::success(); });
  if (!Ptr) {
    consumeError(Ptr.takeError());
    return Error::success();
  }
  uint64_t Offset = *Ptr - F.base();
  return Img.load(Offset, *Size);
}

template <class ELFT>
Error loadTablesAs(Image &Img, const ELFFile<ELFT> &F, const ReadOptions &Options) {
  Expected<typename ELFT::PhdrRange> Phdrs = F.program_headers();
  if (!Phdrs) {
    consumeError(Phdrs.takeError());
    return Error::success();
  }
  // The interpreter's name (ELFReader's checkDynamicSegment reads it): it
  // was read only when a table it shares a page with was.
  for (const typename ELFT::Phdr &P : *Phdrs)
    if (P.p_type == ELF::PT_INTERP && P.p_offset < Img.size())
      if (Error E = Img.load(P.p_offset, P.p_filesz))
        return E;
  bool DynamicInFile = true;
  for (const typename ELFT::Phdr &P : *Phdrs) {
    if (P.p_type != ELF::PT_DYNAMIC)
      continue;
    // dynamicEntries() reads the first PT_DYNAMIC unchecked: only go on to
    // call it when that one lies inside the file, aligned (ELFReader's
    // checkDynamicSegment refuses the file otherwise).
    DynamicInFile = P.p_offset <= Img.size() &&
                    P.p_filesz <= Img.size() - P.p_offset &&
                    P.p_offset % alignof(typename ELFT::Dyn) == 0;
    if (Error E = Img.load(P.p_offset, P.p_filesz))
      return E;
    break;
  }
  Expected<typename ELFT::ShdrRange> Sections = F.sections();
  if (!Sections) {
    consumeError(Sections.takeError());
    return Error::success();
  }
  for (const typename ELFT::Shdr &Sec : *Sections) {
    // Without imports or exports (ReadOptions::Imports, Exports) the
    // reader reads neither .dynsym nor .gnu.version (a hidden version
    // hides an export), and .gnu.version_r only for VersionNeeds:
    // the closure of a tree then reads a fraction of each ELF file (issue
    // 36).
    const bool Wanted =
        Sec.sh_type == ELF::SHT_DYNAMIC ||
        ((Sec.sh_type == ELF::SHT_DYNSYM || Sec.sh_type == ELF::SHT_GNU_versym) &&
         (Options.Imports || Options.Exports)) ||
        (Sec.sh_type == ELF::SHT_GNU_verneed && (Options.Imports || Options.VersionNeeds));
    if (!Wanted)
      continue;
    if (Error E = loadSection<ELFT>(Img, Sec))
      return E;
    if (Sec.sh_link < Sections->size())
      if (Error E = loadSection<ELFT>(Img, (*Sections)[Sec.sh_link]))
        return E;
  }
  if (!DynamicInFile)
    return Error::success();
  return loadDynamicStrings(Img, F);
}

template <class ELFT>
Error loadTablesFor(Image &Img, const ELFObjectFileBase &Obj, const ReadOptions &Options) {
  return loadTablesAs<ELFT>(Img, cast<ELFObjectFile<ELFT>>(Obj).getELFFile(), Options);
}

} // namespace

Error loadELFHeaders(Image &Img) {
  StringRef Data = Img.buffer().getBuffer();
  if (Data.size() < ELF::EI_NIDENT)
    return Error::success();
  bool Is64 = Data[ELF::EI_CLASS] == ELF::ELFCLASS64;
  bool Big = Data[ELF::EI_DATA] == ELF::ELFDATA2MSB;
  if (Is64)
    return Big ? loadHeadersAs<ELF64BE>(Img) : loadHeadersAs<ELF64LE>(Img);
  return Big ? loadHeadersAs<ELF32BE>(Img) : loadHeadersAs<ELF32LE>(Img);
}

Error loadELFTables(Image &Img, const ELFObjectFileBase &Obj, const ReadOptions &Options) {
  bool Little = Obj.isLittleEndian();
  if (Obj.getBytesInAddress() == 8)
    return Little ? loadTablesFor<ELF64LE>(Img, Obj, Options)
                  : loadTablesFor<ELF64BE>(Img, Obj, Options);
  return Little ? loadTablesFor<ELF32LE>(Img, Obj, Options)
                : loadTablesFor<ELF32BE>(Img, Obj, Options);
}

} // namespace linkguard::objlib
