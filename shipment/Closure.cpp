//===- Closure.cpp - resolve a shipment's load closure by the loaders' rules ===//
#include "shipment/Closure.h"

#include "contract/LoaderRules.h"

#include "libnames/LibraryNames.h"
#include "support/EnumNames.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/Path.h"

#include <map>
#include <set>
#include <tuple>

using namespace llvm;

namespace linkguard::shipment {

using contract::isUnder;
using contract::normalizePath;

const char *outcomeName(Outcome O) {
  return enumName(O, {"system", "shipped", "provided", "unresolved", "non-portable", "unknown",
                      "host-dependent"});
}

bool listedIn(const std::vector<contract::Pattern> &Patterns, StringRef Name) {
  for (const contract::Pattern &P : Patterns)
    if (Name.starts_with("/") ? P.matchesWholeName(Name.str()) : P.matches(Name.str()))
      return true;
  return false;
}

namespace {

using objlib::DependencyKind;
using objlib::Format;
using objlib::SearchPathKind;
using objlib::Slice;
constexpr sys::path::Style Posix = sys::path::Style::posix;

std::string parentOf(StringRef P) {
  StringRef D = sys::path::parent_path(P, Posix);
  return D.empty() ? "/" : D.str();
}

struct Walker {
  Shipment &S;
  const ClosureOptions &O;
  Closure &C;
  size_t Budget; // resolutions and search paths tried, in all (ClosureOptions::MaxEdges)

  const Slice *sliceOf(size_t Img, StringRef Arch) const {
    const objlib::BinaryInfo &B = S.images()[Img].Info;
    for (const Slice &Sl : B.Slices)
      if (Sl.Arch == Arch)
        return &Sl;
    if (B.Fmt == Format::ELF && B.Slices.size() == 1)
      return &B.Slices[0];
    return nullptr;
  }
  std::string dirOf(size_t Img) const { return parentOf(S.absPath(Img)); }
  const std::string &rel(size_t Img) const { return S.images()[Img].Rel; }

  /// The image a path names if it is in the tree; Outside when it is not
  /// under the root.
  /// Raw: the path as the loader opens it ("." and ".." kept, Expansion::Raw),
  /// looked up as the kernel walks it; Abs is its lexical form.
  std::optional<size_t> inTree(const std::string &Abs, bool &Outside, bool &NotBinary,
                               const std::string &Raw = "") {
    Outside = !isUnder(Abs, S.root());
    if (Outside)
      return std::nullopt;
    StringRef R = Abs;
    const std::string Prefix = S.root() == "/" ? "/" : S.root() + "/";
    if (StringRef(Raw).starts_with(Prefix))
      R = Raw;
    R.consume_front(S.root());
    R.consume_front("/");
    return S.lookup(R, &NotBinary);
  }

  void addRoot(size_t Img, bool Exe, const std::string &ExeDir, std::optional<size_t> Host) {
    // By index: a File shipment's closure reads images, moving images().
    for (size_t SI = 0; SI < S.images()[Img].Info.Slices.size(); ++SI) {
      const std::string Arch = S.images()[Img].Info.Slices[SI].Arch;
      Root R;
      R.Image = Img;
      R.Arch = Arch;
      R.Executable = Exe;
      R.ExecutableDir = ExeDir;
      R.Host = Host;
      C.Roots.push_back(std::move(R));
      if (S.images()[Img].Info.Fmt == Format::ELF) {
        closeWithLdSo(S, O, C, C.Roots.size() - 1, Budget);
      } else {
        // Each slice with its process's grading; an x86_64 one also as a
        // Haswell CPU maps it, where the tree holds an x86_64h slice.
        C.Roots.back().Grading = dyldGrading(Arch, false);
        closeWithDyld(S, O, C, C.Roots.size() - 1, Budget, C.Roots.back().Grading);
        if (Arch == "x86_64" && hasHaswellSlice()) {
          Root H = C.Roots.back();
          H.Edges.clear();
          H.Loaded.clear();
          H.Grading = dyldGrading(Arch, true);
          C.Roots.push_back(std::move(H));
          closeWithDyld(S, O, C, C.Roots.size() - 1, Budget, C.Roots.back().Grading);
        }
      }
      if (Budget == 0)
        C.Truncated = true;
    }
  }

