// contract/DyldRules: the epochs dyld assigns to SDK versions, and the
// checks dyld's loader refuses an image for, per release, over hand-built
// Mach-O facts. Real cross-linked files (and yaml2obj shapes made from them)
// are judged in tests/e2e/loadability.bash.
#include "contract/Contract.h"
#include "contract/DyldRules.h"

#include "llvm/BinaryFormat/MachO.h"

#include "tests/unit/support/Catch.h"

using namespace linkguard::contract;
using namespace linkguard::objlib;
namespace MachO = llvm::MachO;

namespace {

constexpr uint32_t ver(unsigned Major, unsigned Minor, unsigned Patch = 0) {
  return Major << 16 | Minor << 8 | Patch;
}

/// A clean arm64 dylib as lld writes it: __TEXT at 0 (r-x), __DATA_CONST
/// (rw-, SG_READ_ONLY), __LINKEDIT (r--), a UUID, libSystem, one platform.
Slice cleanDylib(uint32_t SDK, uint32_t FileType = MachO::MH_DYLIB) {
  Slice S;
  S.Arch = "arm64";
  S.FileType = FileType == MachO::MH_EXECUTE ? "executable" : "dylib";
  MachOLoadFacts F;
  F.CPUType = MachO::CPU_TYPE_ARM64;
  F.FileType = FileType;
  F.Flags = MachO::MH_DYLDLINK | MachO::MH_TWOLEVEL |
            (FileType == MachO::MH_EXECUTE ? MachO::MH_PIE : 0);
  F.SliceSize = 0x10000;
  F.HeaderAndCommands = 0x400;
  F.Platforms = {{MachO::PLATFORM_MACOS, ver(11, 0), SDK}};
  F.UUIDs = 1;
  F.LinkedDylibs = {"/usr/lib/libSystem.B.dylib"};
  if (FileType == MachO::MH_DYLIB) {
    F.IDDylibs = 1;
    S.InstallName = "@rpath/libk.dylib";
  } else {
    F.Mains = 1;
    F.HasDylinker = true;
    F.Segments.push_back({"__PAGEZERO", 0, 0x100000000, 0, 0, 0, 0, 0, {}});
  }
  uint64_t Base = FileType == MachO::MH_EXECUTE ? 0x100000000 : 0;
  F.Segments.push_back({"__TEXT", Base, 0x4000, 0, 0x4000, 5, 5, 0,
                        {{"__text", Base + 0x1000, 0x100}}});
  F.Segments.push_back({"__DATA_CONST", Base + 0x4000, 0x4000, 0x4000, 0x4000,
                        3, 3, MachO::SG_READ_ONLY, {}});
  F.Segments.push_back(
      {"__LINKEDIT", Base + 0x8000, 0x4000, 0x8000, 0x1000, 1, 1, 0, {}});
  S.MachO = F;
  return S;
}

std::vector<std::string> rules(const Slice &S) {
  std::vector<std::string> Out;
  for (const DyldRefusal &R : dyldRefusals(S))
    Out.push_back(R.Rule);
  return Out;
}

} // namespace

TEST_CASE("dyld epochs: macOS SDK versions as mach_o/Platform.cpp maps them",
          "[contract][dyld]") {
  const uint32_t Mac = MachO::PLATFORM_MACOS;
  CHECK(dyldEpochName(dyldEpoch(Mac, ver(10, 15))) == "fall2019");
  CHECK(dyldEpochName(dyldEpoch(Mac, ver(11, 0))) == "fall2020");
  CHECK(dyldEpochName(dyldEpoch(Mac, ver(12, 0))) == "fall2021");
  CHECK(dyldEpochName(dyldEpoch(Mac, ver(13, 3))) == "spring2023");
  CHECK(dyldEpochName(dyldEpoch(Mac, ver(14, 3))) == "fall2023");
  CHECK(dyldEpochName(dyldEpoch(Mac, ver(14, 4))) == "spring2024");
  CHECK(dyldEpochName(dyldEpoch(Mac, ver(15, 0))) == "fall2024");
  CHECK(dyldEpochName(dyldEpoch(Mac, ver(15, 3))) == "fall2024");
  CHECK(dyldEpochName(dyldEpoch(Mac, ver(15, 4))) == "spring2025");
  CHECK(dyldEpochName(dyldEpoch(Mac, ver(26, 0))) == "fall2025");
  CHECK(dyldEpochName(dyldEpoch(Mac, ver(26, 4))) == "spring2026");
  CHECK(dyldEpochName(dyldEpoch(MachO::PLATFORM_IOS, ver(18, 4))) ==
        "spring2025");
  CHECK(dyldEpochName(dyldEpoch(MachO::PLATFORM_IOS, ver(26, 0))) ==
        "fall2025");
  // dyld's 10.x arithmetic wraps for a version below 10.0: an sdk of 0 is
  // the far future, and every gate applies.
  CHECK(dyldEpochName(dyldEpoch(Mac, 0)) == "fall64980");
  CHECK(dyldEpoch(0, ver(15, 0)) == 0);
}

