# Homebrew formula for linkguard, built from a clone of this repository
# (HEAD only: there is no release tarball yet). Current Homebrew installs
# formulae only from taps, so packaging/homebrew/install puts this file into
# a local tap with the clone's path in place of @LINKGUARD_CLONE@ and runs
# `brew install --HEAD`; README.md, "macOS", has the steps by hand.
#
# Modelled on homebrew-core's formulae that build against LLVM
# (include-what-you-use: std_cmake_args, a formula-named LLVM). linkguard
# links LLVM's component archives, zstd's and libcrypto's archives and the header-only
# spdlog/fmt/toml++ statically (CMakeLists.txt, LINKGUARD_STATIC), so the
# installed binary needs only what macOS ships (libSystem, libc++, libz):
# every dependency is a build dependency, and `brew linkage linkguard`
# should list nothing from Homebrew.
class Linkguard < Formula
  desc "C/C++ compiler driver that adds link flags only where they belong, then proves them"
  homepage "file://@LINKGUARD_CLONE@/README.md" # no public page yet
  head "file://@LINKGUARD_CLONE@", using: :git

  depends_on "cmake" => :build
  depends_on "fmt" => :build
  depends_on "llvm@19" => :build
  depends_on "ninja" => :build
  depends_on "openssl@3" => :build
  depends_on "spdlog" => :build
  depends_on "tomlplusplus" => :build
  depends_on "zstd" => :build
  depends_on :macos

  uses_from_macos "zlib"

  def install
    args = %W[
      -DBUILD_TESTING=OFF
      -DLINKGUARD_STATIC=ON
      -DLLVM_DIR=#{Formula["llvm@19"].opt_lib}/cmake/llvm
      -DOPENSSL_ROOT_DIR=#{Formula["openssl@3"].opt_prefix}
    ]
    system "cmake", "-S", ".", "-B", "build", "-G", "Ninja", *args, *std_cmake_args
    system "cmake", "--build", "build"
    system "cmake", "--install", "build"
  end

  test do
    system bin/"linkguard", "--version"
    # The drop-ins, one pair per compiler family (builds read the family
    # from the name): all four installed, each linkguard itself.
    %w[linkguard-clang++ linkguard-clang linkguard-g++ linkguard-gcc].each do |name|
      assert_predicate bin/name, :executable?
      assert_equal (bin/"linkguard").realpath, (bin/name).realpath
    end

    # The plan for an MPS AOT link (explain runs nothing).
    plan = shell_output("#{bin}/linkguard explain -- clang++ -target arm64-apple-macos11 " \
                        "-DUSE_MPS -shared a.o b.o -o model.so")
    assert_match "-Wl,-dead_strip_dylibs", plan

    # A real link with Apple's clang and ld: two objects from separate
    # compile steps, -lomp against a stub whose install name is the one
    # PyTorch wheels bake, and no symbol from it in use.
    (testpath/"omp/libomp.tbd").write <<~TBD
      --- !tapi-tbd
      tbd-version:     4
      targets:         [ arm64-macos, x86_64-macos ]
      install-name:    '/opt/llvm-openmp/lib/libomp.dylib'
      current-version: 0
      exports:
        - targets:     [ arm64-macos, x86_64-macos ]
          symbols:     [ ___kmpc_barrier, _omp_get_max_threads ]
      ...
    TBD
    (testpath/"a.cpp").write "extern \"C\" int g(); extern \"C\" int f() { return g(); }\n"
    (testpath/"b.cpp").write "extern \"C\" int g() { return 1; }\n"
    cxx = "/usr/bin/clang++"
    %w[a b].each { |tu| system cxx, "-DUSE_MPS", "-fPIC", "-c", "#{tu}.cpp", "-o", "#{tu}.o" }
    link = %W[-DUSE_MPS -shared -undefined dynamic_lookup a.o b.o -L#{testpath}/omp -lomp]

    system cxx, *link, "-o", "plain.so"
    assert_match "/opt/llvm-openmp/lib/libomp.dylib", shell_output("otool -L plain.so")

    ENV["LINKGUARD_CXX"] = cxx
    system bin/"linkguard-clang++", *link, "-o", "model.so"
    deps = shell_output("#{bin}/linkguard inspect model.so")
    refute_match "libomp", deps
    assert_match "/usr/lib/libSystem.B.dylib", deps
    refute_match "libomp", shell_output("otool -L model.so")
  end
end
