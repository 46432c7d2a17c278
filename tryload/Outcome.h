//===- Outcome.h - what a try-load run came to -------------------*- C++
//-*-===//
#pragma once

#include "contract/LoadedImages.h"
#include "tryload/Run.h"

#include <optional>
#include <string>
#include <vector>

namespace linkguard::tryload {

enum class Outcome {
  Holds,           // loaded (and the call returned 0); the contract holds
  Broken,          // loaded; an image breaks the contract
  LoadFailed,      // dlopen failed, or the loader died or exited while loading
  CallFailed,      // the symbol is missing, returned non-zero, or died
  HideUnavailable, // --hide could not be done here: nothing was loaded
  // enumName (support/EnumNames.h) names each enumerator up to Last.
  Last = HideUnavailable,
};
const char *outcomeName(Outcome O); // "holds", "broken", "load-failed", ...

enum class Origin {
  BeforeLoad, // mapped before dlopen: the loader's own, or preloaded
  Library,    // the library itself
  Dependency, // mapped by dlopen along with it
  Call,       // mapped while the called function ran
  // enumName (support/EnumNames.h) names each enumerator up to Last.
  Last = Call,
};
const char *originName(Origin O); // "before-load", "library", ...

struct MappedImage {
  contract::LoadedImage Image;
  Origin From = Origin::Dependency;
};

struct TryLoadVerdict {
  Outcome What = Outcome::Holds;
  std::string Problem; // for the failures: one sentence, the loader's words
  std::string Note;    // something odd that does not change the outcome
  std::vector<MappedImage> Images; // the last complete list, in load order
  contract::Verdict Contract;      // over Images (empty if nothing loaded)
};

/// Classifies a run of the loader on Library and judges its images.
TryLoadVerdict judgeRun(const LoaderRun &Run, const std::string &Library,
                        const std::optional<std::string> &Call,
                        const contract::ContractSpec &Spec);

} // namespace linkguard::tryload
