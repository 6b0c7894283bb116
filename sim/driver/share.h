/* The simulator's sharing of the locality set-up's read-only data
 * (algorithms/coll_share.h). Under SMPI all simulated ranks live in one OS
 * process, and every rank would otherwise hold its own copy of the same
 * region tables and its own group for its region: at 32K ranks gigabytes
 * (docs/simulation-cost.md, "Memory"). Built into the SMPI driver only: under
 * a real MPI (collsim-mpibench) each process builds its own. */
#ifndef COLLSIM_SHARE_H
#define COLLSIM_SHARE_H

/* Installs the hooks (coll_share_set_hooks): identical tables are kept once,
 * reference-counted; one group per set of members is made by the first rank
 * to ask and kept to the end of the run. Every rank may call it: the hooks
 * are process-wide. Call before the locality set-up (coll_loc_file_init). */
void sim_share_install(void);

#endif
