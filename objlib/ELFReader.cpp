//===- ELFReader.cpp - dependencies and imports of an ELF file ------------===//
//
// An ELF file lists its libraries as DT_NEEDED entries of the dynamic
// section, in the order the loader searches them; DT_RPATH (searched before
// LD_LIBRARY_PATH) and DT_RUNPATH (after it, the --enable-new-dtags default)
// hold colon-separated search paths. Unlike Mach-O, an undefined ELF symbol
// does not name its library: the loader takes the first definition in
// search order. The only binding evidence is symbol versioning: a symbol
// whose .gnu.version entry points at a .gnu.version_r record was versioned
// against that record's file (printf@GLIBC_2.2.5 from libc.so.6,
// omp_get_num_threads@VERSION from libomp.so.5). Unversioned undefined
// symbols could come from any library, so they are unattributed, and a
// library without versioned imports is "not referenced" only when there is
// no unversioned import that it might supply.
//
// llvm::object::ELFFile::getVersionDependencies is not used: it trusts
// sh_info, vn_cnt and vn_next, so a damaged section makes it loop and
// allocate without bound. The walk below is capped by the section size.
//
//===----------------------------------------------------------------------===//
#include "objlib/FormatReaders.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"

using namespace llvm;
using namespace llvm::object;

namespace linkguard::objlib {
namespace {

/// The NUL-terminated string at Offset in Table, or nullopt when out of
/// range; an unterminated tail is cut at the table's end.
std::optional<std::string> stringAt(StringRef Table, uint64_t Offset) {
  if (Offset >= Table.size())
    return std::nullopt;
  StringRef Tail = Table.drop_front(Offset);
  return Tail.substr(0, Tail.find('\0')).str();
}

constexpr FileTypeName ELFTypeNames[] = {{ELF::ET_NONE, "ET_NONE"},
                                         {ELF::ET_REL, "ET_REL"},
                                         {ELF::ET_EXEC, "ET_EXEC"},
                                         {ELF::ET_DYN, "ET_DYN"},
                                         {ELF::ET_CORE, "ET_CORE"}};

template <class ELFT> class ELFReader {
  using Elf_Shdr = typename ELFT::Shdr;
  using Elf_Verneed = typename ELFT::Verneed;
  using Elf_Vernaux = typename ELFT::Vernaux;
  using Elf_Versym = typename ELFT::Versym;

public:
  ELFReader(const ELFObjectFile<ELFT> &Obj, StringRef FileName,
            const ReadOptions &Options)
      : Obj(Obj), F(Obj.getELFFile()), FileName(FileName), Options(Options) {}

  Expected<Slice> read() {
    StringRef Arch = Triple::getArchTypeName(Obj.getArch());
    S.Arch = Obj.getArch() == Triple::UnknownArch
                 ? "e_machine " + std::to_string(F.getHeader().e_machine)
                 : Arch.str();
    S.FileType = fileTypeName(ELFTypeNames, F.getHeader().e_type, "e_type");
    S.MainProgram = F.getHeader().e_type == ELF::ET_EXEC;

    if (Error E = readDynamic())
      return std::move(E);
    if (!Options.Imports) {
      if (Options.VersionNeeds)
        readVersionNeedsOnly();
      return std::move(S); // every dependency stays Referenced::Unknown
    }
    readImports();

    const bool SomeImportMayBindAnywhere =
        llvm::any_of(S.UnattributedImports, [](const Import &I) {
          return !isStartupHook(I);
        });
    for (Dependency &D : S.Dependencies)
      D.IsReferenced = D.ImportCount ? Referenced::Yes
                       : !Incomplete && !SomeImportMayBindAnywhere
                           ? Referenced::No
                           : Referenced::Unknown;
    return std::move(S);
  }

private:
  /// The weak, unversioned hooks that crti/crtbegin put into every shared
  /// object (gprof's __gmon_start__, libitm's transactional-memory clone
  /// table, gcj's class registration). Being weak, they never make the
  /// loader need any library, and no library on a normal link line defines
  /// them, so they do not leave every DT_NEEDED "unknown".
  static bool isStartupHook(const Import &I) {
    if (!I.Weak)
      return false;
    return I.Symbol == "__gmon_start__" ||
           I.Symbol == "_ITM_deregisterTMCloneTable" ||
           I.Symbol == "_ITM_registerTMCloneTable" ||
           I.Symbol == "_Jv_RegisterClasses";
  }

  Error malformed(const Twine &Msg) {
    return makeReadError(ReadErrorKind::Malformed, FileName + ": " + Msg);
  }

  /// The dynamic string table: DT_STRTAB mapped through the program headers
  /// (what the loader uses), else the section the dynamic section links to.
  Expected<StringRef> dynamicStrings(typename ELFT::DynRange Dyn) {
    uint64_t Addr = 0, Size = 0;
    bool HaveAddr = false, HaveSize = false;
    for (const typename ELFT::Dyn &D : Dyn) {
      if (D.d_tag == ELF::DT_NULL)
        break; // glibc elf/get-dynamic-info.h: reading stops at the first DT_NULL
      if (D.d_tag == ELF::DT_STRTAB)
        Addr = D.getPtr(), HaveAddr = true;
      else if (D.d_tag == ELF::DT_STRSZ)
        Size = D.getVal(), HaveSize = true;
    }
    StringRef Buf = Obj.getData();
    if (HaveAddr && HaveSize) {
      Expected<const uint8_t *> Ptr =
          F.toMappedAddr(Addr, [](const Twine &) { return Error::success(); });
      if (Ptr) {
        const char *P = reinterpret_cast<const char *>(*Ptr);
        if (P >= Buf.begin() && P <= Buf.end() &&
            Size <= static_cast<uint64_t>(Buf.end() - P))
          return StringRef(P, Size);
        S.Warnings.push_back("DT_STRTAB/DT_STRSZ extend past the end of the "
                             "file; using section headers");
      } else {
        S.Warnings.push_back("DT_STRTAB: " + toString(Ptr.takeError()));
      }
    }
    Expected<typename ELFT::ShdrRange> Sections = F.sections();
    if (!Sections)
      return Sections.takeError();
    for (const Elf_Shdr &Sec : *Sections)
      if (Sec.sh_type == ELF::SHT_DYNAMIC)
        return F.getLinkAsStrtab(Sec);
    return createStringError(inconvertibleErrorCode(),
                             "no dynamic string table");
  }

  /// LLVM 19's ELFFile::dynamicEntries() maps the first PT_DYNAMIC segment
  /// as an array without checking that p_offset/p_filesz lie inside the file
  /// or that p_offset is aligned (its section path does both): check first
  /// (found by tests/fuzz/fuzz_objlib).
  Error checkDynamicSegment() {
    Expected<typename ELFT::PhdrRange> Phdrs = F.program_headers();
    if (!Phdrs)
      return malformed("program headers: " + toString(Phdrs.takeError()));
    const uint64_t FileSize = Obj.getData().size();
    bool Checked = false;
    for (const typename ELFT::Phdr &P : *Phdrs) {
      if (P.p_type == ELF::PT_INTERP) {
        S.MainProgram = true;
        const uint64_t FileSize0 = Obj.getData().size();
        if (P.p_offset < FileSize0 && P.p_filesz <= FileSize0 - P.p_offset && P.p_filesz > 0) {
          StringRef I = Obj.getData().substr(P.p_offset, P.p_filesz);
          S.ELFInterpreter = I.take_until([](char C) { return C == '\0'; }).str();
        }
      }
      if (P.p_type != ELF::PT_DYNAMIC)
        continue;
      // glibc elf/dl-load.c _dl_map_object_from_fd sets l_ld at each
      // PT_DYNAMIC, so the last one is the object's; LLVM's
      // dynamicEntries() reads the first. No linker writes two: refuse
      // rather than read another .dynamic than ld.so does.
      if (Checked)
        return malformed("two PT_DYNAMIC segments (ld.so reads the last, linkguard the first)");
      if (P.p_offset > FileSize || P.p_filesz > FileSize - P.p_offset)
        return malformed("PT_DYNAMIC (offset " + Twine(uint64_t(P.p_offset)) +
                         ", size " + Twine(uint64_t(P.p_filesz)) +
                         ") extends past the end of the file");
      if (P.p_offset % alignof(typename ELFT::Dyn) != 0)
        return malformed("PT_DYNAMIC offset " + Twine(uint64_t(P.p_offset)) +
                         " is not aligned");
      Checked = true;
    }
    return Error::success();
  }

  Error readDynamic() {
    if (Error E = checkDynamicSegment())
      return E;
    Expected<typename ELFT::DynRange> Dyn = F.dynamicEntries();
    if (!Dyn)
      return malformed("dynamic section: " + toString(Dyn.takeError()));
    if (Dyn->empty())
      return Error::success(); // Static executables, relocatable objects.
    Expected<StringRef> StrTab = dynamicStrings(*Dyn);
    if (!StrTab)
      return malformed("dynamic string table: " + toString(StrTab.takeError()));

    auto str = [&](uint64_t Off, const char *Tag) {
      if (std::optional<std::string> Str = stringAt(*StrTab, Off))
        return *Str;
      S.Warnings.push_back(std::string(Tag) + " offset " + std::to_string(Off) +
                           " is past the end of the dynamic string table");
      return std::string();
    };
    // As glibc reads .dynamic (elf/get-dynamic-info.h elf_get_dynamic_info:
    // info[tag] = dyn, so the last entry of a tag wins; reading stops at
    // the first DT_NULL; an object with DT_RUNPATH has its DT_RPATH
    // ignored) and walks DT_NEEDED (elf/dl-deps.c _dl_map_object_deps:
    // every DT_NEEDED up to that DT_NULL, in order).
    std::optional<uint64_t> RPath, RunPath, SoName;
    for (const typename ELFT::Dyn &D : *Dyn) {
      if (D.d_tag == ELF::DT_NULL)
        break;
      switch (D.d_tag) {
      case ELF::DT_NEEDED: {
        Dependency Dep;
        Dep.Name = str(D.getVal(), "DT_NEEDED");
        Dep.Kind = DependencyKind::Needed;
        Dep.Ordinal = S.Dependencies.size() + 1;
        S.Dependencies.push_back(std::move(Dep));
        break;
      }
      case ELF::DT_SONAME:
        SoName = D.getVal();
        break;
      case ELF::DT_RPATH:
        RPath = D.getVal();
        break;
      case ELF::DT_RUNPATH:
        RunPath = D.getVal();
        break;
      case ELF::DT_FLAGS_1:
        S.ELFFlags1 = D.getVal();
        break;
      default:
        break;
      }
    }
    S.ELFDynamic = true;
    if (SoName)
      S.InstallName = str(*SoName, "DT_SONAME");
    auto addList = [&](uint64_t Off, SearchPathKind Kind) {
      std::string List = str(Off, "DT_RPATH/DT_RUNPATH");
      SmallVector<StringRef, 4> Paths;
      StringRef(List).split(Paths, ':');
      for (StringRef P : Paths)
        S.SearchPaths.push_back(SearchPath{P.str(), Kind});
    };
    // Both kept for what inspect prints; the loaders' resolvers skip the
    // DT_RPATH of an object with DT_RUNPATH (ELFRunPathTag).
    if (RPath)
      addList(*RPath, SearchPathKind::RPath);
    if (RunPath) {
      S.ELFRunPathTag = true;
      addList(*RunPath, SearchPathKind::RunPath);
    }
    return Error::success();
  }

  void warn(const Twine &Msg) {
    S.Warnings.push_back(Msg.str());
    Incomplete = true;
  }

  /// Version index -> the DT_NEEDED name its .gnu.version_r record names.
  DenseMap<unsigned, std::string> readVersionNeeds(const Elf_Shdr &Sec) {
    DenseMap<unsigned, std::string> Files;
    Expected<ArrayRef<uint8_t>> Contents = F.getSectionContents(Sec);
    Expected<StringRef> StrTab = F.getLinkAsStrtab(Sec);
    if (!Contents) {
      warn(".gnu.version_r: " + toString(Contents.takeError()));
      consumeError(StrTab.takeError());
      return Files;
    }
    if (!StrTab) {
      warn(".gnu.version_r: " + toString(StrTab.takeError()));
      return Files;
    }
    const uint8_t *Start = Contents->data();
    uint64_t Size = Contents->size();
    // Every record is at least this big, which bounds both loops.
    uint64_t MaxRecords = Size / sizeof(Elf_Vernaux);
    uint64_t Off = 0;
    for (uint64_t I = 0; I < Sec.sh_info && I < MaxRecords; ++I) {
      if (Off + sizeof(Elf_Verneed) > Size ||
          reinterpret_cast<uintptr_t>(Start + Off) % 4) {
        warn(".gnu.version_r: record " + Twine(I) + " is out of bounds");
        break;
      }
      const auto *VN = reinterpret_cast<const Elf_Verneed *>(Start + Off);
      if (VN->vn_version != 1) {
        warn(".gnu.version_r: unknown version " + Twine(VN->vn_version));
        break;
      }
      std::optional<std::string> File = stringAt(*StrTab, VN->vn_file);
      if (!File)
        warn(".gnu.version_r: vn_file is out of range");
      uint64_t AuxOff = Off + VN->vn_aux;
      for (uint64_t J = 0; J < VN->vn_cnt && J < MaxRecords; ++J) {
        if (AuxOff + sizeof(Elf_Vernaux) > Size ||
            reinterpret_cast<uintptr_t>(Start + AuxOff) % 4) {
          warn(".gnu.version_r: auxiliary record is out of bounds");
          break;
        }
        const auto *VA = reinterpret_cast<const Elf_Vernaux *>(Start + AuxOff);
        if (File)
          Files[VA->vna_other & ELF::VERSYM_VERSION] = *File;
        if (std::optional<std::string> Name = stringAt(*StrTab, VA->vna_name); File && Name)
          S.VersionNeeds.emplace_back(*File, std::move(*Name));
        if (VA->vna_next == 0)
          break;
        AuxOff += VA->vna_next;
      }
      if (VN->vn_next == 0)
        break;
      Off += VN->vn_next;
    }
    return Files;
  }

  /// .gnu.version_r alone (Slice::VersionNeeds), for a reader that reads
  /// no import table.
  void readVersionNeedsOnly() {
    Expected<typename ELFT::ShdrRange> Sections = F.sections();
    if (!Sections) {
      warn("section headers: " + toString(Sections.takeError()));
      return;
    }
    for (const Elf_Shdr &Sec : *Sections)
      if (Sec.sh_type == ELF::SHT_GNU_verneed) {
        (void)readVersionNeeds(Sec);
        return;
      }
  }

  void readImports() {
    Expected<typename ELFT::ShdrRange> Sections = F.sections();
    if (!Sections) {
      warn("section headers: " + toString(Sections.takeError()));
      return;
    }
    const Elf_Shdr *DynSym = nullptr, *Versym = nullptr, *Verneed = nullptr;
    for (const Elf_Shdr &Sec : *Sections) {
      if (Sec.sh_type == ELF::SHT_DYNSYM && !DynSym)
        DynSym = &Sec;
      else if (Sec.sh_type == ELF::SHT_GNU_versym && !Versym)
        Versym = &Sec;
      else if (Sec.sh_type == ELF::SHT_GNU_verneed && !Verneed)
        Verneed = &Sec;
    }
    if (!DynSym) {
      // TODO: a file without section headers still has DT_SYMTAB, but its
      // size needs DT_HASH/DT_GNU_HASH; until then imports stay unknown.
      if (!S.Dependencies.empty())
        warn("no .dynsym section: imports not decoded");
      return;
    }
    Expected<typename ELFT::SymRange> Syms = F.symbols(DynSym);
    Expected<StringRef> SymStr = F.getStringTableForSymtab(*DynSym);
    if (!Syms) {
      warn(".dynsym: " + toString(Syms.takeError()));
      consumeError(SymStr.takeError());
      return;
    }
    if (!SymStr) {
      warn(".dynsym: " + toString(SymStr.takeError()));
      return;
    }
    ArrayRef<Elf_Versym> Versions;
    if (Versym) {
      Expected<ArrayRef<Elf_Versym>> V =
          F.template getSectionContentsAsArray<Elf_Versym>(*Versym);
      if (V)
        Versions = *V;
      else
        warn(".gnu.version: " + toString(V.takeError()));
      if (Versions.size() != Syms->size())
        warn(".gnu.version has " + Twine(Versions.size()) +
             " entries, .dynsym " + Twine(Syms->size()));
    }
    DenseMap<unsigned, std::string> Files;
    if (Verneed)
      Files = readVersionNeeds(*Verneed);

    // Each needed library, and whether its imports are listed.
    StringMap<std::pair<Dependency *, bool>> ByName;
    for (Dependency &D : S.Dependencies)
      ByName.try_emplace(D.Name, &D, Options.listsImportsOf(D.Name));
    StringSet<> Seen;

    for (size_t I = 1; I < Syms->size(); ++I) {
      const typename ELFT::Sym &Sym = (*Syms)[I];
      if (Sym.getBinding() == ELF::STB_LOCAL)
        continue;
      unsigned Version =
          I < Versions.size() ? Versions[I].vs_index & ELF::VERSYM_VERSION : 1;
      auto File = Files.find(Version);
      bool Undefined = Sym.st_shndx == ELF::SHN_UNDEF;
      // A defined symbol versioned against a needed library is a copy
      // relocation in an executable (stdout@GLIBC_2.2.5): still an import.
      if (!Undefined && File == Files.end())
        continue;
      Expected<StringRef> Name = Sym.getName(*SymStr);
      if (!Name) {
        warn(".dynsym: " + toString(Name.takeError()));
        continue;
      }
      bool Weak = Sym.getBinding() == ELF::STB_WEAK;
      if (File == Files.end()) {
        if (Seen.insert("\1" + Name->str()).second)
          S.UnattributedImports.push_back(
              Import{Name->str(), BindSource::ELFSymbol, Weak});
        continue;
      }
      auto Dep = ByName.find(File->second);
      if (Dep == ByName.end()) {
        S.Warnings.push_back("symbol " + Name->str() +
                             " is versioned against " + File->second +
                             ", which is not DT_NEEDED");
        if (Seen.insert("\1" + Name->str()).second)
          S.UnattributedImports.push_back(
              Import{Name->str(), BindSource::ELFVersion, Weak});
        continue;
      }
      if (!Seen.insert(File->second + "\1" + Name->str()).second)
        continue;
      auto [D, Listed] = Dep->second;
      ++D->ImportCount;
      if (Listed)
        D->Imports.push_back(Import{Name->str(), BindSource::ELFVersion, Weak});
    }
  }

  const ELFObjectFile<ELFT> &Obj;
  const ELFFile<ELFT> &F;
  StringRef FileName;
  const ReadOptions &Options;
  Slice S;
  bool Incomplete = false;
};

template <class ELFT>
Expected<Slice> readAs(const ELFObjectFileBase &Obj, StringRef FileName,
                       const ReadOptions &Options) {
  return ELFReader<ELFT>(cast<ELFObjectFile<ELFT>>(Obj), FileName, Options)
      .read();
}

} // namespace

Expected<Slice> readELFFile(const ELFObjectFileBase &Obj, StringRef FileName,
                            const ReadOptions &Options) {
  Expected<Slice> S = isa<ELF64LEObjectFile>(Obj)   ? readAs<ELF64LE>(Obj, FileName, Options)
                      : isa<ELF64BEObjectFile>(Obj) ? readAs<ELF64BE>(Obj, FileName, Options)
                      : isa<ELF32LEObjectFile>(Obj) ? readAs<ELF32LE>(Obj, FileName, Options)
                                                    : readAs<ELF32BE>(Obj, FileName, Options);
  if (S && Options.Exports)
    readELFExports(Obj, Options, *S);
  return S;
}

} // namespace linkguard::objlib
