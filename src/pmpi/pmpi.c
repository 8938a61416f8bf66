/* libssched_pmpi (issue 25): an unmodified MPI program's large MPI_Bcast,
 * MPI_Reduce and MPI_Allreduce run ssched's plans (SSCHED_PLANS=DIR, made
 * by `ssched plan`), through the MPI profiling interface.
 *
 * A call runs a plan when the plan's collective, communicator size, root
 * and byte count are the call's, the datatype's size divides the plan's
 * (a reduce's segments are then whole elements; a broadcast moves bytes), the communicator is
 * MPI_COMM_WORLD or congruent to it (same ranks in the same order: the
 * plan's rank map holds), the datatype is contiguous (its bytes are one
 * range), and for a plan made with --commutative the operator commutes.
 * Segment k of the buffer is bytes [k s, min((k+1) s, M)): operation k of
 * the plan.  The executor's messages are s bytes, so the last segment is
 * padded: a broadcast with zeros, a reduce with copies of the segment's
 * own elements (valid operands for any operator; their results are
 * dropped).  The combine is MPI_Reduce_local with the user's operator and
 * datatype, left operand = lower ranks (MPI's order), so user-defined and
 * non-commutative operators give MPI's result.  Anything else goes to the
 * PMPI_ function unchanged.  The executor itself calls MPI_Bcast and
 * MPI_Allreduce (its setup and run): a flag sends those straight to PMPI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/pmpi/pmpi_internal.h"

static pmpi_state_t state;
static int inside; /* the executor is running: its own calls go to PMPI */
static unsigned long n_planned, n_plain; /* SSCHED_PMPI_STATS=1: printed at MPI_Finalize */
/* SSCHED_PMPI_STATS=2: also one line per planned call and rank, its time
 * from entry to exit (bench/dropin.sh: the per-rank fixed cost) */
static int trace;

static void load(void)
{
    const char *stats = getenv("SSCHED_PMPI_STATS");
    trace = stats && !strcmp(stats, "2");
    inside = 1;
    ssched_i_pmpi_load(&state);
    inside = 0;
}

int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS)
        load();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    /* MPI_THREAD_MULTIPLE: two threads may call collectives at once on
     * congruent communicators, which would share the plans' one
     * communicator and the re-entrancy flag: plain MPI then */
    int rank;
    if (rc == MPI_SUCCESS && *provided == MPI_THREAD_MULTIPLE) {
        PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
        if (rank == 0 && getenv("SSCHED_PLANS"))
            fprintf(stderr, "libssched_pmpi: MPI_THREAD_MULTIPLE: plans are not used; plain "
                    "MPI\n");
    } else if (rc == MPI_SUCCESS) {
        load();
    }
    return rc;
}

int MPI_Finalize(void)
{
    const char *stats = getenv("SSCHED_PMPI_STATS");
    int rank;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (stats && (!strcmp(stats, "1") || !strcmp(stats, "2")) && rank == 0)
        fprintf(stderr, "libssched_pmpi: rank 0: %lu calls ran plans, %lu went to MPI\n",
                n_planned, n_plain);
    inside = 1;
    ssched_i_pmpi_unload(&state);
    inside = 0;
    return PMPI_Finalize();
}

/* The user's buffers of one call. */
typedef struct {
    const pmpi_plan_t *plan;
    const char *src;           /* bcast: the root's buffer; reduce: the value */
    char *dst;                 /* where results (or delivered copies) go     */
} call_t;

/* Bytes of segment op that are real (the rest of the s is padding). */
static size_t real_bytes(const pmpi_plan_t *p, size_t op)
{
    size_t off = op * p->seg;
    return p->bytes - off < p->seg ? p->bytes - off : p->seg;
}

/* Segment op of src into buf (s bytes): the real bytes, then (pad_copies)
 * copies of them, whole elements, or zeros. */
static void copy_in(const call_t *c, size_t op, void *buf, size_t bytes, int pad_copies)
{
    size_t real = real_bytes(c->plan, op);
    const char *from = c->src + op * c->plan->seg;
    memcpy(buf, from, real);
    if (!pad_copies) {
        memset((char *)buf + real, 0, bytes - real);
        return;
    }
    /* real is a multiple of the element size (M and s are) */
    for (size_t at = real; at < bytes; at += real)
        memcpy((char *)buf + at, from, bytes - at < real ? bytes - at : real);
}

static int cb_fill(const ssched_mpi_t *x, size_t type, size_t op, void *buf, size_t bytes,
                   void *ctx)
{
    (void)x, (void)type;
    copy_in(ctx, op, buf, bytes, 0);
    return 0;
}

static int cb_deliver(const ssched_mpi_t *x, size_t type, size_t op, const void *buf,
                      size_t bytes, void *ctx)
{
    (void)x, (void)type, (void)bytes;
    const call_t *c = ctx;
    memcpy(c->dst + op * c->plan->seg, buf, real_bytes(c->plan, op));
    return 0;
}

