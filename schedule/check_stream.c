/* Checker: reading an unrolled file as a stream.
 *
 * An unrolled schedule may hold 10^8 events: the file is not loaded as one
 * JSON document.  The top-level object is split by a scanner that finds
 * where each value ends (strings, escapes, nesting); every value but the
 * event arrays is parsed by jansson into a header object, and the event
 * arrays are walked one element at a time, each parsed by jansson from its
 * own bytes.  Memory is what the simulation keeps, not the file. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "schedule/check_internal.h"

/* Read pages of a mapped file are released every CHK_DROP_BYTES: the two
 * event arrays are read side by side, each keeping up to this much
 * resident (64 MB each made 128 of the 239 MB of a K = 10^5 reduce check). */
#define CHK_DROP_BYTES ((size_t)16 << 20)

static size_t skip_ws(const char *b, size_t n, size_t i)
{
    while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r'))
        i++;
    return i;
}

/* Release the pages of a file mapping in [from, to): they were read and
 * are not needed again (re-reading would fault them back in). */
void ssched_i_chk_drop_pages(const char *b, size_t from, size_t to)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = ((uintptr_t)(b + from) + page - 1) & ~(uintptr_t)(page - 1);
    uintptr_t hi = (uintptr_t)(b + to) & ~(uintptr_t)(page - 1);
    if (hi > lo)
        madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

/* End of the container at b[i] ('{' or '['), or 0 if the text ends
 * first.  The event arrays are scanned here before they are read, so this
 * is a tight loop: 16 bytes at a time (SSE2), only the bytes that can
 * matter (quotes, backslashes, brackets, braces) are looked at one by one.
 * The mask also flags '|' and byte 0x02 (they share the test): ignored. */
static size_t container_end(const char *b, size_t n, size_t i, int drop)
{
    size_t depth = 0, next = i, mark = i; /* next: first byte not skipped  */
    int in_str = 0;
    for (size_t base = i; base < n; base += 16) {
        if (drop && base - mark > CHK_DROP_BYTES) {
            ssched_i_chk_drop_pages(b, mark, base);
            mark = base;
        }
        unsigned mask = 0;
#ifdef __SSE2__
        if (n - base >= 16) {
            __m128i x = _mm_or_si128(_mm_loadu_si128((const __m128i *)(b + base)),
                                     _mm_set1_epi8(0x20));
            __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
                                                  _mm_cmpeq_epi8(x, _mm_set1_epi8('{'))),
                                     _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('|')),
                                                  _mm_cmpeq_epi8(x, _mm_set1_epi8('}'))));
            mask = (unsigned)_mm_movemask_epi8(m);
        } else
#endif
        {
            for (size_t k = 0; k < 16 && base + k < n; k++) {
                char x = (char)(b[base + k] | 0x20);
                mask |= (unsigned)(x == '"' || x == '{' || x == '|' || x == '}') << k;
            }
        }
        for (; mask; mask &= mask - 1) {
            size_t at = base + (size_t)__builtin_ctz(mask);
            if (at < next)
                continue; /* the byte after a backslash */
            char ch = b[at];
            if (ch == '"') {
                in_str = !in_str;
            } else if (in_str) {
                if (ch == '\\')
                    next = at + 2;
            } else if (ch == '{' || ch == '[') {
                depth++;
            } else if (ch == '}' || ch == ']') {
                if (--depth == 0)
                    return at + 1;
            }
        }
    }
    return 0;
}

/* End of the JSON value starting at i (after whitespace), or 0 if the text
 * ends first.  Only the extent is found here; jansson (or the fast
 * scanner) checks the grammar.  drop: b is a file mapping whose scanned
 * pages may be released. */
