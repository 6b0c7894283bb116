/* Intercommunicator wrappers of the intergroup algorithms
 * (intergroup_intercomm.h): compiled only against a real MPI (SMPI 3.32
 * aborts on MPI_Intercomm_create and MPI_Intercomm_merge; the build leaves
 * this file out of its SMPI programs). */
#include <mpi.h>

#include "intergroup_intercomm.h"
#include "coll_adapt.h"

static int keyval = MPI_KEYVAL_INVALID;

static int delete_descriptor(MPI_Comm comm, int key, void *value, void *extra)
{
    (void)comm;
    (void)key;
    (void)extra;
    collsim_intergroup *ig = value;
    return collsim_intergroup_free(&ig);
}

int collsim_intergroup_from_intercomm(MPI_Comm intercomm, const collsim_intergroup **out)
{
    int inter = 0, found = 0, e;
    MPI_Comm_test_inter(intercomm, &inter);
    if (!inter)
        return MPI_ERR_COMM;
    if (keyval == MPI_KEYVAL_INVALID &&
        (e = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_descriptor, &keyval, NULL)))
        return e;
    collsim_intergroup *ig = NULL;
    MPI_Comm_get_attr(intercomm, keyval, &ig, &found);
    if (found) {
        *out = ig;
        return MPI_SUCCESS;
    }
    MPI_Comm merged;
    if ((e = MPI_Intercomm_merge(intercomm, 0, &merged)))
        return e;
    /* group 0 = the side holding merged rank 0: the minimum merged rank of
     * the remote side, learnt by an allreduce over the intercommunicator */
    int mrank, lrank, remote_min;
    MPI_Comm_rank(merged, &mrank);
    MPI_Comm_rank(intercomm, &lrank);
    if ((e = MPI_Allreduce(&mrank, &remote_min, 1, MPI_INT, MPI_MIN, intercomm)) == MPI_SUCCESS)
        e = collsim_intergroup_create(merged, remote_min == 0 ? 1 : 0, lrank, &ig);
    MPI_Comm_free(&merged); /* the descriptor holds its own duplicate */
    if (e == MPI_SUCCESS)
        e = MPI_Comm_set_attr(intercomm, keyval, ig);
    *out = ig;
    return e;
}

#define COLLSIM_ICDEF_inter_allgather(fn)                                                             \
    int fn##_ic(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,          \
                int recvcount, MPI_Datatype recvtype, MPI_Comm intercomm)                          \
    {                                                                                              \
        const collsim_intergroup *ig;                                                              \
        int e = collsim_intergroup_from_intercomm(intercomm, &ig);                                 \
        if (!e && coll_adapt_inter(fn, NULL, sendbuf, sendcount, sendtype, recvbuf, recvcount,     \
                                   NULL, NULL, recvtype, ig, &e))                                 \
            return e;                                                                              \
        return e ? e : fn(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, ig);         \
    }
#define COLLSIM_ICDEF_inter_allgatherv(fn)                                                            \
    int fn##_ic(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,          \
                const int *recvcounts, const int *displs, MPI_Datatype recvtype, MPI_Comm intercomm) \
    {                                                                                              \
        const collsim_intergroup *ig;                                                              \
        int e = collsim_intergroup_from_intercomm(intercomm, &ig);                                 \
        if (!e && coll_adapt_inter(NULL, fn, sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, \
                                   displs, recvtype, ig, &e))                                     \
            return e;                                                                              \
        return e ? e : fn(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, ig); \
    }
#define COLLSIM_ALG(coll, name, fn, source, paper, section, restriction, in_place, datatypes,      \
                    procs, regions, groups, setup, ops, cost, cost_formula, cost_note, state_bytes, \
                    msg_blocks, msg_unit)                                                          \
    COLLSIM_ICDEF_##groups(coll, fn)
#define COLLSIM_ICDEF_groups(coll, fn) COLLSIM_ICDEF_##coll(fn)
#define COLLSIM_ICDEF_no_groups(coll, fn)
#include "algorithms.def"
#undef COLLSIM_ALG

const collsim_ic_alg collsim_ic_algs[] = {
#define COLLSIM_ICT_inter_allgather(name, fn) {#name, fn##_ic, NULL},
#define COLLSIM_ICT_inter_allgatherv(name, fn) {#name, NULL, fn##_ic},
#define COLLSIM_ICT_groups(coll, name, fn) COLLSIM_ICT_##coll(name, fn)
#define COLLSIM_ICT_no_groups(coll, name, fn)
#define COLLSIM_ALG(coll, name, fn, source, paper, section, restriction, in_place, datatypes,      \
                    procs, regions, groups, setup, ops, cost, cost_formula, cost_note, state_bytes, \
                    msg_blocks, msg_unit)                                                          \
    COLLSIM_ICT_##groups(coll, name, fn)
#include "algorithms.def"
#undef COLLSIM_ALG
    {NULL, NULL, NULL}};
