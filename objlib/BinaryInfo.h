//===- BinaryInfo.h - what a linked binary depends on, as plain data -*- C++ -*-===//
//
// objlib decodes Mach-O (thin and universal) and ELF files into these structs
// and never prints. One BinaryInfo per file, one Slice per architecture
// (ELF files and thin Mach-O files have exactly one).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace linkguard::objlib {

enum class Format { MachO, ELF };

enum class DependencyKind {
  Load,       // LC_LOAD_DYLIB
  Weak,       // LC_LOAD_WEAK_DYLIB
  Reexport,   // LC_REEXPORT_DYLIB
  Lazy,       // LC_LAZY_LOAD_DYLIB
  Upward,     // LC_LOAD_UPWARD_DYLIB
  Needed,     // ELF DT_NEEDED
  // enumName (support/EnumNames.h) names each enumerator up to Last.
  Last = Needed,
};
const char *dependencyKindName(DependencyKind K); // "LC_LOAD_DYLIB", ...

enum class Referenced { Yes, No, Unknown, Last = Unknown };
const char *referencedName(Referenced R); // "yes" / "no" / "unknown"

/// Where an imported symbol is bound from.
enum class BindSource {
  Bind,         // dyld bind opcodes
  WeakBind,     // dyld weak-bind opcodes
  LazyBind,     // dyld lazy-bind opcodes
  ChainedFixup, // LC_DYLD_CHAINED_FIXUPS import table
  Nlist,        // only the symbol table's two-level ordinal
  ELFVersion,   // .gnu.version -> .gnu.version_r
  ELFSymbol,    // an unversioned undefined .dynsym entry
  // enumName (support/EnumNames.h) names each enumerator up to Last.
  Last = ELFSymbol,
};

const char *bindSourceName(BindSource S); // "bind", "weak-bind", ...

/// One imported symbol, once per (symbol, source): a symbol bound from both
/// the lazy and the regular table appears twice, with each source.
struct Import {
  std::string Symbol;
  BindSource Source = BindSource::Bind;
  /// Weak import: may be missing at run time (BIND_SYMBOL_FLAGS_WEAK_IMPORT,
  /// chained weak_import, N_WEAK_REF, ELF STB_WEAK).
  bool Weak = false;
};

struct Dependency {
  std::string Name; // install name or DT_NEEDED string, as stored
  DependencyKind Kind = DependencyKind::Load;
  std::string CurrentVersion;       // "1311.0.0" (Mach-O only)
  std::string CompatibilityVersion; // "1.0.0"   (Mach-O only)
  /// 1-based two-level-namespace ordinal (Mach-O), index in DT_NEEDED order (ELF).
  unsigned Ordinal = 0;
  std::vector<Import> Imports; // symbols that bind to this library
  /// How many imports bind to it: Imports.size(), or more when ReadOptions
  /// left the list out (objlib/Reader.h).
  size_t ImportCount = 0;
  Referenced IsReferenced = Referenced::Unknown;
};

enum class SearchPathKind { RPath, RunPath };
struct SearchPath {
  std::string Path;
  SearchPathKind Kind = SearchPathKind::RPath; // LC_RPATH is RPath
};

