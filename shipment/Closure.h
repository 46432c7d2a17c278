//===- Closure.h - what loads when a shipment's programs start --*- C++ -*-===//
//
// From each executable of a shipment, and from every image no executable
// reaches (as its own root, @executable_path unknown unless an executable
// is named), every dependency is resolved by the loader's own algorithm:
// ELF by glibc's ld.so (LdSo.cpp, closeWithLdSo), Mach-O by dyld's
// (Dyld.cpp, closeWithDyld: loadDependents' order, getLoader's candidates,
// the slice GradedArchitectures maps). Each dependency ends system /
// shipped (which file) / provided / unresolved / non-portable /
// host-dependent / unknown, with the path that decided it and advice.
//
// Within one closure, two different libraries of one family (--unique
// openmp: libomp under two install names, libomp and libiomp5, either with
// libgomp) are a conflict naming both. A shipped image is a member by its
// name or, whatever it is called, by the runtime's entry points it defines
// (libnames::runtimeMarkers; its slice's Exports, read when the shipment
// was read with objlib::ReadOptions::Exports); one whose exports could not
// be read is undecided where it would make two (UnreadableMember).
//
// Pure over a Shipment: only Shipment::lookup touches the file system.
// Bounded: each root visits an image once; at most MaxEdges resolutions
// and search directories tried in all (a search path costs what it tries:
// search paths x names grows as the square of a file's size), then
// Truncated: undecided, never "holds".
//
//===----------------------------------------------------------------------===//
#pragma once

#include "shipment/Shipment.h"

#include "contract/Contract.h"
#include "contract/LoaderRules.h"
#include "contract/Pattern.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace linkguard::shipment {

/// The candidates a resolver lists with their reasons (Edge::Tried; what
/// `inspect --tree --why` and a finding's "tried" print): at most
/// MaxWhyListed a dependency (two directories' every glibc-hwcaps and
/// legacy subdirectory, 24, and the directory itself, each, and more), MaxWhyPerRoot a root and
/// MaxWhyPerClosure a closure; past them a candidate is only counted
/// (Edge::TriedNotListed), its text never made. The output of --why is
/// bounded whatever the tree holds (4,000 DT_RUNPATH entries x 200 names:
/// scripts/lib/crafted_runpath.py, tests/e2e/inspect_why.bash).
constexpr size_t MaxWhyListed = 256;
constexpr size_t MaxWhyPerRoot = 1024;
constexpr size_t MaxWhyPerClosure = 8192;

enum class Outcome {
  System,      // the platform provides it
  Shipped,     // a file of the tree (Edge::Target)
  Provided,    // --provided
  Unresolved,  // found nowhere (Allowed when weak)
  NonPortable, // an absolute path outside the system, or outside the tree
  Unknown,     // cannot be decided here
  /// Which file loads, or whether one does, depends on the machine: an
  /// absolute, empty or relative search entry (the host's files) tried
  /// before the tree's copy, a glibc-hwcaps or legacy subdirectory copy
  /// some CPUs or glibc releases pick, a link out of the tree. Never
  /// "shipped": a finding, with its advice.
  HostDependent,
  Last = HostDependent,
};
const char *outcomeName(Outcome O); // "system", "shipped", ...

/// Which of ld.so's optional subdirectories a machine searches (elf/
/// dl-hwcaps.c _dl_important_hwcaps): the glibc-hwcaps levels its CPU
/// supports, each level with every one below it (sysdeps/x86/
/// get-isa-level.h: x86-64-v3 includes v2), and, on glibc before 2.37,
/// the legacy ones: the power set of tls, its platform (AT_PLATFORM) and
/// its hwcap names (x86_64, and avx512_1 where the CPU has it). The
/// default machine searches every level and every platform's legacy
/// subdirectories (the union, in each machine's order).
struct LdSoMachine {
  unsigned HwcapsLevel = 4; // x86-64-vN and below; 0: no glibc-hwcaps level
  bool Legacy = true;       // glibc before 2.37
  std::string Platform;     // x86_64, haswell, xeon_phi; empty: every one
  bool Avx512 = true;       // the avx512_1 hwcap name
  /// The one optional hwcap name of i386 (sse2) and aarch64 (atomics).
  bool OptionalHwcap = true;
  bool searches(llvm::StringRef Subdir) const; // "glibc-hwcaps/x86-64-v3/", "tls/"
  /// An x86-64 ELF image's: the levels, then the legacy ones, in ld.so's
  /// order (shipment/LdSo.cpp).
  std::vector<std::string> x86Subdirs() const;
  bool operator==(const LdSoMachine &M) const {
    return HwcapsLevel == M.HwcapsLevel && Legacy == M.Legacy && Platform == M.Platform &&
           Avx512 == M.Avx512 && OptionalHwcap == M.OptionalHwcap;
  }
};