TEST_CASE("dyld: a clean lld-shaped dylib and executable pass every check",
          "[contract][dyld]") {
  for (uint32_t SDK : {ver(14, 0), ver(15, 4), ver(26, 0)}) {
    CHECK(rules(cleanDylib(SDK)).empty());
    CHECK(rules(cleanDylib(SDK, MachO::MH_EXECUTE)).empty());
  }
}

TEST_CASE("dyld: duplicate LC_RPATH per release, only the first 64 compared",
          "[contract][dyld]") {
  Slice S = cleanDylib(ver(15, 0));
  S.SearchPaths = {{"@loader_path"}, {"@loader_path"}};
  // dyld-1122.1..1245.1 gated it at fall2024 but never called the check.
  CHECK(rules(S).empty());
  S.MachO->Platforms[0].SDK = ver(15, 4);
  auto R = dyldRefusals(S);
  REQUIRE(R.size() == 1);
  CHECK(R[0].DyldMessage == "duplicate LC_RPATH '@loader_path'");
  CHECK(R[0].Function == "validSemanticsRPath");
  CHECK(R[0].Releases ==
        "dyld-1284.13..dyld-1286.10 from spring2025 (macOS SDK 15.4)");
  CHECK(R[0].FileSDK == "macOS SDK 15.4");
  // The main executable: validated from dyld-1323.3, gate fall2025.
  Slice E = cleanDylib(ver(15, 4), MachO::MH_EXECUTE);
  E.SearchPaths = S.SearchPaths;
  CHECK(rules(E).empty());
  E.MachO->Platforms[0].SDK = ver(26, 0);
  CHECK(rules(E) == std::vector<std::string>{"duplicate-rpath"});
  // An sdk field of 0 is refused by every release that runs the check.
  S.MachO->Platforms[0].SDK = 0;
  CHECK(rules(S) == std::vector<std::string>{"duplicate-rpath"});
  CHECK_THAT(dyldRefusals(S)[0].FileSDK,
             Catch::Contains("macOS SDK 0.0 (dyld reads"));
  // A duplicate past the 64th LC_RPATH is not compared by dyld.
  Slice Many = cleanDylib(ver(26, 0));
  for (int I = 0; I < 64; ++I)
    Many.SearchPaths.push_back({"@loader_path/" + std::to_string(I)});
  Many.SearchPaths.push_back({"@loader_path/0"});
  CHECK(rules(Many).empty());
}