static int cb_value(const ssched_mpi_t *x, size_t participant, size_t op, void *buf,
                    size_t bytes, void *ctx)
{
    (void)x, (void)participant;
    copy_in(ctx, op, buf, bytes, 1);
    return 0;
}

static int cb_result(const ssched_mpi_t *x, size_t op, const void *buf, size_t bytes, void *ctx)
{
    (void)x, (void)bytes;
    return cb_deliver(x, 0, op, buf, bytes, ctx);
}

/* The plan for this call, or NULL (then PMPI). */
static const pmpi_plan_t *find(pmpi_coll_t coll, int count, MPI_Datatype dt, int root,
                               MPI_Op op, MPI_Comm comm)
{
    if (inside)
        return NULL;
    n_plain++; /* until a plan is found */
    if (!state.n || count <= 0)
        return NULL;
    int size, cmp;
    MPI_Aint lb, extent, tlb, textent;
    if (PMPI_Type_size(dt, &size) != MPI_SUCCESS || size <= 0 ||
        PMPI_Type_get_extent(dt, &lb, &extent) != MPI_SUCCESS ||
        PMPI_Type_get_true_extent(dt, &tlb, &textent) != MPI_SUCCESS || lb != 0 || tlb != 0 ||
        extent != size || textent != size)
        return NULL; /* not one contiguous byte range */
    if (comm != MPI_COMM_WORLD &&
        (PMPI_Comm_compare(comm, MPI_COMM_WORLD, &cmp) != MPI_SUCCESS ||
         (cmp != MPI_IDENT && cmp != MPI_CONGRUENT)))
        return NULL;
    int commute = 1;
    if (coll != PMPI_BCAST && PMPI_Op_commutative(op, &commute) != MPI_SUCCESS)
        return NULL;
    int csize;
    PMPI_Comm_size(comm, &csize);
    size_t bytes = (size_t)count * (size_t)size;
    for (size_t k = 0; k < state.n; k++) {
        const pmpi_plan_t *p = &state.plans[k];
        if (p->coll == coll && p->comm_size == csize && (coll == PMPI_ALLREDUCE || p->root == root) &&
            (coll == PMPI_BCAST || p->dtsize % (size_t)size == 0) && p->bytes == bytes &&
            (!p->commutative || commute)) {
            n_plain--, n_planned++;
            return p;
        }
    }
    return NULL;
}

/* Run plan p on call c; MPI_SUCCESS, or MPI_ERR_OTHER after one line. */
static int run(const pmpi_plan_t *p, call_t *c, MPI_Op op, MPI_Datatype dt)
{
    ssched_mpi_callbacks_t cb = {0};
    cb.fill = cb_fill;
    cb.deliver = cb_deliver;
    cb.value = cb_value;
    cb.result = cb_result;
    cb.combine = NULL; /* MPI_Reduce_local(op, dt): MPI's operand order */
    cb.mpi_op = op;
    cb.datatype = dt;
    cb.ctx = c;
    ssched_error_t err;
    ssched_error_clear(&err);
    inside = 1;
    double t0 = PMPI_Wtime();
    ssched_status_t st = ssched_mpi_run((ssched_mpi_t *)&p->x, &cb, NULL, &err);
    double t1 = PMPI_Wtime();
    inside = 0;
    int rank;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (trace)
        fprintf(stderr, "libssched_pmpi: rank %d call %lu: %.9f s\n", rank, n_planned, t1 - t0);
    if (st == SSCHED_OK)
        return MPI_SUCCESS;
    if (rank == 0)
        fprintf(stderr, "libssched_pmpi: %s\n", err.message);
    return MPI_ERR_OTHER;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
    const pmpi_plan_t *p = find(PMPI_BCAST, count, dt, root, MPI_OP_NULL, comm);
    if (!p)
        return PMPI_Bcast(buf, count, dt, root, comm);
    call_t c = {p, buf, buf};
    return run(p, &c, MPI_OP_NULL, dt);
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root,
               MPI_Comm comm)
{
    const pmpi_plan_t *p = find(PMPI_REDUCE, count, dt, root, op, comm);
    if (!p)
        return PMPI_Reduce(sbuf, rbuf, count, dt, op, root, comm);
    /* MPI_IN_PLACE at the root: its value is in rbuf (each segment's value
     * is read before its result exists, which needs it) */
    call_t c = {p, sbuf == MPI_IN_PLACE ? rbuf : sbuf, rbuf};
    return run(p, &c, op, dt);
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op,
                  MPI_Comm comm)
{
    const pmpi_plan_t *p = find(PMPI_ALLREDUCE, count, dt, 0, op, comm);
    if (!p)
        return PMPI_Allreduce(sbuf, rbuf, count, dt, op, comm);
    call_t c = {p, sbuf == MPI_IN_PLACE ? rbuf : sbuf, rbuf};
    return run(p, &c, op, dt);
}
