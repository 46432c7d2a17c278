//===- EnumNames.h - an enum's printed names, in one list -------*- C++ -*-===//
//
// linkguard prints its enums by name (phases, option effects, placements,
// outcomes, ...), and the names are part of its output: JSON, explain and
// the docs. Each name function lists its names in the enum's declaration
// order,
//
//   const char *modeName(Mode M) {
//     return enumName(M, {"default", "off", "inject", "verify", "enforce"});
//   }
//
// and enumName checks at compile time that the list has one name for each
// enumerator up to E::Last, the alias every such enum ends with: a new
// enumerator before Last fails to compile until its name is added. (One
// added after Last goes unseen, so Last stays the last line of the enum.)
// This replaces one switch per enum, whose cases repeated the enumerators
// and whose fallback return was dead code. Header only: every room may use
// it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>

namespace linkguard {

/// The name of V from Names, E's names in declaration order. E's
/// enumerators count from 0 without gaps, and E::Last is the last one.
template <class E, size_t N>
constexpr const char *enumName(E V, const char *const (&Names)[N]) {
  static_assert(N == static_cast<size_t>(E::Last) + 1,
                "one name for each enumerator, in declaration order");
  return Names[static_cast<size_t>(V)];
}

} // namespace linkguard
