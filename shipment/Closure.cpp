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
#include "llvm/Support/Path.h"

#include <map>
#include <set>
#include <tuple>

using namespace llvm;

namespace linkguard::shipment {

using contract::Expansion;
using contract::LoaderRules;
using contract::SearchRow;
using contract::SearchStep;
using contract::expand;
using contract::isSystemName;
using contract::isUnder;
using contract::joinPath;
using contract::normalizePath;
using contract::rawJoin;
using contract::rulesFor;

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

bool listed(const std::vector<contract::Pattern> &Patterns, StringRef Name) {
  return listedIn(Patterns, Name);
}

bool hasRunPath(const Slice &S) {
  for (const objlib::SearchPath &P : S.SearchPaths)
    if (P.Kind == SearchPathKind::RunPath)
      return true;
  return false;
}

bool existsHere(const std::string &P) {
  sys::fs::file_status St;
  return !sys::fs::status(P, St) && sys::fs::exists(St) && !sys::fs::is_directory(St);
}

struct Walker {
  Shipment &S;
  const ClosureOptions &O;
  Closure &C;
  size_t Budget; // resolutions and search paths tried, in all (ClosureOptions::MaxEdges)
  bool Exhausted = false; // the current search ran out of Budget

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

  struct Frame {
    size_t Root;
    size_t Image;
    const Slice *Sl;
    std::vector<size_t> Chain; // the image, its loader, ... the root, the host
    const DenseSet<size_t> *Loaded;
    /// ELF: the directory of the path ld.so opened each library by, for
    /// this root (see originOf).
    const DenseMap<size_t, std::string> *Opened;
  };

  /// $ORIGIN / @loader_path of image Img: the directory of the image.
  /// ld.so takes a library's $ORIGIN from the path it opened it by, links
  /// not resolved (glibc elf/dl-object.c _dl_new_object: l_origin from the
  /// realname the search built), so a library reached through
  /// lib/liba.so -> ../real/liba.so has $ORIGIN lib/, not real/; the main
  /// program's is resolved (/proc/self/exe, _dl_get_origin). A Mach-O
  /// image's is its own file's directory.
  std::string originOf(const Frame &F, size_t Img) const {
    if (S.images()[Img].Info.Fmt == Format::ELF)
      if (auto It = F.Opened->find(Img); It != F.Opened->end())
        return It->second;
    return dirOf(Img);
  }

  void place(Edge &E, Outcome W, std::string Reason) {
    E.Where = W;
    E.Reason = std::move(Reason);
  }

  bool tryDir(Edge &E, const Frame &F, const LoaderRules &LR, const std::string &Dir,
              StringRef Leaf, const std::string &Label, std::vector<std::string> &Tried,
              std::vector<std::string> &Notes, const std::string &RawDir = "") {
    // Each directory tried costs what a resolution does: search paths x
    // names grows as the square of the file's size.
    if (Budget == 0) {
      C.Truncated = true;
      Exhausted = true;
      return false;
    }
    --Budget;
    std::string Cand = joinPath(Dir, Leaf);
    bool Outside = false, NotBinary = false;
    if (std::optional<size_t> T =
            inTree(Cand, Outside, NotBinary, RawDir.empty() ? "" : rawJoin(RawDir, Leaf))) {
      E.Target = T;
      E.ResolvedPath = Cand;
      E.Via = Label;
      place(E, Outcome::Shipped, "resolves to " + S.printName(*T) + ", shipped in the tree");
      return true;
    }
    if (Outside) {
      if (isSystemName(LR, Cand) && !LR.SystemPrefixes.empty()) {
        E.ResolvedPath = Cand;
        E.Via = Label;
        place(E, Outcome::System, "resolves under a macOS system prefix");
        return true;
      }
      if (StringRef(Cand).starts_with("/") && existsHere(Cand))
        Notes.push_back("found at " + Cand + " through " + Label +
                        ", outside the tree: it exists on this machine, which proves "
                        "nothing about the machines the tree ships to");
      else
        Tried.push_back(Label + " -> " + Cand + " (outside the tree)");
      return false;
    }
    Tried.push_back(Label + " -> " + Cand + (NotBinary ? " (not a Mach-O or ELF file)" : ""));
    (void)F;
    return false;
  }