TEST_CASE("dyld: the other load-time checks, each with its gate",
          "[contract][dyld]") {
  // No platform load command: macOS's dyld takes an arm64 or Intel image
  // as macOS 11.0 / 10.5 (Go's linker writes none); any other CPU is
  // "unknown platform".
  Slice S = cleanDylib(ver(14, 0));
  S.MachO->Platforms.clear();
  S.MachO->CPUType = MachO::CPU_TYPE_ARM64;
  CHECK(rules(S).empty());
  CHECK(dyldPlatform(*S.MachO).SDK == ver(11, 0));
  S.MachO->CPUType = MachO::CPU_TYPE_ARM64_32;
  CHECK(rules(S) == std::vector<std::string>{"unknown-platform"});
  // An old LC_VERSION_MIN_MACOSX without an sdk: the SDK is its minOS.
  S = cleanDylib(0);
  S.MachO->Platforms = {{MachO::PLATFORM_MACOS, ver(12, 0), 0, true}};
  CHECK(dyldPlatform(*S.MachO).SDK == ver(12, 0));
  S.MachO->UUIDs = 0;
  CHECK(rules(S) == std::vector<std::string>{"uuid-missing"});

  // Two platforms that do not zip; macOS with Mac Catalyst does.
  S = cleanDylib(ver(14, 0));
  S.MachO->Platforms.push_back({MachO::PLATFORM_MACCATALYST, ver(14, 0), 0});
  CHECK(rules(S).empty());
  S.MachO->Platforms.push_back({MachO::PLATFORM_IOS, ver(14, 0), 0});
  auto Inc = dyldRefusals(S);
  REQUIRE(Inc.size() == 1);
  CHECK(Inc[0].DyldMessage ==
        "incompatible platforms: zippered(macOS/Catalyst) - iOS");

  // Duplicate linked dylib: fall2024 in dyld-1284.
  S = cleanDylib(ver(15, 0));
  S.MachO->LinkedDylibs.push_back("/usr/lib/libSystem.B.dylib");
  CHECK(rules(S) == std::vector<std::string>{"duplicate-linked-dylib"});
  S.MachO->Platforms[0].SDK = ver(14, 6);
  CHECK(rules(S).empty());

  // No linked dylib at all: spring2025; libSystem's own dylibs are exempt.
  S = cleanDylib(ver(15, 4));
  S.MachO->LinkedDylibs.clear();
  CHECK(rules(S) == std::vector<std::string>{"no-linked-dylib"});
  S.InstallName = "/usr/lib/system/libsystem_c.dylib";
  CHECK(rules(S).empty());

  // Missing LC_UUID: fall2021 for a dylib, fall2025 for an executable.
  S = cleanDylib(ver(12, 0));
  S.MachO->UUIDs = 0;
  CHECK(rules(S) == std::vector<std::string>{"uuid-missing"});
  Slice E = cleanDylib(ver(15, 4), MachO::MH_EXECUTE);
  E.MachO->UUIDs = 0;
  CHECK(rules(E).empty());
  E.MachO->Platforms[0].SDK = ver(26, 0);
  CHECK(rules(E) == std::vector<std::string>{"uuid-missing"});

  // Segment permissions: __TEXT r-x from fall2019, __DATA rw- from fall2025.
  S = cleanDylib(ver(10, 15));
  S.MachO->Segments[0].InitProt = 7;
  CHECK(rules(S) == std::vector<std::string>{"text-permissions"});
  S = cleanDylib(ver(15, 4));
  S.MachO->Segments[1].Flags = 0; // __DATA_CONST without SG_READ_ONLY
  CHECK(rules(S).empty());
  S.MachO->Platforms[0].SDK = ver(26, 0);
  CHECK(rules(S) == std::vector<std::string>{"data-const-read-only"});
  S.MachO->HasSplitSegInfo = true; // built for the shared cache: exempt
  CHECK(rules(S).empty());

  // Duplicate segment names: only from dyld-1323.3 (fall2025).
  S = cleanDylib(ver(26, 0));
  S.MachO->Segments.push_back(
      {"__LINKEDIT", 0x10000, 0x4000, 0x9000, 0x100, 1, 1, 0, {}});
  CHECK(rules(S) == std::vector<std::string>{"duplicate-segment-name"});

  // Segments out of vm order: an executable from fall2025 (SDK 26), except
  // a legacy x86_64 one that is not PIE.
  E = cleanDylib(ver(15, 4), MachO::MH_EXECUTE);
  E.MachO->Segments[1].VMAddr = 0x100010000; // __TEXT after __DATA_CONST
  E.MachO->Segments[1].Sections[0].Addr = 0x100011000;
  CHECK(rules(E).empty());
  E.MachO->Platforms[0].SDK = ver(26, 0);
  auto Order = dyldRefusals(E);
  REQUIRE(Order.size() == 1);
  CHECK(Order[0].DyldMessage == "segment '__DATA_CONST' vm address out of order");
  E.MachO->CPUType = MachO::CPU_TYPE_X86_64;
  CHECK(rules(E) == std::vector<std::string>{"segment-vm-order"}); // PIE
  E.MachO->Flags &= ~uint32_t(MachO::MH_PIE);
  CHECK(rules(E).empty());

  // Thousands of segments (a crafted file): the pairwise checks stay
  // bounded and still find an overlap or a duplicate name.
  S = cleanDylib(ver(26, 0));
  auto &Many = S.MachO->Segments;
  Many.pop_back(); // __LINKEDIT last again below
  for (uint64_t I = 0; I < 20000; ++I)
    Many.push_back({"__S" + std::to_string(I), 0x10000 + I * 0x1000, 0x1000,
                    0, 0, 1, 1, 0, {}});
  Many.push_back(
      {"__LINKEDIT", 0x10000000, 0x4000, 0x8000, 0x1000, 1, 1, 0, {}});
  CHECK(rules(S).empty());
  Many[5000].VMAddr = Many[4999].VMAddr + 0x800;
  CHECK(rules(S) == std::vector<std::string>{"segment-vm-overlap"});
  Many[5000].VMAddr = Many[4999].VMAddr + 0x1000;
  Many[7000].Name = "__S6999";
  CHECK(rules(S) == std::vector<std::string>{"duplicate-segment-name"});

  // An executable without an entry point, or with two LC_MAIN.
  E = cleanDylib(ver(14, 0), MachO::MH_EXECUTE);
  E.MachO->Mains = 0;
  CHECK(rules(E) == std::vector<std::string>{"main-missing"});
  E.MachO->Mains = 2;
  CHECK(rules(E) == std::vector<std::string>{"main-count"});

  // MH_NO_DYNAMIC_ACCESS: dlopen() refused from dyld-1323.3, on any SDK.
  S = cleanDylib(ver(11, 0));
  S.MachO->Flags |= 0x400;
  auto NoDl = dyldRefusals(S);
  REQUIRE(NoDl.size() == 1);
  CHECK(NoDl[0].Rule == "no-dynamic-access");
  CHECK(NoDl[0].Releases == "dyld-1323.3..dyld-1340; dyld-1376.6..dyld-1378");

  // Install-name commands and unknown required load commands.
  S = cleanDylib(ver(14, 0));
  S.MachO->IDDylibs = 0;
  CHECK(rules(S) == std::vector<std::string>{"id-dylib-missing"});
  S = cleanDylib(ver(14, 0));
  S.MachO->UnknownRequired = {{7, 0x80000099}};
  auto R = dyldRefusals(S);
  REQUIRE(R.size() == 1);
  CHECK(R[0].DyldMessage ==
        "load command #7 unknown required load command 0x80000099");
  CHECK(R[0].Releases == "dyld-1284.13..dyld-1286.10; dyld-1323.3..dyld-1340; "
                         "dyld-1376.6..dyld-1378");
}

