/* Measured networks in (issue 23 item 4): a bandwidth/latency matrix as a
 * routed platform in which every ordered pair has its own SHARED link
 * (seed 003's model: start-up T_ij plus m / B_ij).  The grammar is in
 * ssched/platform.h; everything is exact; errors say FILE:LINE. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ssched/rational.h"
#include "src/platform/name_index.h"
#include "src/platform/platform_internal.h"

typedef struct {
    const char *path;
    long line;
    ssched_error_t *err;
    ssched_platform_t *p;
    ssched_name_index_t hosts; /* name -> node index */
    mpq_srcptr unit, flops;
    long *edge_line;           /* the line of each edge, for duplicates */
    size_t edge_line_cap;
} matrix_t;

static ssched_status_t fail(matrix_t *m, const char *fmt, ...)
{
    char msg[sizeof m->err->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ssched_error_set(m->err, SSCHED_EINPUT, "%s:%ld: %s", m->path, m->line, msg);
}

typedef enum { Q_BANDWIDTH, Q_LATENCY, Q_SPEED } quantity_t;

/* scale := the factor of a unit prefix (k M G T P E, Ki ... Ei); returns
 * the prefix length, 0 for none. */
static size_t prefix(const char *u, mpq_t scale)
{
    static const char letters[] = "kMGTPE";
    const char *at = *u ? strchr(letters, *u) : NULL;
    mpq_set_ui(scale, 1, 1);
    if (!at && *u == 'K' && u[1] == 'i')
        at = letters;
    if (!at)
        return 0;
    unsigned power = (unsigned)(at - letters) + 1;
    mpz_t z;
    mpz_init(z);
    size_t len = 1;
    if (u[1] == 'i') {
        mpz_ui_pow_ui(z, 2, 10 * power);
        len = 2;
    } else {
        mpz_ui_pow_ui(z, 10, 3 * power);
    }
    mpq_set_z(scale, z);
    mpz_clear(z);
    return len;
}

/* The unit `u` of quantity q as a factor to the base unit (B/s, s, flop/s);
 * 0 if unknown. */
static int unit_scale(const char *u, quantity_t q, mpq_t scale)
{
    if (!*u) {
        mpq_set_ui(scale, 1, 1);
        return 1;
    }
    if (q == Q_LATENCY) {
        static const struct { const char *name; unsigned long num, den; } times[] = {
            {"w", 604800, 1}, {"d", 86400, 1}, {"h", 3600, 1}, {"m", 60, 1}, {"s", 1, 1},
            {"ms", 1, 1000}, {"us", 1, 1000000}, {"ns", 1, 1000000000},
            {"ps", 1, 1000000000000UL}};
        for (size_t k = 0; k < sizeof times / sizeof *times; k++)
            if (!strcmp(u, times[k].name)) {
                mpq_set_ui(scale, times[k].num, times[k].den);
                mpq_canonicalize(scale);
                return 1;
            }
        return 0;
    }
    size_t n = prefix(u, scale);
    const char *base = u + n;
    if (q == Q_BANDWIDTH && !strcmp(base, "Bps"))
        return 1;
    if (q == Q_BANDWIDTH && !strcmp(base, "bps")) {
        mpq_t eighth;
        mpq_init(eighth);
        mpq_set_ui(eighth, 1, 8);
        mpq_mul(scale, scale, eighth);
        mpq_clear(eighth);
        return 1;
    }
    return q == Q_SPEED && (!strcmp(base, "f") || !strcmp(base, "flops"));
}

/* A number with its unit, exact, > 0 (>= 0 for a latency). */
static ssched_status_t quantity(matrix_t *m, const char *text, quantity_t q, mpq_t out)
{
    static const char *const what[] = {"bandwidth", "latency", "speed"};
    size_t end = 0, n = strlen(text);
    /* the number: digits, signs, '.', '/', and an exponent 'e' or 'E' only
     * when a digit (or a sign then a digit) follows (1EBps is exa) */
    while (end < n) {
        char ch = text[end];
        if (isdigit((unsigned char)ch) || ch == '.' || ch == '/' || ch == '+' || ch == '-') {
            end++;
        } else if ((ch == 'e' || ch == 'E') &&
                   (isdigit((unsigned char)text[end + 1]) ||
                    ((text[end + 1] == '+' || text[end + 1] == '-') &&
                     isdigit((unsigned char)text[end + 2])))) {
            end += 2;
        } else {
            break;
        }
    }
    char number[128];
    if (end == 0 || end >= sizeof number)
        return fail(m, "%s '%s' is not a number with a unit", what[q], text);
    memcpy(number, text, end);
    number[end] = '\0';
    const char *unit = text + end;
    while (*unit == ' ')
        unit++;
    mpq_t scale;
    mpq_init(scale);
    ssched_status_t st = SSCHED_OK;
    if (ssched_rational_parse(out, number, NULL) != SSCHED_OK)
        st = fail(m, "%s '%s' is not a number with a unit", what[q], text);
    else if (!unit_scale(unit, q, scale))
        st = fail(m, "%s '%s': unknown unit '%s' (%s)", what[q], text, unit,
                  q == Q_BANDWIDTH ? "Bps or bps with a prefix k M G T P E Ki ... Ei"
                  : q == Q_LATENCY ? "w d h m s ms us ns ps"
                                   : "f or flops with a prefix");
    else if (mpq_sgn(out) < 0 || (q != Q_LATENCY && mpq_sgn(out) == 0))
        st = fail(m, "%s '%s' must be %s", what[q], text,
                  q == Q_LATENCY ? "non-negative" : "positive");
    else
        mpq_mul(out, out, scale);
    mpq_clear(scale);
    return st;
}

/* Split line (modified in place) at `sep` into at most max trimmed fields. */
static size_t split(char *line, char sep, char **field, size_t max)
{
    size_t n = 0;
    for (char *s = line;; s++) {
        char *end = strchr(s, sep);
        if (end)
            *end = '\0';
        while (isspace((unsigned char)*s))
            s++;
        size_t len = strlen(s);
        while (len && isspace((unsigned char)s[len - 1]))
            s[--len] = '\0';
        if (n < max)
            field[n] = s;
        n++;
        if (!end)
            break;
        s = end;
    }
    return n;
}

static int find(const matrix_t *m, const char *name, size_t *index)
{
    *index = ssched_i_name_index_find(&m->hosts, (const char *const *)m->p->names, name);
    return *index != (size_t)-1;
}

static ssched_status_t host(matrix_t *m, const char *name, size_t *index)
{
    if (!*name)
        return fail(m, "empty host name");
    for (const char *s = name; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return fail(m, "host name with a control character");
    if (find(m, name, index))
        return SSCHED_OK;
    ssched_status_t st = ssched_i_platform_add_node_new(m->p, name, NULL, index, m->err);
    if (st == SSCHED_OK &&
        ssched_i_name_index_add(&m->hosts, (const char *const *)m->p->names, *index, NULL) < 0)
        st = ssched_error_set(m->err, SSCHED_ENOMEM, "out of memory");
    return st;
}

/* The pair from -> to over its own link "from->to". */
static ssched_status_t pair(matrix_t *m, const char *from, const char *to, const char *bw_text,
                            const char *lat_text)
{
    size_t a, b, link;
    mpq_t bw, lat;
    mpq_inits(bw, lat, NULL);
    ssched_status_t st = host(m, from, &a);
    if (st == SSCHED_OK)
        st = host(m, to, &b);
    if (st == SSCHED_OK && a == b)
        st = fail(m, "a pair from '%s' to itself", from);
    if (st == SSCHED_OK)
        st = quantity(m, bw_text, Q_BANDWIDTH, bw);
    if (st == SSCHED_OK)
        st = quantity(m, lat_text, Q_LATENCY, lat);
    size_t len = strlen(from) + strlen(to) + 3;
    char *name = st == SSCHED_OK ? malloc(len) : NULL;
    if (st == SSCHED_OK && !name)
        st = ssched_error_set(m->err, SSCHED_ENOMEM, "out of memory");
    if (st == SSCHED_OK) {
        snprintf(name, len, "%s->%s", from, to);
        mpq_inv(bw, bw);
        mpq_mul(bw, bw, m->unit); /* link_c = unit_bytes / bandwidth */
        st = ssched_platform_add_link(m->p, name, bw, lat, SSCHED_LINK_SHARED, &link, m->err);
    }
    if (st == SSCHED_OK && m->p->n_edges == m->edge_line_cap) {
        size_t cap = m->edge_line_cap ? 2 * m->edge_line_cap : 64;
        long *grown = realloc(m->edge_line, cap * sizeof *grown);
        if (!grown)
            st = ssched_error_set(m->err, SSCHED_ENOMEM, "out of memory");
        else {
            m->edge_line = grown;
            m->edge_line_cap = cap;
        }
    }
    if (st == SSCHED_OK) {
        m->edge_line[m->p->n_edges] = m->line;
        st = ssched_platform_add_routed_edge(m->p, a, b, &link, 1, m->err);
    }
    free(name);
    mpq_clears(bw, lat, NULL);
    return st;
}

static ssched_status_t speed(matrix_t *m, const char *name, const char *text)
{
    size_t a;
    mpq_t s;
    mpq_init(s);
    ssched_status_t st = host(m, name, &a);
    if (st == SSCHED_OK)
        st = quantity(m, text, Q_SPEED, s);
    if (st == SSCHED_OK && m->p->has_w[a])
        st = fail(m, "host '%s': a second speed", name);
    if (st == SSCHED_OK) {
        mpq_inv(s, s);
        mpq_mul(m->p->w[a], s, m->flops);
        m->p->has_w[a] = 1;
    }
    mpq_clear(s);
    return st;
}

/* One line of the square form (row > 0; header = the host names). */
static ssched_status_t square_row(matrix_t *m, char **field, size_t n, char **header,
                                  size_t hosts)
{
    if (n != hosts + 1)
        return fail(m, "%zu fields where the header has %zu", n, hosts + 1);
    size_t row;
    if (!find(m, field[0], &row))
        return fail(m, "row '%s' is not a host of the header", field[0]);
    for (size_t j = 0; j < hosts; j++) {
        char *cell = field[j + 1];
        if (j == row || !*cell || !strcmp(cell, "-"))
            continue;
        char *lat = strrchr(cell, ' ');
        if (!lat)
            return fail(m, "cell %s -> %s: expected \"BANDWIDTH LATENCY\"", field[0], header[j]);
        *lat++ = '\0';
        ssched_status_t st = pair(m, field[0], header[j], cell, lat);
        if (st != SSCHED_OK)
            return st;
    }
    return SSCHED_OK;
}

/* A pair given twice: the later line names it (pairs sorted). */
typedef struct {
    size_t from, to;
    long line;
} pair_line_t;

static int cmp_pair(const void *x, const void *y)
{
    const pair_line_t *a = x, *b = y;
    if (a->from != b->from)
        return a->from < b->from ? -1 : 1;
    if (a->to != b->to)
        return a->to < b->to ? -1 : 1;
    return (a->line > b->line) - (a->line < b->line);
}

static ssched_status_t duplicates(matrix_t *m)
{
    const ssched_platform_t *p = m->p;
    pair_line_t *v = ssched_i_alloc(p->n_edges, sizeof *v);
    if (!v)
        return ssched_error_set(m->err, SSCHED_ENOMEM, "out of memory");
    for (size_t e = 0; e < p->n_edges; e++)
        v[e] = (pair_line_t){p->from[e], p->to[e], m->edge_line[e]};
    qsort(v, p->n_edges, sizeof *v, cmp_pair);
    size_t later = (size_t)-1;
    for (size_t k = 1; k < p->n_edges; k++)
        if (v[k - 1].from == v[k].from && v[k - 1].to == v[k].to &&
            (later == (size_t)-1 || v[k].line < v[later].line))
            later = k;
    ssched_status_t st = SSCHED_OK;
    if (later != (size_t)-1) {
        m->line = v[later].line;
        st = fail(m, "the pair %s -> %s is given twice", p->names[v[later].from],
                  p->names[v[later].to]);
    }
    free(v);
    return st;
}

static ssched_status_t read_lines(matrix_t *m, FILE *f)
{
    char *line = NULL, **header = NULL;
    size_t cap = 0, hosts = 0, fields_cap = 0;
    char **field = NULL;
    int square = 0, first = 1, any = 0;
    ssched_status_t st = SSCHED_OK;
    ssize_t got;
    while (st == SSCHED_OK && (got = getline(&line, &cap, f)) >= 0) {
        m->line++;
        if ((size_t)got != strlen(line)) {
            st = fail(m, "a NUL byte in the line");
            break;
        }
        line[strcspn(line, "\r\n")] = '\0';
        char *s = line;
        while (isspace((unsigned char)*s))
            s++;
        if (!*s || *s == '#')
            continue;
        size_t commas = 1;
        for (const char *c = s; *c; c++)
            commas += *c == ',';
        if (commas > fields_cap) {
            free(field);
            fields_cap = commas;
            field = ssched_i_alloc(fields_cap, sizeof *field);
            if (!field) {
                st = ssched_error_set(m->err, SSCHED_ENOMEM, "out of memory");
                break;
            }
        }
        size_t n = split(s, ',', field, fields_cap);
        if (first && !strcmp(field[0], "matrix")) {
            square = 1;
            hosts = n - 1;
            header = ssched_i_calloc(hosts, sizeof *header); /* freed up to hosts */
            if (!header) {
                st = ssched_error_set(m->err, SSCHED_ENOMEM, "out of memory");
                break;
            }
            for (size_t j = 0; j < hosts && st == SSCHED_OK; j++) {
                size_t index;
                header[j] = strdup(field[j + 1]);
                if (!header[j]) {
                    hosts = j;
                    st = ssched_error_set(m->err, SSCHED_ENOMEM, "out of memory");
                } else if (*header[j] && find(m, header[j], &index)) {
                    st = fail(m, "host '%s' twice in the header", header[j]);
                } else {
                    st = host(m, header[j], &index);
                }
            }
        } else if (square) {
            st = square_row(m, field, n, header, hosts);
            any = 1;
        } else if (first && n == 4 && !strcasecmp(field[0], "from") &&
                   !strcasecmp(field[1], "to")) {
            /* the header line */
        } else if (n == 4) {
            st = pair(m, field[0], field[1], field[2], field[3]);
            any = 1;
        } else if (n == 2) {
            st = speed(m, field[0], field[1]);
        } else {
            st = fail(m, "%zu fields: expected FROM,TO,BANDWIDTH,LATENCY or NAME,SPEED", n);
        }
        first = 0;
    }
    if (st == SSCHED_OK && ferror(f))
        st = ssched_error_set(m->err, SSCHED_EINPUT, "%s: read error", m->path);
    if (st == SSCHED_OK && !any)
        st = ssched_error_set(m->err, SSCHED_EINPUT, "%s: no pair: the matrix is empty", m->path);
    if (st == SSCHED_OK)
        st = duplicates(m);
    for (size_t j = 0; j < hosts; j++)
        free(header[j]);
    free(header);
    free(field);
    free(line);
    return st;
}

ssched_status_t ssched_i_matrix_read(ssched_platform_t *p, const char *path,
                                     mpq_srcptr unit_bytes, mpq_srcptr flops_per_task,
                                     ssched_error_t *err)
{
    ssched_error_t local;
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    ssched_platform_t tmp;
    ssched_platform_init(&tmp);
    matrix_t m = {strcmp(path, "-") ? path : "<stdin>", 0, err ? err : &local, &tmp, {0},
                  unit_bytes ? unit_bytes : one, flops_per_task ? flops_per_task : one, NULL, 0};
    ssched_i_name_index_init(&m.hosts);
    FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
    ssched_status_t st;
    if (!f) {
        st = ssched_error_set(m.err, SSCHED_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    } else {
        st = ssched_platform_make_routed(&tmp, m.err);
        if (st == SSCHED_OK)
            st = read_lines(&m, f);
        if (f != stdin)
            fclose(f);
    }
    if (st == SSCHED_OK && (st = ssched_platform_finalize(&tmp, m.err)) != SSCHED_OK) {
        char msg[sizeof m.err->message];
        snprintf(msg, sizeof msg, "%s", m.err->message);
        st = ssched_error_set(m.err, st, "%s: %s", m.path, msg);
    }
    if (st == SSCHED_OK) {
        ssched_platform_free(p);
        *p = tmp;
    } else {
        ssched_platform_free(&tmp);
    }
    ssched_i_name_index_free(&m.hosts);
    free(m.edge_line);
    mpq_clear(one);
    return st;
}
