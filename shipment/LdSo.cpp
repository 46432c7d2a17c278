//===- LdSo.cpp - a root's load closure as glibc's ld.so computes it ------===//
//
// glibc 2.36 (Debian 12; the algorithm is unchanged through 2.41 but for
// the legacy subdirectories, removed in 2.37), step by step in ld.so's own
// order. Each step names the function it restates:
//
//  1. elf/dl-deps.c _dl_map_object_deps: the objects are mapped breadth-
//     first: the root, then each DT_NEEDED of it in order, then each
//     DT_NEEDED of the first newly loaded object, and so on (a queue). The
//     first failure ends the load ("goto out"); linkguard goes on to report
//     every dependency, each judged with what was loaded before it.
//  2. elf/dl-deps.c expand_dst: a DT_NEEDED name's $ORIGIN is expanded
//     first (contract::lookupName); a name with '/' after that is a path.
//  3. elf/dl-load.c _dl_map_object: "Look for this name among those
//     already loaded": a loaded object answers to every name it was asked
//     for, to the path it was opened by (_dl_name_match_p), and to its
//     DT_SONAME, in load order.
//  4. Same function, a name without '/': the DT_RPATH of the requesting
//     object, of the object that loaded it (l_loader), and on up, then of
//     the executable, only when the requesting object has no DT_RUNPATH
//     tag (cache_rpath; an object with both ignores its own DT_RPATH,
//     elf/get-dynamic-info.h); LD_LIBRARY_PATH (the user's machine: not
//     counted); the requesting object's DT_RUNPATH; ld.so.cache and the
//     default directories (the system: only the runtime's names count).
//     --search directories stand after DT_RUNPATH: the application's.
//  5. decompose_rpath / fillin_rpath: an empty DT_RPATH/DT_RUNPATH is
//     none; an empty entry is the current directory; trailing '/' removed;
//     a directory listed twice in one list is tried once; $ORIGIN is the
//     directory of the path the holder was opened by (dl-object.c
//     _dl_new_object: l_origin from the realname, ".." kept; the main
//     program's from /proc/self/exe, elf/dl-origin.c).
//  6. open_path: in each directory, the glibc-hwcaps subdirectories the
//     CPU supports (x86-64-v4, v3, v2), then the legacy ones (2.36: the
//     power set of tls, the platform and the hwcap names), then the
//     directory itself; a subdirectory found missing is never tried again
//     (r_search_path_elem status). A copy in a subdirectory is picked by
//     some machines and not by others: host-dependent.
//  7. open_verify: a candidate of another ELF class or machine is skipped
//     and the search goes on; one too short, not ELF, unreadable (a
//     directory), of another data encoding, version, OS ABI, of a type
//     other than ET_DYN/ET_EXEC, or with another e_phentsize ends the
//     load with an error. _dl_map_object_from_fd: a file already loaded
//     (same device and inode) is that object; an ET_EXEC ("cannot
//     dynamically load executable"), an object without a dynamic
//     section, and a PIE ("cannot dynamically load position-independent
//     executable") end it too. open(2) of a FIFO blocks.
//
// Host-dependent, besides 6: an absolute, empty or relative entry tried
// before the entry that finds the tree's copy (that machine's file would
// load instead), or, when no entry finds one, any such entry (the name
// loads only where the machine has it); a link that leads out of the
// tree. An absolute link back into the tree works only where the tree is
// unpacked at that path: non-portable.
//
//===----------------------------------------------------------------------===//
#include "shipment/Closure.h"
#include "shipment/SearchReport.h"

#include "contract/LoaderRules.h"

#include "libnames/LibraryNames.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/Path.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstring>

using namespace llvm;