TEST_CASE("check --portable reports dyld's refusals and absolute install names",
          "[contract][dyld][portability]") {
  BinaryInfo B;
  B.Path = "/b/libomp.dylib";
  B.Slices.push_back(cleanDylib(ver(15, 4)));
  B.Slices[0].InstallName = "/opt/llvm-openmp/lib/libomp.dylib";
  B.Slices[0].SearchPaths = {{"@loader_path"}, {"@loader_path"}};
  ContractSpec Spec;
  Spec.Portable = PortabilityOptions{};
  Verdict V = judge(B, Spec, [](const std::string &) { return false; });
  REQUIRE(V.violations() == 2);
  CHECK(V.Findings[0].Rule == "install-name");
  CHECK_THAT(V.Findings[0].Message,
             Catch::Contains("everything linked against it will load "
                             "/opt/llvm-openmp/lib/libomp.dylib"));
  CHECK(V.Findings[1].Rule == "dyld duplicate-rpath");
  CHECK_THAT(V.Findings[1].Message,
             Catch::Contains("\"duplicate LC_RPATH '@loader_path'\""));
  // Not without --portable: the driver's contracts are unchanged.
  ContractSpec Forbid;
  Forbid.Forbid.push_back({"libz"});
  CHECK(judge(B, Forbid).ok());
  // The table names every rule for every release.
  CHECK(dyldRuleTable().size() % 3 == 0);
}

// --- issue 34: differences from dyld's own code (scripts/dyld-validator,
// tests/e2e/dyld_oracle.bash), each fixed so that dyld's code wins.

TEST_CASE("dyld oracle: two macOS LC_BUILD_VERSION commands, the last decides "
          "the gate (PlatformAndVersions::zip)",
          "[contract][dyld][oracle]") {
  // zip() replaces the versions when the same platform comes again: the
  // SDK Policy compares is the last command's.
  Slice S = cleanDylib(ver(26, 0));
  S.MachO->Platforms.push_back({MachO::PLATFORM_MACOS, ver(11, 0), ver(14, 0)});
  S.SearchPaths = {{"@loader_path"}, {"@loader_path"}};
  CHECK(dyldPlatform(*S.MachO).SDK == ver(14, 0));
  CHECK(rules(S).empty());
  // The other way round: SDK 26.0 last, refused by every release.
  std::swap(S.MachO->Platforms[0], S.MachO->Platforms[1]);
  CHECK(dyldPlatform(*S.MachO).SDK == ver(26, 0));
  CHECK(rules(S) == std::vector<std::string>{"duplicate-rpath"});
  // Zippered: the last macOS command's versions, wherever Catalyst is.
  S.MachO->Platforms = {{MachO::PLATFORM_MACOS, ver(11, 0), ver(26, 0)},
                        {MachO::PLATFORM_MACCATALYST, ver(14, 0), ver(18, 0)},
                        {MachO::PLATFORM_MACOS, ver(11, 0), ver(14, 0)}};
  CHECK(dyldPlatform(*S.MachO).SDK == ver(14, 0));
  CHECK(rules(S).empty());
}