  /// "@rpath/Leaf" (dyld) or a DT_NEEDED name without '/' (ld.so).
  void search(Edge &E, const Frame &F, const LoaderRules &LR, StringRef Leaf,
              const std::string &ExeDir) {
    const bool MachO = LR.SearchPrefix[0] == '@';
    std::vector<std::string> Tried, Notes;
    std::string Undecided;
    bool AnyPath = false;
    Exhausted = false;
    auto fromPath = [&](size_t Holder, const objlib::SearchPath &SP,
                        const char *Kind) -> bool {
      AnyPath = true;
      std::string Label = std::string(Kind) + " " + SP.Path +
                          (Holder == F.Image ? "" : " of " + S.printName(Holder));
      Expansion Ex = expand(LR, SP.Path, originOf(F, Holder), ExeDir);
      if (!Ex.Undecidable.empty()) {
        Undecided = Label + ": " + Ex.Undecidable;
        return false;
      }
      if (Ex.UnknownPrefix) {
        Notes.push_back(Label + " starts with an @ prefix dyld does not expand");
        return false;
      }
      if (!Ex.FromToken && !StringRef(Ex.Path).starts_with("/")) {
        Notes.push_back(Label + (MachO ? " is relative: dyld tries it against the current directory of "
                                         "the process (Loader::forEachResolvedAtPathVar)"
                                       : " is relative: ld.so resolves it against the "
                                         "current directory of the process"));
        return false;
      }
      return tryDir(E, F, LR, Ex.Path, Leaf, Label, Tried, Notes, Ex.Raw);
    };
    for (const SearchRow &Row : LR.Search) {
      switch (Row.Step) {
      case SearchStep::ChainSearchPaths:
        if (LR.RunPathStopsInheritance && hasRunPath(*F.Sl))
          break; // ld.so: the requester's DT_RUNPATH turns every DT_RPATH off
        for (size_t Holder : F.Chain) {
          const Slice *HS = Holder == F.Image ? F.Sl : sliceOf(Holder, F.Sl->Arch);
          if (!HS || (LR.RunPathStopsInheritance && hasRunPath(*HS)))
            continue;
          for (const objlib::SearchPath &SP : HS->SearchPaths)
            if (MachO || SP.Kind == SearchPathKind::RPath)
              if (fromPath(Holder, SP, MachO ? "LC_RPATH" : "DT_RPATH"))
                return;
        }
        break;
      case SearchStep::OwnRunPath:
        for (const objlib::SearchPath &SP : F.Sl->SearchPaths)
          if (SP.Kind == SearchPathKind::RunPath && fromPath(F.Image, SP, "DT_RUNPATH"))
            return;
        break;
      case SearchStep::ApplicationDirs:
        for (const std::string &Dir : O.SearchDirs) {
          AnyPath = true;
          std::string Abs = StringRef(Dir).starts_with("/") ? normalizePath(Dir)
                                                            : joinPath(S.root(), Dir);
          if (tryDir(E, F, LR, Abs, Leaf, "--search " + Dir, Tried, Notes))
            return;
        }
        break;
      case SearchStep::Environment:
      case SearchStep::SystemDefault:
        break; // the user's machine; system names were placed before
      }
    }
    std::string What = MachO ? "an @rpath name" : "a DT_NEEDED name";
    if (Exhausted) {
      place(E, Outcome::Unknown,
            "is " + What + " whose search is past the bound (" + std::to_string(O.MaxEdges) +
                " dependencies and search paths tried in all): undecided");
      return;
    }
    if (!Undecided.empty()) {
      place(E, Outcome::Unknown, "is " + What + " whose search cannot be decided: " + Undecided);
      return;
    }
    std::string R = "is " + What + " that resolves to no file of the tree";
    if (!AnyPath)
      R += MachO ? " (no LC_RPATH in the image or in any image that loads it, and no --search)"
                 : " (no DT_RPATH/DT_RUNPATH that applies, and no --search)";
    // At most 8 tries and 8 notes named, the rest counted (issue 37 part 5:
    // thousands of LC_RPATHs must not make a message of megabytes).
    auto listed = [](const std::vector<std::string> &L, const char *Sep) {
      const size_t N = std::min<size_t>(L.size(), 8);
      std::string T = llvm::join(L.begin(), L.begin() + N, Sep);
      if (L.size() > N)
        T += std::string(Sep) + "and " + std::to_string(L.size() - N) + " more";
      return T;
    };
    if (!Tried.empty())
      R += " (tried " + listed(Tried, ", ") + ")";
    if (!Notes.empty())
      R += "; " + listed(Notes, "; ");
    // A library shipped under another file name: the loader opens file
    // names, it does not read install names or DT_SONAMEs to find one.
    for (size_t I = 0; I < S.images().size(); ++I)
      for (const Slice &Sl : S.images()[I].Info.Slices)
        if (Sl.InstallName && libnames::fileNameOf(*Sl.InstallName) == Leaf &&
            sys::path::filename(rel(I), Posix) != Leaf) {
          R += "; " + S.printName(I) + " has " + (MachO ? "LC_ID_DYLIB " : "DT_SONAME ") +
               *Sl.InstallName + " but no file or link is named " + Leaf.str() +
               " where the loader looks";
          I = S.images().size() - 1;
          break;
        }
    place(E, Outcome::Unresolved, std::move(R));
  }

