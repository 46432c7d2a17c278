//===- DyldRules.cpp - dyld's load-time refusals, as a table per release --===//
//
// Sources (apple-oss-distributions/dyld, read at each tag with git show):
//  - where the loader calls the validation: dyld/JustInTimeLoader.cpp,
//    makeJustInTimeLoaderDisk (every image mapped from disk) from
//    dyld-1284.13; makeLaunchLoader (the main executable) from dyld-1323.3.
//    In dyld-1122.1 .. dyld-1245.1 the same checks existed in
//    mach_o/Header.cpp but the loader never called Header::valid (its older
//    validation call there is compiled out, #if 0), so those releases
//    refuse nothing for them.
//  - the checks: mach_o/Header.cpp (dyld-1284.13 .. dyld-1340) and
//    mach_o/UnsafeHeader.cpp (dyld-1376.6, dyld-1378), Header::valid and
//    the validSemantics* / validStructureLoadCommands / validSegment
//    functions it calls.
//  - the gates: mach_o/Policy.cpp, Policy::enforce* at each tag, comparing
//    the epoch of the image's SDK (Policy's _enforcementEpoch).
//  - the epochs: mach_o/Platform.cpp, PlatformInfo::yearForVersion.
// Facts, not code: each rule below restates one check.
//
//===----------------------------------------------------------------------===//
#include "contract/DyldRules.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/BinaryFormat/MachO.h"

#include <algorithm>
#include <cstdio>
#include <optional>

