//===- Advice.h - the fix each finding names --------------------*- C++ -*-===//
//
// Every finding carries its fix (issue 35 item 3): what the user changes so
// that the finding goes away, in words that fit where the image came from.
// A file a link wrote is mended on its link line (-Wl,-dead_strip_dylibs,
// -Wl,-rpath,@loader_path/..); a member of a PyTorch export (.pt2) is
// mended by exporting again (under linkguard.inductor.use()), which is the
// link a PyTorch user can change; a library a process mapped (try-load) is
// mended in the image that loads it.
//
// The advice is data: one table keyed by the rule a finding names (its
// first word: forbid, forbid-unreferenced, require, unused, portable,
// install-name, dyld, unique), and for a portable finding one keyed by the
// dependency's placement (non-portable, unresolved, unknown: the placements
// and closure outcomes that make a finding). A finding whose rule or
// placement has no row gets no invented fix; tests/unit/AdviceTest.cpp
// enumerates every rule the schema names and every placement and outcome
// enumerator, so a new one cannot be added without its row.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "contract/Contract.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace linkguard::contract {

/// Where the judged image came from: who can change it, and how.
enum class Origin {
  Link,          // a file a link wrote (or any plain file): its link line
  PyTorchExport, // a member of a PyTorch export (.pt2): export again
  Process,       // an image a process mapped (try-load): what loads it
  Last = Process,
};

struct AdviceContext {
  objlib::Format Fmt = objlib::Format::ELF;
  /// The link flag that drops a dependency no symbol binds to
  /// (ContractSpec::DropFlag); empty: none is named.
  std::string DropFlag;
  Origin From = Origin::Link;
  /// --executable was given (a portable finding that needs the main
  /// program is then about something else).
  bool ExecutableGiven = false;
};

/// The fix for F, or empty when its rule (or, for a portable finding, its
/// placement) has no row: a defect the unit test catches.
std::string adviceFor(const Finding &F, const AdviceContext &C);

/// adviceFor, or for a finding without a row a sentence saying so (never
/// empty).
std::string adviceText(const Finding &F, const AdviceContext &C);

/// Sets every finding's Advice from the tables (what was there before is
/// replaced: the context decides). A finding without a row keeps a
/// sentence saying so, never an empty field.
void advise(Verdict &V, const AdviceContext &C);

/// The rule words the table knows (the first word of Finding::Rule).
std::vector<llvm::StringRef> advisedRules();

/// The placements (contract::placementName, shipment::outcomeName) the
/// portable table knows: those a finding can have.
std::vector<llvm::StringRef> advisedPlacements();

/// The placements and outcomes no finding is made of (system, shipped,
/// provided): the test's complement of advisedPlacements().
bool placementIsFine(llvm::StringRef Placement);

/// PyTorch's own libraries (libtorch*, libc10*): provided by the torch
/// process that loads a .pt2, so a PyTorch export's check counts them as
/// provided (docs/check.md).
const std::vector<Pattern> &pytorchProvided();

} // namespace linkguard::contract
