/* Exact max-flow over Q(eps) for the arborescence packing (see
 * trees/arborescence_internal.h).  Values are pairs a + b*eps compared
 * lexicographically; a plain rational max-flow is the case b = 0. */
#include <stdint.h>
#include <stdlib.h>

#include "src/util/internal.h"
#include "trees/arborescence_internal.h"

void ssched_i_af_val_init(af_val_t *v)
{
    mpq_init(v->a);
    mpq_init(v->b);
}

void ssched_i_af_val_clear(af_val_t *v)
{
    mpq_clear(v->a);
    mpq_clear(v->b);
}

int ssched_i_af_val_cmp(const af_val_t *x, const af_val_t *y)
{
    int c = mpq_cmp(x->a, y->a);
    return c ? c : mpq_cmp(x->b, y->b);
}

static void val_set(af_val_t *d, const af_val_t *s)
{
    mpq_set(d->a, s->a);
    mpq_set(d->b, s->b);
}

static void val_sub(af_val_t *d, const af_val_t *x, const af_val_t *y)
{
    mpq_sub(d->a, x->a, y->a);
    mpq_sub(d->b, x->b, y->b);
}

static void val_add_to(af_val_t *d, const af_val_t *x)
{
    mpq_add(d->a, d->a, x->a);
    mpq_add(d->b, d->b, x->b);
}

static void val_sub_from(af_val_t *d, const af_val_t *x)
{
    mpq_sub(d->a, d->a, x->a);
    mpq_sub(d->b, d->b, x->b);
}

static void val_zero(af_val_t *d)
{
    mpq_set_ui(d->a, 0, 1);
    mpq_set_ui(d->b, 0, 1);
}

static int val_positive(const af_val_t *x)
{
    int s = mpq_sgn(x->a);
    return s ? s > 0 : mpq_sgn(x->b) > 0;
}

ssched_status_t ssched_i_af_net_init(af_net_t *net, size_t n, size_t m, const size_t *from,
                            const size_t *to, const unsigned char *usable, ssched_error_t *err)
{
    net->n = n;
    net->m = m;
    net->from = from;
    net->to = to;
    net->runs = 0;
    net->out_start = calloc(n + 1, sizeof *net->out_start);
    net->in_start = calloc(n + 1, sizeof *net->in_start);
    net->out_list = ssched_i_alloc(m, sizeof *net->out_list);
    net->in_list = ssched_i_alloc(m, sizeof *net->in_list);
    net->cap = ssched_i_alloc(m, sizeof *net->cap);
    net->flow = ssched_i_alloc(m, sizeof *net->flow);
    net->pred = ssched_i_alloc(n, sizeof *net->pred);
    net->queue = ssched_i_alloc(n, sizeof *net->queue);
    net->pred_back = ssched_i_alloc(n, 1);
    net->seen = ssched_i_alloc(n, 1);
    ssched_i_af_val_init(&net->tmp);
    ssched_i_af_val_init(&net->bott);
    if (!net->out_start || !net->in_start || !net->out_list || !net->in_list || !net->cap ||
        !net->flow || !net->pred || !net->queue || !net->pred_back || !net->seen) {
        free(net->cap);
        free(net->flow);
        net->cap = net->flow = NULL;
        ssched_i_af_net_free(net);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t e = 0; e < m; e++) {
        ssched_i_af_val_init(&net->cap[e]);
        ssched_i_af_val_init(&net->flow[e]);
    }
    /* counting sort of the usable arcs by tail and by head */
    for (size_t e = 0; e < m; e++)
        if (usable[e]) {
            net->out_start[from[e] + 1]++;
            net->in_start[to[e] + 1]++;
        }
    for (size_t v = 0; v < n; v++) {
        net->out_start[v + 1] += net->out_start[v];
        net->in_start[v + 1] += net->in_start[v];
    }
    for (size_t e = 0; e < m; e++)
        if (usable[e]) {
            net->out_list[net->out_start[from[e]]++] = e;
            net->in_list[net->in_start[to[e]]++] = e;
        }
    for (size_t v = n; v > 0; v--) {
        net->out_start[v] = net->out_start[v - 1];
        net->in_start[v] = net->in_start[v - 1];
    }
    net->out_start[0] = net->in_start[0] = 0;
    return SSCHED_OK;
}