namespace linkguard::contract {

using objlib::MachOLoadFacts;
using objlib::MachOPlatform;
using objlib::MachOSegment;
namespace MachO = llvm::MachO;

namespace {

constexpr DyldEpoch Always = 0;
constexpr DyldEpoch Never = 0xFFFFFFFF;
constexpr DyldEpoch epoch(unsigned Year, bool Spring) {
  return Year * 10 + (Spring ? 0 : 5);
}
constexpr DyldEpoch Fall2015 = epoch(2015, false);
constexpr DyldEpoch Fall2019 = epoch(2019, false);
constexpr DyldEpoch Fall2020 = epoch(2020, false);
constexpr DyldEpoch Fall2021 = epoch(2021, false);
constexpr DyldEpoch Fall2024 = epoch(2024, false);
constexpr DyldEpoch Spring2025 = epoch(2025, true);
constexpr DyldEpoch Fall2025 = epoch(2025, false);

/// The dyld releases whose loader runs the checks.
struct Release {
  const char *First, *Last;
  bool MainExecutable; // validates the main executable too
};
constexpr Release Releases[] = {
    {"dyld-1284.13", "dyld-1286.10", false},
    {"dyld-1323.3", "dyld-1340", true},
    {"dyld-1376.6", "dyld-1378", true},
};
constexpr size_t NumReleases = std::size(Releases);

/// A rule's gate in one release: the first epoch refused, for a dylib or
/// bundle and for a main executable.
struct Gate {
  DyldEpoch NonExecutable, Executable;
};

enum class Check {
  MalformedCommand,
  MainDriverKit,
  UnknownPlatform,
  IncompatiblePlatforms,
  UnknownRequiredCommand,
  TooManyUUIDs,
  MissingUUID,
  MultipleIDDylib,
  DylibWithoutID,
  IDInNonDylib,
  DuplicateDylib,
  NoLinkedDylib,
  DuplicateRPath,
  SegmentPastEOF,
  SegmentFileSizeOverVMSize,
  SegmentBadProtBits,
  TextPermissions,
  LinkeditPermissions,
  DataPermissions,
  DataConstPermissions,
  DataConstReadOnly,
  SegmentWraps,
  SectionTooLarge,
  SectionBeforeSegment,
  SectionPastSegment,
  TextNotAtZero,
  CommandsPastTextFile,
  CommandsPastTextVM,
  MissingText,
  SegmentVMOverlap,
  SegmentFileOverlap,
  DuplicateSegmentName,
  SegmentFileOrder,
  SegmentVMOrder,
  MainInCacheFlag,
  MultipleMain,
  MultipleUnixThread,
  MainAndUnixThread,
  MissingEntry,
  MalformedLinkerOption,
  NoDynamicAccess,
};

struct Rule {
  Check C;
  const char *Id;
  const char *Function;
  const char *Wording; // dyld's format string, as a fact to quote
  Gate Gates[NumReleases];
};

// The gates per release ({dylib/bundle, main executable}); the main
// executable column of dyld-1284.13..1286.10 is Never (not validated there).
#define SAME(G) {{G, Never}, {G, G}, {G, G}}

// clang-format off
const Rule Rules[] = {
  // In dyld's order (issue 34: the first refusal a release meets is the
  // message it prints): the loader's own check, then Header::valid's
  // validStructureLoadCommands, validSemanticsPlatform, UUID, InstallName,
  // LinkedDylibs, RPath, Segments (validSegment per segment, then the
  // __TEXT, overlap and order checks), LinkerOptions, Main.
  // Not in valid(): the loader itself refuses to dlopen an image whose
  // header has MH_NO_DYNAMIC_ACCESS (0x400, the bit that was
  // MH_NOFIXPREBINDING), from dyld-1323.3. A dependency is not refused;
  // a shipped dylib or bundle may be dlopen()ed (an AOTI model is).
  {Check::NoDynamicAccess, "no-dynamic-access",
   "makeJustInTimeLoaderDisk (Header::noDynamicAccess)",
   "cannot dlopen() image marked for no dynamic access '%s'",
   {{Never, Never}, {Always, Never}, {Always, Never}}},
  // validStructureLoadCommands walks the commands with forEachLoadCommand,
  // which refuses a command outside sizeofcmds; with the next rule, the
  // first command in load-command order decides (issue 34).
  {Check::MalformedCommand, "load-command-malformed",
   "forEachLoadCommand (validStructureLoadCommands)",
   "malformed load command (%d of %d) at %p with mh=%p, %s", SAME(Always)},
  {Check::UnknownRequiredCommand, "unknown-required-load-command",
   "validStructureLoadCommands",
   "load command #%d unknown required load command 0x%08X", SAME(Always)},
  {Check::UnknownPlatform, "unknown-platform", "validSemanticsPlatform",
   "unknown platform", SAME(Always)},
  {Check::IncompatiblePlatforms, "incompatible-platforms",
   "validSemanticsPlatform (PlatformAndVersions::zip)",
   "incompatible platforms: %s - %s", SAME(Always)},
  {Check::TooManyUUIDs, "uuid-count", "validSemanticsUUID",
   "too many LC_UUID load commands", SAME(Always)},
  // Policy::enforceHasUUID: fall2021; a main executable only from fall2025
  // in dyld-1323.3 on ("dyld main executable validation was not enabled
  // until Fall 2025").
  {Check::MissingUUID, "uuid-missing", "validSemanticsUUID",
   "missing LC_UUID load command",
   {{Fall2021, Never}, {Fall2021, Fall2025}, {Fall2021, Fall2025}}},
  {Check::MultipleIDDylib, "id-dylib-count", "validSemanticsInstallName",
   "multiple LC_ID_DYLIB found", SAME(Always)},
  {Check::DylibWithoutID, "id-dylib-missing", "validSemanticsInstallName",
   "MH_DYLIB is missing LC_ID_DYLIB", SAME(Always)},
  {Check::IDInNonDylib, "id-dylib-in-non-dylib", "validSemanticsInstallName",
   "found LC_ID_DYLIB found in non-MH_DYLIB", SAME(Always)},
  // Policy::enforceNoDuplicateDylibs: fall2024 in dyld-1284, fall2025 from
  // dyld-1323.3. Only the first 256 linked dylibs are compared.
  {Check::DuplicateDylib, "duplicate-linked-dylib",
   "validSemanticsLinkedDylibs", "duplicate linked dylib '%s'",
   {{Fall2024, Never}, {Fall2025, Fall2025}, {Fall2025, Fall2025}}},
  // Policy::enforceHasLinkedDylibs: spring2025.
  {Check::NoLinkedDylib, "no-linked-dylib", "validSemanticsLinkedDylibs",
   "missing LC_LOAD_DYLIB (must link with at least libSystem.dylib)",
   SAME(Spring2025)},
  // Policy::enforceNoDuplicateRPaths: fall2024 in dyld-1122.1..1245.1 (not
  // called by the loader there), spring2025 in dyld-1284.13..1286.10,
  // fall2025 from dyld-1323.3. Only the first 64 LC_RPATHs are compared.
  {Check::DuplicateRPath, "duplicate-rpath", "validSemanticsRPath",
   "duplicate LC_RPATH '%s'",
   {{Spring2025, Never}, {Fall2025, Fall2025}, {Fall2025, Fall2025}}},
  {Check::SegmentPastEOF, "segment-past-eof", "validSegment",
   "segment '%s' load command content extends beyond end of file",
   SAME(Always)},
  {Check::SegmentFileSizeOverVMSize, "segment-filesize", "validSegment",
   "segment '%s' filesize exceeds vmsize", SAME(Always)},
  {Check::SegmentBadProtBits, "segment-prot-bits", "validSegment",
   "%s segment permissions has invalid bits set (0x%08X)", SAME(Always)},
  // Policy::enforceTextSegmentPermissions: fall2019.
  {Check::TextPermissions, "text-permissions", "validSegment",
   "__TEXT segment permissions is not 'r-x'", SAME(Fall2019)},
  // Policy::enforceReadOnlyLinkedit: fall2015; a main executable from
  // fall2025 in dyld-1323.3 on.
  {Check::LinkeditPermissions, "linkedit-permissions", "validSegment",
   "__LINKEDIT segment permissions is not 'r--'",
   {{Fall2015, Never}, {Fall2015, Fall2025}, {Fall2015, Fall2025}}},
  // Policy::enforceDataSegmentPermissions: fall2025 (dyld-1284.13 on).
  {Check::DataPermissions, "data-permissions", "validSegment",
   "__DATA segment permissions is not 'rw-'", SAME(Fall2025)},
  {Check::DataConstPermissions, "data-const-permissions", "validSegment",
   "__DATA_CONST segment permissions is not 'rw-'", SAME(Fall2025)},
  // Both enforceDataSegmentPermissions (fall2025) and
  // enforceDataConstSegmentPermissions (spring2025) must hold.
  {Check::DataConstReadOnly, "data-const-read-only", "validSegment",
   "__DATA_CONST segment missing SG_READ_ONLY flag", SAME(Fall2025)},
  {Check::SegmentWraps, "segment-wraps", "validSegment",
   "'%s' segment vm range wraps", SAME(Always)},
  {Check::SectionTooLarge, "section-size", "validSegment",
   "section '%s' size too large 0x%lX", SAME(Always)},
  {Check::SectionBeforeSegment, "section-before-segment", "validSegment",
   "section '%s' start address 0x%lX is before containing segment's "
   "address 0x%0lX", SAME(Always)},
  // Policy::enforceSectionsInSegment: fall2020.
  {Check::SectionPastSegment, "section-past-segment", "validSegment",
   "section '%s' end address 0x%lX is beyond containing segment's end "
   "address 0x%0lX", SAME(Fall2020)},
  {Check::TextNotAtZero, "text-offset", "validSemanticsSegments",
   "__TEXT segment fileoffset is not zero", SAME(Always)},
  {Check::CommandsPastTextFile, "commands-fit-text",
   "validSemanticsSegments",
   "load commands do not fit in __TEXT segment filesize", SAME(Always)},
  {Check::CommandsPastTextVM, "commands-fit-text-vm",
   "validSemanticsSegments",
   "load commands do not fit in __TEXT segment vmsize", SAME(Always)},
  {Check::MissingText, "text-missing", "validSemanticsSegments",
   "missing __TEXT segment", SAME(Always)},
  {Check::SegmentVMOverlap, "segment-vm-overlap", "validSemanticsSegments",
   "vm range of segment '%s' overlaps segment '%s'", SAME(Always)},
  {Check::SegmentFileOverlap, "segment-file-overlap",
   "validSemanticsSegments",
   "file range of segment '%s' overlaps segment '%s'", SAME(Always)},
  // Policy::enforceUniqueSegmentNames: from dyld-1323.3, fall2025.
  {Check::DuplicateSegmentName, "duplicate-segment-name",
   "validSemanticsSegments", "duplicate segment name '%s'",
   {{Never, Never}, {Fall2025, Fall2025}, {Fall2025, Fall2025}}},
  // Policy::enforceSegmentOrderMatchesLoadCmds: fall2019; a main executable
  // from fall2025 in dyld-1323.3 on.
  {Check::SegmentFileOrder, "segment-file-order", "validSemanticsSegments",
   "segment '%s' file offset out of order",
   {{Fall2019, Never}, {Fall2019, Fall2025}, {Fall2019, Fall2025}}},
  {Check::SegmentVMOrder, "segment-vm-order", "validSemanticsSegments",
   "segment '%s' vm address out of order",
   {{Fall2019, Never}, {Fall2019, Fall2025}, {Fall2019, Fall2025}}},
  {Check::MalformedLinkerOption, "linker-option", "validSemanticsLinkerOptions",
   "malformed LC_LINKER_OPTION command", SAME(Always)},
  // validSemanticsMain runs for MH_EXECUTE only.
  {Check::MainInCacheFlag, "main-in-cache-flag", "validSemanticsMain",
   "MH_EXECUTE has MH_DYLIB_IN_CACHE bit set", SAME(Fall2021)},
  {Check::MultipleMain, "main-count", "validSemanticsMain",
   "multiple LC_MAIN load commands", SAME(Always)},
  {Check::MultipleUnixThread, "unixthread-count", "validSemanticsMain",
   "multiple LC_UNIXTHREAD load commands", SAME(Always)},
  {Check::MainAndUnixThread, "main-and-unixthread", "validSemanticsMain",
   "can't have LC_MAIN and LC_UNIXTHREAD load commands", SAME(Always)},
  {Check::MainDriverKit, "main-driverkit", "validSemanticsMain",
   "LC_MAIN not allowed for driverkit", SAME(Always)},
  {Check::MissingEntry, "main-missing", "validSemanticsMain",
   "missing LC_MAIN or LC_UNIXTHREAD in main executable", SAME(Always)},
};
// clang-format on
#undef SAME

/// How dyld's Platform.cpp turns a version into a year: the year version 1.0
/// shipped, the minor version that makes a spring release, and whether the
/// platform moved to version 26 in 2025.
struct PlatformYears {
  uint32_t Platform;
  const char *Name;
  unsigned BaseYear;
  unsigned SpringMinor;      // from this minor on, a spring release
  unsigned OldSpringMinor;   // ... up to OldSpringUpTo's major
  unsigned OldSpringUpTo;
  bool AlignedIn2025;
};
// clang-format off
constexpr PlatformYears Platforms[] = {
  {MachO::PLATFORM_MACOS,            "macOS",     2009, 4, 3, 13, true},
  {MachO::PLATFORM_IOS,              "iOS",       2006, 4, 4, 0,  true},
  {MachO::PLATFORM_TVOS,             "tvOS",      2006, 4, 4, 0,  true},
  {MachO::PLATFORM_WATCHOS,          "watchOS",   2013, 4, 4, 0,  true},
  {MachO::PLATFORM_BRIDGEOS,         "bridgeOS",  2015, 4, 3, 8,  false},
  {MachO::PLATFORM_MACCATALYST,      "macCatalyst", 2006, 4, 4, 0, true},
  {MachO::PLATFORM_IOSSIMULATOR,     "iOS-simulator", 2006, 4, 4, 0, true},
  {MachO::PLATFORM_TVOSSIMULATOR,    "tvOS-simulator", 2006, 4, 4, 0, true},
  {MachO::PLATFORM_WATCHOSSIMULATOR, "watchOS-simulator", 2013, 4, 4, 0, true},
  {MachO::PLATFORM_DRIVERKIT,        "driverKit", 2000, 4, 4, 0,  false},
  {MachO::PLATFORM_XROS,             "visionOS",  2022, 4, 4, 0,  true},
  {MachO::PLATFORM_XROS_SIMULATOR,   "visionOS-simulator", 2022, 4, 4, 0, true},
};
// clang-format on

const PlatformYears *platformYears(uint32_t Platform) {
  for (const PlatformYears &P : Platforms)
    if (P.Platform == Platform)
      return &P;
  return nullptr;
}

/// Platforms dyld knows (Platform::valid), beyond those with versions:
/// firmware (13), sepOS (14) and the exclave platforms (15..24,
/// mach_o/Platform.cpp) have no epochs.
bool knownPlatform(uint32_t Platform) {
  return platformYears(Platform) || (Platform >= 13 && Platform <= 24);
}

constexpr uint32_t ver(unsigned Major, unsigned Minor) {
  return Major << 16 | Minor << 8;
}
unsigned major(uint32_t V) { return V >> 16; }
unsigned minor(uint32_t V) { return (V >> 8) & 0xff; }
unsigned patch(uint32_t V) { return V & 0xff; }

unsigned springMinor(const PlatformYears &P, unsigned Major) {
  return Major <= P.OldSpringUpTo ? P.OldSpringMinor : P.SpringMinor;
}

std::string versionString(unsigned Major, unsigned Minor) {
  return std::to_string(Major) + "." + std::to_string(Minor);
}

/// The first version of Platform in epoch E ("15.4" for spring2025 on
/// macOS), the inverse of dyldEpoch for the epochs the table uses.
std::string firstVersion(const PlatformYears &P, DyldEpoch E) {
  unsigned Year = E / 10;
  bool Spring = E % 10 == 0;
  unsigned FallYear = Spring ? Year - 1 : Year;
  if (P.Platform == MachO::PLATFORM_MACOS && FallYear < 2020)
    return versionString(10, FallYear - 2004) + (Spring ? ".4" : "");
  unsigned Major = P.AlignedIn2025 && FallYear >= 2025 ? FallYear - 2000 + 1
                                                       : FallYear - P.BaseYear;
  return versionString(Major, Spring ? springMinor(P, Major) : 0);
}

struct Facts {
  const objlib::Slice &S;
  const MachOLoadFacts &F;
  /// The segment (index in F.Segments) the last validSegment finding is
  /// on: dyld runs validSegment segment by segment, every check on one
  /// segment before the next segment (issue 34).
  mutable size_t SegIndex = 0;
  bool isExecutable() const { return F.FileType == MachO::MH_EXECUTE; }
  bool isDylibOrStub() const {
    return F.FileType == MachO::MH_DYLIB ||
           F.FileType == MachO::MH_DYLIB_STUB;
  }
  bool inDyldCache() const { return F.Flags & MachO::MH_DYLIB_IN_CACHE; }
  bool isStaticExecutable() const { return isExecutable() && !F.HasDylinker; }
  bool isDyldManaged() const {
    return F.FileType == MachO::MH_DYLIB || F.FileType == MachO::MH_BUNDLE ||
           (isExecutable() && (F.Flags & MachO::MH_DYLDLINK));
  }
};

std::string hex(uint64_t V) {
  char Buf[32];
  snprintf(Buf, sizeof(Buf), "0x%llX", static_cast<unsigned long long>(V));
  return Buf;
}

/// Real images have a handful of segments (ld64 allows 255).
constexpr size_t PairwiseLimit = 256;

/// Overlapping vm or file ranges and duplicate names among many segments:
/// sorted by start, an overlap shows between neighbours.
std::optional<std::string> segmentFaultsSorted(Check C, const Facts &X) {
  const std::vector<MachOSegment> &Segs = X.F.Segments;
  std::vector<size_t> Order(Segs.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  auto firstOverlap = [&](auto Start, auto Size) -> std::optional<std::string> {
    std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
      return Start(Segs[A]) < Start(Segs[B]);
    });
    // The furthest end so far: any later start below it overlaps.
    uint64_t End = 0;
    size_t EndSeg = 0;
    bool Any = false;
    for (size_t I : Order) {
      if (Size(Segs[I]) == 0)
        continue;
      if (Any && Start(Segs[I]) < End)
        return "'" + Segs[I].Name + "' overlaps segment '" + Segs[EndSeg].Name +
               "'";
      uint64_t E = Start(Segs[I]) + Size(Segs[I]);
      if (!Any || E > End)
        End = E, EndSeg = I;
      Any = true;
    }
    return std::nullopt;
  };
  if (C == Check::SegmentVMOverlap) {
    auto R = firstOverlap([](const MachOSegment &G) { return G.VMAddr; },
                          [](const MachOSegment &G) { return G.VMSize; });
    return R ? std::optional<std::string>("vm range of segment " + *R)
             : std::nullopt;
  }
  if (C == Check::SegmentFileOverlap) {
    if (X.inDyldCache())
      return std::nullopt;
    auto R = firstOverlap([](const MachOSegment &G) { return G.FileOff; },
                          [](const MachOSegment &G) { return G.FileSize; });
    return R ? std::optional<std::string>("file range of segment " + *R)
             : std::nullopt;
  }
  if (!X.isDyldManaged())
    return std::nullopt;
  std::sort(Order.begin(), Order.end(),
            [&](size_t A, size_t B) { return Segs[A].Name < Segs[B].Name; });
  for (size_t I = 1; I < Order.size(); ++I)
    if (Segs[Order[I]].Name == Segs[Order[I - 1]].Name)
      return "duplicate segment name '" + Segs[Order[I]].Name + "'";
  return std::nullopt;
}

/// dyld's message for check C if the image fails it (regardless of gates).
std::optional<std::string> fails(Check C, const Facts &X) {
  const MachOLoadFacts &F = X.F;
  const std::vector<MachOSegment> &Segs = F.Segments;
  auto segment = [&](llvm::StringRef Name) -> const MachOSegment * {
    for (const MachOSegment &G : Segs)
      if (G.Name == Name)
        return &G;
    return nullptr;
  };
  // Records G as the segment of a validSegment finding (always true).
  auto at = [&](const MachOSegment &G) {
    X.SegIndex = static_cast<size_t>(&G - Segs.data());
    return true;
  };
  // validSemanticsSegments looks at the last segment named __TEXT.
  auto lastSegment = [&](llvm::StringRef Name) -> const MachOSegment * {
    for (size_t I = Segs.size(); I-- > 0;)
      if (Segs[I].Name == Name)
        return &Segs[I];
    return nullptr;
  };
  // validSegment skips the rest of a segment that is not mapped.
  auto unmapped = [](const MachOSegment &G) {
    return G.FileSize > G.VMSize && G.VMSize == 0 && G.InitProt == 0;
  };
  constexpr uint32_t R = 1, W = 2, Xp = 4;
  switch (C) {
  case Check::UnknownPlatform:
  case Check::IncompatiblePlatforms: {
    // validSemanticsPlatform walks the platform commands in order: the
    // first unknown platform, or the first pair zip() cannot combine (the
    // same platform again, or macOS with Mac Catalyst, "zippered"),
    // decides. Only an image with no platform at all is let go as a
    // preload or static executable (issue 34: an unknown platform in a
    // static executable is refused, and an incompatible pair before an
    // unknown platform is what dyld prints). Never for a kernel
    // collection.
    if (F.FileType == MachO::MH_FILESET)
      return std::nullopt;
    constexpr uint32_t Zippered = 0xFFFFFFFF; // not a file value
    auto name = [](uint32_t P) -> std::string {
      if (P == Zippered)
        return "zippered(macOS/Catalyst)";
      const PlatformYears *Y = platformYears(P);
      return Y ? Y->Name : (P ? "future" : "unknown");
    };
    std::vector<MachOPlatform> All = dyldPlatforms(F);
    uint32_t Cur = 0;
    for (const MachOPlatform &P : All) {
      if (!knownPlatform(P.Platform))
        return C == Check::UnknownPlatform
                   ? std::optional<std::string>("unknown platform")
                   : std::nullopt;
      bool MacPair = (Cur == MachO::PLATFORM_MACOS &&
                      P.Platform == MachO::PLATFORM_MACCATALYST) ||
                     (Cur == MachO::PLATFORM_MACCATALYST &&
                      P.Platform == MachO::PLATFORM_MACOS);
      if (Cur == 0 || Cur == P.Platform)
        Cur = P.Platform;
      else if (MacPair)
        Cur = Zippered;
      else if (Cur != Zippered || (P.Platform != MachO::PLATFORM_MACOS &&
                                   P.Platform != MachO::PLATFORM_MACCATALYST))
        return C == Check::IncompatiblePlatforms
                   ? std::optional<std::string>("incompatible platforms: " +
                                                name(Cur) + " - " +
                                                name(P.Platform))
                   : std::nullopt;
    }
    if (All.empty() && C == Check::UnknownPlatform &&
        F.FileType != MachO::MH_PRELOAD && !X.isStaticExecutable())
      return std::string("unknown platform");
    return std::nullopt;
  }
  case Check::MalformedCommand:
    if (!F.MalformedCommand.first)
      return std::nullopt;
    X.SegIndex = F.MalformedCommand.first;
    return "malformed load command " + F.MalformedCommand.second;
  case Check::UnknownRequiredCommand:
    if (F.UnknownRequired.empty())
      return std::nullopt;
    X.SegIndex = F.UnknownRequired[0].first;
    {
      char Buf[16];
      snprintf(Buf, sizeof(Buf), "0x%08X", F.UnknownRequired[0].second);
      return "load command #" + std::to_string(F.UnknownRequired[0].first) +
             " unknown required load command " + Buf;
    }
  case Check::TooManyUUIDs:
    if (F.UUIDs > 1)
      return std::string("too many LC_UUID load commands");
    return std::nullopt;
  case Check::MissingUUID:
    if (F.UUIDs == 0 && F.FileType != MachO::MH_OBJECT)
      return std::string("missing LC_UUID load command");
    return std::nullopt;
  case Check::MultipleIDDylib:
    if (F.IDDylibs > 1)
      return std::string("multiple LC_ID_DYLIB found");
    return std::nullopt;
  case Check::DylibWithoutID:
    if (X.isDylibOrStub() && F.IDDylibs == 0)
      return std::string("MH_DYLIB is missing LC_ID_DYLIB");
    return std::nullopt;
  case Check::IDInNonDylib:
    if (!X.isDylibOrStub() && F.IDDylibs > 0)
      return std::string("found LC_ID_DYLIB found in non-MH_DYLIB");
    return std::nullopt;
  case Check::DuplicateDylib:
    for (size_t I = 0; I < F.LinkedDylibs.size() && I < 256; ++I)
      for (size_t J = 0; J < I; ++J)
        if (F.LinkedDylibs[I] == F.LinkedDylibs[J])
          return "duplicate linked dylib '" + F.LinkedDylibs[I] + "'";
    return std::nullopt;
  case Check::NoLinkedDylib: {
    if (!X.isDyldManaged() || !F.LinkedDylibs.empty())
      return std::nullopt;
    // The libSystem dylibs themselves may link nothing: Platform::
    // libSystemDir of the zipped platform, "" (every image) for firmware,
    // sepOS and the exclaveCore platforms (15, 17, .., 23), DriverKit's and
    // ExclaveKit's (16, 18, .., 24) own (issue 34).
    const uint32_t Pl = dyldPlatform(F).Platform;
    const char *SystemDir = "/usr/lib/system/";
    if (Pl == 13 || Pl == 14 || (Pl >= 15 && Pl <= 23 && Pl % 2))
      return std::nullopt;
    if (Pl == MachO::PLATFORM_DRIVERKIT)
      SystemDir = "/System/DriverKit/usr/lib/system/";
    else if (Pl >= 16 && Pl <= 24)
      SystemDir = "/System/ExclaveKit/usr/lib/system/";
    if (X.S.InstallName && llvm::StringRef(*X.S.InstallName).starts_with(SystemDir))
      return std::nullopt;
    return std::string(
        "missing LC_LOAD_DYLIB (must link with at least libSystem.dylib)");
  }
  case Check::DuplicateRPath: {
    // dyld remembers the first 64 and compares each of them with the
    // earlier ones; a path past the 64th is not compared.
    const auto &P = X.S.SearchPaths;
    for (size_t I = 0; I < P.size() && I < 64; ++I)
      for (size_t J = 0; J < I; ++J)
        if (P[I].Path == P[J].Path)
          return "duplicate LC_RPATH '" + P[I].Path + "'";
    return std::nullopt;
  }
  case Check::SegmentPastEOF:
    for (const MachOSegment &G : Segs)
      if ((G.FileOff + G.FileSize < G.FileOff ||
           G.FileOff + G.FileSize > F.SliceSize) && at(G))
        return "segment '" + G.Name +
               "' load command content extends beyond end of file";
    return std::nullopt;
  case Check::SegmentFileSizeOverVMSize:
    if (F.FileType == MachO::MH_OBJECT)
      return std::nullopt;
    for (const MachOSegment &G : Segs)
      if (G.FileSize > G.VMSize && !unmapped(G) && at(G))
        return "segment '" + G.Name + "' filesize exceeds vmsize";
    return std::nullopt;
  case Check::SegmentBadProtBits:
    for (const MachOSegment &G : Segs)
      if (!unmapped(G) && (G.InitProt & ~7u) && at(G)) {
        char Buf[16];
        snprintf(Buf, sizeof(Buf), "0x%08X", G.InitProt);
        return G.Name + " segment permissions has invalid bits set (" + Buf +
               ")";
      }
    return std::nullopt;
  case Check::TextPermissions:
    // Every segment named __TEXT (validSegment compares each one's name).
    for (const MachOSegment &G : Segs)
      if (G.Name == "__TEXT" && X.isDyldManaged() && !unmapped(G) &&
          G.InitProt != (R | Xp) && at(G))
        return std::string("__TEXT segment permissions is not 'r-x'");
    return std::nullopt;
  case Check::LinkeditPermissions:
    for (const MachOSegment &G : Segs)
      if (G.Name == "__LINKEDIT" && !unmapped(G) && G.InitProt != R && at(G))
        return std::string("__LINKEDIT segment permissions is not 'r--'");
    return std::nullopt;
  case Check::DataPermissions:
    if (F.FileType == MachO::MH_DYLIB_STUB)
      return std::nullopt;
    for (const MachOSegment &G : Segs)
      if (G.Name == "__DATA" && !unmapped(G) && G.InitProt != (R | W) && at(G))
        return std::string("__DATA segment permissions is not 'rw-'");
    return std::nullopt;
  case Check::DataConstPermissions:
    if (F.FileType == MachO::MH_DYLIB_STUB)
      return std::nullopt;
    for (const MachOSegment &G : Segs)
      if (G.Name == "__DATA_CONST" && !unmapped(G) && G.InitProt != (R | W) &&
          at(G))
        return std::string("__DATA_CONST segment permissions is not 'rw-'");
    return std::nullopt;
  case Check::DataConstReadOnly: {
    if (F.FileType == MachO::MH_DYLIB_STUB)
      return std::nullopt;
    // Exempt: dylibs built for the shared cache (split-seg info that is
    // not a marker), images in the cache, static executables, dSYMs.
    if ((X.isDylibOrStub() && F.HasSplitSegInfo && !F.SplitSegMarker) ||
        X.inDyldCache() || X.isStaticExecutable() ||
        F.FileType == MachO::MH_DSYM)
      return std::nullopt;
    for (const MachOSegment &G : Segs)
      if (G.Name == "__DATA_CONST" && !unmapped(G) && G.InitProt == (R | W) &&
          !(G.Flags & MachO::SG_READ_ONLY) && at(G))
        return std::string("__DATA_CONST segment missing SG_READ_ONLY flag");
    return std::nullopt;
  }
  case Check::SegmentWraps:
    for (const MachOSegment &G : Segs)
      if (!unmapped(G) && G.VMAddr + G.VMSize < G.VMAddr && at(G))
        return "'" + G.Name + "' segment vm range wraps";
    return std::nullopt;
  case Check::SectionTooLarge:
  case Check::SectionBeforeSegment:
  case Check::SectionPastSegment:
    if (F.FileType == MachO::MH_DYLIB_STUB)
      return std::nullopt;
    for (const MachOSegment &G : Segs) {
      if (unmapped(G))
        continue;
      for (const objlib::MachOSection &Sc : G.Sections) {
        at(G);
        if (static_cast<int64_t>(Sc.Size) < 0)
          return C == Check::SectionTooLarge
                     ? std::optional<std::string>("section '" + Sc.Name +
                                                  "' size too large " +
                                                  hex(Sc.Size))
                     : std::nullopt;
        if (Sc.Addr < G.VMAddr)
          return C == Check::SectionBeforeSegment
                     ? std::optional<std::string>(
                           "section '" + Sc.Name + "' start address " +
                           hex(Sc.Addr) +
                           " is before containing segment's address " +
                           hex(G.VMAddr))
                     : std::nullopt;
        if (C == Check::SectionPastSegment &&
            Sc.Addr + Sc.Size > G.VMAddr + G.VMSize)
          return "section '" + Sc.Name + "' end address " +
                 hex(Sc.Addr + Sc.Size) +
                 " is beyond containing segment's end address " +
                 hex(G.VMAddr + G.VMSize);
      }
    }
    return std::nullopt;
  case Check::TextNotAtZero:
  case Check::CommandsPastTextFile:
  case Check::CommandsPastTextVM:
  case Check::MissingText: {
    if (!X.isDyldManaged())
      return std::nullopt;
    // The last __TEXT: the loop over the load commands keeps overwriting
    // segmentIndexText (issue 34).
    const MachOSegment *T = lastSegment("__TEXT");
    if (!T)
      return C == Check::MissingText
                 ? std::optional<std::string>("missing __TEXT segment")
                 : std::nullopt;
    if (C == Check::TextNotAtZero && !X.inDyldCache() && T->FileOff != 0)
      return std::string("__TEXT segment fileoffset is not zero");
    if (C == Check::CommandsPastTextFile && T->FileSize < F.HeaderAndCommands)
      return std::string("load commands do not fit in __TEXT segment filesize");
    if (C == Check::CommandsPastTextVM && T->VMSize < F.HeaderAndCommands)
      return std::string("load commands do not fit in __TEXT segment vmsize");
    return std::nullopt;
  }
  case Check::SegmentVMOverlap:
  case Check::SegmentFileOverlap:
  case Check::DuplicateSegmentName:
    // dyld compares every pair; a crafted file can hold tens of thousands
    // of segments, so past PairwiseLimit the same faults are found in
    // O(n log n) instead (the message may name another pair).
    if (Segs.size() > PairwiseLimit)
      return segmentFaultsSorted(C, X);
    for (size_t I = 0; I < Segs.size(); ++I)
      for (size_t J = 0; J < Segs.size(); ++J) {
        if (I == J)
          continue;
        const MachOSegment &P = Segs[I], &Q = Segs[J];
        auto overlaps = [](uint64_t A0, uint64_t A1, uint64_t B0, uint64_t B1) {
          return B0 < A1 && B1 > A0;
        };
        bool VM = overlaps(P.VMAddr, P.VMAddr + P.VMSize, Q.VMAddr,
                           Q.VMAddr + Q.VMSize);
        bool File = !X.inDyldCache() &&
                    overlaps(P.FileOff, P.FileOff + P.FileSize, Q.FileOff,
                             Q.FileOff + Q.FileSize);
        // dyld stops at the first pair with an overlap (always refused);
        // at a pair with the same name only where the release enforces
        // unique names, so the overlaps look past it and the pair's
        // position orders the findings (issue 34).
        X.SegIndex = I * Segs.size() + J;
        if (VM)
          return C == Check::SegmentVMOverlap
                     ? std::optional<std::string>("vm range of segment '" +
                                                  P.Name + "' overlaps segment '" +
                                                  Q.Name + "'")
                     : std::nullopt;
        if (File)
          return C == Check::SegmentFileOverlap
                     ? std::optional<std::string>("file range of segment '" +
                                                  P.Name + "' overlaps segment '" +
                                                  Q.Name + "'")
                     : std::nullopt;
        if (C == Check::DuplicateSegmentName && X.isDyldManaged() &&
            P.Name == Q.Name)
          return "duplicate segment name '" + P.Name + "'";
      }
    return std::nullopt;
  case Check::SegmentFileOrder:
  case Check::SegmentVMOrder:
    if (X.inDyldCache() || Segs.size() < 2)
      return std::nullopt;
    // dyld compares the pairs (0,1) .. (n-3,n-2): the last segment is
    // never compared.
    for (size_t I = 1; I + 1 < Segs.size(); ++I) {
      const MachOSegment &P = Segs[I - 1], &Q = Segs[I];
      if (Q.FileOff < P.FileOff && Q.FileSize != 0)
        return C == Check::SegmentFileOrder
                   ? std::optional<std::string>("segment '" + P.Name +
                                                "' file offset out of order")
                   : std::nullopt;
      if (Q.VMAddr < P.VMAddr) {
        if (F.FileType == MachO::MH_FILESET && Q.Name == "__PRELINK_INFO")
          continue;
        // dyld-1323.3 on (the only releases that validate an executable):
        // legacy x86_64 executables that are not PIE are exempt.
        if (X.isExecutable() && F.HasDylinker &&
            F.CPUType == MachO::CPU_TYPE_X86_64 && !(F.Flags & MachO::MH_PIE))
          continue;
        return C == Check::SegmentVMOrder
                   ? std::optional<std::string>("segment '" + Q.Name +
                                                "' vm address out of order")
                   : std::nullopt;
      }
    }
    return std::nullopt;
  case Check::MainInCacheFlag:
    if (X.isExecutable() && X.inDyldCache())
      return std::string("MH_EXECUTE has MH_DYLIB_IN_CACHE bit set");
    return std::nullopt;
  case Check::MultipleMain:
    if (X.isExecutable() && F.Mains > 1)
      return std::string("multiple LC_MAIN load commands");
    return std::nullopt;
  case Check::MultipleUnixThread:
    if (X.isExecutable() && F.UnixThreads > 1)
      return std::string("multiple LC_UNIXTHREAD load commands");
    return std::nullopt;
  case Check::MainAndUnixThread:
    if (X.isExecutable() && F.Mains == 1 && F.UnixThreads == 1)
      return std::string("can't have LC_MAIN and LC_UNIXTHREAD load commands");
    return std::nullopt;
  case Check::MainDriverKit: {
    if (!X.isExecutable() || (!F.Mains && !F.UnixThreads))
      return std::nullopt;
    for (const MachOPlatform &P : dyldPlatforms(F))
      if (P.Platform == MachO::PLATFORM_DRIVERKIT)
        return std::string("LC_MAIN not allowed for driverkit");
    return std::nullopt;
  }
  case Check::MissingEntry: {
    if (!X.isExecutable() || F.Mains || F.UnixThreads)
      return std::nullopt;
    for (const MachOPlatform &P : dyldPlatforms(F))
      if (P.Platform == MachO::PLATFORM_DRIVERKIT)
        return std::nullopt;
    return std::string("missing LC_MAIN or LC_UNIXTHREAD in main executable");
  }
  case Check::MalformedLinkerOption:
    if (F.MalformedLinkerOption)
      return std::string("malformed LC_LINKER_OPTION command");
    return std::nullopt;
  case Check::NoDynamicAccess:
    if (!X.isExecutable() && (F.Flags & 0x400))
      return "cannot dlopen() image marked for no dynamic access '" +
             (X.S.InstallName ? *X.S.InstallName : std::string("PATH")) + "'";
    return std::nullopt;
  }
  return std::nullopt;
}

std::string releaseName(const Release &R) {
  return std::string(R.First) + ".." + R.Last;
}

} // namespace