static size_t value_end_drop(const char *b, size_t n, size_t i, int drop)
{
    if (i < n && (b[i] == '{' || b[i] == '['))
        return container_end(b, n, i, drop);
    /* a string or a scalar (or something malformed jansson will name) */
    size_t depth = 0;
    while (i < n) {
        char ch = b[i];
        if (ch == '"') {
            for (i++; i < n && b[i] != '"'; i++)
                if (b[i] == '\\')
                    i++;
            if (i >= n)
                return 0;
            i++;
            if (depth == 0)
                return i;
            continue;
        }
        if (ch == '{' || ch == '[') {
            depth++;
        } else if (ch == '}' || ch == ']') {
            if (depth == 0)
                return i; /* a scalar ended by its container */
            if (--depth == 0)
                return i + 1;
        } else if (depth == 0 && (ch == ',' || ch == ' ' || ch == '\n' || ch == '\t' ||
                                  ch == '\r')) {
            return i; /* end of a scalar */
        }
        i++;
    }
    return depth == 0 ? i : 0;
}

static size_t value_end(const char *b, size_t n, size_t i)
{
    return value_end_drop(b, n, i, 0);
}

size_t ssched_i_chk_find_nul(const char *b, size_t n, int mapped)
{
    const size_t chunk = (size_t)64 << 20;
    for (size_t at = 0; at < n; at += chunk) {
        size_t len = n - at < chunk ? n - at : chunk;
        const char *z = memchr(b + at, '\0', len);
        if (z)
            return (size_t)(z - b);
        if (mapped)
            ssched_i_chk_drop_pages(b, at, at + len);
    }
    return SIZE_MAX;
}

/* Line number of offset i, for messages. */
static size_t line_of(const char *b, size_t i)
{
    size_t l = 1;
    for (size_t k = 0; k < i; k++)
        l += b[k] == '\n';
    return l;
}

ssched_status_t ssched_i_chk_split_top(const char *b, size_t n, int mapped, json_t **header,
                              chk_extent_t *tr, chk_extent_t *co, ssched_error_t *err)
{
    *header = NULL;
    memset(tr, 0, sizeof *tr);
    memset(co, 0, sizeof *co);
    size_t i = skip_ws(b, n, 0);
    if (i >= n || b[i] != '{')
        return ssched_error_set(err, SSCHED_EINPUT, "schedule file: line %zu: expected '{'",
                                line_of(b, i < n ? i : n));
    json_t *h = json_object();
    if (!h)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    i = skip_ws(b, n, i + 1);
    ssched_status_t st = SSCHED_OK;
    int first = 1;
    while (st == SSCHED_OK) {
        if (i < n && b[i] == '}' && first) {
            i++;
            break;
        }
        size_t ke = i < n && b[i] == '"' ? value_end(b, n, i) : 0;
        json_error_t jerr;
        json_t *key = ke ? json_loadb(b + i, ke - i, JSON_DECODE_ANY, &jerr) : NULL;
        if (!key && ke && chk_json_oom(&jerr)) {
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            break;
        }
        if (!json_is_string(key)) {
            json_decref(key);
            st = ssched_error_set(err, SSCHED_EINPUT, "schedule file: line %zu: expected a key",
                                  line_of(b, i < n ? i : n));
            break;
        }
        const char *k = json_string_value(key);
        i = skip_ws(b, n, ke);
        if (i >= n || b[i] != ':') {
            st = ssched_error_set(err, SSCHED_EINPUT, "schedule file: line %zu: expected ':'",
                                  line_of(b, i < n ? i : n));
            json_decref(key);
            break;
        }
        i = skip_ws(b, n, i + 1);
        size_t ve = value_end_drop(b, n, i, mapped);
        if (!ve || ve == i) {
            st = ssched_error_set(err, SSCHED_EINPUT, "schedule file: line %zu: value of \"%s\" "
                                  "is cut short", line_of(b, i < n ? i : n), k);
            json_decref(key);
            break;
        }
        int is_tr = !strcmp(k, "transfers"), is_co = !strcmp(k, "computations");
        if (json_object_get(h, k) || (is_tr && tr->present) || (is_co && co->present)) {
            st = ssched_error_set(err, SSCHED_EINPUT, "schedule file: line %zu: key \"%s\" "
                                  "given twice", line_of(b, i), k);
        } else if (is_tr || is_co) {
            chk_extent_t *x = is_tr ? tr : co;
            x->present = 1;
            x->mapped = mapped;
            x->begin = i;
            x->end = ve;
            x->buf = b;
            if (b[i] != '[')
                st = ssched_error_set(err, SSCHED_EINPUT, "schedule file: \"%s\" must be an array",
                                      k);
        } else {
            json_t *v = json_loadb(b + i, ve - i, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &jerr);
            /* a periodic file is read whole here: out of memory is that,
             * not a syntax error */
            if (!v && chk_json_oom(&jerr))
                st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory reading \"%s\"", k);
            else if (!v)
                st = ssched_error_set(err, SSCHED_EINPUT, "schedule file: line %zu: %s",
                                      line_of(b, i) + (size_t)(jerr.line > 0 ? jerr.line - 1 : 0),
                                      jerr.text);
            else
                json_object_set_new(h, k, v);
        }
        json_decref(key);
        first = 0;
        i = skip_ws(b, n, ve);
        if (i < n && b[i] == ',') {
            i = skip_ws(b, n, i + 1);
            continue;
        }
        if (i < n && b[i] == '}') {
            i++;
            break;
        }
        if (st == SSCHED_OK)
            st = ssched_error_set(err, SSCHED_EINPUT, "schedule file: line %zu: expected ',' or '}'",
                                  line_of(b, i < n ? i : n));
    }
    if (st == SSCHED_OK && skip_ws(b, n, i) != n)
        st = ssched_error_set(err, SSCHED_EINPUT, "schedule file: line %zu: text after the object",
                              line_of(b, i));
    if (st != SSCHED_OK) {
        json_decref(h);
        return st;
    }
    *header = h;
    return SSCHED_OK;
}

