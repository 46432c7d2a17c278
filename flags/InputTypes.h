//===- InputTypes.h - clang's input types, from its own Types.def -*- C++ -*-===//
//
// What an input of a given type becomes is clang's knowledge, not ours: the
// rows of libclang-19-dev's clang/Driver/Types.def list, for every type name,
// the phases its pipeline runs (types::getCompilationPhases). A header's
// pipeline ends at Precompile; an object's is Link alone. This file turns
// those rows into the few questions classification and the rules ask, so no
// hand-written list of type names can drift from clang.
//
// linkguard refines clang's "object" (what Driver::BuildInputs makes of any
// file whose extension it does not know) into "archive", "shared" and "tbd"
// because the rules care which libraries a link names; all three are linker
// inputs exactly as "object" is.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>

namespace linkguard::flags {

/// The pipeline ends at Precompile (c-header, c++-header, ...): -c on such
/// an input writes a precompiled header, and nothing of it is linked.
bool isHeaderType(llvm::StringRef Type);

/// The input goes to the linker as it is (object, and linkguard's archive,
/// shared and tbd refinements of it).
bool isLinkerInputType(llvm::StringRef Type);

/// The input is compiled before anything links it: a source in any language
/// clang knows (its pipeline has a Compile or Assemble phase and reaches
/// Link).
bool isSourceType(llvm::StringRef Type);

/// True when Types.def names the type at all (tests and -x validation).
bool isKnownType(llvm::StringRef Type);

/// clang's types::lookupTypeForExtension (clang/lib/Driver/Types.cpp, 19),
/// with Darwin's .s -> assembler-with-cpp (Darwin::LookupTypeForExtension).
/// What clang does not know is an object to it (Driver::BuildInputs);
/// linkguard names archives, shared libraries and .tbd stubs apart.
std::string typeForExtension(llvm::StringRef Path, bool DarwinTarget);

/// types::lookupCXXTypeForCType: clang++ reads C inputs as C++.
std::string cxxTypeForCType(const std::string &Type);

} // namespace linkguard::flags
