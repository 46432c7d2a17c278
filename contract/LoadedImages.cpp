//===- LoadedImages.cpp - --forbid / --require over a process's images ----===//
#include "contract/LoadedImages.h"

#include "contract/Advice.h"

namespace linkguard::contract {

static bool matchesImage(const Pattern &P, const LoadedImage &I) {
  return P.matches(I.Path) || (!I.RealPath.empty() && P.matches(I.RealPath));
}

static std::string describe(const LoadedImage &I) {
  if (I.RealPath.empty() || I.RealPath == I.Path)
    return I.Path;
  return I.Path + " (" + I.RealPath + ")";
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
                              describe(I) + " is mapped in the process, and '" +
                                  P.Text + "' is forbidden",
                              {}});
  for (const Pattern &P : Spec.Require) {
    bool Found = false;
    for (const LoadedImage &I : Images)
      Found |= matchesImage(P, I);
    if (!Found)
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