DyldEpoch dyldEpoch(uint32_t Platform, uint32_t Version) {
  // mach_o/Platform.cpp: firmware (13) and sepOS (14) are always fall
  // 2020; each exclave platform (15..24) counts its versions as its base
  // platform does (issue 34: they had no epoch, so no gate applied).
  if (Platform == 13 || Platform == 14)
    return epoch(2020, false);
  if (Platform >= 15 && Platform <= 24) {
    constexpr uint32_t Base[] = {
        MachO::PLATFORM_MACOS,   MachO::PLATFORM_MACOS, MachO::PLATFORM_IOS,
        MachO::PLATFORM_IOS,     MachO::PLATFORM_TVOS,  MachO::PLATFORM_TVOS,
        MachO::PLATFORM_WATCHOS, MachO::PLATFORM_WATCHOS,
        MachO::PLATFORM_XROS,    MachO::PLATFORM_XROS};
    Platform = Base[Platform - 15];
  }
  const PlatformYears *P = platformYears(Platform);
  if (!P)
    return 0;
  unsigned Year;
  bool Spring;
  if (Platform == MachO::PLATFORM_MACOS && major(Version) < 11) {
    // 10.x: 10.15 -> 2019; a .4 patch counts as the spring before. dyld
    // computes this in 32-bit unsigned arithmetic into a 16-bit year, so a
    // version below 10.0 (an sdk field of 0) wraps to year 64980: every
    // gate applies.
    auto Y = static_cast<uint16_t>(2004 + ((Version - 0x000A0000u) >> 8));
    Spring = patch(Version) >= 4;
    if (Spring)
      --Y;
    Year = Y;
  } else {
    // In 16-bit arithmetic as dyld's yearForMajorVersion (uint16_t year):
    // an sdk of 65535.x wraps to 1998 and meets no gate (issue 34).
    unsigned Major = major(Version);
    uint16_t Y;
    if (P->AlignedIn2025 && Major >= 26)
      Y = static_cast<uint16_t>(2000 + (Major - 1));
    else {
      Y = static_cast<uint16_t>(P->BaseYear + Major);
      if (P->AlignedIn2025 && Y > 2026)
        Y = 2026; // versions in the gap before 26
    }
    Spring = minor(Version) >= springMinor(*P, Major);
    if (Spring)
      ++Y;
    Year = Y;
  }
  return epoch(Year, Spring);
}

