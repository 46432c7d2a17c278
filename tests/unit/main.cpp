// Catch2 v2 runner for every tests/unit/<Module>Test.cpp.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
