// SPDX-License-Identifier: GPL-2.0
/*
 * runas UID PROGRAM [ARGS...]: run PROGRAM as user and group UID with no
 * supplementary groups. The guest has no /etc/passwd, so busybox's su and
 * chpst cannot name the unprivileged user trinity runs as (make fuzz,
 * rig/guest/trinity.sh); this takes the number.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uid_t id;

	if (argc < 3) {
		fprintf(stderr, "usage: runas UID PROGRAM [ARGS...]\n");
		return 2;
	}
	id = strtoul(argv[1], NULL, 10);
	if (setgroups(0, NULL) || setgid(id) || setuid(id)) {
		perror("runas");
		return 1;
	}
	execv(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
