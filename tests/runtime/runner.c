/* runner.c - load a model shared library the way a deployment does.
 *
 * Usage: runner MODEL.so ENTRY
 *
 * dlopen()s MODEL.so (RTLD_NOW: every NEEDED must load now, as for
 * torch._export.aot_load / AOTIModelContainerRunner), calls
 *   int ENTRY(void *handle, float *out)
 * (the shape of AOTInductorModelContainerRun), and prints
 *   result=<out>
 *   threads=<n>            when the model exports int model_threads(void)
 *   openmp_mapped=no       or  openmp_mapped=yes <path>
 * where the last line says whether any mapping of this process
 * (/proc/self/maps) is an OpenMP runtime (libomp, libgomp, libiomp5).
 * The runner itself neither links nor preloads OpenMP: only the model can
 * bring one in. A model that fails to load prints "dlopen: <dlerror()>" and
 * exits 2 (glibc: "...: cannot open shared object file: No such file or
 * directory", the Linux form of dyld's "Library not loaded").
 *
 * Built by tests/e2e/runtime_proof.bash with plain `cc runner.c -ldl`.
 *
 * macOS (tests/e2e/apple_host.bash, `xcrun clang runner.c`): the loaded
 * images come from dyld (_dyld_image_count / _dyld_get_image_name) instead
 * of /proc/self/maps, and the runner defines aoti_torch_mps_set_arg, which
 * an MPS model resolves by dynamic lookup (-undefined dynamic_lookup) from
 * the process that loads it, as libtorch would.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static int isOpenmpFile(const char *Path) {
  const char *File = strrchr(Path, '/');
  File = File ? File + 1 : Path;
  return strncmp(File, "libomp", 6) == 0 || strncmp(File, "libgomp", 7) == 0 ||
         strncmp(File, "libiomp5", 8) == 0;
}

#ifdef __APPLE__
#include <mach-o/dyld.h>

int aoti_torch_mps_set_arg(void *Handle, int Index, void *Tensor) {
  (void)Handle;
  (void)Index;
  (void)Tensor;
  return 0;
}

/* Prints the openmp_mapped line from dyld's image list; returns 0. */
static int reportOpenmp(void) {
  for (uint32_t I = 0, N = _dyld_image_count(); I < N; ++I) {
    const char *Name = _dyld_get_image_name(I);
    if (Name && isOpenmpFile(Name)) {
      printf("openmp_mapped=yes %s\n", Name);
      return 0;
    }
  }
  printf("openmp_mapped=no\n");
  return 0;
}
#else
static const char *openmpMapping(char *Line, size_t Size, FILE *Maps) {
  while (fgets(Line, (int)Size, Maps)) {
    const char *Path = strchr(Line, '/');
    if (!Path)
      continue;
    if (isOpenmpFile(Path)) {
      Line[strcspn(Line, "\n")] = '\0';
      return Path;
    }
  }
  return NULL;
}

static int reportOpenmp(void) {
  char Line[4096];
  FILE *Maps = fopen("/proc/self/maps", "r");
  if (!Maps) {
    printf("openmp_mapped=unknown\n");
    return 4;
  }
  const char *Path = openmpMapping(Line, sizeof Line, Maps);
  if (Path)
    printf("openmp_mapped=yes %s\n", Path);
  else
    printf("openmp_mapped=no\n");
  fclose(Maps);
  return 0;
}
#endif

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: runner MODEL.so ENTRY\n");
    return 64;
  }
  void *Model = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!Model) {
    printf("dlopen: %s\n", dlerror());
    return 2;
  }
  int (*Entry)(void *, float *) = (int (*)(void *, float *))dlsym(Model, argv[2]);
  if (!Entry) {
    printf("dlsym: %s\n", dlerror());
    return 3;
  }
  float Out = 0;
  int Status = Entry(NULL, &Out);
  printf("result=%g\n", Out);
  int (*Threads)(void) = (int (*)(void))dlsym(Model, "model_threads");
  if (Threads)
    printf("threads=%d\n", Threads());

  int Report = reportOpenmp();
  if (Report != 0)
    return Report;
  return Status == 0 ? 0 : 5;
}