  Edge resolve(const Frame &F, const objlib::Dependency &D, const std::string &ExeDir) {
    const LoaderRules &LR = rulesFor(S.images()[F.Image].Info.Fmt);
    const bool MachO = LR.SearchPrefix[0] == '@';
    Edge E;
    E.Root = F.Root;
    E.Image = F.Image;
    E.Slice = F.Sl->Arch;
    E.Dependency = D.Name;
    E.Kind = D.Kind;
    StringRef N = D.Name;
    if (isSystemName(LR, N)) {
      place(E, Outcome::System, MachO ? "is under a macOS system prefix"
                                      : "is part of the C/C++ runtime every Linux system provides");
    } else if (listed(O.SystemList, N)) {
      place(E, Outcome::System, "is listed in the --system-list file");
    } else if (contract::NameLookup L =
                   contract::lookupName(LR, N, originOf(F, F.Image), ExeDir);
               L.Searched) {
      bool Found = false;
      if (LR.ReuseLoaded && *LR.ReuseLoaded) // a name already loaded is reused
        for (size_t Ld : *F.Loaded) {
          const Slice *LS = sliceOf(Ld, F.Sl->Arch);
          if (LS && LS->InstallName && *LS->InstallName == N && Ld != F.Image) {
            E.Target = Ld;
            E.ResolvedPath = S.absPath(Ld);
            E.Via = std::string("already loaded: the ") + (MachO ? "LC_ID_DYLIB" : "DT_SONAME") +
                    " of " + S.printName(Ld);
            place(E, Outcome::Shipped, "is " + S.printName(Ld) + ", already loaded");
            Found = true;
            break;
          }
        }
      if (!Found)
        search(E, F, LR, L.Leaf, ExeDir);
    } else {
      const Expansion &Ex = L.Path;
      if (!Ex.Undecidable.empty()) {
        place(E, Outcome::Unknown, Ex.Undecidable);
      } else if (Ex.UnknownPrefix) {
        place(E, Outcome::NonPortable, "starts with an @ prefix dyld does not expand");
      } else if (Ex.FromToken) {
        bool Outside = false, NotBinary = false;
        E.ResolvedPath = Ex.Path;
        E.Via = "the " + std::string(N.starts_with("@executable_path") ? "executable's"
                                                                       : "image's") +
                " directory";
        if (std::optional<size_t> T = inTree(Ex.Path, Outside, NotBinary, Ex.Raw)) {
          E.Target = T;
          place(E, Outcome::Shipped, "resolves to " + S.printName(*T) + ", shipped in the tree");
        } else if (Outside) {
          place(E, Outcome::NonPortable,
                "resolves to " + Ex.Path + ", outside the tree " + S.root() +
                    (existsHere(Ex.Path) ? " (the file exists on this machine)" : ""));
        } else {
          place(E, Outcome::Unresolved,
                "resolves to " + Ex.Path +
                    (NotBinary ? ", which is not a Mach-O or ELF file"
                               : ", which the tree does not hold"));
        }
      } else if (N.starts_with("/")) {
        place(E, Outcome::NonPortable,
              std::string("is an absolute path outside ") +
                  (MachO ? "/usr/lib/ and /System/Library/" : "the system library family") +
                  ": it loads only where that file exists" +
                  (existsHere(D.Name) ? "; the file exists on this machine, which proves "
                                        "nothing about the machines the tree ships to"
                                      : ""));
      } else {
        place(E, Outcome::NonPortable, "is a relative path, which the loader resolves "
                                       "against the current directory of the process");
      }
    }
    if ((E.Where == Outcome::Unresolved || E.Where == Outcome::NonPortable) &&
        listed(O.Provided, N)) {
      E.Target.reset();
      place(E, Outcome::Provided, "is declared application-provided (--provided)");
    }
    if (E.Where == Outcome::Unresolved && D.Kind == DependencyKind::Weak) {
      E.Allowed = true;
      E.Reason += "; a weak dylib (LC_LOAD_WEAK_DYLIB) may be missing: dyld goes on without it";
    }
    return E;
  }

