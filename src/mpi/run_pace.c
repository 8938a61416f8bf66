/* Paced runs (run.c): operations wait until t0 + start x pace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SSCHED_SMPI
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/semaphore.h>
#include <smpi/smpi.h>
#endif

#include "src/mpi/run_internal.h"

double ssched_i_mpi_due(const run_t *R, int64_t k)
{
    double s;
    memcpy(&s, &R->pl->ops[k * O_WIDTH + O_START], sizeof s);
    return R->t0 + s * R->im->pace;
}

/* Is time `at` reached at `now`?  (A timer's wake-up may land a rounding
 * error short of it.) */
static int reached(double at, double now)
{
    return at <= now + 1e-12 * (1 + (now < 0 ? -now : now));
}

/* Now, for the paced starts: MPI_Wtime, or later the time of the last
 * timer that fired.  A timer's wake-up may land short of its time by more
 * than a rounding error: in SimGrid 3.32 a sleep shorter than its
 * precision (surf/precision, 1e-9 s) ends at the simulation's next event,
 * whatever it is, and two events of a 1 KB schedule may be 7.6e-10 s
 * apart.  Judged by MPI_Wtime alone the operation was still early and the
 * loop armed a timer for it again; two ranks doing so cut each other's
 * sleeps short, each round moving the clock by the 1.6e-15 s of a wake-up
 * message (measured: a 1 KB gossip on tiers-small at K = 50 did not end in
 * 900 s, a timer actor created per round at one simulated instant).  A
 * timer that fired says its time has come, whatever the clock reads. */
static double now_paced(const run_t *R)
{
    double now = MPI_Wtime();
    return R->fired > now ? R->fired : now;
}

#ifdef SSCHED_SMPI
double ssched_i_mpi_now(const run_t *R)
{
    return now_paced(R);
}
#endif

static void wait_push(run_t *R, int64_t k)
{
    size_t i = R->nwait++;
    double d = ssched_i_mpi_due(R, k);
    while (i > 0 && ssched_i_mpi_due(R, R->wait[(i - 1) / 2]) > d) {
        R->wait[i] = R->wait[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    R->wait[i] = k;
}

static int64_t wait_pop(run_t *R)
{
    int64_t top = R->wait[0], last = R->wait[--R->nwait];
    size_t i = 0, n = R->nwait;
    double d = n ? ssched_i_mpi_due(R, last) : 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && ssched_i_mpi_due(R, R->wait[c + 1]) < ssched_i_mpi_due(R, R->wait[c]))
            c++;
        if (ssched_i_mpi_due(R, R->wait[c]) >= d)
            break;
        R->wait[i] = R->wait[c];
        i = c;
    }
    if (n)
        R->wait[i] = last;
    return top;
}

#ifdef SSCHED_SMPI
typedef struct {
    double at;
    int rank;
    MPI_Comm comm;
} timer_job_t;

/* SMPI: sleep until the time, then wake the rank (zero bytes to itself;
 * MPI_Ssend: a detached send would let the actor end before its message is
 * delivered, and the message end with it, see the metronome below). */
static void timer_actor(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    timer_job_t *j = sg_actor_self_get_data();
    SMPI_thread_create();
    /* the wake-up crosses the host's loopback route (SimGrid files often
     * have one, e.g. 15 us): send that much earlier, so the rank wakes at
     * `at` and not one loopback latency late on every paced event */
    sg_host_t h = sg_host_self();
    sg_actor_sleep_until(j->at - sg_host_get_route_latency(h, h));
    MPI_Ssend(NULL, 0, MPI_BYTE, j->rank, TAG_TIMER, j->comm);
    free(j);
}

/* Arm a timer for `at`, earlier than every armed one. */
void ssched_i_mpi_arm_timer(run_t *R, double at)
{
    timer_job_t *j = malloc(sizeof *j);
    if (!j)
        return (void)(R->nomem = 1), ssched_i_mpi_fail(R, "out of memory");
    *j = (timer_job_t){at, R->im->rank, R->im->comm};
    MPI_Irecv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, TAG_TIMER, R->im->comm,
              ssched_i_mpi_add_req(R, R_TIMER));
    memmove(R->timers + 1, R->timers, R->ntimers++ * sizeof *R->timers);
    R->timers[0] = at;
    sg_actor_t a = sg_actor_init("ssched-timer", sg_host_self());
    sg_actor_set_data(a, j);
    sg_actor_start(a, timer_actor, 0, NULL);
}

