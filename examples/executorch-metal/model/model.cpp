// An AOTI-shaped model library (what AotiBackend.preprocess stores as
// "forward_so_blob"): the entry point the runtime calls, a kernel whose
// work runs on the GPU, so the host side never calls OpenMP; and a
// self-test for `linkguard try-load --call`.
extern "C" float model_kernel(const float *in, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += in[i];
  return s;
}
static const float model_constants[4] = {1.0f, 2.0f, 3.0f, 4.0f};
extern "C" int AOTInductorModelContainerRun(float *out) {
  *out = model_kernel(model_constants, 4);
  return 0;
}
extern "C" int model_selftest(void) { return model_kernel(model_constants, 4) == 10.0f ? 0 : 1; }
