/* mpi_intergroup: the intergroup algorithms (Kang, Traff et al. 2019) behind the
 * standard signature, on real intercommunicators (intergroup_intercomm.h): every
 * NAME_ic wrapper of algorithms.def, for every split of MPI_COMM_WORLD into
 * groups A (the first p ranks) and B (the other q), p, q >= 1, and again with
 * the groups interleaved (even world ranks in A). Allgather: blocks of 0, 1 and
 * 5 ints, group B's blocks twice group A's; allgatherv: remote rank j sends
 * (j + 2) % 4 ints (some zero), received at reversed, gapped displacements.
 * Then allgather between vectors (an int and a hole, three times) and
 * allgatherv into ints with a hole after each (packed around the algorithm,
 * coll_adapt.h). Every element and every gap checked. Prints "FAIL ..." lines and, on rank 0,
 * "mpi_intergroup: N checks, F failed"; exits 1 on any failure. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

#include "intergroup_intercomm.h"

#define SENTINEL (-9)


static long checks, failed;
static int wrank;

static void expect(int ok, const char *alg, const char *what, int p, int n, int a, int b)
{
    checks++;
    if (!ok && ++failed < 20)
        printf("FAIL rank %d: %s: %s (p %d, n %d, at %d/%d)\n", wrank, alg, what, p, n, a, b);
}

static int val(int side, int rank, int i) { return 100000 * side + 100 * rank + i; }

int main(int argc, char **argv)
{
    int np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int nalgs = 0;
    while (collsim_ic_algs[nalgs].name)
        nalgs++;
    for (int inter = 0; inter < 2; inter++)
        for (int p = 1; p < np; p++) {
            if (inter && p != (np + 1) / 2)
                continue; /* interleaved: one split, even ranks in A */
            const int side = inter ? wrank % 2 : wrank >= p; /* 0: group A */
            MPI_Comm local, ic;
            MPI_Comm_split(MPI_COMM_WORLD, side, wrank, &local);
            /* the remote leader: group A's lowest world rank is 0, group B's p (or 1) */
            const int remote_leader = side ? 0 : inter ? 1 : p;
            MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, remote_leader, 7, &ic);
            MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);
            int lr, rsize;
            MPI_Comm_rank(ic, &lr);
            MPI_Comm_remote_size(ic, &rsize);
            for (int a = 0; a < nalgs; a++) {
                for (int k = 0; k < 3 && collsim_ic_algs[a].ag; k++) {
                    /* group A sends n ints, group B 2n */
                    const int n = (int[]){0, 1, 5}[k], mine = side ? 2 * n : n,
                              theirs = side ? n : 2 * n;
                    int *send = malloc(sizeof(int) * (size_t)(mine + 1)),
                        *recv = malloc(sizeof(int) * (size_t)(rsize * theirs + 1));
                    for (int i = 0; i < mine; i++)
                        send[i] = val(side, lr, i);
                    for (int i = 0; i < rsize * theirs; i++)
                        recv[i] = SENTINEL;
                    int err = collsim_ic_algs[a].ag(send, mine, MPI_INT, recv, theirs, MPI_INT, ic);
                    expect(err == MPI_SUCCESS, collsim_ic_algs[a].name, "allgather: error", p, n, err, 0);
                    for (int j = 0; j < rsize; j++)
                        for (int i = 0; i < theirs; i++)
                            expect(recv[j * theirs + i] == val(1 - side, j, i), collsim_ic_algs[a].name,
                                   "allgather", p, n, j, i);
                    free(send);
                    free(recv);
                }
                /* allgather into a vector (an int, a hole, ...) from a vector, 3 ints each side */
                if (collsim_ic_algs[a].ag) {
                    MPI_Datatype vec, holes;
                    MPI_Type_vector(3, 1, 2, MPI_INT, &vec);
                    MPI_Type_create_resized(vec, 0, (MPI_Aint)(6 * sizeof(int)), &holes);
                    MPI_Type_commit(&holes);
                    int send[6], *recv = malloc(sizeof(int) * (size_t)(6 * rsize));
                    for (int i = 0; i < 6; i++)
                        send[i] = i % 2 ? SENTINEL : val(side, lr, i / 2);
                    for (int i = 0; i < 6 * rsize; i++)
                        recv[i] = SENTINEL;
                    int err = collsim_ic_algs[a].ag(send, 1, holes, recv, 1, holes, ic);
                    expect(err == MPI_SUCCESS, collsim_ic_algs[a].name, "allgather, vectors: error", p, 3, err, 0);
                    for (int i = 0; i < 6 * rsize; i++)
                        expect(recv[i] == (i % 2 ? SENTINEL : val(1 - side, i / 6, i % 6 / 2)),
                               collsim_ic_algs[a].name, "allgather, vectors", p, 3, i / 6, i % 6);
                    free(recv);
                    MPI_Type_free(&holes);
                    MPI_Type_free(&vec);
                }
                if (collsim_ic_algs[a].agv) { /* received into ints with a hole after each */
                    MPI_Datatype gap;
                    MPI_Type_create_resized(MPI_INT, 0, (MPI_Aint)(2 * sizeof(int)), &gap);
                    MPI_Type_commit(&gap);
                    const int mine = (lr + 2) % 4;
                    int send[4], *cnt = malloc(sizeof(int) * (size_t)rsize),
                        *dsp = malloc(sizeof(int) * (size_t)rsize),
                        *recv = malloc(sizeof(int) * (size_t)(12 * rsize + 2));
                    for (int i = 0; i < mine; i++)
                        send[i] = val(side, lr, i);
                    for (int j = 0; j < rsize; j++) {
                        cnt[j] = (j + 2) % 4;
                        dsp[j] = 6 * (rsize - 1 - j) + 1; /* in gap-type units */
                    }
                    for (int i = 0; i < 12 * rsize + 2; i++)
                        recv[i] = SENTINEL;
                    int err = collsim_ic_algs[a].agv(send, mine, MPI_INT, recv, cnt, dsp, gap, ic);
                    expect(err == MPI_SUCCESS, collsim_ic_algs[a].name, "allgatherv, holes: error", p, 0, err, 0);
                    for (int j = 0; j < rsize; j++)
                        for (int i = 0; i < cnt[j]; i++) {
                            expect(recv[2 * (dsp[j] + i)] == val(1 - side, j, i), collsim_ic_algs[a].name,
                                   "allgatherv, holes", p, 0, j, i);
                            recv[2 * (dsp[j] + i)] = SENTINEL;
                        }
                    for (int i = 0; i < 12 * rsize + 2; i++)
                        expect(recv[i] == SENTINEL, collsim_ic_algs[a].name,
                               "allgatherv, holes: a hole written", p, 0, i, 0);
                    free(cnt);
                    free(dsp);
                    free(recv);
                    MPI_Type_free(&gap);
                }
                if (collsim_ic_algs[a].agv) {
                    const int mine = (lr + 2) % 4;
                    int *send = malloc(sizeof(int) * 4), *cnt = malloc(sizeof(int) * (size_t)rsize),
                        *dsp = malloc(sizeof(int) * (size_t)rsize),
                        *recv = malloc(sizeof(int) * (size_t)(6 * rsize + 1));
                    for (int i = 0; i < mine; i++)
                        send[i] = val(side, lr, i);
                    for (int j = 0; j < rsize; j++) {
                        cnt[j] = (j + 2) % 4;
                        dsp[j] = 6 * (rsize - 1 - j) + 1; /* reversed, a gap before each */
                    }
                    for (int i = 0; i < 6 * rsize + 1; i++)
                        recv[i] = SENTINEL;
                    int err = collsim_ic_algs[a].agv(send, mine, MPI_INT, recv, cnt, dsp, MPI_INT, ic);
                    expect(err == MPI_SUCCESS, collsim_ic_algs[a].name, "allgatherv: error", p, 0, err, 0);
                    for (int j = 0; j < rsize; j++)
                        for (int i = 0; i < cnt[j]; i++) {
                            expect(recv[dsp[j] + i] == val(1 - side, j, i), collsim_ic_algs[a].name,
                                   "allgatherv", p, 0, j, i);
                            recv[dsp[j] + i] = SENTINEL;
                        }
                    for (int i = 0; i < 6 * rsize + 1; i++)
                        expect(recv[i] == SENTINEL, collsim_ic_algs[a].name, "allgatherv: a gap written", p,
                               0, i, 0);
                    free(send);
                    free(cnt);
                    free(dsp);
                    free(recv);
                }
            }
            MPI_Comm_free(&ic);
            MPI_Comm_free(&local);
        }
    long mine[2] = {checks, failed}, sum[2];
    MPI_Reduce(mine, sum, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (wrank == 0)
        printf("mpi_intergroup: %d algorithms, %ld checks, %ld failed\n", nalgs, sum[0], sum[1]);
    MPI_Finalize();
    return failed ? 1 : 0;
}
