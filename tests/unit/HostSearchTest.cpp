// driver/HostSearch.h: the fallback compiler search's host directories.
#include "driver/HostSearch.h"

#include "tests/unit/support/Catch.h"


using namespace linkguard::driver;

TEST_CASE("macOS hosts search Homebrew's bin directories after PATH") {
  const std::vector<std::string> &Dirs = hostCompilerDirs();
#ifdef __APPLE__
  REQUIRE(Dirs ==
          std::vector<std::string>{"/opt/homebrew/bin", "/usr/local/bin"});
#else
  CHECK(Dirs.empty());
#endif
}

TEST_CASE(
    "the fallback search path is PATH, then the host directories it lacks") {
  std::vector<std::string> Brew = {"/opt/homebrew/bin", "/usr/local/bin"};
  // launchd's PATH on macOS: neither Homebrew directory.
  CHECK(
      fallbackSearchPath(std::string("/usr/bin:/bin:/usr/sbin:/sbin"), Brew) ==
      "/usr/bin:/bin:/usr/sbin:/sbin:/opt/homebrew/bin:/usr/local/bin");
  // PATH order wins: nothing moves ahead of what the user chose.
  CHECK(fallbackSearchPath(std::string("/usr/local/bin:/usr/bin"), Brew) ==
        "/usr/local/bin:/usr/bin:/opt/homebrew/bin");
  CHECK(fallbackSearchPath(std::string("/x"), {}) == "/x");
  CHECK(fallbackSearchPath(std::nullopt, {}) == "/usr/local/bin:/usr/bin:/bin");
  CHECK(fallbackSearchPath(std::nullopt, Brew) ==
        "/usr/local/bin:/usr/bin:/bin:/opt/homebrew/bin");
  CHECK(fallbackSearchPath(std::string(""), Brew) ==
        "/opt/homebrew/bin:/usr/local/bin");
}
