/* Setup of libssched_mpi: rank 0 checks and reads the schedule, maps nodes
 * to ranks, builds every rank's plan (plan.c) and ships it; every rank
 * ends with the same status and message (one line). */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/mpi/internal.h"

void ssched_mpi_options_default(ssched_mpi_options_t *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->unit_bytes = 1000000;       /* = `ssched export simgrid` defaults */
    opt->flops_per_task = 1e9;
    opt->unit_seconds = -1;          /* paced under SMPI with latencies */
}

void ssched_mpi_init(ssched_mpi_t *x)
{
    memset(x, 0, sizeof *x);
    x->participant = -1;
}

void ssched_mpi_free(ssched_mpi_t *x)
{
    free(x->type_origin);
    free(x->type_dest);
    free(x->makespan);
    if (x->impl) {
        int done = 0;
        MPI_Finalized(&done);
        if (!done && x->impl->comm != MPI_COMM_NULL)
            MPI_Comm_free(&x->impl->comm);
        ssched_i_mpi_plan_free(&x->impl->plan);
        free(x->impl);
    }
    ssched_mpi_init(x);
}

/* Plans go in chunks of at most this many int64 (MPI counts are int):
 * any plan size is safe.  SSCHED_MPI_PLAN_CHUNK (rank 0's environment)
 * lowers it, for the tests. */
static int64_t plan_chunk(void)
{
    const char *e = getenv("SSCHED_MPI_PLAN_CHUNK");
    long long c = e ? atoll(e) : 0;
    return c > 0 && c <= (1 << 28) ? (int64_t)c : (int64_t)1 << 28;
}

static void send_i64(const int64_t *v, int64_t n, int64_t chunk, int dest, int tag, MPI_Comm comm)
{
    for (int64_t at = 0; at < n; at += chunk)
        MPI_Send(v + at, (int)(n - at < chunk ? n - at : chunk), MPI_INT64_T, dest, tag, comm);
}

static void recv_i64(int64_t *v, int64_t n, int64_t chunk, int tag, MPI_Comm comm)
{
    for (int64_t at = 0; at < n; at += chunk)
        MPI_Recv(v + at, (int)(n - at < chunk ? n - at : chunk), MPI_INT64_T, 0, tag, comm,
                 MPI_STATUS_IGNORE);
}

/* The node of every rank from a map file: one node name per line. */
static ssched_status_t read_map(const char *path, const ssched_platform_t *p, int *node_of_rank,
                                size_t size, ssched_error_t *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return ssched_error_set(err, SSCHED_EINPUT, "%s: cannot read the map file", path);
    char line[1024];
    size_t r = 0, ln = 0;
    ssched_status_t st = SSCHED_OK;
    while (st == SSCHED_OK && fgets(line, sizeof line, f)) {
        ln++;
        char *s = line, *h = strchr(line, '#');
        if (h)
            *h = 0;
        while (isspace((unsigned char)*s))
            s++;
        size_t len = strlen(s);
        while (len && isspace((unsigned char)s[len - 1]))
            s[--len] = 0;
        if (!len)
            continue;
        size_t node;
        ssched_error_t e;
        if (ssched_platform_find_node(p, s, &node, &e) != SSCHED_OK)
            st = ssched_error_set(err, SSCHED_EINPUT, "%s:%zu: unknown node '%s'", path, ln, s);
        else if (r >= size)
            st = ssched_error_set(err, SSCHED_EINPUT, "%s:%zu: more nodes than the %zu ranks",
                                  path, ln, size);
        else
            node_of_rank[r++] = (int)node;
    }
    fclose(f);
    if (st == SSCHED_OK && r != size)
        st = ssched_error_set(err, SSCHED_EINPUT, "%s: maps %zu ranks, the job has %zu", path, r,
                              size);
    return st;
}

/* Rank 0: everything up to the plans.  hdr receives the header shipped to
 * every rank. */
