//===- OptionRows.h - tables of rows sorted by clang option id --*- C++ -*-===//
//
// What linkguard knows about clang's options is kept as tables of rows
// sorted by option id (OptionEffects.cpp, config/RefusedFlags.cpp), the way
// ccache keeps compopt.cpp: a static_assert checks the order at compile
// time, and lookups are a binary search.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>

namespace linkguard::flags {

/// Whether Rows are sorted by their Id, each Id once.
template <class Row, size_t N>
constexpr bool sortedById(const Row (&Rows)[N]) {
  for (size_t I = 1; I < N; ++I)
    if (!(Rows[I - 1].Id < Rows[I].Id))
      return false;
  return true;
}

/// The row for Id in Rows (sorted by Id), or null.
template <class Row, size_t N>
const Row *rowById(const Row (&Rows)[N], unsigned Id) {
  const Row *It =
      std::lower_bound(std::begin(Rows), std::end(Rows), Id,
                       [](const Row &R, unsigned V) { return R.Id < V; });
  return It != std::end(Rows) && It->Id == Id ? It : nullptr;
}

} // namespace linkguard::flags
