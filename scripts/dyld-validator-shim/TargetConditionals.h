/* shim: dyld's mach_o/ library built on Linux, as macOS's dyld (not a cache builder, not the kernel) */
#pragma once
#define TARGET_OS_MAC 1
#define TARGET_OS_OSX 1
#define TARGET_OS_IPHONE 0
#define TARGET_OS_IOS 0
#define TARGET_OS_TV 0
#define TARGET_OS_WATCH 0
#define TARGET_OS_VISION 0
#define TARGET_OS_XR 0
#define TARGET_OS_BRIDGE 0
#define TARGET_OS_SIMULATOR 0
#define TARGET_OS_EXCLAVECORE 0
#define TARGET_OS_EXCLAVEKIT 0
#define TARGET_OS_DRIVERKIT 0
#define TARGET_OS_MACCATALYST 0
#define TARGET_OS_EMBEDDED 0
#define TARGET_CPU_ARM64 0
#define TARGET_CPU_X86_64 1
#define TARGET_CPU_X86 0
#define TARGET_CPU_ARM 0
#define TARGET_RT_64_BIT 1
#define TARGET_RT_LITTLE_ENDIAN 1