TEST_CASE("dyld oracle: a second __TEXT at a non-zero file offset, the last "
          "__TEXT is checked (validSemanticsSegments)",
          "[contract][dyld][oracle]") {
  Slice S = cleanDylib(ver(14, 0));
  auto &Segs = S.MachO->Segments;
  // A second __TEXT after __LINKEDIT, at file offset 0x9000, vm 0xC000.
  Segs.push_back({"__TEXT", 0xC000, 0x4000, 0x9000, 0, 5, 5, 0, {}});
  S.MachO->SliceSize = 0x10000;
  REQUIRE(!rules(S).empty());
  CHECK(rules(S).front() == "text-offset");
  // The other way round (the last __TEXT at 0): no text-offset; the two
  // file ranges [0,0x4000) and [0,0) do not overlap, the names do.
  std::swap(Segs.front(), Segs.back());
  for (const std::string &R : rules(S))
    CHECK(R != "text-offset");
  // validSegment checks every segment named __TEXT: a second one not r-x.
  S = cleanDylib(ver(14, 0));
  S.MachO->Segments.push_back({"__TEXT", 0xC000, 0x4000, 0x9000, 0, 3, 3, 0, {}});
  REQUIRE(!rules(S).empty());
  CHECK(rules(S).front() == "text-permissions");
}

TEST_CASE("dyld oracle: the first refusal is the one dyld's checks reach "
          "first",
          "[contract][dyld][oracle]") {
  // validStructureLoadCommands runs before validSemanticsPlatform.
  Slice S = cleanDylib(ver(14, 0));
  S.MachO->UnknownRequired = {{3, 0x80000099}};
  S.MachO->Platforms.push_back({MachO::PLATFORM_IOS, ver(14, 0), ver(14, 0)});
  REQUIRE(rules(S).size() == 2);
  CHECK(rules(S).front() == "unknown-required-load-command");
  // validSegment runs segment by segment: a later segment's earlier check
  // comes after an earlier segment's later check.
  S = cleanDylib(ver(14, 0));
  S.MachO->Segments[0].InitProt = 3;              // __TEXT not r-x
  S.MachO->Segments[2].InitProt = 0x11;           // __LINKEDIT: bad bits
  REQUIRE(rules(S).size() >= 2);
  CHECK(rules(S).front() == "text-permissions");
  // validSemanticsLinkerOptions runs before validSemanticsMain.
  Slice E = cleanDylib(ver(14, 0), MachO::MH_EXECUTE);
  E.MachO->Mains = 2;
  E.MachO->MalformedLinkerOption = true;
  REQUIRE(!rules(E).empty());
  CHECK(rules(E).front() == "linker-option");
  // The loader refuses a dlopen() of a no-dynamic-access image before it
  // validates anything.
  S = cleanDylib(ver(26, 0));
  S.MachO->Flags |= 0x400;
  S.MachO->UUIDs = 0;
  REQUIRE(rules(S).size() == 2);
  CHECK(rules(S).front() == "no-dynamic-access");
}