namespace linkguard::shipment {

namespace {

using contract::Expansion;
using contract::LoaderRules;
using objlib::DependencyKind;
using objlib::SearchPathKind;
using objlib::Slice;
constexpr sys::path::Style Posix = sys::path::Style::posix;


/// The machine a root runs on, as open_verify compares it.
struct ELFKind {
  uint8_t Class = 0;   // ELFCLASS32 / ELFCLASS64
  uint16_t Machine = 0; // e_machine
  std::string Arch;    // objlib's name, for a zip's members
};

/// glibc 2.36 elf/dl-hwcaps.c _dl_important_hwcaps, the legacy part:
/// Temp = the hwcap names by bit, the platform (AT_PLATFORM, or glibc's
/// own: sysdeps/x86/cpu-features.c), "tls"; one subdirectory for each
/// subset, from the full set down ("power set construction": m = 2^cnt-1
/// .. 1), each written from Temp[cnt-1] down to Temp[0] (the empty subset
/// is the directory itself, tried last). A name twice (x86_64, a hwcap
/// name and a platform) is written twice, as glibc does.
std::vector<std::string> legacyPowerSet(ArrayRef<std::string> Temp) {
  std::vector<std::string> Out;
  const auto Cnt = unsigned(Temp.size());
  for (unsigned M = (1U << Cnt) - 1; M > 0; --M) {
    std::string Sub;
    for (unsigned I = Cnt; I-- > 0;)
      if (M & (1U << I))
        Sub += Temp[I] + "/";
    Out.push_back(std::move(Sub));
  }
  return Out;
}

/// An architecture with one optional hwcap name (LdSoMachine::
/// OptionalHwcap): i386 (sse2, sysdeps/x86/dl-hwcap.h; platform i686 on a
/// CPU with CMOV, sysdeps/x86/cpu-features.c), aarch64 (atomics: LSE,
/// ARMv8.1; sysdeps/unix/sysv/linux/aarch64/dl-procinfo.h).
struct OneHwcapArch {
  const char *Hwcap, *Platform;
};
constexpr OneHwcapArch I386{"sse2", "i686"}, AArch64{"atomics", "aarch64"};

std::vector<std::string> oneHwcapSubdirs(const OneHwcapArch &A, const LdSoMachine &M) {
  if (!M.Legacy)
    return {};
  if (M.OptionalHwcap)
    return legacyPowerSet({A.Hwcap, A.Platform, "tls"});
  return legacyPowerSet({A.Platform, "tls"});
}

bool allIn(StringRef Subdir, std::initializer_list<StringRef> Names) {
  SmallVector<StringRef, 4> Parts;
  Subdir.split(Parts, '/', -1, false);
  return llvm::all_of(Parts, [&](StringRef P) { return llvm::is_contained(Names, P); });
}

} // namespace

std::vector<std::string> LdSoMachine::x86Subdirs() const {
  std::vector<std::string> Out;
  for (unsigned L = 4; L >= 2; --L)
    if (L <= HwcapsLevel)
      Out.push_back("glibc-hwcaps/x86-64-v" + std::to_string(L) + "/");
  if (!Legacy)
    return Out;
  if (!Platform.empty()) {
    std::vector<std::string> Temp{"x86_64"};
    if (Avx512)
      Temp.emplace_back("avx512_1");
    Temp.push_back(Platform);
    Temp.emplace_back("tls");
    llvm::append_range(Out, legacyPowerSet(Temp));
    return Out;
  }
  // The default machine: every machine's subdirectories, each machine's
  // order kept (tls/P/avx512_1/x86_64, tls/P/avx512_1, tls/P/x86_64,
  // tls/P, tls/avx512_1/x86_64, ...), every platform P. No CPU searches
  // them all: a finding only it has may be no machine's (fail closed).
  for (const char *Tls : {"tls/", ""})
    for (const char *Plat : {"x86_64/", "haswell/", "xeon_phi/", ""})
      for (const char *Avx : {"avx512_1/", ""})
        for (const char *X86 : {"x86_64/", ""}) {
          std::string Sub = std::string(Tls) + Plat + Avx + X86;
          if (!Sub.empty() && llvm::find(Out, Sub) == Out.end())
            Out.push_back(Sub);
        }
  return Out;
}

bool LdSoMachine::searches(StringRef Subdir) const {
  if (Subdir.starts_with("glibc-hwcaps/") && !Subdir.starts_with("glibc-hwcaps/x86-64-v"))
    return HwcapsLevel > 0; // another architecture's levels
  // x86-64's legacy names (sysdeps/x86/dl-hwcap.h, dl-procinfo.c): hwcap
  // names x86_64 and avx512_1 (HWCAP_IMPORTANT), platforms x86_64 (the
  // kernel's), haswell and xeon_phi (glibc's, Intel only).
  if (Subdir.starts_with("glibc-hwcaps/") ||
      allIn(Subdir, {"tls", "x86_64", "haswell", "xeon_phi", "avx512_1"}))
    return llvm::is_contained(x86Subdirs(), Subdir);
  if (allIn(Subdir, {"tls", I386.Hwcap, I386.Platform}))
    return llvm::is_contained(oneHwcapSubdirs(I386, *this), Subdir);
  if (allIn(Subdir, {"tls", AArch64.Hwcap, AArch64.Platform}))
    return llvm::is_contained(oneHwcapSubdirs(AArch64, *this), Subdir);
  return Legacy; // another architecture's legacy names
}

namespace {

/// The subdirectories ld.so tries in each search directory before the
/// directory itself (elf/dl-hwcaps.c _dl_important_hwcaps), on machine M:
/// glibc-hwcaps/<level>/ (sysdeps/x86_64/dl-hwcaps-subdirs.c: x86-64-v4,
/// v3, v2; sysdeps/powerpc, s390 have their own; aarch64 and i386 none in
/// 2.36), then (before 2.37) the legacy power set (legacyPowerSet), as
/// Debian 12's `ld.so --help` lists them. x86-64: M.x86Subdirs(). i386:
/// the hwcap name sse2 and the platform i686 (sysdeps/x86/cpu-features.c:
/// a CPU with CMOV). Others: the platform, the machine's own name.
std::vector<std::string> optionalSubdirs(const ELFKind &K, const LdSoMachine &M) {
  if (K.Machine == ELF::EM_X86_64 && K.Class == ELF::ELFCLASS64)
    return M.x86Subdirs();
  if (K.Machine == ELF::EM_386)
    return oneHwcapSubdirs(I386, M);
  if (K.Machine == ELF::EM_AARCH64)
    return oneHwcapSubdirs(AArch64, M);
  std::vector<std::string> Out;
  // sysdeps/powerpc/powerpc64/le/dl-hwcaps-subdirs.c, sysdeps/s390/
  // s390-64/dl-hwcaps-subdirs.c: their levels, each CPU's and those below.
  // A CPU between the highest and none is not told apart here.
  if (M.HwcapsLevel > 0 && K.Machine == ELF::EM_PPC64)
    Out = {"glibc-hwcaps/power10/", "glibc-hwcaps/power9/"};
  if (M.HwcapsLevel > 0 && K.Machine == ELF::EM_S390)
    Out = {"glibc-hwcaps/z16/", "glibc-hwcaps/z15/", "glibc-hwcaps/z14/", "glibc-hwcaps/z13/"};
  if (!M.Legacy)
    return Out;
  llvm::append_range(Out, K.Arch.empty() ? std::vector<std::string>{"tls/"}
                                         : legacyPowerSet({K.Arch, "tls"}));
  return Out;
}

/// Every machine's (the default machine searches them all).
std::vector<std::string> allOptionalSubdirs(const ELFKind &K) {
  return optionalSubdirs(K, LdSoMachine());
}

/// What open_verify (and _dl_map_object_from_fd's first checks) make of
/// a candidate file.
struct Verified {
  enum class What { Accept, Skip, Fatal } Is = What::Fatal;
  std::string Why; // Skip / Fatal: ld.so's own words
};

/// elf/dl-load.c open_verify over the file's first bytes: Bytes, the
/// first N of them read (N < 0: the read failed with Err).
Verified verifyHead(ArrayRef<unsigned char> Bytes, ssize_t N, int Err, const ELFKind &Want) {
  Verified V;
  unsigned char H[64] = {};
  std::memcpy(H, Bytes.data(), std::min(Bytes.size(), sizeof(H)));
  const size_t EhdrSize = Want.Class == ELF::ELFCLASS32 ? 52 : 64;
  auto fatal = [&](std::string Why) {
    V.Is = Verified::What::Fatal;
    V.Why = std::move(Why);
    return V;
  };
  if (N < 0 || size_t(N) < EhdrSize)
    return fatal(Err ? std::string("cannot read file data: ") + std::strerror(Err)
                     : "file too short");
  // VALID_ELF_HEADER over e_ident[0..EI_ABIVERSION): magic, class, data,
  // version, OS ABI (Linux also takes ELFOSABI_GNU), then the ABI version
  // and the padding.
  const bool LE = true; // the hosts linkguard judges for: little-endian
  const uint8_t Data = LE ? ELF::ELFDATA2LSB : ELF::ELFDATA2MSB;
  auto u16 = [&](size_t Off) { return uint16_t(H[Off] | (H[Off + 1] << 8)); };
  auto u32 = [&](size_t Off) {
    return uint32_t(H[Off]) | (uint32_t(H[Off + 1]) << 8) | (uint32_t(H[Off + 2]) << 16) |
           (uint32_t(H[Off + 3]) << 24);
  };
  const bool Magic = std::memcmp(H, "\177ELF", 4) == 0;
  const uint8_t OsAbi = H[ELF::EI_OSABI], AbiVer = H[ELF::EI_ABIVERSION];
  bool PadZero = true;
  for (size_t I = ELF::EI_PAD; I < ELF::EI_NIDENT; ++I)
    PadZero &= H[I] == 0;
  const bool OsAbiOk = OsAbi == ELF::ELFOSABI_NONE || OsAbi == ELF::ELFOSABI_GNU;
  // sysdeps/unix/sysv/linux/ldsodefs.h VALID_ELF_ABIVERSION: GNU takes
  // versions below LIBC_ABI_MAX (glibc 2.36: 4, abi-tags' last + 1).
  const bool AbiVerOk = OsAbi == ELF::ELFOSABI_GNU ? AbiVer < 4 : AbiVer == 0;
  if (!Magic || H[ELF::EI_CLASS] != Want.Class || H[ELF::EI_DATA] != Data ||
      H[ELF::EI_VERSION] != ELF::EV_CURRENT || !OsAbiOk || !AbiVerOk || !PadZero) {
    if (!Magic)
      return fatal("invalid ELF header");
    if (H[ELF::EI_CLASS] != Want.Class) {
      V.Is = Verified::What::Skip;
      V.Why = "another ELF class: skipped";
      return V;
    }
    // elf_machine_matches_host before the data encoding.
    if (u16(18) != Want.Machine) {
      V.Is = Verified::What::Skip;
      V.Why = "another machine (e_machine " + std::to_string(u16(18)) + "): skipped";
      return V;
    }
    if (H[ELF::EI_DATA] != Data)
      return fatal("ELF file data encoding not little-endian");
    if (H[ELF::EI_VERSION] != ELF::EV_CURRENT)
      return fatal("ELF file version ident does not match current one");
    if (!OsAbiOk)
      return fatal("ELF file OS ABI invalid");
    if (!AbiVerOk)
      return fatal("ELF file ABI version invalid");
    return fatal("nonzero padding in e_ident");
  }
  if (u32(20) != ELF::EV_CURRENT)
    return fatal("ELF file version does not match current one");
  if (u16(18) != Want.Machine) {
    V.Is = Verified::What::Skip;
    V.Why = "another machine (e_machine " + std::to_string(u16(18)) + "): skipped";
    return V;
  }
  const uint16_t Type = u16(16);
  if (Type != ELF::ET_DYN && Type != ELF::ET_EXEC)
    return fatal("only ET_DYN and ET_EXEC can be loaded");
  const uint16_t PhEntSize = Want.Class == ELF::ELFCLASS32 ? u16(42) : u16(54);
  if (PhEntSize != (Want.Class == ELF::ELFCLASS32 ? 32 : 56))
    return fatal("ELF file's phentsize not the expected size");
  V.Is = Verified::What::Accept;
  return V;
}

/// open_verify of the file at Abs: open(2), its first bytes, verifyHead.
Verified openVerify(const std::string &Abs, const ELFKind &Want) {
  int FD = ::open(Abs.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (FD < 0) {
    Verified V;
    V.Is = Verified::What::Skip; // ENOENT / EACCES: open_path goes on
    V.Why = std::string("cannot open: ") + std::strerror(errno);
    return V;
  }
  unsigned char H[64] = {};
  ssize_t N = ::pread(FD, H, sizeof(H), 0);
  int Err = N < 0 ? errno : 0;
  ::close(FD);
  return verifyHead(H, N, Err, Want);
}

/// The class and machine of the file whose first bytes are H, N of them
/// read (the root's): what its dependencies must match.
std::optional<ELFKind> kindOfHead(const unsigned char *H, ssize_t N) {
  if (N < 20 || std::memcmp(H, "\177ELF", 4) != 0)
    return std::nullopt;
  ELFKind K;
  K.Class = H[ELF::EI_CLASS];
  K.Machine = uint16_t(H[18] | (H[19] << 8));
  return K;
}

/// kindOfHead of the file at Abs.
std::optional<ELFKind> kindOfFile(const std::string &Abs) {
  int FD = ::open(Abs.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (FD < 0)
    return std::nullopt;
  unsigned char H[20] = {};
  ssize_t N = ::pread(FD, H, sizeof(H), 0);
  ::close(FD);
  return kindOfHead(H, N);
}

struct LdSo : ResolverState {
  LdSo(Shipment &S, const ClosureOptions &O, Closure &C, size_t &Budget, size_t RI)
      : ResolverState(S, O, C, Budget, RI) {
    Log.RootLeft = &WhyRoot;
    Log.ClosureLeft = &C.WhyLeft;
  }
  ELFKind Want;
  bool ReadBytes = true; // a directory or file: candidates are read; a zip: its records
  std::vector<std::string> Optional;
  std::vector<std::string> AllOptional; // every machine's (Optional: this one's)
  const LoaderRules &LR = contract::rulesFor(objlib::Format::ELF);

  // Per root: what ld.so holds while it loads.
  DenseMap<size_t, size_t> LoaderOf;         // l_loader
  DenseMap<size_t, std::string> Origin;      // l_origin: the opened path's directory, raw
  StringMap<size_t> Answers; // every name a loaded object answers to -> it
  DenseSet<size_t> Loaded;
  StringMap<bool> MissingDirs;               // r_search_path_elem: nonexisting
  /// Names the system answered (loaded from outside the tree): asked
  /// again, they are that object (_dl_name_match_p), with no search.
  StringMap<bool> SystemLoaded;
  /// Each directory (or subdirectory) walked once, links and all: a
  /// candidate in it is walked from its real path, so thousands of search
  /// entries through one chain of links cost one walk of the chain each,
  /// not one per name and subdirectory (issue 37 part 5).
  StringMap<PathProbe> DirProbes;
  /// The candidates of the dependency being resolved, with their reasons
  /// (Edge::Tried), and the root's share of the bound.
  TryLog Log;
  size_t WhyRoot = MaxWhyPerRoot;
  /// The directories whose optional subdirectories were tried once: ld.so
  /// tries each on its first search there (open_path, status unknown) and
  /// marks the missing ones; later searches skip those without a try.
  StringSet<> OptionalTried;

  const Slice &sliceOf(size_t I) const { return S.images()[I].Info.Slices[0]; }

  /// Whether image I's own search depends on the path it was opened by:
  /// a DT_NEEDED name with $ORIGIN, or a DT_RPATH/DT_RUNPATH entry with
  /// it and a DT_NEEDED to search for (one its own SONAME answers, or
  /// none, searches nothing: seeds 23334, 27700).
  /// $ORIGIN as is_dst takes it ("$ORIGIN" not followed by a letter,
  /// digit or '_', or "${ORIGIN}"): P expands differently in two
  /// directories. One with $LIB or $PLATFORM before it is not expanded
  /// here: counted when it spells ORIGIN at all.
  bool hasOrigin(StringRef P) const {
    if (!P.contains("ORIGIN"))
      return false;
    contract::Expansion A = contract::expand(LR, P, "/a", "/e");
    return !A.Undecidable.empty() || A.Raw != contract::expand(LR, P, "/b", "/e").Raw;
  }
  bool usesOrigin(size_t I) const {
    const Slice &Sl = sliceOf(I);
    bool Searches = false;
    for (const objlib::Dependency &D : Sl.Dependencies) {
      if (hasOrigin(D.Name))
        return true;
      Searches |= !(Sl.InstallName && *Sl.InstallName == D.Name);
    }
    if (!Searches)
      return false;
    for (const objlib::SearchPath &P : Sl.SearchPaths)
      if (hasOrigin(P.Path))
        return true;
    return false;
  }

  /// The optional subdirectories (indexes into Optional) whose first
  /// component the real directory DirReal may hold, found once per
  /// directory: the others are missing, which ld.so's first search finds
  /// and remembers (r_search_path_elem status) and which costs a search
  /// here nothing.
  StringMap<std::vector<unsigned>> OptionalHere;
  const std::vector<unsigned> &optionalIn(const std::string &DirReal) {
    auto It = OptionalHere.find(DirReal);
    if (It != OptionalHere.end())
      return It->second;
    std::vector<unsigned> Here;
    for (unsigned I = 0; I < Optional.size(); ++I) {
      std::optional<bool> Has = S.hasEntry(DirReal, StringRef(Optional[I]).split('/').first);
      if (!Has || *Has)
        Here.push_back(I);
    }
    return OptionalHere.try_emplace(DirReal, std::move(Here)).first->second;
  }

  /// The optional subdirectories of the real directory DirReal that this
  /// machine does not search and another does (Closure::
  /// SubdirectoriesSeen): a lower CPU level's, another platform's.
  void noteOtherMachines(const std::string &DirReal) {
    if (AllOptional.size() == Optional.size())
      return; // this machine searches them all: noted as tried
    for (const std::string &Sub : AllOptional) {
      if (C.SubdirectoriesSeen.count(Sub) || llvm::is_contained(Optional, Sub))
        continue;
      std::optional<bool> Has = S.hasEntry(DirReal, StringRef(Sub).split('/').first);
      if (Has && !*Has)
        continue;
      std::string Key = DirReal.empty() ? Sub : DirReal + "/" + Sub;
      while (!Key.empty() && Key.back() == '/')
        Key.pop_back();
      const PathProbe &P = probeDir(Key);
      if (P.Is != PathProbe::What::Missing && P.Is != PathProbe::What::File &&
          P.Is != PathProbe::What::Special)
        C.SubdirectoriesSeen.insert(Sub);
    }
  }

  /// The directory at Rel under the root, as the kernel walks it, walked
  /// once per root; its links are charged to the bound when walked.
  const PathProbe &probeDir(const std::string &Rel) {
    auto It = DirProbes.find(Rel);
    if (It != DirProbes.end())
      return It->second;
    PathProbe P = S.probe(Rel.empty() ? "." : Rel);
    charge(P.Hops);
    return DirProbes.try_emplace(Rel, std::move(P)).first->second;
  }

  std::optional<std::string> relOf(StringRef Raw) const { return S.relOf(Raw); }

  std::string absOf(const std::string &Real) const {
    return S.root() == "/" ? "/" + Real : S.root() + "/" + Real;
  }

  /// One candidate, as open_path and open_verify take it.
  struct Try {
    enum class What {
      Missing,  // go on
      Skip,     // another class or machine: go on
      Found,    // Image
      Fatal,    // ends the load: Why
      Blocks,   // a FIFO: ld.so waits for a writer
      Host,     // a link or ".." out of the tree: the machine's file
      Loop,     // ELOOP: open_path gives this list up
      AbsLink,  // found through an absolute link into the tree
      Unknown,  // a file linkguard could not read
    } Is = What::Missing;
    std::optional<size_t> Image;
    std::string Why;
    std::string Real; // Unknown: the file's real path under the root
  };

  /// A candidate's reason and detail as --why lists it.
  static contract::TriedCandidate candidate(const Try &T, std::string Path, std::string Via) {
    using contract::TryReason;
    contract::TriedCandidate K{std::move(Path), std::move(Via), TryReason::Missing, T.Why};
    switch (T.Is) {
    case Try::What::Missing:
      break;
    case Try::What::Skip:
      K.Reason = StringRef(T.Why).starts_with("another") ? TryReason::WrongArchitecture
                                                         : TryReason::NotLoadable;
      break;
    case Try::What::Found:
      K.Reason = TryReason::Accepted;
      break;
    case Try::What::AbsLink:
      K.Reason = TryReason::Accepted;
      K.Detail = "through an absolute symbolic link into the tree";
      break;
    case Try::What::Fatal:
    case Try::What::Blocks:
      K.Reason = TryReason::NotLoadable;
      K.Detail += "; ld.so stops here: the load fails";
      break;
    case Try::What::Loop:
      K.Reason = TryReason::NotLoadable;
      K.Detail += "; ld.so gives up this search list";
      break;
    case Try::What::Host:
      K.Reason = TryReason::OutsideRoot;
      break;
    case Try::What::Unknown:
      K.Reason = TryReason::Unreadable;
      break;
    }
    return K;
  }

  /// Rel under the root; Dir: the directory it is in was walked before
  /// (Rel starts with its real path), its links count for ELOOP and an
  /// absolute link on the way to it is one on the way to Rel.
  Try tryFile(const std::string &Rel, const PathProbe *Dir = nullptr) {
    Try T;
    PathProbe P = S.probe(Rel, Dir ? Dir->Hops : 0);
    if (Dir)
      P.AbsoluteLink |= Dir->AbsoluteLink;
    switch (P.Is) {
    case PathProbe::What::Missing:
      if (P.NotDir) {
        // Not ENOENT: open_path gives the list up (elf/dl-load.c: "The
        // file exists and is readable, but something went wrong").
        T.Is = Try::What::Loop;
        T.Why = "not a directory (ENOTDIR)";
      }
      return T;
    case PathProbe::What::Loop:
      T.Is = Try::What::Loop;
      T.Why = "too many levels of symbolic links";
      return T;
    case PathProbe::What::Outside:
      T.Is = Try::What::Host;
      T.Why = P.Target == ".." ? "leads above the tree" : "a link to " + P.Target + ", outside the tree";
      return T;
    case PathProbe::What::Directory:
      T.Is = Try::What::Fatal;
      T.Why = "cannot read file data: Is a directory";
      return T;
    case PathProbe::What::Special:
      T.Is = Try::What::Blocks;
      T.Why = "a FIFO, socket or device: ld.so's open(2) of a FIFO blocks until a writer comes";
      return T;
    case PathProbe::What::File:
      break;
    }
    if (ReadBytes) {
      // What the walk read of a binary of the tree; a file it kept
      // nothing of (not a binary, a file shipment) is read now.
      std::optional<ArrayRef<unsigned char>> Head = S.walkedHead(P.Real);
      Verified V = Head ? verifyHead(*Head, ssize_t(Head->size()), 0, Want)
                        : openVerify(absOf(P.Real), Want);
      if (V.Is == Verified::What::Skip) {
        T.Is = Try::What::Skip;
        T.Why = V.Why;
        return T;
      }
      if (V.Is == Verified::What::Fatal) {
        T.Is = Try::What::Fatal;
        T.Why = V.Why;
        return T;
      }
    }
    bool Unreadable = false;
    std::optional<size_t> I = S.imageAt(P.Real, &Unreadable);
    if (std::optional<uint64_t> Size = I || ReadBytes ? std::nullopt : S.plainMember(P.Real)) {
      // open_verify: fewer bytes than an ELF header, or no ELF magic.
      T.Is = Try::What::Fatal;
      T.Why = *Size < (Want.Class == ELF::ELFCLASS64 ? 64 : 52)
                  ? "file too short (an installed member that is no ELF file)"
                  : "invalid ELF header (an installed member that is no ELF file)";
      return T;
    }
    if (!I) {
      T.Is = ReadBytes || Unreadable ? Try::What::Unknown : Try::What::Missing;
      T.Why = "linkguard cannot read it";
      T.Real = P.Real;
      return T;
    }
    const objlib::BinaryInfo &B = S.images()[*I].Info;
    if (B.Fmt != objlib::Format::ELF || B.Slices.empty()) {
      T.Is = Try::What::Fatal;
      T.Why = "invalid ELF header";
      return T;
    }
    const Slice &Sl = B.Slices[0];
    if (!ReadBytes) {
      // A zip's member: its record stands for its bytes.
      if (Sl.Arch != Want.Arch) {
        T.Is = Try::What::Skip;
        T.Why = "another machine (" + Sl.Arch + "): skipped";
        return T;
      }
      if (Sl.FileType != "ET_DYN" && Sl.FileType != "ET_EXEC") {
        T.Is = Try::What::Fatal;
        T.Why = "only ET_DYN and ET_EXEC can be loaded";
        return T;
      }
    }
    T.Image = I;
    // _dl_map_object_from_fd: the same file already loaded is that object
    // (its device and inode), but for the main program the kernel mapped:
    // ld.so holds no file identity for it, and loads the file again.
    if (Loaded.count(*I) && !(root().Executable && *I == root().Image)) {
      T.Is = P.AbsoluteLink ? Try::What::AbsLink : Try::What::Found;
      return T;
    }
    if (Sl.FileType == "ET_EXEC") {
      T.Is = Try::What::Fatal;
      T.Why = "cannot dynamically load executable";
      return T;
    }
    if (!Sl.ELFDynamic) {
      T.Is = Try::What::Fatal;
      T.Why = "object file has no dynamic section";
      return T;
    }
    // The same check under dlopen: every object a dlopen root brings in is
    // mapped in __RTLD_DLOPEN mode ("shared object cannot be dlopen()ed").
    if ((Sl.ELFFlags1 & ELF::DF_1_NOOPEN) && !root().Executable) {
      T.Is = Try::What::Fatal;
      T.Why = "shared object cannot be dlopen()ed (-z nodlopen, DF_1_NOOPEN): " +
              S.printName(root().Image) + " is opened by dlopen, and so is everything it loads";
      return T;
    }
    if (Sl.ELFFlags1 & ELF::DF_1_PIE) {
      T.Is = Try::What::Fatal;
      T.Why = "cannot dynamically load position-independent executable";
      return T;
    }
    T.Is = P.AbsoluteLink ? Try::What::AbsLink : Try::What::Found;
    return T;
  }

  /// One dependency's search (steps 4-7). Two machines are followed at
  /// once: this one's ld.so (Hit: glibc 2.36, every subdirectory searched)
  /// and a baseline one that searches no subdirectory (Base): where they
  /// part, the result is host-dependent.
  struct Search {
    TriedPaths Tried;
    std::vector<std::string> HostEntries; // host paths tried before the baseline's hit
    /// An entry among them that is no default directory of ld.so (an
    /// empty or relative one, the process's current directory, included):
    /// a copy of even the runtime's names there loads first.
    bool Cwd = false;
    std::string Undecided;
    bool Decided = false;  // Hit is set
    bool Base = false;     // the baseline machine's search is over
    Try Hit;
    std::string HitRaw, HitLabel;
    bool HitOptional = false; // Hit is in a glibc-hwcaps / legacy subdirectory
    /// After an optional Hit: a candidate some other machine meets first is
    /// not the Hit's image (dev and inode). When every one is, and the
    /// baseline machine's search ends on it too, every machine loads the
    /// same file: a subdirectory copy that is a link to the directory's own
    /// copy (or the reverse) is not host-dependent.
    bool OptionalDiffers = false;
    /// The baseline machine's image, when an optional Hit came first, and
    /// the path it was opened by (its $ORIGIN, a name it answers to).
    std::optional<size_t> BaseImage;
    std::string BaseRaw;
    /// The baseline machine's candidate ends its load there: which, and why.
    std::string BaseStops;
    /// After an optional Hit, another optional candidate loads (a lower
    /// glibc-hwcaps level's copy): some machine loads a file.
    bool LaterOptionalLoads = false;
    /// The baseline machine loads the Hit's own file by another path, so
    /// with another $ORIGIN.
    bool SameFileOtherOrigin = false;
    bool ListGivenUp = false;
    /// Make: the try's text, built only when it is listed (a search of
    /// thousands of entries costs no string for the ones only counted).
    template <class F> void tried(F &&Make) { Tried.add(std::forward<F>(Make)); }
  };

  /// open_path over one directory entry, already expanded: Dir is the
  /// raw directory as ld.so concatenates it.
  void tryDir(Search &Se, const std::string &Dir, StringRef Leaf, const std::string &Label) {
    std::optional<std::string> RelDir = relOf(Dir);
    if (RelDir && !MissingDirs.count(*RelDir)) {
      // The directory itself, as the kernel walks it: out of the tree
      // (through "..", or a link) it is the machine's.
      if (!charge())
        return;
      const PathProbe &D = probeDir(*RelDir);
      if (Exhausted)
        return;
      if (D.Is == PathProbe::What::Outside) {
        Se.Cwd = true; // the machine's directory, no default one of ld.so
        std::string Where = D.Target == ".." ? std::string("above the tree")
                                             : "a link to " + D.Target;
        Se.HostEntries.push_back(Label + " (" + Dir + ": " + Where + ")");
        Log.add(contract::TryReason::OutsideRoot, contract::rawJoin(Dir, Leaf), Label,
                "the directory is " + Where + ": the machine's");
        return;
      }
      if (D.Is != PathProbe::What::Directory) {
        // Missing (or not a directory): every candidate in it fails with
        // ENOENT/ENOTDIR; ld.so marks it nonexisting.
        MissingDirs[*RelDir] = true;
        // Named lexically, unless only the kernel's walk of ".." fails.
        std::optional<std::string> NormRel = relOf(contract::normalizePath(Dir));
        const bool DotDot = NormRel && probeDir(*NormRel).Is == PathProbe::What::Directory;
        // ld.so's first search there tries each subdirectory, then the
        // directory itself, each ENOENT.
        if (OptionalTried.insert(*RelDir).second)
          for (const std::string &Sub : Optional)
            Log.add([&] {
              return contract::TriedCandidate{contract::rawJoin(Dir, Sub + Leaf.str()), Label,
                                              contract::TryReason::Missing,
                                              "no such directory"};
            });
        Log.add([&] {
          return contract::TriedCandidate{
              contract::rawJoin(Dir, Leaf), Label, contract::TryReason::Missing,
              DotDot ? "a directory before '..' is missing" : "no such directory"};
        });
        Se.tried([&] {
          return Label + " -> " +
                 (DotDot ? contract::rawJoin(Dir, Leaf) + " (a directory before '..' is missing)"
                         : contract::joinPath(Dir, Leaf) + " (no such directory)");
        });
        return;
      }
    }
    if (!RelDir) {
      Se.Cwd = true;
      Se.HostEntries.push_back(Label + " (" + Dir + ")");
      Log.add(contract::TryReason::OutsideRoot, contract::rawJoin(Dir, Leaf), Label,
              "outside the tree: the machine's directory");
      return;
    }
    if (MissingDirs.count(*RelDir)) {
      // Not tried again, but searched: the message says the entry was there.
      Se.tried([&] { return Label + " -> " + contract::joinPath(Dir, Leaf) + " (no such directory)"; });
      Log.add([&] {
        return contract::TriedCandidate{contract::rawJoin(Dir, Leaf), Label,
                                        contract::TryReason::MissingDirectory,
                                        "found missing for an earlier name: ld.so does not try "
                                        "it again"};
      });
      return;
    }
    // The directory itself, walked (and cached) above: candidates are
    // walked from its real path.
    const PathProbe &Base = probeDir(*RelDir);
    if (Exhausted)
      return;
    // Returns whether this candidate ends the list's walk.
    auto one = [&](const std::string &Sub, bool IsOptional) -> bool {
      std::string DirKey = RelDir->empty() ? Sub : *RelDir + "/" + Sub;
      if (MissingDirs.count(DirKey))
        return false;
      if (!charge())
        return true;
      // The subdirectory, walked once from the directory's real path.
      std::string RealKey = Base.Real.empty() ? Sub : Base.Real + "/" + Sub;
      while (!RealKey.empty() && RealKey.back() == '/')
        RealKey.pop_back();
      const PathProbe &SubDir = Sub.empty() ? Base : probeDir(RealKey);
      if (Exhausted)
        return true;
      // A subdirectory there: a machine that does not search it differs.
      if (IsOptional && SubDir.Is != PathProbe::What::Missing &&
          SubDir.Is != PathProbe::What::File && SubDir.Is != PathProbe::What::Special)
        C.SubdirectoriesSeen.insert(Sub);
      std::string Raw = contract::rawJoin(Dir, Sub + Leaf.str());
      Try T;
      if (SubDir.Is == PathProbe::What::Directory && Raw.size() >= 4096) {
        // PATH_MAX: the directory is there (stat), its name + the file's
        // is not openable: ENAMETOOLONG, which gives the list up.
        T.Is = Try::What::Loop;
        T.Why = "file name too long (ENAMETOOLONG)";
      } else if (SubDir.Is == PathProbe::What::Directory) {
        // A name the directory does not hold cannot be opened: no walk
        // ("", "." and ".." name the directory itself: walked).
        std::optional<bool> Has;
        if (!Leaf.empty() && Leaf != "." && Leaf != "..")
          Has = S.hasEntry(SubDir.Real, Leaf);
        if (!Has || *Has)
          T = tryFile(SubDir.Real.empty() ? Leaf.str() : SubDir.Real + "/" + Leaf.str(), &SubDir);
      } else if (SubDir.Is == PathProbe::What::Missing || SubDir.Is == PathProbe::What::File ||
                 SubDir.Is == PathProbe::What::Special) {
        T.Is = Try::What::Missing; // ENOENT / ENOTDIR
      } else {
        // A link out of the tree, or ELOOP, on the way: walked whole.
        T = tryFile(DirKey.empty() || DirKey.back() == '/' ? DirKey + Leaf.str()
                                                           : DirKey + "/" + Leaf.str());
      }
      // open_path: a directory (with its subdirectory) found missing is
      // never tried again.
      if (T.Is == Try::What::Missing && SubDir.Is != PathProbe::What::Directory)
        MissingDirs[DirKey] = true;
      Log.add([&] {
        contract::TriedCandidate K = candidate(T, Raw, Label);
        if (T.Is == Try::What::Missing && SubDir.Is != PathProbe::What::Directory)
          K.Detail = "no such directory";
        else if (K.Reason == contract::TryReason::Accepted && (IsOptional || Se.Decided)) {
          // A subdirectory's copy loads where ld.so searches it (a CPU
          // level, a glibc before 2.37); the next one where it does not.
          std::string Where = IsOptional ? "on machines whose ld.so searches " + Sub
                                         : std::string("on machines whose ld.so searches none "
                                                       "of the subdirectories above");
          K.Detail = K.Detail.empty() ? Where : Where + "; " + K.Detail;
        }
        return K;
      });
      switch (T.Is) {
      case Try::What::Missing: {
        if (!IsOptional)
          Se.tried([&] { return Label + " -> " + contract::normalizePath(Raw); });
        return false;
      }
      case Try::What::Skip:
        Se.tried([&] { return Label + " -> " + Raw + " (" + T.Why + ")"; });
        return false;
      case Try::What::Loop:
        Se.tried([&] { return Label + " -> " + Raw + " (" + T.Why + ")"; });
        // open_path returns -1 for the whole list when the directory's
        // last try failed otherwise than ENOENT/EACCES: its errno is that
        // of the directory itself, tried after every subdirectory.
        if (IsOptional)
          return false;
        Se.ListGivenUp = true;
        return true;
      case Try::What::Host:
        Se.Cwd = true;
        Se.HostEntries.push_back(Label + " -> " + Raw + " (" + T.Why + ")");
        return false;
      default:
        break;
      }
      if (!Se.Decided) {
        Se.Decided = true;
        Se.Hit = T;
        Se.HitRaw = Raw;
        Se.HitLabel = Label;
        Se.HitOptional = IsOptional;
      } else if (Se.HitOptional &&
                 !(T.Is == Try::What::Found && Se.Hit.Is == Try::What::Found && T.Image &&
                   T.Image == Se.Hit.Image)) {
        // A machine that skips the subdirectory of the hit meets this
        // candidate: another file (or a failure).
        Se.OptionalDiffers = true;
      } else if (Se.HitOptional && !IsOptional && T.Image &&
                 sys::path::parent_path(Raw, Posix) != sys::path::parent_path(Se.HitRaw, Posix) &&
                 usesOrigin(*T.Image)) {
        // The same file opened by another path: its $ORIGIN (the
        // directory of the name ld.so opened, _dl_new_object's realname)
        // is another directory, and its own search with it (seed 27057).
        Se.OptionalDiffers = true;
        Se.SameFileOtherOrigin = true;
      }
      if (IsOptional) {
        // (The Hit itself, when it loads, is no later one, and then no
        // machine fails: LaterOptionalLoads matters only after a failing Hit.)
        // (One linkguard cannot read may load: not known to fail.)
        Se.LaterOptionalLoads |= T.Is == Try::What::Found || T.Is == Try::What::AbsLink ||
                                 T.Is == Try::What::Unknown;
        return false; // the baseline machine goes on to the directory itself
      }
      if (Se.HitOptional && (T.Is == Try::What::Found || T.Is == Try::What::AbsLink)) {
        Se.BaseImage = T.Image;
        Se.BaseRaw = Raw;
      } else if (Se.HitOptional && (T.Is == Try::What::Fatal || T.Is == Try::What::Blocks)) {
        Se.BaseStops = Raw + " (" + T.Why + ")";
      }
      Se.Base = true;
      return true;
    };
    const std::vector<unsigned> &Here = optionalIn(Base.Real);
    if (OptionalTried.insert(*RelDir).second) {
      noteOtherMachines(Base.Real);
      // The first search in the directory: ld.so tries every subdirectory,
      // those whose first component is missing too (ENOENT), and marks them.
      size_t H = 0;
      for (unsigned I = 0; I < Optional.size(); ++I) {
        if (H < Here.size() && Here[H] == I) {
          ++H;
          if (one(Optional[I], true))
            return;
          continue;
        }
        Log.add([&] {
          return contract::TriedCandidate{contract::rawJoin(Dir, Optional[I] + Leaf.str()), Label,
                                          contract::TryReason::Missing, "no such directory"};
        });
      }
    } else {
      for (unsigned I : Here)
        if (one(Optional[I], true))
          return;
    }
    one("", false);
  }

  /// Whether the search is over for every machine.
  static bool done(const Search &Se) { return Se.Base || Se.ListGivenUp; }

  void searchList(Search &Se, size_t Holder, size_t Requester,
                  const std::vector<std::string> &Entries, const char *Kind, StringRef Leaf) {
    StringSet<> Seen; // fillin_rpath: a directory once a list
    Se.ListGivenUp = false;
    for (const std::string &Entry : Entries) {
      if (done(Se) || Exhausted)
        break;
      // The bound counts entries x names (issue 37 part 5): a directory
      // found missing costs no system call again, but its entry is still
      // walked, as ld.so walks it.
      if (!charge())
        break;
      std::string Label = std::string(Kind) + " " + (Entry.empty() ? "''" : Entry) +
                          (Holder == Requester ? "" : " of " + S.printName(Holder));
      std::string Dir;
      bool FromToken = false;
      if (!Entry.empty()) {
        Expansion Ex = contract::expand(LR, Entry, Origin.lookup(Holder), root().ExecutableDir);
        if (!Ex.Undecidable.empty()) {
          if (Se.Undecided.empty() && !Se.Base)
            Se.Undecided = Label + ": " + Ex.Undecidable;
          Log.add(contract::TryReason::Undecided, contract::rawJoin(Entry, Leaf), Label,
                  Ex.Undecidable);
          continue;
        }
        FromToken = Ex.FromToken;
        Dir = Ex.Raw;
        if (Dir.empty())
          continue; // expand_dynamic_string_token: nothing left
      }
      while (Dir.size() > 1 && Dir.back() == '/')
        Dir.pop_back();
      if (!Seen.insert(Dir).second)
        continue;
      if (!FromToken) {
        // The machine's own directory (absolute), or the process's current
        // one (empty, relative): wherever the tree is unpacked.
        if (!charge())
          break;
        // The C/C++ runtime's own names stay the system's behind an
        // absolute directory (a machine that puts a libc there has made it
        // its own C library), not behind the process's current directory.
        Se.Cwd |= !StringRef(Dir).starts_with("/");
        std::string Note = Dir.empty() ? " (the current directory)"
                           : !StringRef(Dir).starts_with("/")
                               ? " (relative to the current directory)"
                               : "";
        // Said, never counted: the build machine is where a baked path
        // resolves, which proves nothing about the machines it ships to.
        if (StringRef(Dir).starts_with("/") && ::access(contract::joinPath(Dir, Leaf).c_str(), F_OK) == 0)
          Note = " (" + contract::joinPath(Dir, Leaf) +
                 " exists on this machine, which proves nothing about the machines the tree "
                 "ships to)";
        Se.HostEntries.push_back(Label + Note);
        // fillin_rpath: an empty entry is "./". One candidate for the
        // machine's directory (ld.so tries its subdirectories there too,
        // those the machine has on later searches).
        Log.add([&] {
          return contract::TriedCandidate{
              contract::rawJoin(Dir.empty() ? "." : Dir, Leaf), Label,
              contract::TryReason::HostDependent,
              (Note.empty() ? std::string("the machine's directory")
                            : "the machine's directory" + Note) +
                  "; ld.so also tries its glibc-hwcaps and legacy subdirectories"};
        });
        continue;
      }
      tryDir(Se, Dir, Leaf, Label);
    }
    Se.ListGivenUp = false; // open_path's -1 ends this list only
  }

  static std::vector<std::string> entries(const Slice &Sl, SearchPathKind K) {
    std::vector<std::string> Out;
    for (const objlib::SearchPath &P : Sl.SearchPaths)
      if (P.Kind == K)
        Out.push_back(P.Path);
    // decompose_rpath: an empty DT_RPATH/DT_RUNPATH string is none.
    if (Out.size() == 1 && Out[0].empty())
      Out.clear();
    return Out;
  }

  static constexpr const char *HostAdvice =
      "drop the absolute, empty or relative entry from DT_RUNPATH/DT_RPATH, or order it "
      "after the $ORIGIN entry that finds the shipped copy (patchelf --set-rpath)";

  /// The edge's outcome from a finished search of Leaf.
  void conclude(Edge &E, const Search &Se, StringRef Leaf, bool SystemName) {
    const std::string What = "a DT_NEEDED name";
    if (Exhausted) {
      placeEdge(E, Outcome::Unknown,
            "is " + What + " whose search is past the bound (" + std::to_string(O.MaxEdges) +
                " dependencies, search entries x names, candidates and links tried in all): "
                "undecided",
            "judge a smaller tree, or shorten the search paths that make the bound");
      return;
    }
    if (Se.Decided) {
      const Try &T = Se.Hit;
      std::string Host = listedUpTo(Se.HostEntries);
      // What is certain first: an entry that cannot be decided ($LIB)
      // before the hit, a hit linkguard cannot read, a hit that ends the
      // load; then what depends on the machine (a subdirectory copy, an
      // entry of the machine's tried first); then what loads.
      if (!Se.Undecided.empty()) {
        placeEdge(E, Outcome::Unknown,
              "resolves to " + Se.HitRaw + ", but ld.so first tries " + Se.Undecided,
              "replace $LIB/$PLATFORM with $ORIGIN-relative directories");
        return;
      }
      if (T.Is == Try::What::Unknown) {
        placeEdge(E, Outcome::Unknown,
              "ld.so would load " + Se.HitRaw + ", which linkguard cannot read",
              "see the read error reported for that file");
        E.Unreadable = S.nameOf(T.Real); // one file, whatever path reached it
        return;
      }
      const bool Ends = T.Is == Try::What::Fatal || T.Is == Try::What::Blocks;
      if (Se.HitOptional && Ends && !Se.BaseStops.empty() && !Se.LaterOptionalLoads &&
          Host.empty()) {
        // Every machine stops: this one at the subdirectory's copy, the
        // baseline one at the directory's.
        placeEdge(E, Outcome::Unresolved,
              "ld.so stops at " + Se.HitRaw + " through " + Se.HitLabel + " (" + T.Why +
                  ") on machines whose ld.so searches that subdirectory, and at " +
                  Se.BaseStops + " on the others: the load fails on every machine" +
                  Se.Tried.text(),
              "remove both from the shipment, or ship the library there");
        return;
      }
      if (Se.HitOptional && (!Se.Base || Se.OptionalDiffers)) {
        C.SubdirectoryDependent = true;
        placeEdge(E, Outcome::HostDependent,
              (Ends ? "stops at " + Se.HitRaw + " through " + Se.HitLabel + " (" + T.Why +
                          ", and the load fails)"
                    : "resolves to " + Se.HitRaw + " through " + Se.HitLabel) +
                  " only on machines whose ld.so searches that subdirectory (glibc-hwcaps "
                  "by CPU level; tls/, x86_64/, haswell/ before glibc 2.37); " +
                  (!Se.BaseStops.empty() ? "others stop at " + Se.BaseStops +
                                               ", and the load fails there"
                   : Se.SameFileOtherOrigin
                       ? "others load the same file as " + Se.BaseRaw +
                             ", where its $ORIGIN is another directory"
                   : Se.Base ? std::string("others load another file")
                             : std::string("others load no file of the tree")) +
                  Se.Tried.text(),
              Ends ? "remove " + Se.HitRaw + " from the shipment"
                   : std::string("ship one copy, in the directory itself, or make every "
                                 "subdirectory copy a build of the same library (then judge "
                                 "each)"));
        // The closure goes on as a machine that loads a file does: this
        // one's, else (its copy ends the load: open_verify or
        // _dl_map_object_from_fd refuses it, whatever image it holds) the
        // baseline machine's, whose image then answers later names by its
        // SONAME.
        if (T.Image && !Ends)
          E.Target = T.Image;
        else if (Se.BaseImage)
          E.Target = Se.BaseImage;
        return;
      }
      if (T.Is == Try::What::AbsLink) {
        // Loads here; unpacked at another path, the link names nothing (or
        // that machine's file).
        placeEdge(E, Outcome::HostDependent,
              "resolves to " + Se.HitRaw + " through an absolute symbolic link into the tree: "
                  "it loads only where the tree is unpacked at " + S.root(),
              "make the link relative");
        if (T.Image)
          E.Target = T.Image;
        return;
      }
      // The runtime's own names are the system's wherever a machine's
      // directory is tried first; the current directory is no system's.
      // A copy the tree ships of even the runtime's names: the machine's
      // directory tried first decides which copy loads.
      if (!Host.empty() && Ends) {
        // A machine with the library there loads that; any other stops at
        // the tree's candidate: host-dependent, and broken where it is
        // not (no allow-list entry for the machine's entry decides it).
        placeEdge(E, Outcome::HostDependent,
              "ld.so tries " + Host + " first; where that holds no copy, it stops at " +
                  Se.HitRaw + " (through " + Se.HitLabel + "): " + T.Why +
                  ", and the load fails",
              "remove " + Se.HitRaw + " from the shipment, or ship the library there; and " +
                  HostAdvice);
        return;
      }
      if (!Host.empty()) {
        placeEdge(E, Outcome::HostDependent,
              "resolves to " + Se.HitRaw + " through " + Se.HitLabel + ", but ld.so tries " +
                  Host + " first: a machine with the library there loads that copy",
              HostAdvice);
        E.HostEntriesOnly = true;
        if (T.Image)
          E.Target = T.Image;
        return;
      }
      if (T.Is == Try::What::Fatal) {
        placeEdge(E, Outcome::Unresolved,
              "ld.so stops at " + Se.HitRaw + " (through " + Se.HitLabel + "): " + T.Why +
                  "; the load fails there, before any later directory",
              "remove " + Se.HitRaw + " from the shipment, or ship the library there");
        return;
      }
      if (T.Is == Try::What::Blocks) {
        placeEdge(E, Outcome::Unresolved, "ld.so opens " + Se.HitRaw + ": " + T.Why,
              "remove " + Se.HitRaw + " from the shipment");
        return;
      }
      if (T.Is == Try::What::Found)
        if (const std::optional<size_t> Img = T.Image) { // a Found always has one
          E.Target = Img;
          E.ResolvedPath = contract::normalizePath(Se.HitRaw);
          E.Via = Se.HitLabel;
          placeEdge(E, Outcome::Shipped,
                    "resolves to " + S.printName(*Img) + ", shipped in the tree");
          return;
        }
    }
    if (SystemName && !Se.Cwd) {
      placeEdge(E, Outcome::System, "is part of the C/C++ runtime every Linux system provides");
      return;
    }
    if (!Se.Undecided.empty()) {
      placeEdge(E, Outcome::Unknown,
            "is " + What + " whose search cannot be decided: " + Se.Undecided,
            "replace $LIB/$PLATFORM with $ORIGIN-relative directories");
      return;
    }
    if (SystemName) {
      placeEdge(E, Outcome::HostDependent,
            "is the C/C++ runtime's, but ld.so first tries " + listedUpTo(Se.HostEntries) +
                ": a copy of that name there loads instead of the system's",
            HostAdvice);
      E.HostEntriesOnly = true;
      return;
    }
    if (!Se.HostEntries.empty()) {
      placeEdge(E, Outcome::HostDependent,
            "is " + What + " that resolves to no file of the tree; ld.so also tries " +
                listedUpTo(Se.HostEntries) +
                ": it loads only where the machine has it there" + Se.Tried.text(),
            "ship the library and find it through $ORIGIN, or declare it with --provided");
      E.HostEntriesOnly = true;
      return;
    }
    std::string R = "is " + What + " that resolves to no file of the tree";
    if (Se.Tried.empty())
      R += " (no DT_RPATH/DT_RUNPATH that applies, and no --search)";
    R += Se.Tried.text();
    // A library shipped under another file name: ld.so opens file names.
    for (size_t I = 0; I < S.images().size(); ++I)
      for (const Slice &Sl : S.images()[I].Info.Slices)
        if (Sl.InstallName && *Sl.InstallName == Leaf &&
            sys::path::filename(S.images()[I].Rel, Posix) != Leaf) {
          R += "; " + S.printName(I) + " has DT_SONAME " + *Sl.InstallName +
               " but no file or link is named " + Leaf.str() + " where the loader looks";
          I = S.images().size() - 1;
          break;
        }
    placeEdge(E, Outcome::Unresolved, std::move(R),
          "ship " + Leaf.str() + " in a directory a $ORIGIN entry of DT_RUNPATH names "
          "(patchelf --set-rpath '$ORIGIN/...'), or declare it with --provided");
  }

  /// Step 3: an object already loaded that answers to Name.
  /// _dl_name_match_p over the loaded objects in load order, as an index:
  /// a name answers to the first object that took it (a later object never
  /// takes a name an earlier one answers to: it would have been reused).
  std::optional<size_t> alreadyLoaded(StringRef Name) const {
    auto It = Answers.find(Name);
    if (It == Answers.end())
      return std::nullopt;
    return It->second;
  }

  /// Img answers to Name from now on (l_libname, l_name, DT_SONAME).
  void answers(size_t Img, StringRef Name) { Answers.try_emplace(Name, Img); }

  void load(Edge &E, size_t From, size_t Img, const std::string &Raw, StringRef Name) {
    answers(Img, Name);
    if (!Loaded.insert(Img).second)
      return;
    LoaderOf[Img] = From;
    Origin[Img] = std::string(sys::path::parent_path(Raw, Posix));
    answers(Img, Raw);
    if (const Slice &Sl = sliceOf(Img); Sl.InstallName)
      answers(Img, *Sl.InstallName);
    root().Loaded.push_back(Img);
    (void)E;
  }

  Edge resolve(size_t X, const objlib::Dependency &D) {
    const Slice &Sl = sliceOf(X);
    Edge E;
    E.Root = RI;
    E.Image = X;
    E.Slice = Sl.Arch;
    E.Dependency = D.Name;
    E.Kind = D.Kind;
    StringRef N = D.Name;
    const bool SystemName = contract::isSystemName(LR, N);
    // ld.so opens an absolute name as written (elf/dl-load.c
    // _dl_map_object: a name with a slash is not searched). Only the
    // interpreter's path is the same on every system of a machine; a
    // runtime library's directory is the distribution's
    // (/lib/x86_64-linux-gnu, /lib64, /usr/lib): non-portable below.
    if (SystemName && N.starts_with("/") && contract::isSystemInterpreter(LR, Sl.Arch, N)) {
      placeEdge(E, Outcome::System, "is the system's loader, at the path its machine's ABI fixes");
      return E;
    }
    if (listedIn(O.SystemList, N)) {
      placeEdge(E, Outcome::System, "is listed in the --system-list file");
      return E;
    }
    contract::NameLookup L = contract::lookupName(LR, N, Origin.lookup(X), root().ExecutableDir);
    // Step 3, after expand_dst: the name as ld.so compares it.
    std::string Asked = L.Searched ? L.Leaf : (L.Path.Raw.empty() ? L.Path.Path : L.Path.Raw);
    if (SystemLoaded.count(Asked)) {
      placeEdge(E, Outcome::System,
            "is part of the C/C++ runtime every Linux system provides (already loaded)");
      return E;
    }
    if (std::optional<size_t> Got = alreadyLoaded(Asked); Got && !(L.Searched && Asked.empty())) {
      E.Target = Got;
      E.ResolvedPath = S.absPath(*Got);
      E.Via = "already loaded: " + S.printName(*Got) + " answers to " + Asked;
      placeEdge(E, Outcome::Shipped, "is " + S.printName(*Got) + ", already loaded");
      answers(*Got, Asked);
      return E;
    }
    if (!L.Searched) {
      const Expansion &Ex = L.Path;
      if (!Ex.Undecidable.empty()) {
        placeEdge(E, Outcome::Unknown, Ex.Undecidable,
              "replace $LIB/$PLATFORM with $ORIGIN-relative directories");
        return E;
      }
      if (!Ex.FromToken) {
        // Advice: contract/Advice's table, which names the library.
        if (N.starts_with("/") &&
            contract::isSystemName(LR, sys::path::filename(N, sys::path::Style::posix)))
          placeEdge(E, Outcome::NonPortable,
                "is an absolute path to a system library, whose directory differs between "
                "distributions: it loads only where that file exists");
        else if (N.starts_with("/"))
          placeEdge(E, Outcome::NonPortable,
                "is an absolute path outside the system library family: it loads only where "
                "that file exists");
        else
          placeEdge(E, Outcome::NonPortable,
                "is a relative path, which the loader resolves against the current directory "
                "of the process");
        return E;
      }
      Search Se;
      std::optional<std::string> Rel = relOf(Ex.Raw);
      if (!charge()) {
        conclude(E, Se, N, false);
        return E;
      }
      if (!Rel) {
        Log.add(contract::TryReason::OutsideRoot, Ex.Raw, "the image's directory",
                "outside the tree " + S.root());
        placeEdge(E, Outcome::NonPortable,
              "resolves to " + Ex.Path + ", outside the tree " + S.root(),
              "ship the library inside the tree");
        return E;
      }
      Try T = tryFile(*Rel);
      Log.add([&] { return candidate(T, Ex.Raw, "the image's directory"); });
      Se.Hit = T;
      Se.HitRaw = Ex.Raw;
      Se.HitLabel = "the image's directory";
      switch (T.Is) {
      case Try::What::Missing:
      case Try::What::Skip:
      case Try::What::Loop:
        placeEdge(E, Outcome::Unresolved,
              "resolves to " + Ex.Raw + (T.Is == Try::What::Missing ? ", which the tree does not hold"
                                                                    : ": " + T.Why),
              "ship the library at that path");
        return E;
      case Try::What::Host:
        placeEdge(E, Outcome::HostDependent, "resolves to " + Ex.Raw + ", which " + T.Why,
              "ship the library inside the tree");
        return E;
      default:
        Se.Decided = true;
        conclude(E, Se, N, false);
        if (E.Where == Outcome::Shipped && E.Target) {
          E.Via = "the image's directory";
          load(E, X, *E.Target, Ex.Raw, Asked);
        }
        return E;
      }
    }
    // Step 4: a name without '/'.
    Search Se;
    if (!Sl.ELFRunPathTag) {
      std::vector<size_t> Chain;
      for (std::optional<size_t> P = X; P;) {
        Chain.push_back(*P);
        auto It = LoaderOf.find(*P);
        P = It == LoaderOf.end() ? std::nullopt : std::optional<size_t>(It->second);
      }
      if (const std::optional<size_t> Host = root().Host;
          Host && !llvm::is_contained(Chain, *Host))
        Chain.push_back(*Host);
      for (size_t H : Chain) {
        if (done(Se) || Exhausted)
          break;
        const Slice &HS = sliceOf(H);
        if (HS.ELFRunPathTag)
          continue; // its DT_RPATH is ignored
        searchList(Se, H, X, entries(HS, SearchPathKind::RPath), "DT_RPATH", L.Leaf);
      }
    }
    if (!done(Se) && !Exhausted)
      searchList(Se, X, X, entries(Sl, SearchPathKind::RunPath), "DT_RUNPATH", L.Leaf);
    if (!done(Se) && !Exhausted)
      for (const std::string &Dir : O.SearchDirs) {
        if (done(Se) || Exhausted)
          break;
        std::string Abs = StringRef(Dir).starts_with("/") ? contract::normalizePath(Dir)
                                                          : contract::joinPath(S.root(), Dir);
        tryDir(Se, Abs, L.Leaf, "--search " + Dir);
      }
    conclude(E, Se, L.Leaf, SystemName);
    if (E.Target && (E.Where == Outcome::Shipped || E.Where == Outcome::HostDependent))
      // Opened by the path of the hit it is: the baseline machine's when
      // this one's hit loads nothing (conclude).
      load(E, X, *E.Target,
           Se.BaseImage && E.Target == Se.BaseImage &&
                   (!Se.Hit.Image || Se.Hit.Is == Try::What::Fatal ||
                    Se.Hit.Is == Try::What::Blocks)
               ? Se.BaseRaw
               : Se.HitRaw,
           Asked);
    else if (E.Where == Outcome::System)
      SystemLoaded[Asked] = true;
    return E;
  }

  /// The program interpreters a machine of the slice's architecture has
  /// (GCC's GLIBC_DYNAMIC_LINKER / MUSL_DYNAMIC_LINKER in gcc/config/*/linux*.h,
  /// glibc's sysdeps/unix/sysv/linux/*/ldconfig.h SYSDEP_KNOWN_INTERPRETER_NAMES):
  /// the kernel opens PT_INTERP as it stands, relative to the current
  /// directory when it has no leading '/'.
  bool isSystemInterpreter(const Slice &Sl) const {
    return contract::isSystemInterpreter(LR, Sl.Arch, Sl.ELFInterpreter);
  }

  /// What ld.so refuses about the root itself.
  void judgeRoot() {
    Root &R = root();
    const objlib::BinaryInfo &B = S.images()[R.Image].Info;
    if (B.Fmt != objlib::Format::ELF || B.Slices.empty())
      return;
    const Slice &Sl = B.Slices[0];
    // elf/dl-load.c _dl_map_object_from_fd: "shared object cannot be
    // dlopen()ed" (DF_1_NOOPEN under __RTLD_DLOPEN). A root no executable
    // loads is opened by dlopen (an extension module, a model, a plugin);
    // as a DT_NEEDED dependency the same image is fine.
    if (!R.Executable && (Sl.ELFFlags1 & ELF::DF_1_NOOPEN))
      R.Refusals.push_back(
          "is marked -z nodlopen (DF_1_NOOPEN) and is a root dlopen opens (an extension module, a model, a plugin): "
          "dlopen refuses it (\"shared object cannot be dlopen()ed\", glibc "
          "_dl_map_object_from_fd)");
    // The kernel runs PT_INTERP before ld.so exists: a program whose
    // interpreter is the build machine's runs nowhere else.
    if (R.Executable && !Sl.ELFInterpreter.empty() && !isSystemInterpreter(Sl))
      R.Refusals.push_back("has PT_INTERP " + Sl.ELFInterpreter +
                           ", which is not the system's loader: the kernel runs it before "
                           "anything loads, and it exists only where it was built");
  }

  void run() {
    Root &R = root();
    judgeRoot();
    // ld.so itself is loaded before anything (rtld.c), and a process that
    // dlopens a root has the C library already.
    SystemLoaded["ld-linux-x86-64.so.2"] = true;
    if (!R.Executable)
      SystemLoaded["libc.so.6"] = true;
    Loaded.insert(R.Image);
    R.Loaded.push_back(R.Image);
    // The root's origin: a main program's from /proc/self/exe (its links
    // followed), a library's from the path it is opened by.
    Origin[R.Image] = std::string(sys::path::parent_path(
        R.Executable ? contract::mainProgramPath(S.absPath(R.Image)) : S.absPath(R.Image),
        Posix));
    answers(R.Image, S.absPath(R.Image));
    if (const Slice &RS = sliceOf(R.Image); RS.InstallName)
      answers(R.Image, *RS.InstallName);
    if (R.Host && *R.Host != R.Image)
      Origin[*R.Host] = R.ExecutableDir;
    // Breadth-first: the queue is the load order itself.
    // NOLINTNEXTLINE(modernize-loop-convert): R.Loaded grows while walked.
    for (size_t Q = 0; Q < R.Loaded.size(); ++Q) {
      const size_t X = R.Loaded[Q];
      const objlib::BinaryInfo &B = S.images()[X].Info;
      if (B.Fmt != objlib::Format::ELF || B.Slices.empty())
        continue;
      for (const objlib::Dependency &D : B.Slices[0].Dependencies) {
        if (!charge())
          return;
        Edge E = resolve(X, D);
        takeTries(E, Log);
        if ((E.Where == Outcome::Unresolved || E.Where == Outcome::NonPortable ||
             E.Where == Outcome::HostDependent) &&
            listedIn(O.Provided, E.Dependency)) {
          E.Target.reset();
          placeEdge(E, Outcome::Provided, "is declared application-provided (--provided)");
        }
        settleTries(E, O, WhyRoot, C.WhyLeft);
        C.Roots[RI].Edges.push_back(C.Edges.size());
        C.Edges.push_back(std::move(E));
      }
    }
  }
};

} // namespace

void closeWithLdSo(Shipment &S, const ClosureOptions &O, Closure &C, size_t RI, size_t &Budget) {
  LdSo L(S, O, C, Budget, RI);
  const size_t Img = C.Roots[RI].Image;
  L.ReadBytes = S.kind() != Shipment::Kind::Zip;
  std::optional<ELFKind> K;
  if (L.ReadBytes) {
    std::optional<ArrayRef<unsigned char>> Head = S.walkedHead(S.images()[Img].Rel);
    K = Head ? kindOfHead(Head->data(), ssize_t(Head->size())) : kindOfFile(S.absPath(Img));
  }
  if (K) {
    L.Want = *K;
  } else {
    L.ReadBytes = false;
  }
  L.Want.Arch = S.images()[Img].Info.Slices.empty() ? "" : S.images()[Img].Info.Slices[0].Arch;
  // A zip's member (its records, not its bytes): the machine by its
  // architecture, for the subdirectories ld.so searches there.
  if (!K && L.Want.Arch == "x86_64")
    L.Want.Class = ELF::ELFCLASS64, L.Want.Machine = ELF::EM_X86_64;
  else if (!K && L.Want.Arch == "i386")
    L.Want.Class = ELF::ELFCLASS32, L.Want.Machine = ELF::EM_386;
  else if (!K && L.Want.Arch == "aarch64")
    L.Want.Class = ELF::ELFCLASS64, L.Want.Machine = ELF::EM_AARCH64;
  else if (!K && StringRef(L.Want.Arch).starts_with("powerpc64"))
    L.Want.Class = ELF::ELFCLASS64, L.Want.Machine = ELF::EM_PPC64;
  else if (!K && L.Want.Arch == "systemz")
    L.Want.Class = ELF::ELFCLASS64, L.Want.Machine = ELF::EM_S390;
  L.AllOptional = allOptionalSubdirs(L.Want);
  L.Optional = optionalSubdirs(L.Want, O.Machine);
  L.run();
}

} // namespace linkguard::shipment