std::vector<MachOPlatform> dyldPlatforms(const MachOLoadFacts &F) {
  const bool Intel =
      F.CPUType == MachO::CPU_TYPE_X86_64 || F.CPUType == MachO::CPU_TYPE_I386;
  std::vector<MachOPlatform> Out;
  for (MachOPlatform P : F.Platforms) {
    if (P.VersionMin) {
      // An old LC_VERSION_MIN_MACOSX has no sdk field: the SDK is minOS.
      if (P.Platform == MachO::PLATFORM_MACOS && P.SDK == 0)
        P.SDK = P.MinOS;
      // An Intel iOS/tvOS/watchOS image is an old simulator binary.
      if (P.Platform == MachO::PLATFORM_IOS && Intel)
        P.Platform = MachO::PLATFORM_IOSSIMULATOR;
      if (P.Platform == MachO::PLATFORM_TVOS &&
          F.CPUType == MachO::CPU_TYPE_X86_64)
        P.Platform = MachO::PLATFORM_TVOSSIMULATOR;
      if (P.Platform == MachO::PLATFORM_WATCHOS && Intel)
        P.Platform = MachO::PLATFORM_WATCHOSSIMULATOR;
    }
    Out.push_back(P);
  }
  if (!Out.empty())
    return Out;
  // No platform command: macOS's dyld guesses (forEachPlatformLoadCommand;
  // "the Go linker emits non-standard binaries without a platform").
  if (Intel)
    Out.push_back({MachO::PLATFORM_MACOS, ver(10, 5), ver(10, 5), false});
  else if (F.CPUType == MachO::CPU_TYPE_ARM64)
    Out.push_back({MachO::PLATFORM_MACOS, ver(11, 0), ver(11, 0), false});
  return Out;
}

