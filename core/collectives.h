/* The descriptor of each collective (collectives.def) as data, and the words
 * of its columns as values. Plain C, no MPI: every layer includes it (the
 * algorithms' prototypes, the host, the driver, the real-MPI library). */
#ifndef COLLSIM_CORE_COLLECTIVES_H
#define COLLSIM_CORE_COLLECTIVES_H

#include "signatures.h"

/* The signature kinds (collectives.def, sig; signatures.h): CS_SIG_block, ... */
typedef enum {
#define CS_SIG_ENUM(kind) CS_SIG_##kind,
    CS_SIGNATURES(CS_SIG_ENUM)
#undef CS_SIG_ENUM
    CS_NSIG
} cs_sig;

/* The columns' words as values: a word not listed fails to compile. */
#define CS_SEND_one 0
#define CS_SEND_per_rank 1
#define CS_ROOT_none 0
#define CS_ROOT_to 1
#define CS_ROOT_from 2
#define CS_ROOT_one_from 3
#define CS_IN_PLACE_no 0
#define CS_IN_PLACE_all 1
#define CS_IN_PLACE_root 2
#define CS_PMPI_none 0
#define CS_PMPI_own 1
#define CS_PMPI_intercomm 2
/* CS_C_allgather, ...: a collective's index in cs_colls() */
enum {
#define CS_COLLECTIVE(name, ...) CS_C_##name,
#include "collectives.def"
#undef CS_COLLECTIVE
    CS_NCOLL
};

typedef struct {
    const char *name;
    cs_sig sig;
    int send_blocks_per_rank; /* 0: one send block; 1: p of them */
    int rooted;               /* CS_ROOT_to (a gather, to --root), CS_ROOT_from (a scatter),
                                 CS_ROOT_one_from (a broadcast) */
    int in_place_rule;        /* CS_IN_PLACE_all, _root, _no */
    int in_place;             /* MPI_IN_PLACE supported by the driver (any rule but no) */
    const char *in_place_note; /* why not, or "" */
    int variable;             /* a v-collective: block sizes from --dist, --seed */
    int groups;               /* intergroup: 1 (--groups), 2 (also --counts) */
    int op;                   /* a reduction: an MPI_Op (--op) */
    int min_np;
    const char *mpi;          /* the MPI entry point less MPI_: "Allgather" */
    int pmpi;                 /* CS_PMPI_own, _intercomm, _none */
    const char *const *smpi;  /* SMPI's built-in algorithms, NULL-terminated */
} cs_coll_props;

/* Every collective in collectives.def's order: CS_NCOLL entries
 * (&cs_coll_table[CS_C_gather] is a constant, for static tables). */
extern const cs_coll_props cs_coll_table[CS_NCOLL];
const cs_coll_props *cs_colls(void);

/* NULL when unknown. */
const cs_coll_props *cs_coll_find(const char *name);

/* "allgather, alltoall, alltoallv" (sep ", ") or "allgather|alltoall|..." */
const char *cs_coll_names(const char *sep);

/* The names of the collectives `keep` says 1 for, joined by sep into out
 * (e.g. cs_coll_takes_in_place: "allgather, alltoall, gather, scatter"), the
 * lists the messages give. */
const char *cs_coll_join(const char *sep, char *out, unsigned long len,
                         int (*keep)(const cs_coll_props *));
int cs_coll_takes_in_place(const cs_coll_props *c); /* --in-place */
int cs_coll_is_intergroup(const cs_coll_props *c);  /* --groups */
int cs_coll_is_rooted(const cs_coll_props *c);      /* --root */
int cs_coll_has_op(const cs_coll_props *c);         /* --op */
/* The blocks (of the case's size) of a rank's send and receive buffers at p processes: what
 * the driver allocates (sized for the largest p) and the host's memory estimate counts. */
int cs_coll_send_blocks(const cs_coll_props *c, int p);
int cs_coll_recv_blocks(const cs_coll_props *c, int p, int in_place);

/* The fewest processes a case of the collective may have (min_np), and why. */
int cs_coll_min_np(const char *collective);
const char *cs_coll_min_np_why(const char *collective);

#endif