TEST_CASE("dyld oracle: platforms as mach_o/Platform.cpp counts them",
          "[contract][dyld][oracle]") {
  // firmware and sepOS are always fall 2020; the exclave platforms count
  // as their base platform (15, 16: macOS; 23, 24: visionOS).
  CHECK(dyldEpochName(dyldEpoch(13, ver(1, 0))) == "fall2020");
  CHECK(dyldEpochName(dyldEpoch(14, ver(99, 0))) == "fall2020");
  CHECK(dyldEpochName(dyldEpoch(15, ver(15, 4))) == "spring2025");
  CHECK(dyldEpochName(dyldEpoch(16, ver(10, 15))) == "fall2019");
  CHECK(dyldEpochName(dyldEpoch(24, ver(26, 0))) == "fall2025");
  // uint16_t years: an sdk of 65535.255.255 wraps to 1998, before every
  // gate.
  CHECK(dyldEpoch(MachO::PLATFORM_MACOS, 0xFFFFFFFF) <
        dyldEpoch(MachO::PLATFORM_MACOS, ver(10, 5)));
  Slice E = cleanDylib(0xFFFFFFFF, MachO::MH_EXECUTE);
  E.SearchPaths = {{"@executable_path"}, {"@executable_path"}};
  CHECK(rules(E).empty());
  // Platform::libSystemDir: "" for an exclaveCore platform (23), so a dylib
  // there may link nothing; /usr/lib/system/ for macOS.
  Slice S = cleanDylib(ver(15, 4));
  S.MachO->LinkedDylibs.clear();
  CHECK(rules(S) == std::vector<std::string>{"no-linked-dylib"});
  S.MachO->Platforms[0].Platform = 23;
  CHECK(rules(S).empty());
  S.MachO->Platforms[0].Platform = 24; // ExclaveKit: its own directory
  CHECK(rules(S) == std::vector<std::string>{"no-linked-dylib"});
  S.InstallName = "/System/ExclaveKit/usr/lib/system/libk.dylib";
  CHECK(rules(S).empty());
  // An unknown platform is refused even in a static executable (no
  // LC_LOAD_DYLINKER); only a missing platform is let go there.
  Slice St = cleanDylib(ver(26, 0), MachO::MH_EXECUTE);
  St.MachO->HasDylinker = false;
  St.MachO->Platforms[0].Platform = 99;
  CHECK(rules(St) == std::vector<std::string>{"unknown-platform"});
  St.MachO->Platforms.clear();
  St.MachO->CPUType = MachO::CPU_TYPE_ARM64_32;
  CHECK(rules(St).empty());
  // An incompatible pair before an unknown platform: dyld prints the pair.
  S = cleanDylib(ver(14, 0));
  S.MachO->Platforms.push_back({MachO::PLATFORM_IOS, ver(14, 0), ver(14, 0)});
  S.MachO->Platforms.push_back({99, ver(14, 0), ver(14, 0)});
  CHECK(rules(S) == std::vector<std::string>{"incompatible-platforms"});
}

TEST_CASE("dyld oracle: main executables and load commands dyld refuses",
          "[contract][dyld][oracle]") {
  // validSemanticsMain: a DriverKit executable must not have LC_MAIN.
  Slice E = cleanDylib(ver(26, 0), MachO::MH_EXECUTE);
  E.MachO->Platforms[0].Platform = MachO::PLATFORM_DRIVERKIT;
  CHECK(rules(E) == std::vector<std::string>{"main-driverkit"});
  E.MachO->Mains = 0;
  CHECK(rules(E).empty());
  // forEachLoadCommand: a command past sizeofcmds, in command order with
  // the unknown required commands.
  Slice S = cleanDylib(ver(14, 0));
  S.MachO->MalformedCommand = {5, "(5 of 9), size (0x18) is too large"};
  CHECK(rules(S) == std::vector<std::string>{"load-command-malformed"});
  S.MachO->UnknownRequired = {{3, 0x80000099}};
  REQUIRE(rules(S).size() == 2);
  CHECK(rules(S).front() == "unknown-required-load-command");
  S.MachO->UnknownRequired = {{7, 0x80000099}};
  CHECK(rules(S).front() == "load-command-malformed");
}

TEST_CASE("dyld oracle: the pairwise segment walk stops where dyld's does",
          "[contract][dyld][oracle]") {
  // A second __TEXT before the real one, not overlapping it, whose vm
  // range __LINKEDIT overlaps: dyld meets the duplicate name (pair 1,2)
  // before the overlap (pair 1,3) where names are enforced (SDK 26).
  Slice E = cleanDylib(ver(26, 0), MachO::MH_EXECUTE);
  auto &Segs = E.MachO->Segments; // __PAGEZERO, __TEXT, __DATA_CONST, __LINKEDIT
  Segs[2] = Segs[1];
  Segs[1] = {"__TEXT", 0x100008000, 0x100, 0x8000, 0x100, 5, 5, 0, {}};
  REQUIRE(!rules(E).empty());
  CHECK(rules(E).front() == "duplicate-segment-name");
  // At SDK 15.0 the names are not compared: the overlap is refused.
  E.MachO->Platforms[0].SDK = ver(15, 0);
  REQUIRE(!rules(E).empty());
  CHECK(rules(E).front() == "segment-vm-overlap");
}