struct ClosureOptions {
  std::vector<std::string> SearchDirs; // --search, relative to the root
  std::vector<contract::Pattern> Provided, SystemList;
  /// --executable: the main program of roots no executable of the tree
  /// loads (its directory is @executable_path; if it is an image of the
  /// tree, its LC_RPATHs head their chain). Absolute or relative to cwd.
  std::string Executable;
  std::vector<std::string> Unique; // families: at most one member a closure
  /// --root / [roots]: images judged as roots of their own, by their path
  /// under the tree (a zip's member or installed name; a glob: *, ?, [..]).
  std::vector<std::string> Roots;
  size_t MaxEdges = contract::LoaderSearchBound; // resolutions + search directories tried
  /// Every edge keeps the candidates its search tried (inspect --tree
  /// --why); otherwise only a finding's (a violation or unknown) are kept.
  bool KeepTries = false;
  /// The machine whose ld.so resolves: by default one that searches every
  /// glibc-hwcaps level and legacy subdirectory. Where a closure is
  /// SubdirectoryDependent, the rules that judge what one process holds
  /// (--forbid by exports, --unique, one definer) judge the closures of
  /// the other machines too (otherMachineClosures, commands/Check.cpp).
  LdSoMachine Machine;
};

struct Edge {
  size_t Root = 0;  // index into Closure::Roots
  size_t Image = 0; // the image holding the load command
  std::string Slice;
  std::string Dependency;
  objlib::DependencyKind Kind = objlib::DependencyKind::Load;
  Outcome Where = Outcome::Unresolved;
  std::optional<size_t> Target; // Shipped: the image
  std::string ResolvedPath;     // the file it names (absolute)
  /// Unknown because the file the loader would load is one linkguard
  /// cannot read: that file (absolute). What it is (a runtime under
  /// another name?) is then unknown too (--unique, --forbid).
  std::string Unreadable;
  std::string Via;              // "LC_RPATH @executable_path/../lib of bin/app"
  std::string Reason;
  /// What to do about a finding (empty when it is none).
  std::string Advice;
  bool Allowed = false; // weak and missing: dyld goes on without it
  /// The paths the loader tried for it, in its order, each with why it
  /// was passed over or taken (MaxWhyListed); TriedNotListed: the rest.
  /// Empty when nothing was searched (a system name, already loaded).
  std::vector<contract::TriedCandidate> Tried;
  size_t TriedNotListed = 0;
  /// HostDependent only because a machine's search entries (absolute,
  /// empty, relative, out of the tree) come first or alone: the one case a
  /// runpath allow-list entry may decide (allow/AllowList.h).
  bool HostEntriesOnly = false;
  /// Repeats an earlier edge (same image, slice, name, outcome) of another
  /// root: not reported again.
  bool Repeat = false;
  /// Whether this is a finding (non-portable, unresolved and not allowed).
  bool violation() const {
    return !Allowed && (Where == Outcome::Unresolved || Where == Outcome::NonPortable ||
                        Where == Outcome::HostDependent);
  }
};

struct Conflict {
  size_t Root = 0;
  std::string Group;
  std::string First, Second;       // the two libraries (file or name)
  std::string FirstVia, SecondVia; // the image that loads each
  const char *Abort = nullptr;     // the abort it causes, if known
  /// A library that is a member by what it defines, not by its name (a
  /// renamed runtime, libnames::runtimeMarkers): the marker symbol.
  std::string FirstMarker, SecondMarker;
};

/// A library of a root's closure that is a member of a --unique family
/// by neither its name nor what it was seen to define, whose exports could
/// not be read (objlib Slice::ExportsProblem: a damaged trie, an unreadable
/// .gnu.version), where it and the members found make two: whether the
/// closure holds two runtimes of the family is undecided, never "one".
struct UnreadableMember {
  size_t Root = 0;
  std::string Group;
  std::string Id, Via; // the library and the image that loads it
  std::string Why;     // Slice::ExportsProblem; empty: the file itself cannot be read
  /// Not the file: which file the loader loads cannot be decided (an
  /// unknown placement, Edge::Reason).
  std::string Undecided;
};

struct Root {
  size_t Image = 0;
  std::string Arch;
  bool Executable = false; // a main program of the tree
  /// Why a library is a root of its own (an extension module, a .pt2's
  /// model library, --root): judged even where another root reaches it.
  std::string Named;
  std::string ExecutableDir; // empty: @executable_path unknown
  /// Mach-O: the slices dyld maps, best first (dyldGrading); the root's
  /// "x86_64 on a Haswell CPU" takes x86_64h slices first.
  std::vector<std::string> Grading;
  std::optional<size_t> Host; // --executable's image heading the chain
  std::vector<size_t> Edges;  // in resolution order
  std::vector<size_t> Loaded; // images, in load order
  /// Why the loader refuses the root itself (ld.so: a -z nodlopen image
  /// as a dlopen root; a main program whose PT_INTERP no machine has):
  /// each a finding on the root image.
  std::vector<std::string> Refusals;
};

