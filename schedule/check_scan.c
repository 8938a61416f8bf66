/* Checker fast path: one transfer object scanned without jansson, exact
 * 64-bit fractions, node names by hash.
 *
 * jansson builds a tree of allocated values for every event: at 10^8
 * events that, not the simulation, was most of the checker's time.  The
 * scanner here reads the JSON object grammar directly from the file's
 * bytes (any whitespace, any key order, escapes and UTF-8 in strings) into
 * a fixed structure with no allocation.  It accepts a strict subset of
 * what jansson accepts (the keys of a transfer, each once, with the value
 * types the format gives them); on anything else it answers 0 and the
 * caller hands the file to the exact checker, which then names the
 * problem. */
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "schedule/check_internal.h"
#include "src/util/internal.h"

size_t ssched_i_chk_skip_ws(const char *b, size_t n, size_t i)
{
    while (i < n && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r'))
        i++;
    return i;
}

int ssched_i_chk_q64_parse(const char *s, size_t len, chk_q64_t *out)
{
    int64_t v[2] = {0, 1};
    size_t i = 0;
    for (int part = 0; part < 2; part++) {
        size_t from = i;
        int64_t x = 0;
        for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
            if (x > (INT64_MAX - 9) / 10)
                return 0; /* beyond 64 bits: the exact checker */
            x = x * 10 + (s[i] - '0');
        }
        /* "007" or "1/02" may mean what they say, but the exact parser
         * decides: only the plain form is read here */
        if (i == from || (s[from] == '0' && i - from > 1))
            return 0;
        v[part] = x;
        if (part == 0) {
            if (i == len)
                break;
            if (s[i++] != '/')
                return 0;
        }
    }
    if (i != len || v[1] == 0)
        return 0;
    out->n = v[0];
    out->d = v[1];
    return 1;
}

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int ssched_i_chk_q64_add(chk_q64_t a, chk_q64_t b, chk_q64_t *out)
{
    if (a.d == b.d) { /* the usual case: whole messages, one unit */
        out->d = a.d;
        return !__builtin_add_overflow(a.n, b.n, &out->n);
    }
    int64_t g = gcd64(a.d, b.d), x, y, d;
    if (__builtin_mul_overflow(a.n, b.d / g, &x) || __builtin_mul_overflow(b.n, a.d / g, &y) ||
        __builtin_add_overflow(x, y, &x) || __builtin_mul_overflow(a.d / g, b.d, &d) ||
        x == INT64_MIN)
        return 0;
    g = gcd64(x < 0 ? -x : x, d);
    out->n = x / g;
    out->d = d / g;
    return 1;
}

/* ---- strings ---- */

/* Append code point u as UTF-8; 0 if the scratch is full. */
static int put_utf8(chk_ev_t *ev, uint32_t u)
{
    char t[4];
    size_t k;
    if (u < 0x80) {
        t[0] = (char)u, k = 1;
    } else if (u < 0x800) {
        t[0] = (char)(0xC0 | u >> 6), t[1] = (char)(0x80 | (u & 0x3F)), k = 2;
    } else if (u < 0x10000) {
        t[0] = (char)(0xE0 | u >> 12), t[1] = (char)(0x80 | ((u >> 6) & 0x3F));
        t[2] = (char)(0x80 | (u & 0x3F)), k = 3;
    } else {
        t[0] = (char)(0xF0 | u >> 18), t[1] = (char)(0x80 | ((u >> 12) & 0x3F));
        t[2] = (char)(0x80 | ((u >> 6) & 0x3F)), t[3] = (char)(0x80 | (u & 0x3F)), k = 4;
    }
    if (ev->used + k > sizeof ev->scratch)
        return 0;
    memcpy(ev->scratch + ev->used, t, k);
    ev->used += k;
    return 1;
}

static int hex4(const char *b, size_t n, size_t i, uint32_t *u)
{
    *u = 0;
    if (i > n || n - i < 4)
        return 0;
    for (size_t k = 0; k < 4; k++) {
        char ch = b[i + k];
        int v = ch >= '0' && ch <= '9'   ? ch - '0'
                : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                         : -1;
        if (v < 0)
            return 0;
        *u = *u * 16 + (uint32_t)v;
    }
    return 1;
}

/* One UTF-8 sequence at b[i] (a byte >= 0x80), validated as jansson does
 * (no overlong forms, no surrogates, at most U+10FFFF); its length or 0. */
