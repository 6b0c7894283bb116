/* What an MPICH 4.0 selection file must hold besides collsim's choices
 * (tune_mpich.h). MPICH 4.0 reads its JSON file instead of its whole
 * built-in tree and stops on an assertion when a call finds no leaf, so the
 * file answers every collective on every kind of communicator. Here: MPICH
 * 4.0's own choice on a flat intracommunicator for the collectives collsim
 * tunes (where a file keeps "the library's decision"), and, for the others
 * and for intercommunicators, one algorithm that serves every call. The
 * names are those MPICH 4.0.2's csel_container.c accepts; the thresholds are
 * those its built-in tree compares (read in maint/tuning/coll/mpir/
 * generic.json of MPICH 4.0.2 and written here in collsim's words). Only
 * `<=` and `=any` comparisons are written: MPICH 4.0.2 evaluates a
 * comm_size `<` as `<` when it prunes the tree for a new communicator but as
 * `<=` in the search of a call (csel.c). */
#include "tune_mpich.h"

#include <string.h>

/* A collective MPICH's file must name. own: MPICH's own choice on a flat
 * intracommunicator (the members of a JSON object); inplace: the algorithm
 * of an MPI_IN_PLACE call where the others refuse it; inter: on an
 * intercommunicator; NULL: none (the collective is not defined there, or
 * `own` serves every communicator: allcomm). */
typedef struct {
    const char *coll, *own, *inplace, *inter;
} mpich_coll;

