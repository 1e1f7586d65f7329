// Sanitizers.h: NAVBENCH_RSS_MEANINGLESS is defined when this file is compiled with a sanitizer
// whose shadow memory and quarantine count in the process's RSS (ASan, MSan, TSan), under g++
// (__SANITIZE_*__) and clang (__has_feature). Peak-RSS limits hold for the plain builds only.
#pragma once

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define NAVBENCH_RSS_MEANINGLESS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || __has_feature(thread_sanitizer)
#define NAVBENCH_RSS_MEANINGLESS 1
#endif
#endif
