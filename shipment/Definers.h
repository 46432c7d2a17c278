//===- Definers.h - one definer per symbol in each load closure -*- C++ -*-===//
//
// Two shipped images of one closure that both export a strong definition
// of one name are two copies of what that name stands for: two
// registries, two thread pools, two copies of a static counter (the
// loaders bind every reference to the first in load order, and each
// image's own code may still use its own). ExecuTorch's wheel gate
// (.ci/scripts/wheel/test_shared_libraries.py) checks named sentinel
// symbols across a wheel; this checks every exported name, closure by
// closure, as the resolvers (LdSo.cpp, Dyld.cpp) load them.
//
// What counts is objlib's Slice::Exports (objlib/Exports.cpp: strong,
// default or protected visibility, no re-export); not counted here: the
// names the static linker itself defines in every image (ReservedNames),
// and what is no shipped image (system libraries, --provided ones: the
// closure never names them as an image). Pure over the closure's data;
// bounded by the exports read (each root's images once; a root whose
// images and slices equal an earlier root's is not walked again).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "shipment/Closure.h"
#include "shipment/Shipment.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace linkguard::shipment {

/// Names a static linker defines in every image it links, never one
/// library's state, each row with its source.
struct ReservedName {
  const char *Name;
  const char *Source;
};
llvm::ArrayRef<ReservedName> reservedNames();
bool isReservedName(llvm::StringRef Name);

/// Two images of one closure exporting the same strong names.
struct DuplicateDefinitions {
  size_t Root = 0;       // the first root whose closure holds both
  size_t First = 0;      // the image loaded first (whose definitions bind)
  size_t Second = 0;     // the other one
  std::string Slice;     // the architecture of the closure
  std::vector<std::string> Symbols; // every name both define, sorted
};

/// An image of a closure whose exports could not be read, so that closure
/// cannot be said to have one definer per symbol (undecided).
struct UnreadableExports {
  size_t Root = 0, Image = 0;
  std::string Slice, Why;
};

struct Definers {
  std::vector<DuplicateDefinitions> Duplicates; // one per pair and slice
  std::vector<UnreadableExports> Unreadable;    // one per image and slice
};

/// Every pair of images of one root's closure defining a name twice.
/// Needs a shipment read with objlib::ReadOptions::Exports (every name);
/// an image whose exports were not read is Unreadable.
Definers findDuplicateDefinitions(const Shipment &S, const Closure &C);

} // namespace linkguard::shipment
