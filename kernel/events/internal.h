/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Index of the private headers of kernel/events/.  This file declares
 * nothing and includes nothing: a .c file includes the headers of the
 * concerns it uses, so its #include lines say what it depends on.
 * Documentation/perf_events/design.rst has the table of the .c files.
 *
 *  context.h    contexts: lifetime, references, pins, locking (context.c)
 *  groups.h     the group index (groups.c)
 *  sched.h      events on and off the PMUs, context switches (sched.c)
 *  rotate.h     multiplexing (rotate.c)
 *  pmu_cpu.h    a PMU's state on one CPU (rotate.c, exclusive.c)
 *  exclusive.h  exclusive PMUs and exclusive groups (exclusive.c)
 *  swap.h       swapping cloned contexts (swap.c)
 *  remote.h     running a function in an event's context (remote.c)
 *  time.h       context and event times (time.c)
 *  event.h      event allocation, sizes, references, ids (event.c)
 *  control.h    install/remove, enable/disable, reset (control.c)
 *  read.h       bringing counts up to date, inherited copies (read.c)
 *  pmu.h        the PMU registry (pmu.c)
 *  scope.h      PMUs with a scope (scope.c)
 *  syscall.h    perf_event_open()'s attr (syscall.c)
 *  file.h       the event file (file.c)
 *  swevent.h    the software PMUs (swevent.c)
 *  tracepoint.h the tracepoint PMUs (tracepoint.c)
 *  overflow.h   overflows, throttling, frequency mode (overflow.c)
 *  wakeup.h     waking readers, deferred work (wakeup.c)
 *  sample.h     samples (sample.c, sample_id.c, sample_addr.c)
 *  rb.h         the ring buffer (rb_buffer.c, rb_output.c, rb_mmap.c)
 *  sideband.h   side-band records (sb_walk.c, sb_mmap.c, sb_kernel.c)
 *  cgroup.h     cgroup events, with stubs without CONFIG_CGROUP_PERF
 *  bpf.h        BPF programs on events, with stubs without
 *               CONFIG_BPF_SYSCALL
 *  sysctl.h     the sysctl knobs other files read (sysctl.c)
 *  (debugfs.c, the CPU contexts in debugfs, declares nothing)
 *  hw_breakpoint.h breakpoint slots (hw_breakpoint*.c)
 *  uprobes/internal.h the uprobes engine (uprobes/*.c)
 *
 * The KUnit tests and the test PMU are in tests/.
 */
