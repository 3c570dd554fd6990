/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The loaded-image child of q7pred prove (internal): this executable run
 * again as
 *   <exe> --q7pred-image-child PATH shift:BYTES|here [PRELOAD...]
 * loads PATH as the library children of verify and the probe load it
 * (util/lib_child.h: dlopen, RTLD_NOW | RTLD_GLOBAL, after libm and the
 * PRELOADs), and
 * answers the prover, which reads the rest from outside the process
 * (/proc/PID/mem, maps, status, task, timers, fd), so a library that
 * rewrote this process while loading cannot make it lie about its memory.
 * "shift:BYTES" takes the place a mapping of the library's size (BYTES)
 * would get first, so a second load lands at another base even where
 * addresses are not randomized. The child is the
 * subreaper of what loading starts, so an orphaned daemon shows as its
 * child.
 *
 * Protocol, one line each way (names and messages hex-encoded):
 *   child:  hello PID / before MXCSR X87CW AC         (before loading)
 *   parent: load
 *   child:  error HEXMSG (and exits), or
 *           loaded BASE HEXNAME / after MXCSR X87CW AC / itimers R V P /
 *           stack BYTES OK (OK 1 where BYTES of stack below the child's
 *           frame could be touched after loading, in a copy of it, else 0)
 *   parent: sym HEXNAME HEXVERSION  child: sym DEFAULT HANDLE HEXOBJECT OTHERS
 *           (dlvsym/dlsym with RTLD_DEFAULT and with the handle, 0: none;
 *           the object of the first; OTHERS the loaded objects besides the
 *           library that define the name themselves, hex names joined by
 *           commas, "-" for none)
 *   parent: mem LO LEN               child: mem LEN, then LEN raw bytes
 *           (the fallback where /proc/PID/mem cannot be read)
 *   parent: fork                     child: forked PID (a child that waits
 *           to be killed: what fork handlers left in it is read from outside)
 *   parent: reap PID                 child: reaped
 *   parent: quit, or end of file:    the child exits.
 * The library's own output goes to stderr; its stdin is /dev/null.
 */
#ifndef Q7_PROBE_IMAGE_CHILD_H
#define Q7_PROBE_IMAGE_CHILD_H

#define Q7P_IMAGE_CHILD_ARG "--q7pred-image-child"

int q7p_image_child_main(int argc, char **argv);

#endif