  /// The closure of root RI: dyld's order (Loader::loadDependents): every
  /// dependency of an image is resolved, then each newly loaded one is
  /// expanded in turn; an image is loaded once.
  void run(size_t RI) {
    Root &R = C.Roots[RI];
    DenseMap<size_t, std::optional<size_t>> Parent;
    DenseSet<size_t> Loaded;
    DenseMap<size_t, std::string> Opened;
    Parent[R.Image] = std::nullopt;
    Loaded.insert(R.Image);
    R.Loaded.push_back(R.Image);
    std::vector<size_t> Todo{R.Image};
    while (!Todo.empty()) {
      size_t X = Todo.back();
      Todo.pop_back();
      const Slice *Sl = sliceOf(X, R.Arch);
      if (!Sl)
        continue; // reported where it was reached
      Frame F{RI, X, Sl, {}, &Loaded, &Opened};
      for (std::optional<size_t> P = X; P; P = Parent.lookup(*P))
        F.Chain.push_back(*P);
      if (R.Host && *R.Host != R.Image)
        F.Chain.push_back(*R.Host);
      std::vector<size_t> Children;
      for (const objlib::Dependency &D : Sl->Dependencies) {
        if (Budget == 0) {
          C.Truncated = true;
          return;
        }
        --Budget;
        Edge E = resolve(F, D, R.ExecutableDir);
        if (E.Target && !sliceOf(*E.Target, R.Arch)) {
          E.Where = Outcome::Unresolved;
          E.Reason = "resolves to " + S.printName(*E.Target) + ", which has no " + R.Arch +
                     " slice (dyld: incompatible architecture)";
          E.Target.reset();
        }
        if (E.Target && Loaded.insert(*E.Target).second) {
          Parent[*E.Target] = X;
          // The first path that loads it is the one ld.so keeps.
          if (!E.ResolvedPath.empty())
            Opened[*E.Target] = parentOf(E.ResolvedPath);
          R.Loaded.push_back(*E.Target);
          Children.push_back(*E.Target);
        }
        R.Edges.push_back(C.Edges.size());
        C.Edges.push_back(std::move(E));
      }
      for (auto I = Children.rbegin(); I != Children.rend(); ++I)
        Todo.push_back(*I);
    }
  }