#define A(name) "{\"algorithm=MPIR_" name "\": {}}"
static const mpich_coll colls[] = {
    /* the collectives collsim tunes: MPICH 4.0's own choice */
    {"allgather",
     "\"comm_size=pow2\": {\"total_msg_size<=524287\": " A("Allgather_intra_recursive_doubling")
     ", \"total_msg_size=any\": " A("Allgather_intra_ring") "}, \"comm_size=any\": "
     "{\"total_msg_size<=81919\": " A("Allgather_intra_brucks") ", \"total_msg_size=any\": "
     A("Allgather_intra_ring") "}",
     NULL, "Allgather_inter_local_gather_remote_bcast"},
    /* MPICH 4.0.2's tree compares comm_size < 8 behind its MPI_IN_PLACE test, where its search
     * evaluates `<` as `<=` (csel.c): its own choice is the one of comm_size <= 8 */
    {"alltoall",
     "\"comm_size<=8\": {\"avg_msg_size<=32768\": " A("Alltoall_intra_scattered")
     ", \"avg_msg_size=any\": " A("Alltoall_intra_pairwise") "}, \"comm_size=any\": "
     "{\"avg_msg_size<=256\": " A("Alltoall_intra_brucks") ", \"avg_msg_size<=32768\": "
     A("Alltoall_intra_scattered") ", \"avg_msg_size=any\": " A("Alltoall_intra_pairwise") "}",
     "Alltoall_intra_pairwise_sendrecv_replace", "Alltoall_inter_pairwise_exchange"},
    {"alltoallv", "\"algorithm=MPIR_Alltoallv_intra_scattered\": {}",
     "Alltoallv_intra_pairwise_sendrecv_replace", "Alltoallv_inter_pairwise_exchange"},
    {"gather", "\"algorithm=MPIR_Gather_intra_binomial\": {}", NULL, "Gather_inter_linear"},
    {"scatter", "\"algorithm=MPIR_Scatter_intra_binomial\": {}", NULL, "Scatter_inter_linear"},
    {"bcast",
     "\"comm_size<=7\": " A("Bcast_intra_binomial") ", \"comm_size=pow2\": "
     "{\"avg_msg_size<=12287\": " A("Bcast_intra_binomial") ", \"avg_msg_size<=524287\": "
     A("Bcast_intra_scatter_recursive_doubling_allgather") ", \"avg_msg_size=any\": "
     A("Bcast_intra_scatter_ring_allgather") "}, \"comm_size=any\": {\"avg_msg_size<=12287\": "
     A("Bcast_intra_binomial") ", \"avg_msg_size=any\": " A("Bcast_intra_scatter_ring_allgather") "}",
     NULL, "Bcast_inter_remote_send_local_bcast"},
    {"allreduce",
     "\"avg_msg_size<=8\": " A("Allreduce_intra_recursive_doubling") ", \"avg_msg_size=any\": "
     "{\"is_op_built_in=no\": " A("Allreduce_intra_recursive_doubling") ", \"is_op_built_in=yes\": "
     "{\"count<pow2\": " A("Allreduce_intra_recursive_doubling") ", \"count=any\": "
     A("Allreduce_intra_reduce_scatter_allgather") "}}",
     NULL, "Allreduce_inter_reduce_exchange_bcast"},
    {"reduce",
     "\"avg_msg_size<=2048\": " A("Reduce_intra_binomial") ", \"avg_msg_size=any\": "
     "{\"is_op_built_in=yes\": {\"count<pow2\": " A("Reduce_intra_binomial") ", \"count=any\": "
     A("Reduce_intra_reduce_scatter_gather") "}, \"is_op_built_in=no\": " A("Reduce_intra_binomial") "}",
     NULL, "Reduce_inter_local_reduce_remote_send"},
    /* MPICH 4.0.2's tree compares total_msg_size < 524288, which its search evaluates as `<` */
    {"reduce_scatter",
     "\"is_commutative=yes\": {\"total_msg_size<=524287\": " A("Reduce_scatter_intra_recursive_halving")
     ", \"total_msg_size=any\": " A("Reduce_scatter_intra_pairwise") "}, \"is_commutative=no\": "
     "{\"is_block_regular=yes\": {\"comm_size=pow2\": " A("Reduce_scatter_intra_noncommutative")
     ", \"comm_size=any\": " A("Reduce_scatter_intra_recursive_doubling") "}, \"is_block_regular=no\": "
     A("Reduce_scatter_intra_recursive_doubling") "}",
     NULL, "Reduce_scatter_inter_remote_reduce_local_scatter"},
    {"reduce_scatter_block",
     "\"is_commutative=yes\": {\"total_msg_size<=524287\": "
     A("Reduce_scatter_block_intra_recursive_halving") ", \"total_msg_size=any\": "
     A("Reduce_scatter_block_intra_pairwise") "}, \"is_commutative=no\": {\"comm_size=pow2\": "
     A("Reduce_scatter_block_intra_noncommutative") ", \"comm_size=any\": "
     A("Reduce_scatter_block_intra_recursive_doubling") "}",
     NULL, "Reduce_scatter_block_inter_remote_reduce_local_scatter"},
    /* the others: one algorithm that serves every call (any operation,
     * block sizes and process count) */
    {"allgatherv", "\"algorithm=MPIR_Allgatherv_intra_ring\": {}", NULL,
     "Allgatherv_inter_remote_gather_local_bcast"},
    {"alltoallw", "\"algorithm=MPIR_Alltoallw_intra_scattered\": {}",
     "Alltoallw_intra_pairwise_sendrecv_replace", "Alltoallw_inter_pairwise_exchange"},
    {"barrier", "\"algorithm=MPIR_Barrier_intra_dissemination\": {}", NULL, "Barrier_inter_bcast"},
    {"exscan", "\"algorithm=MPIR_Exscan_intra_recursive_doubling\": {}", NULL, NULL},
    {"gatherv", "\"algorithm=MPIR_Gatherv_allcomm_linear\": {}", NULL, NULL},
    {"scatterv", "\"algorithm=MPIR_Scatterv_allcomm_linear\": {}", NULL, NULL},
    {"scan", "\"algorithm=MPIR_Scan_intra_recursive_doubling\": {}", NULL, NULL},
    {"neighbor_allgather", "\"algorithm=MPIR_Neighbor_allgather_allcomm_nb\": {}", NULL, NULL},
    {"neighbor_allgatherv", "\"algorithm=MPIR_Neighbor_allgatherv_allcomm_nb\": {}", NULL, NULL},
    {"neighbor_alltoall", "\"algorithm=MPIR_Neighbor_alltoall_allcomm_nb\": {}", NULL, NULL},
    {"neighbor_alltoallv", "\"algorithm=MPIR_Neighbor_alltoallv_allcomm_nb\": {}", NULL, NULL},
    {"neighbor_alltoallw", "\"algorithm=MPIR_Neighbor_alltoallw_allcomm_nb\": {}", NULL, NULL},
    {"iallgather", "\"algorithm=MPIR_Iallgather_intra_sched_ring\": {}", NULL,
     "Iallgather_inter_sched_local_gather_remote_bcast"},
    {"iallgatherv", "\"algorithm=MPIR_Iallgatherv_intra_sched_ring\": {}", NULL,
     "Iallgatherv_inter_sched_remote_gather_local_bcast"},
    {"iallreduce", "\"algorithm=MPIR_Iallreduce_intra_sched_recursive_doubling\": {}", NULL,
     "Iallreduce_inter_sched_remote_reduce_local_bcast"},
    {"ialltoall", "\"algorithm=MPIR_Ialltoall_intra_sched_pairwise\": {}",
     "Ialltoall_intra_sched_inplace", "Ialltoall_inter_sched_pairwise_exchange"},
    {"ialltoallv", "\"algorithm=MPIR_Ialltoallv_intra_sched_blocked\": {}",
     "Ialltoallv_intra_sched_inplace", "Ialltoallv_inter_sched_pairwise_exchange"},
    {"ialltoallw", "\"algorithm=MPIR_Ialltoallw_intra_sched_blocked\": {}",
     "Ialltoallw_intra_sched_inplace", "Ialltoallw_inter_sched_pairwise_exchange"},
    {"ibarrier", "\"algorithm=MPIR_Ibarrier_intra_sched_recursive_doubling\": {}", NULL,
     "Ibarrier_inter_sched_bcast"},
    {"ibcast", "\"algorithm=MPIR_Ibcast_intra_sched_binomial\": {}", NULL, "Ibcast_inter_sched_flat"},
    {"iexscan", "\"algorithm=MPIR_Iexscan_intra_sched_recursive_doubling\": {}", NULL, NULL},
    {"igather", "\"algorithm=MPIR_Igather_intra_sched_binomial\": {}", NULL, "Igather_inter_sched_long"},
    {"igatherv", "\"algorithm=MPIR_Igatherv_allcomm_sched_linear\": {}", NULL, NULL},
    {"ireduce", "\"algorithm=MPIR_Ireduce_intra_sched_binomial\": {}", NULL,
     "Ireduce_inter_sched_local_reduce_remote_send"},
    {"ireduce_scatter", "\"algorithm=MPIR_Ireduce_scatter_intra_sched_recursive_doubling\": {}", NULL,
     "Ireduce_scatter_inter_sched_remote_reduce_local_scatterv"},
    {"ireduce_scatter_block",
     "\"algorithm=MPIR_Ireduce_scatter_block_intra_sched_recursive_doubling\": {}", NULL,
     "Ireduce_scatter_block_inter_sched_remote_reduce_local_scatterv"},
    {"iscan", "\"algorithm=MPIR_Iscan_intra_sched_recursive_doubling\": {}", NULL, NULL},
    {"iscatter", "\"algorithm=MPIR_Iscatter_intra_sched_binomial\": {}", NULL,
     "Iscatter_inter_sched_linear"},
    {"iscatterv", "\"algorithm=MPIR_Iscatterv_allcomm_sched_linear\": {}", NULL, NULL},
    {"ineighbor_allgather", "\"algorithm=MPIR_Ineighbor_allgather_allcomm_sched_linear\": {}", NULL, NULL},
    {"ineighbor_allgatherv", "\"algorithm=MPIR_Ineighbor_allgatherv_allcomm_sched_linear\": {}", NULL, NULL},
    {"ineighbor_alltoall", "\"algorithm=MPIR_Ineighbor_alltoall_allcomm_sched_linear\": {}", NULL, NULL},
    {"ineighbor_alltoallv", "\"algorithm=MPIR_Ineighbor_alltoallv_allcomm_sched_linear\": {}", NULL, NULL},
    {"ineighbor_alltoallw", "\"algorithm=MPIR_Ineighbor_alltoallw_allcomm_sched_linear\": {}", NULL, NULL},
};
#undef A
#define NCOLLS (sizeof colls / sizeof colls[0])

