// The backend's runtime side, as ExecuTorch's metal_backend.cpp does it:
// the compiled model library is named data inside the .pte; the runtime
// writes those bytes to a temporary file and dlopens it.
#pragma once
#ifdef __cplusplus
extern "C" {
#endif
/// Loads the model library stored in the .pte at PTE from byte OFFSET to
/// the end, and runs its entry point. 0 on success.
int et_metal_run(const char *pte, long offset);
#ifdef __cplusplus
}
#endif