static size_t utf8_seq(const char *b, size_t n, size_t i, uint32_t *u)
{
    unsigned char c0 = (unsigned char)b[i];
    size_t k = c0 >= 0xC2 && c0 <= 0xDF ? 2 : c0 >= 0xE0 && c0 <= 0xEF ? 3
             : c0 >= 0xF0 && c0 <= 0xF4 ? 4 : 0;
    if (!k || n - i < k)
        return 0;
    uint32_t v = c0 & (k == 2 ? 0x1F : k == 3 ? 0x0F : 0x07);
    for (size_t j = 1; j < k; j++) {
        unsigned char cj = (unsigned char)b[i + j];
        if ((cj & 0xC0) != 0x80)
            return 0;
        v = v << 6 | (cj & 0x3F);
    }
    if ((k == 3 && v < 0x800) || (k == 4 && v < 0x10000) || v > 0x10FFFF ||
        (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *u = v;
    return k;
}

/* The rest of a string with escapes or non-ASCII bytes, from b[i], decoded
 * into the scratch; the plain prefix [from, i) is copied first.  Returns
 * the position after the closing quote, or 0. */
static size_t decode(const char *b, size_t n, size_t from, size_t i, chk_ev_t *ev,
                     const char **s, size_t *len)
{
    size_t at = ev->used;
    if (i - from > sizeof ev->scratch - at)
        return 0;
    memcpy(ev->scratch + at, b + from, i - from);
    ev->used += i - from;
    while (i < n) {
        unsigned char u = (unsigned char)b[i];
        uint32_t cp;
        if (u == '"') {
            *s = ev->scratch + at;
            *len = ev->used - at;
            return i + 1;
        }
        if (u < 0x20)
            return 0; /* control characters must be escaped */
        if (u >= 0x80) {
            size_t k = utf8_seq(b, n, i, &cp);
            if (!k || !put_utf8(ev, cp))
                return 0;
            i += k;
            continue;
        }
        if (u != '\\') {
            if (!put_utf8(ev, u))
                return 0;
            i++;
            continue;
        }
        if (++i >= n)
            return 0;
        const char *esc = strchr("\"\\/bfnrt", b[i]);
        if (esc && b[i]) {
            static const char to[] = "\"\\/\b\f\n\r\t";
            if (!put_utf8(ev, (unsigned char)to[esc - "\"\\/bfnrt"]))
                return 0;
            i++;
            continue;
        }
        if (b[i] != 'u' || !hex4(b, n, i + 1, &cp))
            return 0;
        i += 5;
        if (cp >= 0xD800 && cp <= 0xDBFF) { /* a pair of surrogates */
            uint32_t lo;
            if (i + 1 >= n || b[i] != '\\' || b[i + 1] != 'u' || !hex4(b, n, i + 2, &lo) ||
                lo < 0xDC00 || lo > 0xDFFF)
                return 0;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            i += 6;
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            return 0;
        }
        if (cp == 0 || !put_utf8(ev, cp)) /* jansson refuses \u0000 */
            return 0;
    }
    return 0;
}

/* The string at b[i] == '"': position after it (0 if malformed); the
 * bytes point into the file unless it needed decoding. */
static size_t scan_string(const char *b, size_t n, size_t i, chk_ev_t *ev, const char **s,
                          size_t *len)
{
    size_t from = ++i;
#ifdef __SSE2__
    /* 16 bytes at a time: a quote, a backslash, or (signed) below 0x20,
     * which also catches every byte >= 0x80 */
    while (n - i >= 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(b + i));
        __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
                                              _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'))),
                                 _mm_cmplt_epi8(x, _mm_set1_epi8(0x20)));
        unsigned mask = (unsigned)_mm_movemask_epi8(m);
        if (mask) {
            i += (size_t)__builtin_ctz(mask);
            break;
        }
        i += 16;
    }
#endif
    for (; i < n; i++) {
        unsigned char u = (unsigned char)b[i];
        if (u == '"') {
            *s = b + from;
            *len = i - from;
            return i + 1;
        }
        if (u < 0x20 || u >= 0x80 || u == '\\')
            return decode(b, n, from, i, ev, s, len);
    }
    return 0;
}

/* ---- the object ---- */

static int key_of(const char *k, size_t len)
{
    /* by length and first byte: this runs for every key of every event */
    static const char *const keys[] = {"start", "end", "from", "to", "origin", "dest", "op",
                                       "piece", "", "batch"};
    int f = -1;
    switch (len) {
    case 2: f = k[0] == 't' ? CHK_F_TO : CHK_F_OP; break;
    case 3: f = CHK_F_END; break;
    case 4: f = k[0] == 'f' ? CHK_F_FROM : CHK_F_DEST; break;
    case 5: f = k[0] == 's' ? CHK_F_START : k[0] == 'b' ? CHK_F_BATCH : CHK_F_PIECE; break;
    case 6: f = CHK_F_ORIGIN; break;
    default: return -1;
    }
    return memcmp(keys[f], k, len) ? -1 : f;
}

/* A non-negative integer as jansson reads one (no leading zero, no
 * fraction or exponent), small enough for an operation number. */