static const mpich_coll *find(const char *coll)
{
    for (size_t i = 0; i < NCOLLS; i++)
        if (!strcmp(colls[i].coll, coll))
            return &colls[i];
    return NULL;
}

/* MPICH's algorithms that serve some calls only (MPICH 4.0.2's
 * coll_algorithms.txt: their restrictions; its JSON path calls them
 * without a check): the file names them behind the test, MPICH's own choice
 * on the other side. */
static const struct {
    const char *name, *pass, *fail_key; /* JSON: {"pass": {leaf}, "fail_key": own} */
    int count_first;                      /* {"count<pow2": own, "count=any": leaf} inside */
} guards[] = {
    {"MPIR_Allgather_intra_recursive_doubling", "comm_size=pow2", "comm_size=any", 0},
    {"MPIR_Allreduce_intra_reduce_scatter_allgather", "is_op_built_in=yes", "is_op_built_in=no", 1},
    {"MPIR_Reduce_intra_reduce_scatter_gather", "is_op_built_in=yes", "is_op_built_in=no", 1},
    {"MPIR_Reduce_scatter_intra_recursive_halving", "is_commutative=yes", "is_commutative=no", 0},
    {"MPIR_Reduce_scatter_intra_pairwise", "is_commutative=yes", "is_commutative=no", 0},
    {"MPIR_Reduce_scatter_block_intra_recursive_halving", "is_commutative=yes", "is_commutative=no", 0},
    {"MPIR_Reduce_scatter_block_intra_pairwise", "is_commutative=yes", "is_commutative=no", 0},
};