  void addRoot(size_t Img, bool Exe, const std::string &ExeDir, std::optional<size_t> Host) {
    for (const Slice &Sl : S.images()[Img].Info.Slices) {
      Root R;
      R.Image = Img;
      R.Arch = Sl.Arch;
      R.Executable = Exe;
      R.ExecutableDir = ExeDir;
      R.Host = Host;
      C.Roots.push_back(std::move(R));
      if (S.images()[Img].Info.Fmt == Format::ELF) {
        closeWithLdSo(S, O, C, C.Roots.size() - 1, Budget);
        if (Budget == 0)
          C.Truncated = true;
      } else {
        run(C.Roots.size() - 1);
      }
    }
  }

  void conflicts(const std::vector<std::string> &Groups) {
    std::set<std::pair<std::string, std::string>> Seen;
    for (size_t RI = 0; RI < C.Roots.size(); ++RI) {
      for (const std::string &G : Groups) {
        struct Member {
          std::string Id, Via;
          libnames::FamilyMember M;
        };
        std::vector<Member> Found;
        auto add = [&](const std::string &Id, StringRef Name, const std::string &Via) {
          std::optional<libnames::FamilyMember> M = libnames::familyMember(G, Name);
          if (!M)
            return;
          for (const Member &F : Found)
            if (F.Id == Id)
              return;
          Found.push_back({Id, Via, *M});
        };
        const Root &R = C.Roots[RI];
        if (const Slice *Sl = sliceOf(R.Image, R.Arch); Sl && Sl->InstallName)
          add(S.printName(R.Image), rel(R.Image), "the root");
        for (size_t EI : R.Edges) {
          const Edge &E = C.Edges[EI];
          if (E.Where == Outcome::Unknown)
            continue; // cannot be told
          // Unresolved in the tree is not "never loads": the loader looks
          // for it on the machine (a link out of the tree, a runtime the
          // system has), and if it loads it meets the others; by name.
          std::string Id = E.Target ? S.printName(*E.Target) : E.Dependency;
          add(Id, E.Target ? StringRef(rel(*E.Target)) : StringRef(E.Dependency),
              S.printName(E.Image));
          if (E.Target && !libnames::familyMember(G, rel(*E.Target)))
            add(Id, E.Dependency, S.printName(E.Image));
        }
        for (size_t I = 1; I < Found.size(); ++I) {
          if (!Seen.insert({Found[0].Id, Found[I].Id}).second)
            continue;
          Conflict K;
          K.Root = RI;
          K.Group = G;
          K.First = Found[0].Id, K.FirstVia = Found[0].Via;
          K.Second = Found[I].Id, K.SecondVia = Found[I].Via;
          if (*Found[0].M.Runtime && StringRef(Found[0].M.Runtime) == Found[I].M.Runtime)
            K.Abort = Found[0].M.Abort;
          C.Conflicts.push_back(std::move(K));
        }
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
  // 2. Every image no executable reaches, as a root of its own; then keep
  // only those no other such root loads (a library loaded by a Python
  // extension is judged through the extension's chain, as it will load).
  size_t FirstCandidate = Scratch.Roots.size();
  for (size_t I = 0; I < Walked; ++I)
    if (!Reached.count(I))
      W.addRoot(I, false, HostDir, Host);
  // Which candidate roots load each image (linear in the closures' sizes,
  // not quadratic in the number of roots: a wheel holds thousands).
  DenseMap<size_t, std::vector<size_t>> LoadedBy;
  std::vector<DenseSet<size_t>> LoadedSet(Scratch.Roots.size());
  for (size_t B = FirstCandidate; B < Scratch.Roots.size(); ++B)
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

} // namespace linkguard::shipment
