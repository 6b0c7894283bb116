/* collsim-mpibench (the driver against a real MPI): no cost model, the machine charges its
 * own local work and overheads (cost.h). */
#include "cost.h"

#ifdef COLLSIM_REAL_MPI_DRIVER
int cost_world_rank(void)
{
    int r;
    PMPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

int cost_init(int model, char *err, size_t errsize)
{
    (void)model, (void)err, (void)errsize;
    return 0;
}
void cost_begin(void) {}
void cost_end(void) {}
double cost_charged(void) { return 0.0; }
void cost_before_send(int dst, int count, MPI_Datatype type, MPI_Comm comm)
{
    (void)dst, (void)count, (void)type, (void)comm;
}
void cost_pay(void) {}
void cost_after_recv(int src, int count, MPI_Datatype type, MPI_Comm comm)
{
    (void)src, (void)count, (void)type, (void)comm;
}
void cost_add(double seconds) { (void)seconds; }
int cost_factors_init(int full, int wrank, char *err, size_t errsize)
{
    (void)full, (void)wrank, (void)err, (void)errsize;
    return 0;
}
double cost_copy_seconds(size_t bytes, size_t calls)
{
    (void)bytes, (void)calls;
    return 0.0;
}
double cost_op_seconds(size_t bytes)
{
    (void)bytes;
    return 0.0;
}
#endif
