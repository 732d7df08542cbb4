/* ptera — a C runtime for ExecuTorch programs. Umbrella header.
 *
 * Threads. The library starts no thread of its own except a thread pool's
 * workers, and keeps no hidden global state beyond the registries:
 * - Registration (ptera_kernel_register*, ptera_backend_register) is not
 *   synchronised: register everything before the first program is loaded,
 *   from one thread. Registries are then only read, by any thread.
 * - A program (ptera_program) is shareable: once loaded and its data files
 *   attached, any number of threads may at the same time create methods from
 *   it and call its const queries (method count, names, info, inputs,
 *   outputs, operators, named data). Attaching data and destroying it need
 *   exclusive use, destroy after every method of it is destroyed. After a
 *   failed query, ptera_program_errmsg is meaningful only when no other
 *   thread is using the program.
 * - A method (ptera_method) is not shareable: one thread at a time may bind
 *   inputs, execute, read outputs or destroy it. Different methods (of one
 *   program or several) run concurrently on different threads.
 * - A thread pool (ptera_threadpool) may serve many methods and threads at
 *   once (ptera/threadpool.h); destroy it after the methods using it.
 * - A bundle (ptera_bundled) is a program for these rules; its
 *   set_inputs/verify touch only the method passed, so they follow it.
 * Hooks (allocators, read callbacks, instruction hooks, backends) are
 * called on the thread that called into the library, or on a pool worker
 * for a kernel's parallel loop, and must be thread-safe when shared. */
#ifndef PTERA_H
#define PTERA_H

#include "ptera/version.h" /* generated into the build (and install) tree */

#include "alloc.h"
#include "backend.h"
#include "bundled.h"
#include "inspect.h"
#include "kernel.h"
#include "method.h"
#include "npy.h"
#include "program.h"
#include "status.h"
#include "tensor.h"
#include "threadpool.h"

#endif
