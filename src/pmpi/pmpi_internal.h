/* libssched_pmpi (issue 25): the plans an MPI program's collectives may
 * run, read at MPI_Init from SSCHED_PLANS=DIR (files of `ssched plan`). */
#ifndef SSCHED_PMPI_INTERNAL_H
#define SSCHED_PMPI_INTERNAL_H

#include <mpi.h>
#include <stddef.h>

#include "ssched/mpi.h"

typedef enum { PMPI_BCAST, PMPI_REDUCE, PMPI_ALLREDUCE } pmpi_coll_t;

typedef struct {
    pmpi_coll_t coll;
    int comm_size, root;       /* root: bcast, reduce (the rank)          */
    size_t dtsize;             /* bytes of one element                    */
    size_t bytes;              /* the call's buffer (count x dtsize)      */
    size_t seg, K;             /* segment bytes, segments                 */
    int commutative;           /* planned for commutative operators only  */
    ssched_mpi_t x;            /* the executor, set up on the dup of world */
} pmpi_plan_t;

typedef struct {
    pmpi_plan_t *plans;
    size_t n;
    MPI_Comm comm;             /* PMPI_Comm_dup(MPI_COMM_WORLD)            */
} pmpi_state_t;

/* Read SSCHED_PLANS (if set) and set every plan up (collective over
 * MPI_COMM_WORLD).  A missing or unreadable directory, or a malformed
 * descriptor: one line on stderr (rank 0) naming it, and no plan at all
 * (plain MPI).  A plan whose schedule does not fit this job (another
 * communicator size, a setup error) is skipped, with one line on rank 0
 * for a setup error. */
__attribute__((visibility("hidden"))) void ssched_i_pmpi_load(pmpi_state_t *s);
__attribute__((visibility("hidden"))) void ssched_i_pmpi_unload(pmpi_state_t *s);

#endif
