// ExecuTorch's Metal backend runtime, reduced to what the example needs:
// the model library's bytes written to a temporary file, dlopen, dlsym of
// the AOTI entry point, a call. Nothing here calls OpenMP.
#include "metal_backend.h"

#include "libc.h"

extern "C" int et_metal_run(const char *pte, long offset) {
  FILE_ *in = fopen(pte, "rb");
  if (!in)
    return 2;
  fseek(in, 0, EXAMPLE_SEEK_END);
  long size = ftell(in) - offset;
  if (size <= 0) {
    fclose(in);
    return 2;
  }
  char *bytes = (char *)malloc((unsigned long)size);
  fseek(in, offset, EXAMPLE_SEEK_SET);
  unsigned long got = fread(bytes, 1, (unsigned long)size, in);
  fclose(in);
  char path[] = "/tmp/et_metal_so_blob_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0 || got != (unsigned long)size || write(fd, bytes, (unsigned long)size) != size) {
    free(bytes);
    return 3;
  }
  close(fd);
  free(bytes);
  void *handle = dlopen(path, EXAMPLE_RTLD_NOW);
  unlink(path);
  if (!handle) {
    printf("dlopen: %s\n", dlerror());
    return 4;
  }
  typedef int (*Run)(float *);
  Run run = (Run)dlsym(handle, "AOTInductorModelContainerRun");
  float out = 0;
  if (!run || run(&out) != 0)
    return 5;
  printf("model output %d\n", (int)out);
  return out == 10.0f ? 0 : 6;
}
