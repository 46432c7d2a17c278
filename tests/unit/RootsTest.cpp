// shipment/Roots: CPython's extension suffixes, a wheel's members where pip
// installs them, a .pt2's where AOTIModelPackageLoader extracts them
// (issue 37 part 4; the e2e suite roots.bash judges real files).
#include "shipment/Roots.h"

#include "tests/unit/support/Catch.h"

using namespace linkguard;
using namespace linkguard::shipment;

namespace {

std::vector<package::ZipEntry> entries(std::initializer_list<const char *> Names) {
  std::vector<package::ZipEntry> Out;
  for (const char *N : Names) {
    package::ZipEntry E;
    E.Name = N;
    Out.push_back(E);
  }
  return Out;
}

} // namespace

TEST_CASE("extension suffixes: the tagged ones by name, a plain .so by its module name") {
  CHECK(hasTaggedExtensionSuffix("_e.cpython-311-x86_64-linux-gnu.so"));
  CHECK(hasTaggedExtensionSuffix("_e.cpython-313t-aarch64-linux-gnu.so"));
  CHECK(hasTaggedExtensionSuffix("_e.cpython-311-darwin.so"));
  CHECK(hasTaggedExtensionSuffix("_e.abi3.so"));
  CHECK_FALSE(hasTaggedExtensionSuffix(".abi3.so"));
  CHECK_FALSE(hasTaggedExtensionSuffix("libfoo.so"));
  CHECK_FALSE(hasTaggedExtensionSuffix("libomp.so.5"));
  CHECK_FALSE(hasTaggedExtensionSuffix("x.cpython-311-darwin.dylib"));
  CHECK(plainExtensionModuleName("fast.so") == "fast");
  CHECK(plainExtensionModuleName("libomp.so.5").empty());
  CHECK(plainExtensionModuleName("a.b.so").empty());
}

TEST_CASE("a wheel's members where pip installs them") {
  ArchiveLayout L = ArchiveLayout::of(
      "dist/pkg-1.0-cp311-cp311-linux_x86_64.whl",
      entries({"pkg/__init__.py", "pkg-1.0.dist-info/WHEEL", "pkg-1.0.data/scripts/tool"}));
  CHECK(L.kind() == ArchiveLayout::Kind::Wheel);
  CHECK(L.place("pkg-1.0.data/scripts/tool").Rel == "bin/tool");
  CHECK(L.place("pkg-1.0.data/platlib/pkg/_e.so").Rel == "lib/python3.11/site-packages/pkg/_e.so");
  CHECK(L.place("pkg-1.0.data/purelib/pkg/x.so").Rel == "lib/python3.11/site-packages/pkg/x.so");
  CHECK(L.place("pkg-1.0.data/data/lib/libt.so").Rel == "lib/libt.so");
  CHECK(L.place("pkg.libs/libx.so").Rel == "lib/python3.11/site-packages/pkg.libs/libx.so");
  CHECK_FALSE(L.place("pkg-1.0.data/bogus/x.so").Present);
  // abi3: any CPython from 3.8 on, so no one site-packages.
  CHECK(ArchiveLayout::of("pkg-1.0-cp38-abi3-linux_x86_64.whl", entries({"a"})).place("a").Rel ==
        "lib/python/site-packages/a");
}

TEST_CASE("a .pt2's members where the package loader extracts them") {
  ArchiveLayout L = ArchiveLayout::of(
      "m.pt2", entries({"m/archive_format", "m/archive_version", "m/data/lib/libdep.so",
                        "m/data/aotinductor/model/libdep.so", "m/data/aotinductor/model/model.so",
                        "m/data/aotinductor/model/model.cpp", "m/data/aotinductor/model2/b.so",
                        "m/data/constants/c.bin"}));
  CHECK(L.kind() == ArchiveLayout::Kind::Pt2);
  CHECK_FALSE(L.place("m/data/lib/libdep.so").Present);
  CHECK(L.place("m/data/aotinductor/model/libdep.so").Present);
  CHECK_FALSE(L.place("m/data/aotinductor/model/libdep.so").ModelLibrary);
  // model_directory is a string prefix: "…/model" also extracts
  // "…/model2/", whose b.so is then the last .so for model "model".
  CHECK(L.place("m/data/aotinductor/model2/b.so").ModelLibrary);
  CHECK(L.place("m/data/constants/c.bin").Rel == "m/data/aotinductor/model/c.bin");
  CHECK(L.undecided().empty());
  // A .so among the constants, last: the loader takes it for the model.
  ArchiveLayout K = ArchiveLayout::of(
      "k.pt2", entries({"k/archive_format", "k/archive_version", "k/data/aotinductor/model/model.so",
                        "k/data/constants/c.so"}));
  CHECK(K.place("k/data/constants/c.so").ModelLibrary);
  CHECK_FALSE(K.place("k/data/aotinductor/model/model.so").ModelLibrary);
  ArchiveLayout C = ArchiveLayout::of(
      "c.pt2", entries({"c/archive_format", "c/archive_version",
                        "c/data/aotinductor/model/model.wrapper.cpp"}));
  CHECK(C.undecided().size() == 1);
  // One record: the loader's prefix test reads a second one.
  ArchiveLayout One = ArchiveLayout::of("o.pt2", entries({"o/data/aotinductor/model/m.so"}));
  CHECK(One.undecided().size() == 1);
  CHECK(One.place("o/data/aotinductor/model/m.so").Present);
}
