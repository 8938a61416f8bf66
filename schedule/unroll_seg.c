/* Segments (issue 23): K element-wise operations of size z cut into p
 * segments, planned and unrolled as K*p operations of size z/p
 * (schedule.h: ssched_unroll_segments).  MPI's pipelined and
 * reduce-scatter + all-gather algorithms rest on the same fact: an
 * all-reduce (reduce, broadcast) of m elements is m independent ones of
 * one element, so the K*p segment operations, each delivered whole to
 * every destination, are exactly the K operations; each may follow its
 * own tree, root and pattern.
 *
 * Model of a segment: transfers take (z/p)*c(e) + l(e) (every segment pays
 * each latency), a merge takes w/p (the task time w is for a whole message
 * of the file; the executor runs flops_per_task x size flops per task, the
 * same 1/p).  The file says "segments": p; `ssched check` verifies that p
 * divides "operations" (the segment operations j*p .. j*p+p-1 are
 * operation j) and everything else as for any unrolled file.
 *
 * Claim (the bound the segmented file states and the bench compares with):
 * let TP be the certified throughput of the ORIGINAL problem (size z, task
 * times w) and TP_p that of the segment problem (z/p, w/p).  Then
 *   (a) TP_p = p * TP exactly, so the file's steady_time K*p / TP_p = K / TP;
 *   (b) every schedule of the K original operations, cut into segments or
 *       pieces or not, has makespan M >= K / TP;
 *   (c) every schedule moving each of the p segments of every operation
 *       whole (the schedules built here) has M >= LB1(z/p), so the file's
 *       lower_bound max(K*p/TP_p, LB1(z/p)) = max(K/TP, LB1(z/p)) bounds
 *       every segmented schedule, and K/TP every schedule at all.
 * Proof.  (a) The steady-state LP's constraints are linear in the
 * per-operation costs: every port/link row is sum(rate * size * c) <= 1,
 * every processor row sum(rate * w) <= 1, conservation is homogeneous.
 * Dividing size and every w by p maps a feasible point of throughput T of
 * one LP to the point with every rate times p, of throughput p*T, of the
 * other, and back: the optima are TP and p*TP (the certificate of each is
 * checked exactly, so this is an identity of the certified values, not a
 * float one).  (b) Averaging a schedule of the K operations over [0, M]:
 * every element of every operation is moved and merged, amounts in bytes
 * are what the LP counts (fractions allowed), so K/M is a feasible
 * throughput of the original LP (unroll_lb.c, part K/TP, whose argument
 * never uses that messages move whole): M >= K/TP.  (c) Each segment
 * operation of a segmented schedule is one operation of the segment
 * problem moved whole, so unroll_lb.c's LB1 argument (whole messages and
 * reduce values) applies to it with size z/p.  QED.
 * The bound LB1(z) of a whole-message operation is NOT a bound here (a
 * segmented schedule pipelines the segments of one operation through a
 * chain), which is why the file restates LB1 for a segment. */
#include "schedule/internal.h"
#include "src/util/internal.h"

int ssched_unroll_segmentable(ssched_problem_kind_t kind)
{
    /* element-wise: the result for an element depends on that element of
     * each value only (scatter and gossip messages are already cut into
     * pieces by the unrolling; a scan is left whole) */
    return kind == SSCHED_PROBLEM_ALLREDUCE || kind == SSCHED_PROBLEM_REDUCE ||
           kind == SSCHED_PROBLEM_BROADCAST;
}

ssched_status_t ssched_unroll_segments(ssched_platform_t *p, ssched_problem_t *pb,
                                       unsigned long segments, ssched_error_t *err)
{
    if (segments < 1)
        return ssched_error_set(err, SSCHED_EINPUT, "segments: must be at least 1");
    if (segments == 1)
        return SSCHED_OK;
    if (!ssched_unroll_segmentable(pb->kind))
        return ssched_error_set(err, SSCHED_EINPUT, "segments: only an all-reduce, a reduce or a "
                                "broadcast is cut into segments (element-wise operations)");
    mpq_t q;
    mpq_init(q);
    mpq_set_ui(q, 1, segments);
    mpq_mul(pb->size, pb->size, q);
    for (size_t v = 0; v < p->n_nodes; v++)
        mpq_mul(p->w[v], p->w[v], q);
    mpq_clear(q);
    return SSCHED_OK;
}