MachOPlatform dyldPlatform(const MachOLoadFacts &F) {
  // PlatformAndVersions::zip (mach_o/Platform.cpp, the same at the three
  // tags): the same platform again replaces the versions, and a zippered
  // image keeps the versions of its last macOS command. So: the last macOS
  // command, else the last command (issue 34: the first one was taken).
  std::vector<MachOPlatform> All = dyldPlatforms(F);
  for (size_t I = All.size(); I-- > 0;)
    if (All[I].Platform == MachO::PLATFORM_MACOS)
      return All[I];
  return All.empty() ? MachOPlatform{} : All.back();
}

std::string dyldEpochName(DyldEpoch E) {
  if (E == Always)
    return "always";
  if (E == Never)
    return "never";
  return std::string(E % 10 == 0 ? "spring" : "fall") + std::to_string(E / 10);
}

std::vector<DyldRefusal> dyldRefusals(const objlib::Slice &S) {
  std::vector<DyldRefusal> Out;
  if (!S.MachO)
    return Out;
  const MachOLoadFacts &F = *S.MachO;
  // dyld loads executables, dylibs and bundles; it refuses other types
  // before validating ("unloadable mach-o file type").
  if (F.FileType != MachO::MH_EXECUTE && F.FileType != MachO::MH_DYLIB &&
      F.FileType != MachO::MH_BUNDLE)
    return Out;
  const Facts X{S, F};
  const MachOPlatform P = dyldPlatform(F);
  const DyldEpoch E = dyldEpoch(P.Platform, P.SDK);
  const PlatformYears *Years = platformYears(P.Platform);
  // dyld's order: the table's, except that validSegment's checks run
  // segment by segment (the key of each is its segment, then its row).
  std::vector<std::pair<size_t, size_t>> Keys;
  size_t FirstSegmentRow = 0;
  while (FirstSegmentRow < std::size(Rules) &&
         llvm::StringRef(Rules[FirstSegmentRow].Function) != "validSegment")
    ++FirstSegmentRow;
  auto rowOf = [](Check C) {
    size_t R = 0;
    while (R < std::size(Rules) && Rules[R].C != C)
      ++R;
    return R;
  };
  const size_t FirstCommandRow = rowOf(Check::MalformedCommand);
  const size_t FirstPairRow = rowOf(Check::SegmentVMOverlap);
  for (size_t Row = 0; Row < std::size(Rules); ++Row) {
    const Rule &Ru = Rules[Row];
    X.SegIndex = 0;
    std::optional<std::string> Msg = fails(Ru.C, X);
    if (!Msg)
      continue;
    const bool PerSegment = llvm::StringRef(Ru.Function) == "validSegment";
    const bool PerCommand = Ru.C == Check::MalformedCommand ||
                            Ru.C == Check::UnknownRequiredCommand;
    const bool PerPair = Ru.C == Check::SegmentVMOverlap ||
                         Ru.C == Check::SegmentFileOverlap ||
                         Ru.C == Check::DuplicateSegmentName;
    std::string Which;
    unsigned Mask = 0;
    for (size_t I = 0; I < NumReleases; ++I) {
      DyldEpoch G =
          X.isExecutable()
              ? (Releases[I].MainExecutable ? Ru.Gates[I].Executable : Never)
              : Ru.Gates[I].NonExecutable;
      if (G == Never || E < G)
        continue;
      Mask |= 1u << I;
      Which += Which.empty() ? "" : "; ";
      Which += releaseName(Releases[I]);
      if (G != Always)
        Which += " from " + dyldEpochName(G) +
                 (Years ? " (" + std::string(Years->Name) + " SDK " +
                              firstVersion(*Years, G) + ")"
                        : std::string());
    }
    if (Which.empty())
      continue;
    std::string SDK =
        P.Platform == 0
            ? std::string("no platform")
            : (Years ? std::string(Years->Name)
                     : "platform " + std::to_string(P.Platform)) +
                  " SDK " + versionString(major(P.SDK), minor(P.SDK)) +
                  (patch(P.SDK) ? "." + std::to_string(patch(P.SDK))
                                : std::string()) +
                  (P.Platform == MachO::PLATFORM_MACOS && major(P.SDK) < 10
                       ? " (dyld reads a macOS version below 10.0 as year "
                         "64980: every gate applies)"
                       : "");
    Out.push_back({Ru.Id, Ru.Function, std::move(*Msg), std::move(Which),
                   std::move(SDK), Mask});
    // Findings of one walk are ordered by where the walk met them: the
    // segment (validSegment), the load command, the pair of segments.
    Keys.push_back(PerSegment   ? std::make_pair(FirstSegmentRow, X.SegIndex)
                   : PerCommand ? std::make_pair(FirstCommandRow, X.SegIndex)
                   : PerPair    ? std::make_pair(FirstPairRow, X.SegIndex)
                                : std::make_pair(Row, size_t(0)));
  }
  std::vector<size_t> Order(Out.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  // Equal keys keep their order: the positions themselves break ties
  // (std::stable_sort's buffer is deprecated under libstdc++ 12: StableSort.h).
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return Keys[A] < Keys[B] || (!(Keys[B] < Keys[A]) && A < B);
  });
  std::vector<DyldRefusal> Sorted;
  Sorted.reserve(Out.size());
  for (size_t I : Order)
    Sorted.push_back(std::move(Out[I]));
  return Sorted;
}

std::vector<std::string> dyldReleaseRanges() {
  std::vector<std::string> Out;
  for (const Release &R : Releases)
    Out.push_back(releaseName(R));
  return Out;
}

std::vector<DyldRuleRow> dyldRuleTable() {
  std::vector<DyldRuleRow> Out;
  for (const Rule &Ru : Rules)
    for (size_t I = 0; I < NumReleases; ++I)
      Out.push_back({Ru.Id, Ru.Function, Ru.Wording, releaseName(Releases[I]),
                     Ru.Gates[I].NonExecutable,
                     Releases[I].MainExecutable ? Ru.Gates[I].Executable
                                                : Never});
  return Out;
}

} // namespace linkguard::contract
