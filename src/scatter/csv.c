/* CSV loader for scatter platforms: the linear/affine per-processor format
 * (seed 004's Table 1: name,cpu,mu,lambda, optional mu0,lambda0) and the
 * per-processor time tables (name,items,comm,comp).  Every number is parsed
 * exactly; every error names the file and the line. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "src/scatter/internal.h"
#include "ssched/rational.h"

enum { COL_NAME, COL_MU, COL_LAMBDA, COL_MU0, COL_LAMBDA0, COL_CPU, COL_ITEMS, COL_COMM,
       COL_COMP, COL_COUNT };
static const char *const col_names[COL_COUNT] = {"name", "mu",    "lambda", "mu0", "lambda0",
                                                 "cpu",  "items", "comm",   "comp"};
#define MAX_FIELDS 32

typedef struct {
    const char *path;
    ssched_error_t *err;
} ctx_t;

/* Split line (modified in place) at commas into trimmed fields. */
static int split_fields(char *line, char **fields, int max)
{
    int n = 0;
    char *s = line;
    for (;;) {
        char *comma = strchr(s, ',');
        if (comma)
            *comma = '\0';
        while (isspace((unsigned char)*s))
            s++;
        char *e = s + strlen(s);
        while (e > s && isspace((unsigned char)e[-1]))
            *--e = '\0';
        if (n == max)
            return -1;
        fields[n++] = s;
        if (!comma)
            return n;
        s = comma + 1;
    }
}

static int is_blank_or_comment(const char *line)
{
    while (isspace((unsigned char)*line))
        line++;
    return *line == '\0' || *line == '#';
}

/* Exact non-negative number of column `col` on line `lineno`. */
static ssched_status_t parse_time(const ctx_t *c, long lineno, const char *col, const char *text,
                                  mpq_t out)
{
    ssched_error_t e;
    ssched_error_clear(&e);
    if (ssched_rational_parse(out, text, &e) != SSCHED_OK)
        return ssched_error_set(c->err, SSCHED_EINPUT, "%s:%ld: column %s: %s", c->path, lineno,
                                col, e.message);
    if (mpq_sgn(out) < 0)
        return ssched_error_set(c->err, SSCHED_EINPUT, "%s:%ld: negative %s '%s'", c->path,
                                lineno, col, text);
    return SSCHED_OK;
}

/* ---- per-processor tables being accumulated --------------------------- */

typedef struct {
    char *name;
    size_t n, cap;
    long *xs;
    mpq_t *comm, *comp;
} table_acc_t;

static void table_acc_free(table_acc_t *t, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        for (size_t k = 0; k < t[i].n; k++) {
            mpq_clear(t[i].comm[k]);
            mpq_clear(t[i].comp[k]);
        }
        free(t[i].name);
        free(t[i].xs);
        free(t[i].comm);
        free(t[i].comp);
    }
    free(t);
}

static int table_acc_push(table_acc_t *t, long x, const mpq_t cm, const mpq_t cp)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 8;
        long *xs = realloc(t->xs, cap * sizeof *xs);
        if (!xs)
            return 0;
        t->xs = xs;
        mpq_t *a = realloc(t->comm, cap * sizeof *a);
        if (!a)
            return 0;
        t->comm = a;
        mpq_t *b = realloc(t->comp, cap * sizeof *b);
        if (!b)
            return 0;
        t->comp = b;
        t->cap = cap;
    }
    t->xs[t->n] = x;
    mpq_init(t->comm[t->n]);
    mpq_init(t->comp[t->n]);
    mpq_set(t->comm[t->n], cm);
    mpq_set(t->comp[t->n], cp);
    t->n++;
    return 1;
}

/* ---- the reader --------------------------------------------------------- */

typedef struct {
    int col[COL_COUNT]; /* field index of each known column, -1 if absent */
    int nfields;
    int tables;         /* 1: name,items,comm,comp */
} header_t;