  bool hasHaswellSlice() {
    if (!Haswell) {
      Haswell = false;
      for (const ShippedImage &I : S.images())
        for (const Slice &Sl : I.Info.Slices)
          if (Sl.Arch == "x86_64h")
            Haswell = true;
    }
    return *Haswell;
  }
  std::optional<bool> Haswell;

  void conflicts(const std::vector<std::string> &Groups) {
    std::set<std::pair<std::string, std::string>> Seen;
    std::set<std::tuple<size_t, std::string, std::string, std::string>> SeenUnread;
    for (size_t RI = 0; RI < C.Roots.size(); ++RI) {
      for (const std::string &G : Groups) {
        struct Member {
          std::string Id, Via;
          libnames::FamilyMember M;
          std::string Marker; // a member by its exports: the symbol
        };
        std::vector<Member> Found;
        // Members neither by name nor by what was read: exports unreadable.
        std::vector<UnreadableMember> Unread;
        const Root &R = C.Roots[RI];
        // Img: the shipped image Name is, whose exports decide when its
        // name does not (a renamed runtime).
        auto add = [&](const std::string &Id, StringRef Name, const std::string &Via,
                       std::optional<size_t> Img = std::nullopt) {
          std::optional<libnames::FamilyMember> M = libnames::familyMember(G, Name);
          std::string Marker;
          const Slice *Sl = !M && Img ? sliceOf(*Img, R.Arch) : nullptr;
          if (Sl)
            M = libnames::familyMemberByExports(G, Sl->Exports, &Marker);
          if (!M && Sl && !Sl->ExportsProblem.empty() &&
              llvm::none_of(Unread, [&](const UnreadableMember &U) { return U.Id == Id; }))
            Unread.push_back({RI, G, Id, Via, Sl->ExportsProblem});
          if (!M)
            return;
          for (const Member &F : Found)
            if (F.Id == Id)
              return;
          Found.push_back({Id, Via, *M, Marker});
        };
        // The root is in its process whatever its name: one without a
        // SONAME (or an executable) that is a runtime by its file's name
        // or what it defines counts too (ld-diff seeds 31242, 35930).
        if (sliceOf(R.Image, R.Arch))
          add(S.printName(R.Image), rel(R.Image), "the root", R.Image);
        for (size_t EI : R.Edges) {
          const Edge &E = C.Edges[EI];
          if (E.Where == Outcome::Unknown && !E.Unreadable.empty()) {
            // The loader would load a file linkguard cannot read: a member
            // by its name, or one that might be (what it defines is not
            // known), where it would make two.
            if (libnames::familyMember(G, E.Dependency) ||
                libnames::familyMember(G, sys::path::filename(E.Unreadable))) {
              add(E.Unreadable, E.Dependency, S.printName(E.Image));
              add(E.Unreadable, sys::path::filename(E.Unreadable), S.printName(E.Image));
            } else if (llvm::none_of(Unread, [&](const UnreadableMember &U) {
                         return U.Id == E.Unreadable;
                       })) {
              Unread.push_back({RI, G, E.Unreadable, S.printName(E.Image), ""});
            }
            continue;
          }
          if (E.Where == Outcome::Unknown) {
            // Which file loads cannot be told ($LIB before the tree's
            // copy, say): it may be a member, and make two. Undecided.
            if (llvm::none_of(Unread, [&](const UnreadableMember &U) {
                  return U.Root == RI && U.Id == E.Dependency;
                }))
              Unread.push_back({RI, G, E.Dependency, S.printName(E.Image), "",
                                E.Reason.empty() ? std::string("unknown") : E.Reason});
            continue;
          }
          // Unresolved in the tree is not "never loads": the loader looks
          // for it on the machine (a link out of the tree, a runtime the
          // system has), and if it loads it meets the others; by name.
          std::string Id = E.Target ? S.printName(*E.Target) : E.Dependency;
          add(Id, E.Target ? StringRef(rel(*E.Target)) : StringRef(E.Dependency),
              S.printName(E.Image));
          if (E.Target && !libnames::familyMember(G, rel(*E.Target)))
            add(Id, E.Dependency, S.printName(E.Image), E.Target);
        }
        for (size_t I = 1; I < Found.size(); ++I) {
          if (!Seen.insert({Found[0].Id, Found[I].Id}).second)
            continue;
          Conflict K;
          K.Root = RI;
          K.Group = G;
          K.First = Found[0].Id, K.FirstVia = Found[0].Via;
          K.Second = Found[I].Id, K.SecondVia = Found[I].Via;
          K.FirstMarker = Found[0].Marker, K.SecondMarker = Found[I].Marker;
          if (*Found[0].M.Runtime && StringRef(Found[0].M.Runtime) == Found[I].M.Runtime)
            K.Abort = Found[0].M.Abort;
          C.Conflicts.push_back(std::move(K));
        }
        // One that might be a member, where it would make two.
        llvm::erase_if(Unread, [&](const UnreadableMember &U) {
          return llvm::any_of(Found, [&](const Member &F) { return F.Id == U.Id; });
        });
        if (Found.size() + Unread.size() >= 2)
          for (UnreadableMember &U : Unread)
            if (SeenUnread.insert({R.Image, R.Arch, G, U.Id}).second)
              C.Unreadable.push_back(std::move(U));
      }
    }
  }
};

std::string absolute(StringRef P) {
  SmallString<256> S(P);
  if (sys::fs::make_absolute(S))
    S = P;
  return normalizePath(S);
}

} // namespace

std::vector<std::string> rootsNamed(const Shipment &S, const ClosureOptions &O,
                                    std::vector<std::string> *Unmatched) {
  // GlobPattern keeps references into its pattern: the strings outlive it.
  std::vector<std::string> Patterns;
  Patterns.reserve(O.Roots.size());
  for (const std::string &P : O.Roots)
    Patterns.push_back(normalizePath(P));
  std::vector<GlobPattern> Globs;
  std::vector<bool> Matched(O.Roots.size(), false);
  for (const std::string &P : Patterns) {
    Expected<GlobPattern> G = GlobPattern::create(P);
    if (!G) {
      consumeError(G.takeError());
      G = GlobPattern::create("");
    }
    Globs.push_back(std::move(*G));
  }
  std::vector<std::string> Why(S.walked());
  for (size_t I = 0; I < S.walked(); ++I) {
    const ShippedImage &Img = S.images()[I];
    if (!Img.Present || (Img.Offset && Img.Member.empty()))
      continue;
    for (size_t P = 0; P < Globs.size(); ++P)
      if (Globs[P].match(Img.Rel) || (!Img.Member.empty() && Globs[P].match(Img.Member))) {
        Matched[P] = true;
        if (Why[I].empty())
          Why[I] = "named by --root " + O.Roots[P];
      }
    if (Why[I].empty())
      Why[I] = Img.RootWhy;
  }
  if (Unmatched)
    for (size_t P = 0; P < O.Roots.size(); ++P)
      if (!Matched[P])
        Unmatched->push_back(O.Roots[P]);
  return Why;
}

Closure computeClosure(Shipment &S, const ClosureOptions &O) {
  Closure Scratch;
  Walker W{S, O, Scratch, O.MaxEdges};
  std::optional<size_t> Host;
  std::string HostDir;
  if (!O.Executable.empty()) {
    // dyld's @executable_path is the directory of the program's real path
    // (contract::mainProgramPath), the tree's image its link names.
    std::string Abs = absolute(O.Executable);
    HostDir = parentOf(contract::mainProgramPath(Abs));
    bool Outside = false, NotBinary = false;
    Host = W.inTree(Abs, Outside, NotBinary);
  }
  const size_t Walked = S.walked();
  DenseSet<size_t> Reached;
  // 1. Each executable of the tree.
  for (size_t I = 0; I < Walked; ++I) {
    bool Main = false;
    for (const Slice &Sl : S.images()[I].Info.Slices)
      Main |= Sl.MainProgram;
    if (!Main)
      continue;
    W.addRoot(I, true, W.dirOf(I), std::nullopt);
  }
  for (const Root &R : Scratch.Roots)
    Reached.insert(R.Loaded.begin(), R.Loaded.end());
  // 1b. Each named or recognised root (rootsNamed: --root and [roots], an
  // extension module, a .pt2's model library), on its own, also where
  // an executable reaches it: the process that dlopens it loads it so.
  const size_t FirstNamed = Scratch.Roots.size();
  std::vector<std::string> Why = rootsNamed(S, O);
  DenseSet<size_t> Named;
  for (size_t I = 0; I < Walked; ++I) {
    if (Why[I].empty())
      continue;
    Named.insert(I);
    bool Main = false;
    for (const Slice &Sl : S.images()[I].Info.Slices)
      Main |= Sl.MainProgram;
    if (Main)
      continue; // a root already (1.)
    W.addRoot(I, false, HostDir, Host);
  }
  for (size_t RI = FirstNamed; RI < Scratch.Roots.size(); ++RI)
    Scratch.Roots[RI].Named = Why[Scratch.Roots[RI].Image];
  // 2. Every other image no executable reaches, as a root of its own;
  // then keep only those no other such root loads (a library loaded by a
  // Python extension is judged through the extension's chain, as it will
  // load). An image its package's loader does not extract is no root.
  size_t FirstCandidate = Scratch.Roots.size();
  for (size_t I = 0; I < Walked; ++I)
    if (!Reached.count(I) && !Named.count(I) && S.images()[I].Present)
      W.addRoot(I, false, HostDir, Host);
  // Which candidate roots load each image (linear in the closures' sizes,
  // not quadratic in the number of roots: a wheel holds thousands).
  DenseMap<size_t, std::vector<size_t>> LoadedBy;
  std::vector<DenseSet<size_t>> LoadedSet(Scratch.Roots.size());
  for (size_t B = FirstNamed; B < Scratch.Roots.size(); ++B)
    for (size_t X : Scratch.Roots[B].Loaded) {
      LoadedSet[B].insert(X);
      if (X != Scratch.Roots[B].Image)
        LoadedBy[X].push_back(B);
    }
  std::vector<bool> Keep(Scratch.Roots.size(), true);
  for (size_t A = FirstCandidate; A < Scratch.Roots.size(); ++A) {
    auto It = LoadedBy.find(Scratch.Roots[A].Image);
    if (It == LoadedBy.end())
      continue;
    for (size_t B : It->second) {
      // B loads A: A is no root of its own, unless A loads B too (a cycle),
      // where the first of the two stays.
      bool ALoadsB = LoadedSet[A].count(Scratch.Roots[B].Image);
      if (!ALoadsB || B < A) {
        Keep[A] = false;
        break;
      }
    }
  }
  // 3. The kept roots, renumbered.
  Closure Out;
  Out.Truncated = Scratch.Truncated;
  Out.SubdirectoryDependent = Scratch.SubdirectoryDependent;
  Out.SubdirectoriesSeen = std::move(Scratch.SubdirectoriesSeen);
  for (size_t RI = 0; RI < Scratch.Roots.size(); ++RI) {
    if (!Keep[RI])
      continue;
    Root R = Scratch.Roots[RI];
    size_t NewRI = Out.Roots.size();
    R.Edges.clear();
    for (size_t EI : Scratch.Roots[RI].Edges) {
      Edge E = Scratch.Edges[EI];
      E.Root = NewRI;
      R.Edges.push_back(Out.Edges.size());
      Out.Edges.push_back(std::move(E));
    }
    Out.Roots.push_back(std::move(R));
  }
  // Repeats: the same dependency of the same image placed the same way by
  // another root is reported once.
  std::set<std::tuple<size_t, std::string, std::string, int, int, size_t>> Seen;
  for (Edge &E : Out.Edges)
    E.Repeat = !Seen.insert({E.Image, E.Slice, E.Dependency, int(E.Kind), int(E.Where),
                             E.Target ? *E.Target : size_t(-1)})
                    .second;
  Walker W2{S, O, Out, 0};
  W2.conflicts(O.Unique);
  return Out;
}

std::string machineNote(const std::string &Searched) {
  return MachineNoteHead + Searched + ")";
}

namespace {

void mergeMachineNote(std::string &Message, const std::string &Searched) {
  // "...(on machines ..., none; or only tls/)": a set said once.
  const size_t At = Message.rfind(MachineNoteHead);
  if (At == std::string::npos || Message.empty() || Message.back() != ')')
    return;
  StringRef Sets = StringRef(Message).drop_front(At + strlen(MachineNoteHead)).drop_back();
  SmallVector<StringRef, 4> Each;
  Sets.split(Each, "; or ");
  if (llvm::is_contained(Each, Searched))
    return;
  Message.pop_back();
  Message += "; or " + Searched + ")";
}

} // namespace

bool absorbMachineMessage(std::string &Said, const std::string &Message,
                          const std::string &Searched) {
  if (Said == Message)
    return true;
  if (!StringRef(Said).starts_with(Message + MachineNoteHead))
    return false;
  mergeMachineNote(Said, Searched);
  return true;
}

std::vector<MachineClosure> otherMachineClosures(Shipment &S, const Closure &C,
                                                 const ClosureOptions &O) {
  std::vector<MachineClosure> Out;
  const LdSoMachine Default;
  if (!C.SubdirectoryDependent || !(O.Machine == Default))
    return Out;
  // The machines, the baseline first: each CPU level on glibc 2.37 on
  // (no legacy subdirectory), then the CPUs glibc 2.36 tells apart
  // (sysdeps/x86/cpu-features.c): AMD and older Intel keep the kernel's
  // platform x86_64 (and no avx512_1, set for Intel only: an AMD v4 CPU,
  // this one among them, has none), Intel with AVX2, BMI1/2, LZCNT, MOVBE
  // and POPCNT is haswell (a v3 CPU at least; v4 with avx512_1,
  // AVX512F/CD/BW/DQ/VL), with AVX512ER/PF xeon_phi (v3); then the same
  // platforms on glibc 2.26 to 2.32 (legacy subdirectories, no
  // glibc-hwcaps); then an i386 CPU without SSE2 (platform i686 alone) and
  // an aarch64 one without LSE atomics. A machine tells apart from another
  // only by the subdirectories found, in its order, so each such list is
  // judged once. Each closure may find more (another machine's copy needs
  // other names, searched in other directories): until none does. A
  // closure cut short ends it: the verdict is undecided.
  const LdSoMachine Machines[] = {
      {0, false, "", false},        {4, false, "", false},        {3, false, "", false},
      {2, false, "", false},        {4, true, "x86_64", false},   {3, true, "x86_64", false},
      {2, true, "x86_64", false},   {0, true, "x86_64", false},   {4, true, "haswell", true},
      {3, true, "haswell", false},  {3, true, "xeon_phi", false}, {0, true, "haswell", true},
      {0, true, "haswell", false},  {0, true, "xeon_phi", false},
      {0, true, "x86_64", false, false}};
  std::set<std::string> Seen = C.SubdirectoriesSeen;
  // What a machine searches of Seen, in its order: x86-64's subdirectories
  // as it tries them, then other architectures' (the same on each).
  auto searched = [&](const LdSoMachine &M) {
    std::vector<std::string> R;
    for (const std::string &Sub : M.x86Subdirs())
      if (Seen.count(Sub) && !llvm::is_contained(R, Sub)) // x86_64/ may come twice
        R.push_back(Sub);
    for (const std::string &Sub : Seen)
      if (M.searches(Sub) && !llvm::is_contained(R, Sub))
        R.push_back(Sub);
    return R;
  };
  bool Done[std::size(Machines)] = {};
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (size_t I = 0; I < std::size(Machines); ++I) {
      if (Done[I])
        continue;
      std::vector<std::string> Mine = searched(Machines[I]);
      bool Same = Mine == searched(Default);
      for (const MachineClosure &M : Out)
        Same |= Mine == searched(M.Machine);
      if (Same)
        continue;
      Done[I] = true;
      ClosureOptions MO = O;
      MO.Machine = Machines[I];
      MO.KeepTries = false;
      MachineClosure M{Machines[I], computeClosure(S, MO), ""};
      const size_t Before = Seen.size();
      Seen.insert(M.C.SubdirectoriesSeen.begin(), M.C.SubdirectoriesSeen.end());
      Grew |= Seen.size() != Before;
      const bool Cut = M.C.Truncated;
      Out.push_back(std::move(M));
      if (Cut) {
        Grew = false;
        break;
      }
    }
  }
  for (MachineClosure &M : Out) {
    std::vector<std::string> Mine = searched(M.Machine);
    M.Searched = Mine.empty() ? "none" : "only " + llvm::join(Mine, ", ");
  }
  return Out;
}

} // namespace linkguard::shipment