void ssched_i_af_net_free(af_net_t *net)
{
    if (net->cap)
        for (size_t e = 0; e < net->m; e++) {
            ssched_i_af_val_clear(&net->cap[e]);
            ssched_i_af_val_clear(&net->flow[e]);
        }
    free(net->out_start);
    free(net->in_start);
    free(net->out_list);
    free(net->in_list);
    free(net->cap);
    free(net->flow);
    free(net->pred);
    free(net->queue);
    free(net->pred_back);
    free(net->seen);
    ssched_i_af_val_clear(&net->tmp);
    ssched_i_af_val_clear(&net->bott);
    net->cap = net->flow = NULL;
    net->out_start = net->in_start = net->out_list = net->in_list = NULL;
    net->pred = net->queue = NULL;
    net->pred_back = net->seen = NULL;
}

/* residual capacity of arc e forward (back = 0) or backward into tmp */
static void residual(af_net_t *net, size_t e, int back, af_val_t *out)
{
    if (back)
        val_set(out, &net->flow[e]);
    else
        val_sub(out, &net->cap[e], &net->flow[e]);
}

/* BFS from the sources in the residual network; 1 if the sink is reached */
static int bfs(af_net_t *net, const unsigned char *is_source, size_t sink)
{
    size_t head = 0, tail = 0;
    for (size_t v = 0; v < net->n; v++) {
        net->seen[v] = is_source[v] ? 1 : 0;
        if (is_source[v])
            net->queue[tail++] = v;
    }
    while (head < tail) {
        size_t u = net->queue[head++];
        for (size_t i = net->out_start[u]; i < net->out_start[u + 1]; i++) {
            size_t e = net->out_list[i], w = net->to[e];
            if (net->seen[w] || ssched_i_af_val_cmp(&net->cap[e], &net->flow[e]) <= 0)
                continue;
            net->seen[w] = 1;
            net->pred[w] = e;
            net->pred_back[w] = 0;
            if (w == sink)
                return 1;
            net->queue[tail++] = w;
        }
        for (size_t i = net->in_start[u]; i < net->in_start[u + 1]; i++) {
            size_t e = net->in_list[i], w = net->from[e];
            if (net->seen[w] || !val_positive(&net->flow[e]))
                continue;
            net->seen[w] = 1;
            net->pred[w] = e;
            net->pred_back[w] = 1;
            if (w == sink)
                return 1;
            net->queue[tail++] = w;
        }
    }
    return 0;
}

int ssched_i_af_maxflow(af_net_t *net, const unsigned char *is_source, size_t sink, const af_val_t *limit,
               af_val_t *value, unsigned char *sink_side)
{
    net->runs++;
    for (size_t v = 0; v < net->n; v++)
        for (size_t i = net->out_start[v]; i < net->out_start[v + 1]; i++)
            val_zero(&net->flow[net->out_list[i]]);
    val_zero(value);
    while (bfs(net, is_source, sink)) {
        /* bottleneck of the path, then push it */
        int first = 1;
        for (size_t w = sink; !is_source[w];) {
            size_t e = net->pred[w];
            residual(net, e, net->pred_back[w], &net->tmp);
            if (first || ssched_i_af_val_cmp(&net->tmp, &net->bott) < 0)
                val_set(&net->bott, &net->tmp);
            first = 0;
            w = net->pred_back[w] ? net->to[e] : net->from[e];
        }
        for (size_t w = sink; !is_source[w];) {
            size_t e = net->pred[w];
            if (net->pred_back[w])
                val_sub_from(&net->flow[e], &net->bott);
            else
                val_add_to(&net->flow[e], &net->bott);
            w = net->pred_back[w] ? net->to[e] : net->from[e];
        }
        val_add_to(value, &net->bott);
        if (limit && ssched_i_af_val_cmp(value, limit) > 0)
            return 1;
    }
    if (sink_side) {
        /* reverse BFS: u reaches the sink if a residual arc u -> w exists
         * with w already known to reach it */
        size_t head = 0, tail = 0;
        for (size_t v = 0; v < net->n; v++)
            sink_side[v] = 0;
        sink_side[sink] = 1;
        net->queue[tail++] = sink;
        while (head < tail) {
            size_t w = net->queue[head++];
            for (size_t i = net->in_start[w]; i < net->in_start[w + 1]; i++) {
                size_t e = net->in_list[i], u = net->from[e];
                if (!sink_side[u] && ssched_i_af_val_cmp(&net->cap[e], &net->flow[e]) > 0) {
                    sink_side[u] = 1;
                    net->queue[tail++] = u;
                }
            }
            for (size_t i = net->out_start[w]; i < net->out_start[w + 1]; i++) {
                size_t e = net->out_list[i], u = net->to[e];
                if (!sink_side[u] && val_positive(&net->flow[e])) {
                    sink_side[u] = 1;
                    net->queue[tail++] = u;
                }
            }
        }
    }
    return 0;
}
