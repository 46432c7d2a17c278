// executor_runner MODEL.pte OFFSET: runs the model library a .pte carries
// through the Metal backend. (A real runner finds the named data through
// the program's flatbuffer; the example's .pte writer prints the offset.)
#include "libc.h"
#include "metal_backend.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    printf("usage: executor_runner MODEL.pte OFFSET\n");
    return 64;
  }
  return et_metal_run(argv[1], atol(argv[2]));
}