static ssched_status_t parse_header(const ctx_t *c, long lineno, char **fields, int nf,
                                    header_t *h)
{
    for (int k = 0; k < COL_COUNT; k++)
        h->col[k] = -1;
    h->nfields = nf;
    for (int f = 0; f < nf; f++) {
        int k = 0;
        while (k < COL_COUNT && strcasecmp(fields[f], col_names[k]))
            k++;
        if (k == COL_COUNT)
            return ssched_error_set(c->err, SSCHED_EINPUT,
                                    "%s:%ld: unknown column '%s' (expected name,mu,lambda[,mu0,"
                                    "lambda0][,cpu] or name,items,comm,comp)",
                                    c->path, lineno, fields[f]);
        if (h->col[k] >= 0)
            return ssched_error_set(c->err, SSCHED_EINPUT, "%s:%ld: duplicate column '%s'",
                                    c->path, lineno, fields[f]);
        h->col[k] = f;
    }
    h->tables = h->col[COL_ITEMS] >= 0 || h->col[COL_COMM] >= 0 || h->col[COL_COMP] >= 0;
    static const int lin_req[] = {COL_NAME, COL_MU, COL_LAMBDA};
    static const int tab_req[] = {COL_NAME, COL_ITEMS, COL_COMM, COL_COMP};
    const int *req = h->tables ? tab_req : lin_req;
    int nreq = h->tables ? 4 : 3;
    for (int r = 0; r < nreq; r++)
        if (h->col[req[r]] < 0)
            return ssched_error_set(c->err, SSCHED_EINPUT, "%s:%ld: missing column '%s'",
                                    c->path, lineno, col_names[req[r]]);
    if (h->tables)
        for (int k = COL_MU; k <= COL_CPU; k++)
            if (h->col[k] >= 0)
                return ssched_error_set(c->err, SSCHED_EINPUT,
                                        "%s:%ld: column '%s' cannot be mixed with table columns "
                                        "items,comm,comp",
                                        c->path, lineno, col_names[k]);
    return SSCHED_OK;
}

/* One row of the linear/affine format: add the processor right away. */
static ssched_status_t linear_row(const ctx_t *c, long lineno, char **f, const header_t *h,
                                  ssched_sb_platform_t *pl)
{
    const char *name = f[h->col[COL_NAME]];
    if (!name[0])
        return ssched_error_set(c->err, SSCHED_EINPUT, "%s:%ld: empty processor name", c->path,
                                lineno);
    if (ssched_sb_platform_find(pl, name) >= 0)
        return ssched_error_set(c->err, SSCHED_EINPUT, "%s:%ld: duplicate processor name '%s'",
                                c->path, lineno, name);
    mpq_t v[4];
    for (int k = 0; k < 4; k++)
        mpq_init(v[k]);
    static const int cols[4] = {COL_MU, COL_LAMBDA, COL_MU0, COL_LAMBDA0};
    ssched_status_t st = SSCHED_OK;
    for (int k = 0; k < 4 && st == SSCHED_OK; k++)
        if (h->col[cols[k]] >= 0)
            st = parse_time(c, lineno, col_names[cols[k]], f[h->col[cols[k]]], v[k]);
    if (st == SSCHED_OK) {
        ssched_sb_cost_t comm, comp;
        ssched_sb_cost_init_affine(&comm, v[1], v[3], NULL); /* all >= 0: cannot fail */
        ssched_sb_cost_init_affine(&comp, v[0], v[2], NULL);
        st = ssched_sb_platform_add(pl, name, &comm, &comp, c->err);
        if (st != SSCHED_OK)
            ssched_error_prefix(c->err, "%s:%ld: ", c->path, lineno);
        ssched_sb_cost_free(&comm);
        ssched_sb_cost_free(&comp);
    }
    for (int k = 0; k < 4; k++)
        mpq_clear(v[k]);
    return st;
}

/* One row of the table format: append the point to its processor. */
static ssched_status_t table_row(const ctx_t *c, long lineno, char **f, const header_t *h,
                                 table_acc_t **tabs, size_t *ntabs, size_t *cap)
{
    const char *name = f[h->col[COL_NAME]];
    if (!name[0])
        return ssched_error_set(c->err, SSCHED_EINPUT, "%s:%ld: empty processor name", c->path,
                                lineno);
    const char *xt = f[h->col[COL_ITEMS]];
    char *end;
    errno = 0;
    long x = strtol(xt, &end, 10);
    if (!xt[0] || *end || errno || x < 0)
        return ssched_error_set(c->err, SSCHED_EINPUT,
                                "%s:%ld: column items: '%s' is not a non-negative integer",
                                c->path, lineno, xt);
    size_t i = 0;
    while (i < *ntabs && strcmp((*tabs)[i].name, name))
        i++;
    if (i == *ntabs) {
        if (x != 0)
            return ssched_error_set(c->err, SSCHED_EINPUT,
                                    "%s:%ld: the table of '%s' must start at 0 items", c->path,
                                    lineno, name);
        if (*ntabs == *cap) {
            size_t nc = *cap ? 2 * *cap : 8;
            table_acc_t *nt = realloc(*tabs, nc * sizeof *nt);
            if (!nt)
                return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
            *tabs = nt;
            *cap = nc;
        }
        memset(&(*tabs)[i], 0, sizeof **tabs);
        (*tabs)[i].name = strdup(name);
        (*ntabs)++;
        if (!(*tabs)[i].name)
            return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    } else if (x <= (*tabs)[i].xs[(*tabs)[i].n - 1]) {
        return ssched_error_set(c->err, SSCHED_EINPUT,
                                "%s:%ld: item counts of '%s' must increase (%ld after %ld)",
                                c->path, lineno, name, x, (*tabs)[i].xs[(*tabs)[i].n - 1]);
    }
    mpq_t cm, cp;
    mpq_init(cm);
    mpq_init(cp);
    ssched_status_t st = parse_time(c, lineno, "comm", f[h->col[COL_COMM]], cm);
    if (st == SSCHED_OK)
        st = parse_time(c, lineno, "comp", f[h->col[COL_COMP]], cp);
    if (st == SSCHED_OK && !table_acc_push(&(*tabs)[i], x, cm, cp))
        st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    mpq_clear(cm);
    mpq_clear(cp);
    return st;
}

