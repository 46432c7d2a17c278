//===- Catch.h - Catch2 v2 or v3, whichever tests/CMakeLists.txt found -*- C++
//-*-===//
//
// Every unit test includes this, never a Catch2 header directly. v2 has one
// header and string matchers spelled Catch::Contains / Catch::StartsWith;
// v3 splits the headers and spells them Catch::Matchers::ContainsSubstring /
// StartsWith / EndsWith. The v2 spellings are provided on v3, so test bodies are the
// same on both. main() comes from main.cpp on v2, from Catch2WithMain on v3.
//
//===----------------------------------------------------------------------===//
#pragma once

#if LINKGUARD_CATCH2_MAJOR >= 3
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <string>

namespace Catch {
inline Matchers::StringContainsMatcher
Contains(const std::string &Str,
         CaseSensitive Sensitivity = CaseSensitive::Yes) {
  return Matchers::ContainsSubstring(Str, Sensitivity);
}
using Matchers::EndsWith;
using Matchers::StartsWith;
} // namespace Catch
#else
#include <catch2/catch.hpp>
#endif