/* The metronome (SMPI, paced, host loopback latency L > 0).  A timer
 * armed less than L ahead cannot wake the rank in time (its zero-byte
 * message crosses the loopback route, 600 us on a SimGrid cluster), and
 * with 16 KB segments most events are closer than that: the rank slept
 * blindly to the next due time and saw completions late (a two_clusters
 * reduce ran 1.41 times its plan).  The metronome knows the rank's due
 * times from the start: a helper actor started at t0 sends a tick L before
 * each distinct due time >= t0 + L, so it lands at that time.  Ticks are
 * MPI_Issend (nonblocking: consecutive dues may be closer than L;
 * synchronous: never detached, see below); SMPI's exact
 * configuration is rendezvous (a transfer starts once the receive is
 * posted), so the rank keeps as many receives posted as ticks can be in
 * flight at once (the most dues within one L, plus one): none waits for
 * its receive.  Ticks arrive in order (one source, one latency), so the
 * m-th tick received says dues[m-1] has come (R->fired).
 *
 * Ending: cooperative scheduling, so the actor checks `stop` and counts
 * the tick (sent++) with no simcall in between; the rank, done or
 * aborting, sets stop (and wakes the actor's wait) and is idle once it has
 * received every tick sent.  The actor then waits for its sends (an actor
 * ending with pending comms may cancel them) and whichever of rank and
 * actor finishes last frees the shared state.  That wait only holds if
 * the sends are not detached: under SMPI's default options a send below
 * smpi/send-is-detached-thresh (65536) is detached, its request completes
 * at once, the actor ended right after its last tick and the ticks still
 * undelivered were lost with it (measured, two_clusters all-reduce, 20 KB
 * segments, network/crosstraffic:1 or network/model:SMPI, whose small
 * messages take about 2.6 loopback latencies: rank 0 received 127 of its
 * 159 ticks, none after its metronome ended, and every rank waited in
 * MPI_Waitany for the rest: SimGrid's "Deadlock detected"; with the actor
 * kept alive 0.1 s longer all 159 arrived).  MPI_Issend is never detached
 * and completes once its tick is delivered, under any configuration; in
 * the exact one (nothing detached) it is timed as MPI_Isend (run.c). */
struct metro {
    double *due;      /* sorted distinct due times, each >= t0 + L */
    MPI_Request *rq;  /* the actor's sends, one per tick */
    size_t n, sent, got, posted;
    int stop, refs;
    double lat;
    int rank;
    MPI_Comm comm;
    sg_sem_t sem;     /* released at stop: ends the actor's wait */
};

static void metro_unref(struct metro *m)
{
    if (--m->refs == 0) {
        sg_sem_destroy(m->sem);
        free(m->rq);
        free(m->due);
        free(m);
    }
}

static void metro_actor(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    struct metro *m = sg_actor_self_get_data();
    SMPI_thread_create();
    MPI_Request *rq = m->rq;
    for (size_t i = 0; i < m->n && !m->stop; i++) {
        double left = m->due[i] - m->lat - simgrid_get_clock();
        if (left > 0) /* timed out (or released: stop) */
            sg_sem_acquire_timeout(m->sem, left);
        if (m->stop)
            break;
        m->sent++; /* counted before the send: the rank may run meanwhile */
        MPI_Issend(NULL, 0, MPI_BYTE, m->rank, TAG_METRO, m->comm, &rq[i]);
    }
    MPI_Waitall((int)m->sent, rq, MPI_STATUSES_IGNORE);
    metro_unref(m);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void metro_post(run_t *R)
{
    struct metro *m = R->metro;
    m->posted++;
    MPI_Irecv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, TAG_METRO, R->im->comm,
              ssched_i_mpi_add_req(R, R_METRO));
}