struct Closure {
  std::vector<Root> Roots;
  std::vector<Edge> Edges;
  std::vector<Conflict> Conflicts;
  std::vector<UnreadableMember> Unreadable;
  bool Truncated = false; // MaxEdges reached
  /// Some edge loads another file (or none) on a machine whose ld.so
  /// searches fewer subdirectories (ClosureOptions::Machine).
  bool SubdirectoryDependent = false;
  /// The optional subdirectories ("glibc-hwcaps/x86-64-v3/", "tls/") the
  /// search found in some directory it searched, whether this machine
  /// searches them or not: the machines that differ in them are the ones
  /// otherMachineClosures judges.
  std::set<std::string> SubdirectoriesSeen;
  size_t WhyLeft = MaxWhyPerClosure; // candidates that may still be listed
};

Closure computeClosure(Shipment &S, const ClosureOptions &Options);

/// Another machine's closure, and the subdirectories of the tree it
/// searches, as a finding only its process has says them (machineNote):
/// "none", "only glibc-hwcaps/x86-64-v2/, tls/".
struct MachineClosure {
  LdSoMachine Machine;
  Closure C;
  std::string Searched;
};

/// Where C (the closure of Options.Machine, the default one) loads another
/// file (or none) on a machine whose ld.so searches fewer subdirectories
/// (Closure::SubdirectoryDependent): the closure of each other machine
/// that searches another set of the subdirectories the searches found (a
/// CPU of each glibc-hwcaps level or none, each with glibc 2.36's legacy
/// subdirectories of each platform, with avx512_1 and without, or none),
/// for the rules that judge what one process holds; none otherwise. Each
/// set is judged once, the baseline's (none of them) first; where another
/// machine's closure finds more subdirectories, the machines are told
/// apart again.
std::vector<MachineClosure> otherMachineClosures(Shipment &S, const Closure &C,
                                                 const ClosureOptions &Options);

/// What a finding only other machines' processes have ends with: the
/// machines by the subdirectories they search of those the tree has,
/// " (on machines whose ld.so searches, of the tree's glibc-hwcaps and
/// legacy subdirectories, none)" or "..., only glibc-hwcaps/x86-64-v2/)";
/// another set that has it is added to the note ("...; or only tls/)").
inline constexpr const char *MachineNoteHead =
    " (on machines whose ld.so searches, of the tree's glibc-hwcaps and legacy subdirectories, ";
std::string machineNote(const std::string &Searched);
/// Whether Said says Message already: as it is (this machine's), or
/// marked with other machines, whose note then gets Searched too.
bool absorbMachineMessage(std::string &Said, const std::string &Message,
                          const std::string &Searched);

/// For each walked image, why it is a root of its own ("" = none): --root
/// (ClosureOptions::Roots) by its path under the tree or its member name,
/// else ShippedImage::RootWhy. Unmatched: the --root patterns that named
/// no image.
std::vector<std::string> rootsNamed(const Shipment &S, const ClosureOptions &Options,
                                    std::vector<std::string> *Unmatched = nullptr);

/// Whether Name is listed in Patterns: an absolute name only by its whole
/// name (it is loaded from that path), a bare or @rpath one by file name.
bool listedIn(const std::vector<contract::Pattern> &Patterns, llvm::StringRef Name);

/// ld.so's load of one root (LdSo.cpp): glibc's own algorithm in its
/// order. Appends the root's edges to C and its images to the root.
void closeWithLdSo(Shipment &S, const ClosureOptions &O, Closure &C, size_t RootIndex,
                   size_t &Budget);

/// dyld's load of one root (Dyld.cpp): dyld's own algorithm in its order,
/// mapping from each file the slice Grading (the process's
/// GradedArchitectures, best first) takes. Appends the root's edges to C
/// and its images to the root.
void closeWithDyld(Shipment &S, const ClosureOptions &O, Closure &C, size_t RootIndex,
                   size_t &Budget, const std::vector<std::string> &Grading);

/// The GradedArchitectures of a process whose main slice is Arch
/// (mach_o/GradedArchitectures.cpp currentLoad): arm64 takes arm64e then
/// arm64 (keys off), arm64e only arm64e; x86_64h then x86_64 (Haswell:
/// also for an x86_64 main slice on a Haswell CPU).
std::vector<std::string> dyldGrading(llvm::StringRef Arch, bool Haswell);

} // namespace linkguard::shipment
