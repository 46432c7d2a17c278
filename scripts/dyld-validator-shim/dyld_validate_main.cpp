// dyld-validate: runs dyld's own Mach-O validation (mach_o::Header::valid, or
// mach_o::UnsafeHeader::valid from dyld-1376.6) on each slice of each FILE, as
// the loader calls it (dyld/JustInTimeLoader.cpp): only MH_EXECUTE, MH_DYLIB
// and MH_BUNDLE are validated ("unloadable mach-o file type" before it); the
// main executable only from dyld-1323.3 (makeLaunchLoader); a dylib or bundle
// marked MH_NO_DYNAMIC_ACCESS is refused before valid() from dyld-1323.3
// (makeJustInTimeLoaderDisk). Test-only: built by scripts/dyld-validator.
//
// Output, one line per slice, tab-separated:
//   FILE  SLICE  RELEASE  valid|refused|not-validated|not-macho  MESSAGE
#include <TargetConditionals.h>
#include <mach-o/fat.h>
#include <mach-o/loader.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <vector>
#if LG_UNSAFE_HEADER
#include "UnsafeHeader.h"
using LGHeader = mach_o::UnsafeHeader;
#else
#include "Header.h"
using LGHeader = mach_o::Header;
#endif

#ifndef LG_RELEASE
#error LG_RELEASE
#endif
#ifndef LG_DLOPEN_CHECK
#define LG_DLOPEN_CHECK 0
#endif
#ifndef LG_VALIDATES_MAIN
#define LG_VALIDATES_MAIN 0
#endif

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3]; }
static uint64_t be64(const uint8_t *p) { return (uint64_t)be32(p) << 32 | be32(p + 4); }

static std::string escape(const char *s) {
  std::string o;
  for (; *s; ++s) {
    unsigned char c = *s;
    if (c == '\t' || c == '\n' || c == '\\' || c < 0x20 || c >= 0x7f) {
      char b[8]; snprintf(b, sizeof b, "\\x%02X", c); o += b;
    } else o += (char)c;
  }
  return o;
}

static void judge(const char *path, const std::string &slice, const uint8_t *bytes, uint64_t size) {
  const char *R = LG_RELEASE;
  std::string P = escape(path);
  if (size < sizeof(mach_header)) { printf("%s\t%s\t%s\tnot-macho\ttoo small\n", P.c_str(), slice.c_str(), R); return; }
  uint32_t magic; memcpy(&magic, bytes, 4);
  if (magic != MH_MAGIC && magic != MH_MAGIC_64) { printf("%s\t%s\t%s\tnot-macho\tmagic\n", P.c_str(), slice.c_str(), R); return; }
  // An aligned private copy: the loader maps the slice page-aligned.
  void *copy = nullptr;
  if (posix_memalign(&copy, 16384, size ? size : 1)) abort();
  memcpy(copy, bytes, size);
  const LGHeader *hdr = (const LGHeader *)copy;
  const mach_header *mh = (const mach_header *)copy;
  uint32_t ft = mh->filetype;
  if (ft != MH_EXECUTE && ft != MH_DYLIB && ft != MH_BUNDLE) {
    printf("%s\t%s\t%s\tnot-validated\tunloadable mach-o file type %u\n", P.c_str(), slice.c_str(), R, ft);
  } else if (ft == MH_EXECUTE && !LG_VALIDATES_MAIN) {
    printf("%s\t%s\t%s\tnot-validated\tmain executable not validated\n", P.c_str(), slice.c_str(), R);
  } else {
    bool done = false;
#if LG_DLOPEN_CHECK
    if (ft != MH_EXECUTE && hdr->noDynamicAccess()) {
      printf("%s\t%s\t%s\trefused\tcannot dlopen() image marked for no dynamic access '%s'\n", P.c_str(), slice.c_str(), R, P.c_str());
      done = true;
    }
#endif
    if (!done) {
      mach_o::Error err = hdr->valid(size);
      if (err.hasError())
        printf("%s\t%s\t%s\trefused\t%s\n", P.c_str(), slice.c_str(), R, escape(err.message()).c_str());
      else
        printf("%s\t%s\t%s\tvalid\t\n", P.c_str(), slice.c_str(), R);
    }
  }
  free(copy);
}

static int one(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) { printf("%s\t-\t%s\tunreadable\t\n", escape(path).c_str(), LG_RELEASE); return 1; }
  std::vector<uint8_t> buf;
  uint8_t tmp[65536];
  size_t n;
  while ((n = fread(tmp, 1, sizeof tmp, f)) > 0) buf.insert(buf.end(), tmp, tmp + n);
  fclose(f);
  const uint8_t *b = buf.data();
  uint64_t size = buf.size();
  if (size >= 8 && (be32(b) == FAT_MAGIC || be32(b) == FAT_MAGIC_64)) {
    bool is64 = be32(b) == FAT_MAGIC_64;
    uint32_t count = be32(b + 4);
    uint64_t esz = is64 ? 32 : 20;
    if (count > 64 || 8 + count * esz > size) { printf("%s\t-\t%s\tnot-macho\tbad fat header\n", escape(path).c_str(), LG_RELEASE); return 0; }
    for (uint32_t i = 0; i < count; ++i) {
      const uint8_t *e = b + 8 + i * esz;
      uint64_t off = is64 ? be64(e + 8) : be32(e + 8);
      uint64_t sz = is64 ? be64(e + 16) : be32(e + 12);
      std::string slice = std::to_string(i);
      if (off > size || sz > size - off) { printf("%s\t%s\t%s\tnot-macho\tslice beyond file\n", escape(path).c_str(), slice.c_str(), LG_RELEASE); continue; }
      judge(path, slice, b + off, sz);
    }
    return 0;
  }
  judge(path, "-", b, size);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: %s FILE... | -  (paths on stdin)\n", argv[0]); return 2; }
  int rc = 0;
  if (argc == 2 && !strcmp(argv[1], "-")) {
    char line[8192];
    while (fgets(line, sizeof line, stdin)) { line[strcspn(line, "\n")] = 0; if (*line) rc |= one(line); }
  } else
    for (int i = 1; i < argc; ++i) rc |= one(argv[i]);
  return rc;
}
