/*===- TraceData.h - what linkguard-loader's seccomp filter tells linkguard -===*
 *
 * SECCOMP_RET_TRACE carries 16 bits of data to the tracer (seccomp(2):
 * PTRACE_GETEVENTMSG, PTRACE_GET_SYSCALL_INFO's ret_data). The loader's
 * filter (loader/Loader.c) and linkguard's tracer (tryload/Run.cpp) agree
 * on them here: C, included by both.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LINKGUARD_LOADER_TRACEDATA_H
#define LINKGUARD_LOADER_TRACEDATA_H

/* A mapping with code, or an mremap: linkguard reads what it maps. */
#define LINKGUARD_TRACE_MAPPING 0
/* clone with CLONE_UNTRACED: a thread or process linkguard would not
 * trace. linkguard makes the call fail (EPERM) and the run undecided. */
#define LINKGUARD_TRACE_UNTRACED 1

#endif
