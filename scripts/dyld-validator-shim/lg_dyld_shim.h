/* shim: force-included into every dyld source: what glibc/cctools lack */
#pragma once
#include <stddef.h>
#include <string.h>
#include <uuid/uuid.h>
#ifdef __cplusplus
extern "C" {
#endif
size_t lg_strlcpy(char *, const char *, size_t);
size_t lg_strlcat(char *, const char *, size_t);
#ifdef __cplusplus
}
#endif
#define strlcpy lg_strlcpy
#define strlcat lg_strlcat
#ifndef CPU_SUBTYPE_ARM64_32_ALL
#define CPU_SUBTYPE_ARM64_32_ALL 0
#endif
#ifndef CPU_SUBTYPE_ARM64_32_V8
#define CPU_SUBTYPE_ARM64_32_V8 1
#endif
#ifndef CPU_SUBTYPE_ARM64_PTR_AUTH_VERSION
#define CPU_SUBTYPE_ARM64_PTR_AUTH_VERSION(x) (((x) & 0x0f000000) >> 24)
#endif
typedef char uuid_string_t[37];
#include <stdio.h>
/* CrashReporterClient: common/Array.h logs a failed allocation through it */
#define CRSetCrashLogMessage(s) fputs((s), stderr)
#ifndef CPU_SUBTYPE_X86_ALL
#define CPU_SUBTYPE_X86_ALL 3
#endif