void cs_mpich_leaf(FILE *f, const char *coll, const char *name)
{
    for (size_t i = 0; i < sizeof guards / sizeof guards[0]; i++)
        if (!strcmp(guards[i].name, name)) {
            fprintf(f, "{\"%s\": ", guards[i].pass);
            if (guards[i].count_first) {
                fprintf(f, "{\"count<pow2\": ");
                cs_mpich_own(f, coll);
                fprintf(f, ", \"count=any\": {\"algorithm=%s\": {}}}", name);
            } else
                fprintf(f, "{\"algorithm=%s\": {}}", name);
            fprintf(f, ", \"%s\": ", guards[i].fail_key);
            cs_mpich_own(f, coll);
            fprintf(f, "}");
            return;
        }
    fprintf(f, "{\"algorithm=%s\": {}}", name);
}

int cs_mpich_own(FILE *f, const char *coll)
{
    const mpich_coll *c = find(coll);
    if (!c)
        return -1;
    fprintf(f, "{%s}", c->own);
    return 0;
}

const char *cs_mpich_inplace(const char *coll)
{
    const mpich_coll *c = find(coll);
    return c ? c->inplace : NULL;
}

/* "collective=C": {"comm_type=intra": {...}, "comm_type=inter": {...}} with
 * intra written by `body` (NULL: MPICH's own choice). */
void cs_mpich_collective(FILE *f, const char *coll, void (*body)(FILE *, const void *),
                         const void *arg)
{
    const mpich_coll *c = find(coll);
    fprintf(f, "\"collective=%s\": {\n", coll);
    if (!c->inter && !body) { /* one algorithm for any communicator it is defined on */
        fprintf(f, "  %s\n}", c->own);
        return;
    }
    fprintf(f, "  \"comm_type=intra\": ");
    if (c->inplace)
        fprintf(f, "{\"is_sendbuf_inplace=yes\": {\"algorithm=MPIR_%s\": {}},\n    "
                   "\"is_sendbuf_inplace=no\": ",
                c->inplace);
    if (body)
        body(f, arg);
    else
        fprintf(f, "{%s}", c->own);
    if (c->inplace)
        fprintf(f, "}");
    if (c->inter)
        fprintf(f, ",\n  \"comm_type=inter\": {\"algorithm=MPIR_%s\": {}}", c->inter);
    fprintf(f, "\n}");
}

void cs_mpich_others(FILE *f, const char *const *done, size_t ndone)
{
    for (size_t i = 0; i < NCOLLS; i++) {
        int skip = 0;
        for (size_t k = 0; k < ndone && !skip; k++)
            skip = !strcmp(done[k], colls[i].coll);
        if (skip)
            continue;
        fprintf(f, ",\n");
        cs_mpich_collective(f, colls[i].coll, NULL, NULL);
    }
}

/* MPICH 4.0's ch4 device selects first, with a file of its own
 * (MPIR_CVAR_CH4_COLL_SELECTION_TUNING_JSON_FILE), between compositions:
 * node-aware ones (shared memory inside a node, the network between the
 * nodes' leaders) and the one that hands the whole communicator to the
 * network module, whose collectives take the MPIR file's algorithm
 * (ch4_coll_impl.h of MPICH 4.0.2). This file names the latter for every
 * collective ch4 selects, so the MPIR file decides every call on the whole
 * communicator. */
void cs_mpich_ch4(FILE *f)
{
    static const char *const whole[][2] = {
        {"bcast", "Bcast_intra_composition_gamma"},
        {"allreduce", "Allreduce_intra_composition_beta"},
        {"reduce", "Reduce_intra_composition_gamma"},
        {"barrier", "Barrier_intra_composition_beta"},
        {"gather", "Gather_intra_composition_alpha"},
        {"gatherv", "Gatherv_intra_composition_alpha"},
        {"scatter", "Scatter_intra_composition_alpha"},
        {"scatterv", "Scatterv_intra_composition_alpha"},
        {"alltoall", "Alltoall_intra_composition_alpha"},
        {"alltoallv", "Alltoallv_intra_composition_alpha"},
        {"alltoallw", "Alltoallw_intra_composition_alpha"},
        {"allgather", "Allgather_intra_composition_alpha"},
        {"allgatherv", "Allgatherv_intra_composition_alpha"},
        {"reduce_scatter", "Reduce_scatter_intra_composition_alpha"},
        {"reduce_scatter_block", "Reduce_scatter_block_intra_composition_alpha"},
        {"scan", "Scan_intra_composition_beta"},
        {"exscan", "Exscan_intra_composition_alpha"},
    };
    fprintf(f, "{\n");
    for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++)
        fprintf(f, "%s\"collective=%s\": {\"comm_type=intra\": {\"composition=MPIDI_%s\": {}}}",
                i ? ",\n" : "", whole[i][0], whole[i][1]);
    fprintf(f, "\n}\n");
}
