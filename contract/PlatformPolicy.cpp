//===- PlatformPolicy.cpp - wheel tags and deployment targets against the files ---===//

#include "contract/PlatformPolicy.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>
#include <set>

namespace linkguard::contract {
namespace {

using llvm::StringRef;

struct PolicyRow {
  const char *Name, *Aliases, *Arch, *Prefix, *Versions, *Source;
};
struct LibsRow {
  const char *Name, *Libs, *Source;
};

// auditwheel's policies (data/auditwheel/README.md), one row per policy,
// architecture and symbol-version prefix.
constexpr PolicyRow PolicyRows[] = {
#define LINUX_POLICY(N, A, AR, P, V, S) {N, A, AR, P, V, S},
#define LINUX_POLICY_LIBS(N, L, S)
#include "contract/LinuxPolicies.inc"
#undef LINUX_POLICY
#undef LINUX_POLICY_LIBS
};
constexpr LibsRow LibsRows[] = {
#define LINUX_POLICY(N, A, AR, P, V, S)
#define LINUX_POLICY_LIBS(N, L, S) {N, L, S},
#include "contract/LinuxPolicies.inc"
#undef LINUX_POLICY
#undef LINUX_POLICY_LIBS
};

bool hasWord(StringRef List, StringRef Word) {
  llvm::SmallVector<StringRef, 32> Words;
  List.split(Words, ' ', -1, false);
  return llvm::is_contained(Words, Word);
}

/// A manylinux alias (manylinux2014) -> its policy (manylinux_2_17).
std::string policyOfAlias(StringRef Alias) {
  for (const PolicyRow &R : PolicyRows)
    if (hasWord(R.Aliases, Alias))
      return R.Name;
  return "";
}

/// The macOS architectures a tag's word names (PEP 425's macosx tags, as
/// packaging.tags.mac_platforms spells them); empty: not known here.
std::vector<std::string> macArchs(StringRef Word) {
  if (Word == "arm64" || Word == "x86_64" || Word == "i386" || Word == "ppc" || Word == "ppc64")
    return {Word.str()};
  if (Word == "universal2")
    return {"arm64", "x86_64"};
  if (Word == "intel")
    return {"i386", "x86_64"};
  if (Word == "fat64")
    return {"x86_64", "ppc64"};
  if (Word == "fat32" || Word == "fat")
    return {"i386", "ppc"};
  return {};
}

/// objlib's ELF architecture name (llvm::Triple) as auditwheel names it.
std::string auditwheelArch(StringRef Arch) {
  if (Arch == "i386")
    return "i686";
  if (Arch == "arm")
    return "armv7l";
  if (Arch == "ppc64le" || Arch == "aarch64" || Arch == "x86_64" || Arch == "s390x" ||
      Arch == "riscv64" || Arch == "loongarch64")
    return Arch.str();
  return Arch.str();
}

bool isDynamicLinker(StringRef Name) {
  return Name.starts_with("ld-linux") || Name == "ld64.so.2" || Name == "ld64.so.1" ||
         Name.starts_with("ld-musl-");
}

/// The minimum macOS of a slice, or nullopt when it states none.
std::optional<uint32_t> macMinimum(const objlib::Slice &S) {
  if (!S.MachO)
    return std::nullopt;
  for (const objlib::MachOPlatform &P : S.MachO->Platforms)
    if (P.Platform == 1 /* PLATFORM_MACOS; LC_VERSION_MIN_MACOSX too */)
      return P.MinOS;
  return std::nullopt;
}

Finding finding(FindingKind K, const objlib::BinaryInfo &B, const std::string &Arch,
                std::string Message) {
  Finding F;
  F.Kind = K;
  F.Rule = "platform";
  F.Slice = B.Slices.size() > 1 ? Arch : "";
  F.Message = std::move(Message);
  return F;
}

} // namespace

std::optional<uint32_t> parseMacOSVersion(StringRef V) {
  llvm::SmallVector<StringRef, 3> Parts;
  V.split(Parts, '.');
  if (Parts.empty() || Parts.size() > 3)
    return std::nullopt;
  uint32_t Packed = 0;
  const unsigned Shifts[] = {16, 8, 0};
  const unsigned Max[] = {0xffff, 0xff, 0xff};
  for (size_t I = 0; I < Parts.size(); ++I) {
    unsigned N = 0;
    if (Parts[I].getAsInteger(10, N) || N > Max[I])
      return std::nullopt;
    Packed |= N << Shifts[I];
  }
  return Packed;
}

std::string formatMacOSVersion(uint32_t V) {
  std::string S = std::to_string(V >> 16) + "." + std::to_string((V >> 8) & 0xff);
  if (V & 0xff)
    S += "." + std::to_string(V & 0xff);
  return S;
}

bool knownLinuxPolicy(StringRef Policy, StringRef Arch) {
  return llvm::any_of(PolicyRows,
                      [&](const PolicyRow &R) { return Policy == R.Name && Arch == R.Arch; });
}

std::optional<PlatformTarget> wheelTarget(StringRef FileName) {
  StringRef Name = llvm::sys::path::filename(FileName, llvm::sys::path::Style::posix);
  if (!Name.consume_back(".whl"))
    return std::nullopt;
  llvm::SmallVector<StringRef, 6> Parts;
  Name.split(Parts, '-');
  if (Parts.size() != 5 && Parts.size() != 6)
    return std::nullopt;
  PlatformTarget T;
  llvm::SmallVector<StringRef, 4> Tags;
  Parts.back().split(Tags, '.');
  for (StringRef Tag : Tags) {
    const std::string Source = "the wheel tag " + Tag.str();
    if (Tag == "any")
      continue;
    if (StringRef Rest = Tag; Rest.consume_front("macosx_")) {
      // macosx_MAJOR_MINOR_ARCH
      auto [Major, R1] = Rest.split('_');
      auto [Minor, ArchWord] = R1.split('_');
      std::optional<uint32_t> V = parseMacOSVersion((Major + "." + Minor).str());
      std::vector<std::string> Archs = macArchs(ArchWord);
      if (!V || Archs.empty()) {
        T.Unknown.push_back(Tag.str());
        continue;
      }
      for (const std::string &A : Archs)
        T.Mac.push_back({A, *V, true, Source});
      continue;
    }
    std::string Policy, Arch;
    StringRef Rest = Tag;
    for (StringRef Alias : {"manylinux1_", "manylinux2010_", "manylinux2014_"})
      if (Rest.consume_front(Alias)) {
        Policy = policyOfAlias(Alias.drop_back());
        Arch = Rest.str();
      }
    if (Policy.empty()) {
      for (StringRef Family : {"manylinux_", "musllinux_"})
        if (Rest.consume_front(Family)) {
          auto [Major, R1] = Rest.split('_');
          auto [Minor, A] = R1.split('_');
          Policy = (Family + Major + "_" + Minor).str();
          Arch = A.str();
        }
    }
    if (Policy.empty()) {
      // linux_x86_64 (no promise, PyPI refuses it), win_amd64, ...: not
      // a platform linkguard judges the files of.
      if (!Tag.starts_with("linux_"))
        T.Unknown.push_back(Tag.str());
      continue;
    }
    if (!knownLinuxPolicy(Policy, Arch)) {
      T.Unknown.push_back(Tag.str());
      continue;
    }
    // manylinux_2_17_x86_64.manylinux2014_x86_64: one promise.
    if (llvm::none_of(T.Linux, [&](const PlatformTarget::LinuxPromise &L) {
          return L.Policy == Policy && L.Arch == Arch;
        }))
      T.Linux.push_back({Policy, Arch, Source});
  }
  return T;
}

void judgePlatform(const objlib::BinaryInfo &B, const PlatformTarget &T,
                   llvm::function_ref<bool(StringRef)> Shipped, Verdict &V) {
  for (const std::string &Tag : T.Unknown) {
    Finding F;
    F.Kind = FindingKind::Unknown;
    F.Rule = "platform";
    F.Message = "the platform tag " + Tag +
                " is not one linkguard can judge (auditwheel's policies at the revision in "
                "data/auditwheel/, or macOS arm64, x86_64, universal2, intel): undecided";
    V.Findings.push_back(std::move(F));
  }
  // A wheel's tags: Required macOS entries or Linux ones.
  const bool MacWheel = llvm::any_of(T.Mac, [](const PlatformTarget::MacOSPromise &M) { return M.Required; });
  if (B.Fmt == objlib::Format::MachO) {
    if (!MacWheel && !T.Linux.empty()) {
      V.Findings.push_back(finding(FindingKind::Violation, B, "",
                                   "a Mach-O file, yet " + T.Linux.front().Source +
                                       " promises Linux only: no Linux machine loads it"));
      return;
    }
    // Every required architecture, once per image.
    std::set<std::string> Reported;
    for (const PlatformTarget::MacOSPromise &M : T.Mac) {
      if (!M.Required || Reported.count(M.Arch))
        continue;
      if (llvm::none_of(B.Slices, [&](const objlib::Slice &S) { return S.Arch == M.Arch; })) {
        Reported.insert(M.Arch);
        std::string Has;
        for (const objlib::Slice &S : B.Slices)
          Has += (Has.empty() ? "" : ", ") + S.Arch;
        V.Findings.push_back(finding(
            FindingKind::Violation, B, "",
            "no " + M.Arch + " slice (it has " + Has + "), which " + M.Source +
                " requires: pip installs it on those Macs, where it does not load; build it "
                "for " + M.Arch + " too (lipo -create) or tag the wheel for what it has"));
      }
    }
    for (const objlib::Slice &S : B.Slices) {
      std::optional<uint32_t> Min = macMinimum(S);
      for (const PlatformTarget::MacOSPromise &M : T.Mac) {
        if (!M.Arch.empty() && M.Arch != S.Arch && !(M.Arch == "arm64" && S.Arch == "arm64e"))
          continue;
        if (!Min) {
          V.Findings.push_back(finding(FindingKind::Unknown, B, S.Arch,
                                       "states no minimum macOS (no LC_BUILD_VERSION or "
                                       "LC_VERSION_MIN_MACOSX): whether it loads on macOS " +
                                           formatMacOSVersion(M.MinOS) + " (" + M.Source +
                                           ") is undecided"));
          break;
        }
        // No arm64 Mac runs a macOS before 11.0: an arm64 slice of a
        // macosx_10_9_universal2 wheel (or MACOSX_DEPLOYMENT_TARGET=10.13)
        // is promised 11.0, as clang and delocate take it.
        const uint32_t Promise = StringRef(S.Arch).starts_with("arm64")
                                     ? std::max<uint32_t>(M.MinOS, 11u << 16)
                                     : M.MinOS;
        if (*Min > Promise) {
          V.Findings.push_back(finding(
              FindingKind::Violation, B, S.Arch,
              "needs macOS " + formatMacOSVersion(*Min) + " (" + S.Arch + "), newer than " +
                  formatMacOSVersion(Promise) + " that " + M.Source + " promises: dyld refuses " +
                  (M.Required ? "it on the older Macs pip installs it on"
                              : "it on macOS " + formatMacOSVersion(Promise)) +
                  "; build with MACOSX_DEPLOYMENT_TARGET=" + formatMacOSVersion(Promise) +
                  (M.Required ? " or tag the wheel for " + formatMacOSVersion(*Min)
                              : std::string())));
          break;
        }
      }
    }
    return;
  }
  // ELF.
  if (T.Linux.empty()) {
    if (MacWheel)
      V.Findings.push_back(finding(FindingKind::Violation, B, "",
                                   "an ELF file, yet " + T.Mac.front().Source +
                                       " promises macOS only: no Mac loads it"));
    return;
  }
  for (const objlib::Slice &S : B.Slices) {
    const std::string Arch = auditwheelArch(S.Arch);
    // A file of an architecture no tag of the set names.
    if (llvm::none_of(T.Linux, [&](const PlatformTarget::LinuxPromise &L) { return L.Arch == Arch; }))
      V.Findings.push_back(finding(FindingKind::Violation, B, S.Arch,
                                   "a file for " + Arch + ", yet " + T.Linux.front().Source +
                                       " promises " + T.Linux.front().Arch +
                                       ": it does not load there"));
    // Each promise of its architecture (a set's tags are each a promise).
    for (const PlatformTarget::LinuxPromise &L : T.Linux) {
      if (Arch != L.Arch)
        continue;
      // Symbol versions: a prefix the policy lists must be one of its
      // versions (auditwheel: policy_is_satisfied).
      std::map<std::string, std::vector<std::string>> TooNew; // prefix -> "VER (file)"
      std::string RowSource;
      for (const auto &[File, Version] : S.VersionNeeds) {
        if (isDynamicLinker(File))
          continue;
        auto [Prefix, Ver] = StringRef(Version).split('_');
        for (const PolicyRow &R : PolicyRows) {
          if (L.Policy != R.Name || L.Arch != R.Arch || Prefix != R.Prefix)
            continue;
          RowSource = R.Source;
          if (!hasWord(R.Versions, Ver)) {
            std::vector<std::string> &List = TooNew[Prefix.str()];
            std::string Entry = Version + " (" + File + ")";
            if (!llvm::is_contained(List, Entry))
              List.push_back(std::move(Entry));
          }
        }
      }
      for (const auto &[Prefix, List] : TooNew) {
        std::string Newest;
        for (const PolicyRow &R : PolicyRows)
          if (L.Policy == R.Name && L.Arch == R.Arch && Prefix == R.Prefix) {
            auto [Head, Last] = StringRef(R.Versions).rsplit(' ');
            Newest = (Last.empty() ? Head : Last).str();
          }
        std::string Names;
        for (size_t I = 0; I < List.size() && I < 8; ++I)
          Names += (I ? ", " : "") + List[I];
        if (List.size() > 8)
          Names += ", ... (" + std::to_string(List.size()) + " in all)";
        V.Findings.push_back(finding(
            FindingKind::Violation, B, S.Arch,
            "needs " + Names + ", which " + L.Policy + " does not allow (" + Prefix +
                (Newest.empty() ? std::string(" not at all") : " up to " + Newest) + "; " +
                RowSource + "), yet " + L.Source +
                " promises it: build it in the policy's image (against older libraries) or "
                "tag the wheel for the newest version it needs"));
      }
      // Libraries: promised by the policy, or shipped in the wheel.
      const LibsRow *Libs = nullptr;
      for (const LibsRow &R : LibsRows)
        if (L.Policy == R.Name)
          Libs = &R;
      for (const objlib::Dependency &D : S.Dependencies) {
        if (isDynamicLinker(D.Name) || (Libs && hasWord(Libs->Libs, D.Name)) || Shipped(D.Name))
          continue;
        Finding F = finding(FindingKind::Violation, B, S.Arch,
                            "loads " + D.Name + ", which " + L.Policy +
                                " does not promise (" + (Libs ? Libs->Source : "") +
                                ", lib_whitelist) and the wheel does not ship: ship it in the "
                                "wheel (auditwheel repair) or link it statically");
        F.Dependency = D.Name;
        V.Findings.push_back(std::move(F));
      }
    }
  }
}

} // namespace linkguard::contract
