// Catch2's main for every tests/unit/<Module>Test.cpp: defined here on v2;
// on v3 it comes from Catch2::Catch2WithMain (tests/CMakeLists.txt).
#if LINKGUARD_CATCH2_MAJOR < 3
#define CATCH_CONFIG_MAIN
#include "tests/unit/support/Catch.h"
#endif
