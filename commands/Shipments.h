//===- Shipments.h - trees for check and inspect: closure records -*- C++ -*-===//
//
// check and inspect take a tree (a directory, an .app, a wheel or other
// zip) and judge or print its load closure (shipment/). The records here
// are what both print, text and JSON through commands/Printer.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "commands/Inputs.h"

#include "config/RulesFile.h"
#include "contract/Contract.h"
#include "shipment/Closure.h"
#include "shipment/Definers.h"
#include "shipment/Shipment.h"

#include "llvm/Support/JSON.h"

#include <memory>

namespace linkguard::commands {

/// A tree input: a directory; a zip archive too when Zip.
bool isTreeInput(const std::string &Path, bool Zip);

/// The shipment Path stands for (a directory, a zip, or with File a single
/// file looked up in Root, "" = its directory). Failures of single files
/// are printed (one line each) and passed to OnFailure; a shipment that
/// cannot be opened is one failure and nullptr. Opts: a zip's limits and
/// --scan (a directory then lists every other file as a container);
/// SkipPrefix: not the binary in front of a zip (a tree judges that file).
std::unique_ptr<shipment::Shipment>
openShipment(const std::string &Path, const std::string &Root, const objlib::ReadOptions &Read,
             llvm::function_ref<void(const InputFailure &)> OnFailure,
             const package::ContainerOptions &Opts = {}, bool SkipPrefix = false);

/// {"slice", "dependency", "kind", "placement", "resolvedPath", "via",
/// "reason", "root", "file", "allowed"}: one resolved dependency.
llvm::json::Object edgeRecord(const shipment::Shipment &S, const shipment::Closure &C,
                              const shipment::Edge &E);

/// The message of a finding about edge E ("LC_LOAD_DYLIB NAME (arch) ...").
/// Appends [roots] paths of the linkguard.toml in force (the wrapper's
/// search: LINKGUARD_CONFIG, the project's, the user's) to Roots, and its
/// [[allow]] tables to Allow when given (check); the file's fault when it
/// cannot be used.
std::optional<std::string> configuredRoots(std::vector<std::string> &Roots,
                                           std::vector<config::AllowSpec> *Allow = nullptr);

/// The --root patterns ([roots]) that name no image of S, and what S's
/// package loader does that cannot be judged (a .pt2 model compiled at
/// load time): each said on stderr; their count (each undecided, 92).
size_t undecidedRoots(const std::string &Path, const shipment::Shipment &S,
                      const shipment::ClosureOptions &CO);

std::string edgeMessage(const shipment::Shipment &S, const shipment::Closure &C,
                        const shipment::Edge &E);
std::string conflictMessage(const shipment::Shipment &S, const shipment::Closure &C,
                            const shipment::Conflict &K);

/// check --portable's rule one-definer (shipment/Definers.h): a finding
/// per pair of images and slice, for image Second ("" slice for a
/// single-slice file; OnSecond false: for another image, the root, whose
/// message then names Second too), naming the symbols (the first MaxListed in the
/// message, the first 64 in Symbols) and the root whose closure holds both.
contract::Finding definerFinding(const shipment::Shipment &S, const shipment::Closure &C,
                                 const shipment::DuplicateDefinitions &D,
                                 const std::string &Slice, bool OnSecond = true);
/// An image whose exports could not be read: unknown (undecided).
contract::Finding unreadableExportsFinding(const shipment::Shipment &S,
                                           const shipment::Closure &C,
                                           const shipment::UnreadableExports &U,
                                           const std::string &Slice);
/// --unique GROUP: a library of a closure whose exports could not be read,
/// where it would be the second runtime (shipment::UnreadableMember):
/// unknown (undecided), on the closure's root.
contract::Finding unreadableMemberFinding(const shipment::Shipment &S,
                                          const shipment::Closure &C,
                                          const shipment::UnreadableMember &U,
                                          const std::string &Slice);

/// inspect --tree: one record per root, dependencies nested; with Why
/// (--why) each dependency's "tried" and "triedNotListed" (putTried).
llvm::json::Object rootRecord(const shipment::Shipment &S, const shipment::Closure &C,
                              size_t RootIndex, bool Why = false);
/// Its text, lddtree's layout.
void printRootRecord(llvm::raw_ostream &OS, const llvm::json::Object &R);

/// "container" for an image of a zip shipment, as inspect and check print it.
llvm::json::Value shipmentContainer(const shipment::Shipment &S, size_t Image);

} // namespace linkguard::commands