/// What dyld's load-time validation reads from a Mach-O image's header and
/// load commands (contract/DyldRules.h judges it), as the file states it.
struct MachOSection {
  std::string Name;
  uint64_t Addr = 0, Size = 0;
};
struct MachOSegment {
  std::string Name;
  uint64_t VMAddr = 0, VMSize = 0, FileOff = 0, FileSize = 0;
  uint32_t InitProt = 0, MaxProt = 0, Flags = 0;
  std::vector<MachOSection> Sections;
};
/// LC_BUILD_VERSION, or LC_VERSION_MIN_* (its platform implied): versions
/// packed as xxxx.yy.zz in a uint32_t, as the file stores them.
struct MachOPlatform {
  uint32_t Platform = 0; // PLATFORM_MACOS = 1, ...
  uint32_t MinOS = 0;
  uint32_t SDK = 0;
  bool VersionMin = false; // from LC_VERSION_MIN_* (no platform field)
};
struct MachOLoadFacts {
  uint32_t CPUType = 0, FileType = 0, Flags = 0;
  uint64_t SliceSize = 0;        // bytes of this slice
  uint64_t HeaderAndCommands = 0; // mach header + sizeofcmds
  std::vector<MachOPlatform> Platforms;
  unsigned UUIDs = 0, IDDylibs = 0, Mains = 0, UnixThreads = 0;
  bool HasDylinker = false;       // LC_LOAD_DYLINKER
  bool HasSplitSegInfo = false, SplitSegMarker = false; // datasize == 0
  bool MalformedLinkerOption = false;
  /// LC_LOAD_DYLIB, LC_LOAD_WEAK_DYLIB, LC_REEXPORT_DYLIB,
  /// LC_LOAD_UPWARD_DYLIB names in order (dyld's duplicate check leaves
  /// LC_LAZY_LOAD_DYLIB out).
  std::vector<std::string> LinkedDylibs;
  /// (1-based index, cmd) of each load command with LC_REQ_DYLD set that
  /// dyld does not know.
  std::vector<std::pair<unsigned, uint32_t>> UnknownRequired;
  /// (1-based index, "(I of N), what") of the first load command dyld's
  /// forEachLoadCommand refuses: one that starts at or past the end of
  /// sizeofcmds ("off end of load commands"), is smaller than 8 bytes ("too
  /// small") or ends past it ("too large"); index 0 when none. LLVM reads
  /// such a file when the bytes are inside the file (issue 34).
  std::pair<unsigned, std::string> MalformedCommand{0, {}};
  std::vector<MachOSegment> Segments; // in load-command order
};

struct Slice {
  std::string Arch;     // "arm64", "x86_64"
  std::string FileType; // "dylib", "bundle", "executable", "object", "ET_DYN", ...
  std::optional<std::string> InstallName; // LC_ID_DYLIB / DT_SONAME
  /// A program the loader starts (Mach-O MH_EXECUTE; ELF ET_EXEC, or an
  /// object with PT_INTERP such as a PIE): the root of a load closure.
  bool MainProgram = false;
  std::string CurrentVersion;       // LC_ID_DYLIB's own versions (Mach-O)
  std::string CompatibilityVersion; // as otool -L prints them first
  std::vector<Dependency> Dependencies;   // in load order
  std::vector<SearchPath> SearchPaths;
  /// Imports resolved by flat / dynamic lookup (-undefined dynamic_lookup):
  /// never attributed to any library.
  std::vector<Import> DynamicLookupImports;
  /// Imports bound to the main executable (ordinal 0xff) or to self.
  std::vector<Import> ExecutableImports;
  /// Weak-definition coalescing (the weak-bind table, chained ordinal -3):
  /// resolved by name across every loaded image, never to one library.
  std::vector<Import> WeakLookupImports;
  /// ELF imports whose library cannot be known (no symbol version).
  std::vector<Import> UnattributedImports;
  /// ELF: the symbol versions .gnu.version_r requires, as (the DT_NEEDED
  /// file its record names, the version: "libc.so.6", "GLIBC_2.34"), in
  /// file order. A wheel's manylinux / musllinux tag is judged against
  /// them (contract/PlatformPolicy.h).
  std::vector<std::pair<std::string, std::string>> VersionNeeds;
  /// Recoverable damage noticed while decoding.
  std::vector<std::string> Warnings;
  /// ELF only: DT_FLAGS_1 (DF_1_PIE, DF_1_NOOPEN, DF_1_NODEFLIB), the last
  /// entry as glibc reads it; whether the file has a dynamic section;
  /// whether it has DT_RUNPATH (even an empty one: glibc then uses no
  /// DT_RPATH for what it loads, elf/dl-load.c _dl_map_object); PT_INTERP.
  uint64_t ELFFlags1 = 0;
  bool ELFDynamic = false;
  bool ELFRunPathTag = false;
  std::string ELFInterpreter;
  /// Mach-O only: what dyld validates when it loads the image.
  std::optional<MachOLoadFacts> MachO;
  /// ReadOptions::Exports: the names this image defines for other images to
  /// bind to, strong ones only (objlib/Exports.cpp says which count), sorted
  /// and unique, as stored (a Mach-O name keeps its leading '_').
  std::vector<std::string> Exports;
  /// Whether Exports was read; ExportsProblem: why it could not be (a
  /// damaged trie, an ELF file without section headers): then Exports is
  /// what was read before the fault, and no verdict may say "none".
  bool ExportsRead = false;
  std::string ExportsProblem;
};

struct BinaryInfo {
  std::string Path;
  Format Fmt = Format::MachO;
  bool Universal = false;
  std::vector<Slice> Slices;
};

} // namespace linkguard::objlib
