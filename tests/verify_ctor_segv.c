/*
 * A test library whose constructor segfaults while it is loaded, and which
 * exports no module__xdref_* leaf: `q7pred verify --preload` of it must
 * blame it, not the library loaded after it.
 */
#include <signal.h>

__attribute__((constructor)) static void crash_on_load(void) { raise(SIGSEGV); }

__attribute__((visibility("default"))) int q7_test_ctor_segv_marker;