static ssched_status_t prepare(const ssched_platform_t *p, const ssched_problem_t *pb,
                               const ssched_unrolled_t *u, int size,
                               const ssched_mpi_options_t *opt, int64_t **hdr, size_t *hlen,
                               char **makespan, double dbl[3], mpi_plan_t **plans,
                               ssched_error_t *err)
{
    size_t n = p->n_nodes, nt = 0, N = pb->n_participants, nused = 0;
    if (opt->unit_bytes == 0 || !(opt->flops_per_task > 0))
        return ssched_error_set(err, SSCHED_EINPUT, "options.unit_bytes and options.flops_per_task "
                                "must be positive");
    for (size_t a = 0; a < pb->n_sources; a++)
        for (size_t c = 0; c < pb->n_targets; c++)
            nt += pb->sources[a] != pb->targets[c];
    *hlen = 8 + 2 * nt + N + (size_t)size;
    if (*hlen > INT_MAX) /* broadcast with an int count */
        return ssched_error_set(err, SSCHED_EINPUT, "%zu message types: too many for one MPI "
                                "broadcast", nt);
    int64_t *h = *hdr = calloc(*hlen, sizeof *h);
    int *node_of = malloc(((size_t)size + 1) * sizeof *node_of);
    int *rank_of = malloc(n * sizeof *rank_of);
    unsigned char *used = calloc(n + 1, 1);
    ssched_status_t st = SSCHED_OK;
    if (!h || !node_of || !rank_of || !used)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    /* the nodes the schedule uses: an end of a transfer, a computation, or
     * where the problem's data starts or ends; the others (a router no
     * transfer crosses) need no rank */
    for (size_t k = 0; st == SSCHED_OK && k < u->n_transfers; k++)
        used[p->from[u->transfers[k].edge]] = used[p->to[u->transfers[k].edge]] = 1;
    for (size_t k = 0; st == SSCHED_OK && k < u->n_computations; k++)
        used[u->computations[k].node] = 1;
    for (size_t k = 0; st == SSCHED_OK && k < pb->n_sources; k++)
        used[pb->sources[k]] = 1;
    for (size_t k = 0; st == SSCHED_OK && k < pb->n_targets; k++)
        used[pb->targets[k]] = 1;
    for (size_t k = 0; st == SSCHED_OK && k < N; k++)
        used[pb->participants[k]] = 1;
    if (st == SSCHED_OK && (pb->kind == SSCHED_PROBLEM_REDUCE ||
                            pb->kind == SSCHED_PROBLEM_ALLREDUCE))
        used[pb->target] = 1;
    for (size_t k = 0; k < n; k++)
        nused += used ? used[k] : 0;
    /* ranks: one per node (rank i = node i), or one per node used (in node
     * order), or as the map says */
    if (st == SSCHED_OK && !opt->map_file && !opt->node_of_rank && (size_t)size != n &&
        (size_t)size != nused) {
        if (nused == n)
            st = ssched_error_set(err, SSCHED_EINPUT, "the schedule has %zu nodes but the job has "
                                  "%d ranks (one rank per node: mpirun -np %zu)", n, size, n);
        else
            st = ssched_error_set(err, SSCHED_EINPUT, "the schedule uses %zu of the platform's %zu "
                                  "nodes but the job has %d ranks (one rank per node used: mpirun "
                                  "-np %zu, or per node: -np %zu, or --map)", nused, n, size,
                                  nused, n);
    }
    for (size_t r = 0, at = 0; st == SSCHED_OK && r < (size_t)size; r++) {
        if (opt->node_of_rank)
            node_of[r] = opt->node_of_rank[r];
        else if ((size_t)size == n)
            node_of[r] = (int)r;
        else {
            while (!used[at])
                at++;
            node_of[r] = (int)at++;
        }
    }
    if (st == SSCHED_OK && opt->map_file)
        st = read_map(opt->map_file, p, node_of, (size_t)size, err);
    for (size_t k = 0; st == SSCHED_OK && k < n; k++)
        rank_of[k] = -1;
    for (size_t r = 0; st == SSCHED_OK && r < (size_t)size; r++) {
        if (node_of[r] < 0 || (size_t)node_of[r] >= n)
            st = ssched_error_set(err, SSCHED_EINPUT, "map: rank %zu has no node", r);
        else if (rank_of[node_of[r]] >= 0)
            st = ssched_error_set(err, SSCHED_EINPUT, "map: node '%s' is mapped twice",
                                  p->names[node_of[r]]);
        else
            rank_of[node_of[r]] = (int)r;
    }
    for (size_t k = 0; st == SSCHED_OK && k < n; k++)
        if (used[k] && rank_of[k] < 0)
            st = ssched_error_set(err, SSCHED_EINPUT, "map: node '%s' takes part in the schedule "
                                  "but no rank runs it", p->names[k]);
    mpz_t bytes;
    mpz_init(bytes);
    if (st == SSCHED_OK) {
        mpz_set_ui(bytes, (unsigned long)opt->unit_bytes);
        mpz_mul(bytes, bytes, mpq_numref(pb->size));
        mpz_fdiv_q(bytes, bytes, mpq_denref(pb->size));
        if (mpz_sgn(bytes) <= 0 || !mpz_fits_slong_p(bytes))
            st = ssched_error_set(err, SSCHED_EINPUT, "options.unit_bytes x size must be at least "
                                  "1 byte");
    }
    if (st == SSCHED_OK && !(*plans = calloc(n, sizeof **plans)))
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (st == SSCHED_OK)
        st = ssched_i_mpi_build_plans(p, pb, u, (uint64_t)mpz_get_si(bytes), rank_of, opt->window,
                                      *plans, err);
    if (st == SSCHED_OK) {
        /* a scan has no target: slot 5 says whether it is exclusive */
        int64_t head[8] = {pb->kind, (int64_t)u->operations, (int64_t)n, (int64_t)nt, (int64_t)N,
                           pb->kind == SSCHED_PROBLEM_SCAN ? pb->exclusive : (int64_t)pb->target,
                           mpz_get_si(bytes), pb->commutative};
        memcpy(h, head, sizeof head);
        size_t at = 8;
        for (size_t a = 0; a < pb->n_sources; a++)
            for (size_t c = 0; c < pb->n_targets; c++)
                if (pb->sources[a] != pb->targets[c]) {
                    h[at] = (int64_t)pb->sources[a];
                    h[at + nt] = (int64_t)pb->targets[c];
                    at++;
                }
        at += nt;
        for (size_t k = 0; k < N; k++)
            h[at++] = (int64_t)pb->participants[k];
        for (size_t r = 0; r < (size_t)size; r++)
            h[at++] = node_of[r];
        char *g = mpq_get_str(NULL, 10, u->fig.makespan);
        *makespan = g ? strdup(g) : NULL;
        void (*freefunc)(void *, size_t);
        mp_get_memory_functions(NULL, NULL, &freefunc);
        if (g)
            freefunc(g, strlen(g) + 1);
        dbl[0] = mpq_get_d(pb->size);
        dbl[1] = mpq_get_d(u->fig.makespan);
        /* paced by default only where the schedule is a timetable the
         * network reproduces: SMPI (time unit = second, as `ssched export
         * simgrid` and --unit-bytes make it) with latencies */
#ifdef SSCHED_SMPI
        int smpi = 1;
#else
        int smpi = 0;
#endif
        dbl[2] = opt->unit_seconds >= 0 ? opt->unit_seconds
                                        : smpi && ssched_platform_has_latency(p) ? 1 : 0;
        if (!*makespan)
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    mpz_clear(bytes);
    free(node_of);
    free(rank_of);
    free(used);
    return st;
}

/* The header into x (every rank). */
static int unpack_header(ssched_mpi_t *x, const int64_t *h, int rank)
{
    x->kind = (ssched_problem_kind_t)h[0];
    x->operations = (size_t)h[1];
    x->n_nodes = (size_t)h[2];
    x->n_types = (size_t)h[3];
    x->n_participants = (size_t)h[4];
    x->msg_bytes = (size_t)h[6];
    x->commutative = h[7] != 0; /* reduce: the combine callback may see any two disjoint sets */
    x->type_origin = malloc((x->n_types + 1) * sizeof *x->type_origin);
    x->type_dest = malloc((x->n_types + 1) * sizeof *x->type_dest);
    if (!x->type_origin || !x->type_dest)
        return 0;
    for (size_t t = 0; t < x->n_types; t++) {
        x->type_origin[t] = (size_t)h[8 + t];
        x->type_dest[t] = (size_t)h[8 + x->n_types + t];
    }
    const int64_t *part = h + 8 + 2 * x->n_types, *node_of = part + x->n_participants;
    x->node = (size_t)node_of[rank];
    for (size_t k = 0; k < x->n_participants; k++)
        if ((size_t)part[k] == x->node)
            x->participant = (long)k;
    /* an all-reduce delivers every result at every participant */
    x->is_target = (x->kind == SSCHED_PROBLEM_REDUCE && (size_t)h[5] == x->node) ||
                   (x->kind == SSCHED_PROBLEM_ALLREDUCE && x->participant >= 0) ||
                   (x->kind == SSCHED_PROBLEM_SCAN && x->participant >= 1);
    x->exclusive = x->kind == SSCHED_PROBLEM_SCAN && h[5] != 0;
    return 1;
}

static ssched_status_t setup(ssched_mpi_t *x, const char *path, const ssched_platform_t *p0,
                             const ssched_problem_t *pb0, const ssched_unrolled_t *u0,
                             MPI_Comm comm, const ssched_mpi_options_t *opt0, ssched_error_t *err)
{
    ssched_mpi_options_t dflt;
    ssched_mpi_options_default(&dflt);
    const ssched_mpi_options_t *opt = opt0 ? opt0 : &dflt;
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    ssched_mpi_free(x);
    ssched_error_t e;
    ssched_error_clear(&e);
    ssched_status_t st = SSCHED_OK;
    int64_t *hdr = NULL;
    size_t hlen = 0;
    char *mk = NULL;
    double dbl[3] = {0, 0, 0};
    mpi_plan_t *plans = NULL;
    ssched_platform_t p;
    ssched_problem_t pb;
    ssched_unrolled_t u;
    ssched_platform_init(&p);
    ssched_problem_init(&pb);
    ssched_unrolled_init(&u);
    if (rank == 0 && path) { /* check once, then read */
        ssched_check_report_t rep;
        if ((st = ssched_check_schedule_file(path, &rep, &e)) == SSCHED_OK) {
            if (!rep.unrolled)
                st = ssched_error_set(&e, SSCHED_EINPUT, "%s: not an unrolled schedule "
                                      "(report.unrolled = 0)", path);
            else if (!rep.valid)
                st = ssched_error_set(&e, SSCHED_EINPUT, "%s: invalid schedule: %s", path,
                                      rep.violation);
        }
        if (st == SSCHED_OK)
            st = ssched_unrolled_read_file(path, &p, &pb, &u, &e);
        p0 = &p, pb0 = &pb, u0 = &u;
    }
    if (rank == 0 && st == SSCHED_OK && (!p0 || !pb0 || !u0))
        st = ssched_error_set(&e, SSCHED_EINPUT, "ssched_mpi_setup: rank 0 needs the schedule");
    if (rank == 0 && st == SSCHED_OK && pb0->kind != SSCHED_PROBLEM_SCATTER &&
        pb0->kind != SSCHED_PROBLEM_GOSSIP && pb0->kind != SSCHED_PROBLEM_REDUCE &&
        pb0->kind != SSCHED_PROBLEM_BROADCAST && pb0->kind != SSCHED_PROBLEM_ALLREDUCE &&
        pb0->kind != SSCHED_PROBLEM_SCAN)
        st = ssched_error_set(&e, SSCHED_EINPUT, "ssched_mpi_setup: %s schedules are not executed "
                              "(scatter, gossip, reduce, broadcast and allreduce are)",
                              ssched_problem_kind_name(pb0->kind));
    /* a multicast's relays (non-targets, switches included) receive and
     * forward copies but deliver nothing: the plan delivers at the
     * problem's targets only */
    if (rank == 0 && st == SSCHED_OK && pb0->kind == SSCHED_PROBLEM_BROADCAST &&
        pb0->n_sources != 1)
        st = ssched_error_set(&e, SSCHED_EINPUT, "ssched_mpi_setup: a broadcast must have one "
                              "source");
    if (rank == 0 && st == SSCHED_OK)
        st = prepare(p0, pb0, u0, size, opt, &hdr, &hlen, &mk, dbl, &plans, &e);
    /* the verdict of rank 0, on every rank */
    e.status = st;
    MPI_Bcast(&e, (int)sizeof e, MPI_BYTE, 0, comm);
    st = e.status;
    if (st == SSCHED_OK) {
        int64_t lens[2] = {(int64_t)hlen, mk ? (int64_t)strlen(mk) + 1 : 0};
        MPI_Bcast(lens, 2, MPI_INT64_T, 0, comm);
        if (rank != 0) {
            hdr = malloc((size_t)lens[0] * sizeof *hdr);
            mk = malloc((size_t)lens[1]);
        }
        int ok = hdr && mk, all = 0;
        MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
        if (!all) {
            st = ssched_error_set(&e, SSCHED_ENOMEM, "out of memory receiving the plan");
        } else {
            MPI_Bcast(hdr, (int)lens[0], MPI_INT64_T, 0, comm);
            MPI_Bcast(mk, (int)lens[1], MPI_CHAR, 0, comm);
            MPI_Bcast(dbl, 3, MPI_DOUBLE, 0, comm);
        }
    }
    x->impl = st == SSCHED_OK ? calloc(1, sizeof *x->impl) : NULL;
    if (st == SSCHED_OK) {
        const int64_t *node_of = hdr + 8 + 2 * hdr[3] + hdr[4];
        int ok = x->impl && unpack_header(x, hdr, rank);
        mpi_plan_t *mine = x->impl ? &x->impl->plan : NULL;
        /* ship each rank its plan: counts and chunk size, the rank's
         * verdict on its memory, then (only if it has room) the arrays */
        for (int r = 1; r < size; r++) {
            mpi_plan_t *pl = &plans[node_of[r]];
            if (rank == 0) {
                int64_t c[5] = {pl->n_ops, pl->n_bufs, pl->n_succ, plan_chunk(), pl->n_xbufs};
                int64_t room = 0;
                MPI_Send(c, 5, MPI_INT64_T, r, 1, comm);
                MPI_Recv(&room, 1, MPI_INT64_T, r, 5, comm, MPI_STATUS_IGNORE);
                if (room) {
                    send_i64(pl->ops, c[0] * O_WIDTH, c[3], r, 2, comm);
                    send_i64(pl->bufs, c[1] * B_WIDTH, c[3], r, 3, comm);
                    send_i64(pl->succ, c[2], c[3], r, 4, comm);
                    send_i64(pl->xbufs, c[4], c[3], r, 6, comm);
                }
            } else if (rank == r) {
                int64_t c[5];
                MPI_Recv(c, 5, MPI_INT64_T, 0, 1, comm, MPI_STATUS_IGNORE);
                int64_t *v[4] = {malloc((size_t)(c[0] * O_WIDTH + 1) * sizeof(int64_t)),
                                 malloc((size_t)(c[1] * B_WIDTH + 1) * sizeof(int64_t)),
                                 malloc((size_t)(c[2] + 1) * sizeof(int64_t)),
                                 malloc((size_t)(c[4] + 1) * sizeof(int64_t))};
                int64_t room = v[0] && v[1] && v[2] && v[3];
                MPI_Send(&room, 1, MPI_INT64_T, 0, 5, comm);
                if (room) {
                    recv_i64(v[0], c[0] * O_WIDTH, c[3], 2, comm);
                    recv_i64(v[1], c[1] * B_WIDTH, c[3], 3, comm);
                    recv_i64(v[2], c[2], c[3], 4, comm);
                    recv_i64(v[3], c[4], c[3], 6, comm);
                } else {
                    ok = 0;
                }
                if (mine && room) {
                    *mine = (mpi_plan_t){c[0], c[1], c[2], c[4], v[0], v[1], v[2], v[3]};
                } else {
                    free(v[0]), free(v[1]), free(v[2]), free(v[3]);
                }
            }
        }
        if (rank == 0 && mine) {
            *mine = plans[node_of[0]];
            memset(&plans[node_of[0]], 0, sizeof plans[0]);
        }
        int all = 0;
        MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
        if (!all)
            st = ssched_error_set(&e, SSCHED_ENOMEM, "out of memory receiving the plan");
    }
    if (st == SSCHED_OK) {
        x->makespan = mk, mk = NULL;
        x->size = dbl[0];
        x->makespan_d = dbl[1];
        x->impl->rank = rank;
        x->impl->size = size;
        x->impl->flops = opt->flops_per_task * x->size;
        x->impl->pace = dbl[2];
        x->unit_seconds = dbl[2];
        x->n_ranks = (size_t)size;
        MPI_Comm_dup(comm, &x->impl->comm);
    } else {
        ssched_mpi_free(x);
        ssched_error_set(err, st, "%s", e.message);
    }
    for (size_t k = 0; plans && rank == 0 && p0 && k < p0->n_nodes; k++)
        ssched_i_mpi_plan_free(&plans[k]);
    free(plans);
    free(hdr);
    free(mk);
    ssched_unrolled_free(&u);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
    return st;
}

ssched_status_t ssched_mpi_setup_file(ssched_mpi_t *x, const char *path, MPI_Comm comm,
                                      const ssched_mpi_options_t *opt, ssched_error_t *err)
{
    return setup(x, path, NULL, NULL, NULL, comm, opt, err);
}

ssched_status_t ssched_mpi_setup(ssched_mpi_t *x, const ssched_platform_t *p,
                                 const ssched_problem_t *pb, const ssched_unrolled_t *u,
                                 MPI_Comm comm, const ssched_mpi_options_t *opt,
                                 ssched_error_t *err)
{
    return setup(x, NULL, p, pb, u, comm, opt, err);
}
