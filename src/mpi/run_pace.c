/* Paced runs (run.c): operations wait until t0 + start x pace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SSCHED_SMPI
#include <simgrid/actor.h>
#include <simgrid/host.h>
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

/* SMPI: sleep until the time, then wake the rank (zero bytes to itself). */
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
    MPI_Send(NULL, 0, MPI_BYTE, j->rank, TAG_TIMER, j->comm);
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