void ssched_i_chk_iter_init(chk_iter_t *it, const chk_extent_t *x, const char *name)
{
    memset(it, 0, sizeof *it);
    it->x = *x;
    it->name = name;
    it->pos = x->present ? skip_ws(x->buf, x->end, x->begin + 1) : 0;
    it->dropped = it->pos;
    it->done = !x->present || (it->pos < x->end && x->buf[it->pos] == ']');
}

void ssched_i_chk_iter_skip(chk_iter_t *it, size_t after)
{
    const char *b = it->x.buf;
    size_t n = it->x.end;
    if (after < n && b[after] == ',')
        it->pos = skip_ws(b, n, after + 1);
    else
        it->done = 1;
    it->index++;
    if (it->x.mapped && it->pos - it->dropped > CHK_DROP_BYTES) {
        ssched_i_chk_drop_pages(b, it->dropped, it->pos);
        it->dropped = it->pos;
    }
}

ssched_status_t ssched_i_chk_iter_next(chk_iter_t *it, json_t **out, ssched_error_t *err)
{
    *out = NULL;
    if (it->done)
        return SSCHED_OK;
    const char *b = it->x.buf;
    size_t n = it->x.end, i = it->pos, e = value_end(b, n, i);
    json_error_t jerr;
    json_t *v = e > i ? json_loadb(b + i, e - i, JSON_REJECT_DUPLICATES, &jerr) : NULL;
    if (!json_is_object(v)) {
        json_decref(v);
        return ssched_error_set(err, SSCHED_EINPUT, "schedule file: line %zu: %s[%zu] is not an "
                                "object", line_of(b, i), it->name, it->index);
    }
    i = skip_ws(b, n, e);
    if (i < n && b[i] == ',') {
        it->pos = skip_ws(b, n, i + 1);
    } else if (i < n && b[i] == ']') {
        it->done = 1;
    } else {
        json_decref(v);
        return ssched_error_set(err, SSCHED_EINPUT, "schedule file: line %zu: expected ',' or ']' "
                                "after %s[%zu]", line_of(b, i < n ? i : n), it->name, it->index);
    }
    it->index++;
    *out = v;
    /* a mapped file's pages already read are dropped every 64 MB, so the
     * checker's resident memory does not grow with the file */
    if (it->x.mapped && it->pos - it->dropped > CHK_DROP_BYTES) {
        ssched_i_chk_drop_pages(b, it->dropped, it->pos);
        it->dropped = it->pos;
    }
    return SSCHED_OK;
}
