//===- StableSort.h - a stable sort without std::get_temporary_buffer -*- C++ -*-===//
//
// std::stable_sort asks libstdc++ for a buffer through
// std::get_temporary_buffer, which C++17 deprecates: clang 19 over
// libstdc++ 12 warns at every call (-Wdeprecated-declarations, in
// bits/stl_tempbuf.h), and llvm::stable_sort is std::stable_sort. The
// same order here: std::sort over the positions, equal elements ordered by
// where they stood, then the elements moved into that order. O(n log n)
// comparisons, one vector of positions and one of elements.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <utility>
#include <vector>

namespace linkguard {

/// Sorts V by Less, keeping equal elements in the order they had (what
/// std::stable_sort does).
template <typename T, typename Compare>
void stableSort(std::vector<T> &V, Compare Less) {
  std::vector<size_t> Order(V.size());
  std::iota(Order.begin(), Order.end(), size_t{0});
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    if (Less(V[A], V[B]))
      return true;
    if (Less(V[B], V[A]))
      return false;
    return A < B;
  });
  std::vector<T> Sorted;
  Sorted.reserve(V.size());
  for (size_t I : Order)
    Sorted.push_back(std::move(V[I]));
  V = std::move(Sorted);
}

} // namespace linkguard
