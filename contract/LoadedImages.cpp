//===- LoadedImages.cpp - --forbid / --require over a process's images ----===//
#include "contract/LoadedImages.h"

#include "contract/Advice.h"
#include "libnames/LibraryNames.h"

namespace linkguard::contract {

static bool matchesPath(const Pattern &P, const LoadedImage &I) {
  return P.matches(I.Path) || (!I.RealPath.empty() && P.matches(I.RealPath));
}

/// The marker symbol that makes I a runtime of the family P names, when
/// its names do not (a renamed copy): "" when none.
static std::string markerOf(const Pattern &P, const LoadedImage &I) {
  std::string Marker;
  if (!I.Defines.empty() && libnames::isGroupName(P.Text))
    (void)libnames::familyMemberByExports(P.Text, I.Defines, &Marker);
  return Marker;
}

static bool matchesNames(const Pattern &P, const LoadedImage &I) {
  if (matchesPath(P, I))
    return true;
  for (const std::string &N : I.OtherNames)
    if (P.matches(N))
      return true;
  return false;
}

static bool matchesImage(const Pattern &P, const LoadedImage &I) {
  return matchesNames(P, I) || !markerOf(P, I).empty();
}

/// The image as P matched it: its path (and real path), or the other name
/// that matched (a SONAME, a hard link's path) with its real path.
static std::string describe(const Pattern &P, const LoadedImage &I) {
  std::string D;
  if (!matchesNames(P, I)) {
    D = I.RealPath.empty() || I.RealPath == I.Path ? I.Path : I.Path + " (" + I.RealPath + ")";
    D += ", an " + P.Text + " runtime by its exports (it defines " + markerOf(P, I) + "),";
  } else if (!matchesPath(P, I)) {
    for (const std::string &N : I.OtherNames)
      if (P.matches(N)) {
        D = N + " (" + I.RealPath + ")";
        break;
      }
  } else if (I.RealPath.empty() || I.RealPath == I.Path) {
    D = I.Path;
  } else {
    D = I.Path + " (" + I.RealPath + ")";
  }
  return D + " is mapped in the process" +
         (I.Via.empty() ? std::string() : " (loaded by " + I.Via + ")");
}

bool judgedByExports(const Pattern &P) {
  return libnames::isGroupName(P.Text) &&
         llvm::any_of(libnames::runtimeMarkers(), [&](const libnames::RuntimeMarker &M) {
           return llvm::StringRef(P.Text).equals_insensitive(M.Group);
         });
}

Verdict judgeLoadedImages(const std::vector<LoadedImage> &Images,
                          const ContractSpec &Spec) {
  Verdict V;
  for (const LoadedImage &I : Images)
    for (const Pattern &P : Spec.Forbid)
      if (matchesImage(P, I))
        V.Findings.push_back({FindingKind::Violation,
                              "",
                              I.Path,
                              "forbid " + P.Text,
                              describe(P, I) + ", and '" + P.Text + "' is forbidden",
                              {}});
      else if (!I.DefinesProblem.empty() && judgedByExports(P))
        V.Findings.push_back({FindingKind::Unknown,
                              "",
                              I.Path,
                              "forbid " + P.Text,
                              I.Path + " is mapped in the process" +
                                  (I.Via.empty() ? std::string()
                                                 : " (loaded by " + I.Via + ")") +
                                  ": its exports cannot be read (" + I.DefinesProblem +
                                  "), so whether it is an " + P.Text + " runtime, which '" +
                                  P.Text + "' forbids, cannot be decided",
                              {}});
  for (const Pattern &P : Spec.Require) {
    bool Found = false;
    const LoadedImage *Unread = nullptr; // the first whose exports cannot be read
    for (const LoadedImage &I : Images) {
      Found |= matchesImage(P, I);
      if (!Unread && !I.DefinesProblem.empty() && judgedByExports(P))
        Unread = &I;
    }
    if (Found)
      continue;
    if (Unread)
      // It may be the runtime under another name: not a violation.
      V.Findings.push_back(
          {FindingKind::Unknown,
           "",
           Unread->Path,
           "require " + P.Text,
           "no image mapped in the process matches '" + P.Text + "' by its names, and " +
               Unread->Path + "'s exports cannot be read (" + Unread->DefinesProblem +
               "), so whether it is the " + P.Text + " runtime '" + P.Text +
               "' requires cannot be decided",
           {}});
    else
      V.Findings.push_back(
          {FindingKind::Violation,
           "",
           "",
           "require " + P.Text,
           "no image mapped in the process matches '" + P.Text + "'",
           {}});
  }
  AdviceContext C;
  C.From = Origin::Process;
  advise(V, C);
  return V;
}

} // namespace linkguard::contract