void ssched_i_mpi_metro_start(run_t *R)
{
    sg_host_t h = sg_host_self();
    double lat = sg_host_get_route_latency(h, h);
    if (!(lat > 0))
        return;
    /* each operation's due time, and each computation's scheduled end
     * (run_ops.c compute: a task started at its due time ends on a tick) */
    struct metro *m = calloc(1, sizeof *m);
    double *due = malloc((2 * (size_t)R->pl->n_ops + 1) * sizeof *due);
    if (!m || !due)
        return free(m), free(due); /* the timers serve (slower, not wrong) */
    double wt = R->im->flops / sg_host_get_speed(h);
    size_t n = 0;
    for (int64_t k = 0; k < R->pl->n_ops; k++) {
        int64_t kind = R->pl->ops[k * O_WIDTH + O_KIND];
        double d = ssched_i_mpi_due(R, k);
        if (kind != OP_DELIVER && d >= R->t0 + lat)
            due[n++] = d;
        if (kind == OP_COMP && R->im->flops > 0 && d + wt >= R->t0 + lat)
            due[n++] = d + wt;
    }
    qsort(due, n, sizeof *due, cmp_double);
    size_t w = 0, most = 0;
    for (size_t i = 0, lo = 0; i < n; i++) {
        if (w && due[i] == due[w - 1])
            continue;
        due[w++] = due[i];
        while (due[lo] < due[w - 1] - lat) /* dues in [due - L, due] */
            lo++;
        if (w - lo > most)
            most = w - lo;
    }
    /* (allocated here: without it the rank would count on ticks that
     * never come) */
    MPI_Request *rq = w ? malloc(w * sizeof *rq) : NULL;
    if (!rq)
        return free(m), free(due);
    *m = (struct metro){due, rq, w, 0, 0, 0, 0, 2, lat, R->im->rank, R->im->comm, sg_sem_init(0)};
    R->metro = m;
    R->metro_from = R->t0 + lat;
    for (size_t i = 0; i < most + 1 && i < w; i++)
        metro_post(R);
    sg_actor_t a = sg_actor_init("ssched-metronome", h);
    sg_actor_set_data(a, m);
    sg_actor_start(a, metro_actor, 0, NULL);
}

int ssched_i_mpi_metro_covers(const run_t *R, double t)
{
    const struct metro *m = R->metro;
    if (!m || m->stop)
        return 0;
    size_t lo = m->got, hi = m->n; /* ticks still to come: due[got..n) */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->due[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->n && m->due[lo] == t;
}

void ssched_i_mpi_metro_tick(run_t *R)
{
    struct metro *m = R->metro;
    if (m->due[m->got] > R->fired)
        R->fired = m->due[m->got];
    m->got++;
    if (m->posted < m->n)
        metro_post(R);
}

int ssched_i_mpi_metro_quiet(run_t *R)
{
    struct metro *m = R->metro;
    if (!m->stop) {
        m->stop = 1;
        sg_sem_release(m->sem);
    }
    return m->got == m->sent;
}

void ssched_i_mpi_metro_release(run_t *R)
{
    if (R->metro)
        metro_unref(R->metro);
    R->metro = NULL;
}
#endif

/* Start the ready operations, those of a paced run only once their time
 * has come (the others wait in the heap). */
void ssched_i_mpi_start_ready(run_t *R)
{
    for (;;) {
        while (R->nready && !R->aborting) {
            int64_t k = R->ready[--R->nready];
            if (R->im->pace > 0 && R->pl->ops[k * O_WIDTH + O_KIND] != OP_DELIVER &&
                !reached(ssched_i_mpi_due(R, k), now_paced(R)))
                wait_push(R, k);
            else
                ssched_i_mpi_start(R, k);
        }
        if (R->aborting || !R->nwait)
            return;
        double now = now_paced(R);
        if (!reached(ssched_i_mpi_due(R, R->wait[0]), now))
            return;
        while (R->nwait && reached(ssched_i_mpi_due(R, R->wait[0]), now))
            R->ready[R->nready++] = wait_pop(R);
    }
}

