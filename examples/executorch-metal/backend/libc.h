// The few C library and loader calls the example makes, declared here so
// it builds against a bare SDK of .tbd stubs (no C headers) when
// cross-linked for macOS, and against glibc alike. The values are the
// same on both: SEEK_SET 0, SEEK_END 2, RTLD_NOW 2.
#pragma once
extern "C" {
typedef struct example_file FILE_;
FILE_ *fopen(const char *path, const char *mode);
unsigned long fread(void *buf, unsigned long size, unsigned long n, FILE_ *f);
int fclose(FILE_ *f);
int fseek(FILE_ *f, long offset, int whence);
long ftell(FILE_ *f);
int printf(const char *fmt, ...);
void *malloc(unsigned long n);
void free(void *p);
long atol(const char *s);
int mkstemp(char *templ);
long write(int fd, const void *buf, unsigned long n);
int close(int fd);
int unlink(const char *path);
void *dlopen(const char *path, int mode);
void *dlsym(void *handle, const char *symbol);
char *dlerror(void);
}
enum { EXAMPLE_SEEK_SET = 0, EXAMPLE_SEEK_END = 2, EXAMPLE_RTLD_NOW = 2 };