static size_t scan_op(const char *b, size_t n, size_t i, uint64_t *op)
{
    size_t from = i;
    uint64_t x = 0;
    for (; i < n && b[i] >= '0' && b[i] <= '9' && i - from < 18; i++)
        x = x * 10 + (uint64_t)(b[i] - '0');
    if (i == from || (b[from] == '0' && i - from > 1) || i >= n ||
        (b[i] != ',' && b[i] != '}' && b[i] != ' ' && b[i] != '\n' && b[i] != '\t' &&
         b[i] != '\r'))
        return 0;
    *op = x;
    return i;
}

int ssched_i_chk_scan_transfer(const char *b, size_t n, size_t *pos, chk_ev_t *ev)
{
    size_t i = *pos;
    ev->present = 0;
    ev->used = 0;
    if (i >= n || b[i] != '{')
        return 0;
    i = ssched_i_chk_skip_ws(b, n, i + 1);
    for (;;) {
        const char *k;
        size_t klen;
        if (i >= n || b[i] != '"' || !(i = scan_string(b, n, i, ev, &k, &klen)))
            return 0;
        int f = key_of(k, klen);
        if (f < 0 || (ev->present >> f & 1))
            return 0; /* unknown or repeated: the exact checker names it */
        ev->present |= 1u << f;
        i = ssched_i_chk_skip_ws(b, n, i);
        if (i >= n || b[i] != ':')
            return 0;
        i = ssched_i_chk_skip_ws(b, n, i + 1);
        if (i >= n)
            return 0;
        if (f == CHK_F_OP || f == CHK_F_BATCH) {
            if (!(i = scan_op(b, n, i, f == CHK_F_OP ? &ev->op : &ev->batch)))
                return 0;
        } else if (f == CHK_F_PIECE) { /* [offset, length] */
            if (b[i] != '[')
                return 0;
            ev->present |= 1u << CHK_F_PIECE_LEN;
            for (int e = 0; e < 2; e++) {
                i = ssched_i_chk_skip_ws(b, n, i + 1); /* past '[' or ',' */
                if (i >= n || b[i] != '"' ||
                    !(i = scan_string(b, n, i, ev, &ev->s[f + e], &ev->len[f + e])))
                    return 0;
                i = ssched_i_chk_skip_ws(b, n, i);
                if (i >= n || b[i] != (e ? ']' : ','))
                    return 0;
            }
            i++;
        } else if (b[i] != '"' || !(i = scan_string(b, n, i, ev, &ev->s[f], &ev->len[f]))) {
            return 0;
        }
        i = ssched_i_chk_skip_ws(b, n, i);
        if (i < n && b[i] == '}') {
            *pos = i + 1;
            return 1;
        }
        if (i >= n || b[i] != ',')
            return 0;
        i = ssched_i_chk_skip_ws(b, n, i + 1);
    }
}

/* ---- node names ---- */

static uint64_t hash_bytes(const char *s, size_t len)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ len;
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDULL;
        h ^= h >> 32;
        s += 8;
        len -= 8;
    }
    uint64_t w = 0;
    memcpy(&w, s, len);
    h = (h ^ w) * 0xC4CEB9FE1A85EC53ULL;
    return h ^ (h >> 29);
}

int ssched_i_chk_names_build(chk_names_t *h, const chk_t *c)
{
    memset(h, 0, sizeof *h);
    size_t cap = 16;
    while (cap < 2 * c->n_nodes)
        cap *= 2;
    h->slot = calloc(cap, sizeof *h->slot);
    h->len = ssched_i_alloc(c->n_nodes, sizeof *h->len);
    if (!h->slot || !h->len || c->n_nodes >= UINT32_MAX) {
        ssched_i_chk_names_free(h);
        return 0;
    }
    h->cap = cap;
    h->names = c->names;
    for (size_t v = 0; v < c->n_nodes; v++) {
        h->len[v] = strlen(c->names[v]);
        size_t at = (size_t)hash_bytes(c->names[v], h->len[v]) & (cap - 1);
        while (h->slot[at])
            at = (at + 1) & (cap - 1);
        h->slot[at] = (uint32_t)(v + 1);
    }
    return 1;
}

void ssched_i_chk_names_free(chk_names_t *h)
{
    free(h->slot);
    free(h->len);
    memset(h, 0, sizeof *h);
}

size_t ssched_i_chk_names_find(const chk_names_t *h, const char *s, size_t len)
{
    size_t at = (size_t)hash_bytes(s, len) & (h->cap - 1);
    for (uint32_t v; (v = h->slot[at]) != 0; at = (at + 1) & (h->cap - 1))
        if (h->len[v - 1] == len && !memcmp(h->names[v - 1], s, len))
            return v - 1;
    return SIZE_MAX;
}
