// SPDX-License-Identifier: GPL-2.0
/*
 * rrwork: the workload rig/rr.sh records and replays with Debian's rr.
 * Its output depends on things a replay must reproduce rather than
 * recompute: the time, random bytes, the process ID, the interleaving of
 * two threads that race on a shared word without a lock, and the
 * iteration of the worker's loop at which an asynchronous signal
 * (SIGUSR1 from the other thread) lands. rr delivers such a signal at
 * the same retired conditional branch in the replay as in the
 * recording, by programming the PMU's branch counter to overflow there.
 *
 * Prints "rrwork: ..." lines and last "rrwork: checksum <hex>"; exits 0
 * when the signal was delivered and the pipe carried every byte.
 *
 * Usage: rrwork [ITERATIONS]
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

/*
 * Shared with the other thread or the signal handler, so every access is
 * a relaxed __atomic one: the compiler keeps each, and the race on
 * shared stays a race of the program, not undefined behaviour.
 */
static unsigned long shared;	/* raced on by both threads */
static unsigned long iter;	/* the worker's loop index */
static unsigned long sig_at;	/* iter when SIGUSR1 landed */
static int nsig;

#define LOAD(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define STORE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
static int pipefd[2];
static unsigned long nread;	/* bytes the worker read */
static unsigned long niter = 2000000;
static pthread_t worker_thread;

static void on_usr1(int sig)
{
	(void)sig;
	STORE(sig_at, LOAD(iter));
	STORE(nsig, LOAD(nsig) + 1);
}

static unsigned long mix(unsigned long h, unsigned long v)
{
	return (h ^ v) * 0x100000001b3UL;
}

static void *worker(void *arg)
{
	unsigned long i, h = 0xcbf29ce484222325UL;
	char c;

	(void)arg;
	for (i = 0; i < niter; i++) {
		STORE(iter, i);
		h = mix(h + i, LOAD(shared));
		STORE(shared, h >> 1);
		/* a syscall every so often: a read of the pipe */
		if (i % 100000 == 0) {
			if (read(pipefd[0], &c, 1) != 1)
				return (void *)0;
			nread++;
			h = mix(h, (unsigned char)c);
		}
	}
	return (void *)h;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	struct timespec ts;
	unsigned long seed, h, whash, i, nbytes = 0;
	void *ret;

	if (argc > 1)
		niter = strtoul(argv[1], NULL, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	if (pipe(pipefd))
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed = 1;
	h = mix(mix(mix(0, (unsigned long)ts.tv_nsec), seed), getpid());
	printf("rrwork: pid %d time %ld.%09ld random %016lx\n", getpid(),
	       (long)ts.tv_sec, ts.tv_nsec, seed);
	fflush(stdout);

	if (pthread_create(&worker_thread, NULL, worker, NULL))
		return 2;
	/* race the worker on the shared word, feed its pipe, signal it */
	for (i = 0; i < niter; i++) {
		STORE(shared, LOAD(shared) + i);
		if (i % 100000 == 0) {
			char c = (char)(h >> (i % 7));

			if (write(pipefd[1], &c, 1) == 1)
				nbytes++;
		}
		if (i == niter / 2)
			pthread_kill(worker_thread, SIGUSR1);
	}
	pthread_join(worker_thread, &ret);
	whash = (unsigned long)ret;
	h = mix(mix(mix(h, whash), LOAD(shared)), LOAD(sig_at));
	printf("rrwork: signals %d at iteration %lu, pipe bytes %lu/%lu, shared %016lx\n",
	       LOAD(nsig), LOAD(sig_at), nbytes, nread, LOAD(shared));
	printf("rrwork: checksum %016lx\n", h);
	return LOAD(nsig) == 1 && nread == nbytes &&
	       nbytes == (niter + 99999) / 100000 ? 0 : 1;
}