static ssched_status_t tables_to_platform(const ctx_t *c, table_acc_t *tabs, size_t ntabs,
                                          ssched_sb_platform_t *pl)
{
    ssched_status_t st = SSCHED_OK;
    for (size_t i = 0; i < ntabs && st == SSCHED_OK; i++) {
        ssched_sb_cost_t comm, comp;
        st = ssched_sb_cost_init_table(&comm, tabs[i].n, tabs[i].xs, tabs[i].comm, c->err);
        if (st == SSCHED_OK)
            st = ssched_sb_cost_init_table(&comp, tabs[i].n, tabs[i].xs, tabs[i].comp, c->err);
        else
            ssched_i_sb_cost_init_zero(&comp);
        if (st == SSCHED_OK)
            st = ssched_sb_platform_add(pl, tabs[i].name, &comm, &comp, c->err);
        if (st != SSCHED_OK)
            ssched_error_prefix(c->err, "%s: processor '%s': ", c->path, tabs[i].name);
        ssched_sb_cost_free(&comm);
        ssched_sb_cost_free(&comp);
    }
    return st;
}

ssched_status_t ssched_sb_platform_read_csv(ssched_sb_platform_t *pl, FILE *in,
                                            const char *display, ssched_error_t *err)
{
    ctx_t c = {display, err};
    char *line = NULL;
    size_t linecap = 0;
    ssize_t len;
    long lineno = 0;
    int have_header = 0;
    header_t h = {{0}, 0, 0};
    table_acc_t *tabs = NULL;
    size_t ntabs = 0, tabcap = 0;
    ssched_status_t st = SSCHED_OK;
    char *fields[MAX_FIELDS];

    while (st == SSCHED_OK && (len = getline(&line, &linecap, in)) >= 0) {
        lineno++;
        if (memchr(line, '\0', (size_t)len)) {
            st = ssched_error_set(err, SSCHED_EINPUT, "%s:%ld: NUL byte in a text file",
                                  display, lineno);
            break;
        }
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (is_blank_or_comment(line))
            continue;
        int nf = split_fields(line, fields, MAX_FIELDS);
        if (nf < 0) {
            st = ssched_error_set(err, SSCHED_EINPUT, "%s:%ld: more than %d fields", display,
                                  lineno, MAX_FIELDS);
            break;
        }
        if (!have_header) {
            st = parse_header(&c, lineno, fields, nf, &h);
            have_header = 1;
            continue;
        }
        if (nf != h.nfields) {
            st = ssched_error_set(err, SSCHED_EINPUT, "%s:%ld: expected %d fields, found %d",
                                  display, lineno, h.nfields, nf);
            break;
        }
        if (h.tables)
            st = table_row(&c, lineno, fields, &h, &tabs, &ntabs, &tabcap);
        else
            st = linear_row(&c, lineno, fields, &h, pl);
    }
    if (st == SSCHED_OK && ferror(in))
        st = ssched_error_set(err, SSCHED_EINPUT, "%s: read error: %s", display,
                              strerror(errno));
    free(line);
    if (st == SSCHED_OK && !have_header)
        st = ssched_error_set(err, SSCHED_EINPUT, "%s: no header line (empty file)", display);
    if (st == SSCHED_OK && h.tables)
        st = tables_to_platform(&c, tabs, ntabs, pl);
    table_acc_free(tabs, ntabs);
    if (st == SSCHED_OK && pl->p == 0)
        st = ssched_error_set(err, SSCHED_EINPUT, "%s: no processors", display);
    return st;
}

ssched_status_t ssched_sb_platform_load_csv(ssched_sb_platform_t *pl, const char *path,
                                            ssched_error_t *err)
{
    FILE *in = fopen(path, "r");
    if (!in)
        return ssched_error_set(err, SSCHED_EINPUT, "%s: cannot open: %s", path,
                                strerror(errno));
    ssched_status_t st = ssched_sb_platform_read_csv(pl, in, path, err);
    fclose(in);
    return st;
}
