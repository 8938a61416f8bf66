/* Private interface of the GraphML reader: its state and the XML, key and
 * value helpers (graphml_keys.c) used by the document walk
 * (graphml_read.c).  See graphml_read.c for what the reader accepts. */
#ifndef SSCHED_PLATFORM_GRAPHML_INTERNAL_H
#define SSCHED_PLATFORM_GRAPHML_INTERNAL_H

#include <stddef.h>

#include <libxml/tree.h>

#include "ssched/platform.h"
#include "src/platform/name_index.h"
#include "src/platform/platform_internal.h"

#define GRAPHML_NS "http://graphml.graphdrawing.org/xmlns"
#define NO_INDEX ((size_t)-1)

enum { D_GRAPHML = 1, D_GRAPH = 2, D_NODE = 4, D_EDGE = 8, D_HYPEREDGE = 16, D_PORT = 32,
       D_ENDPOINT = 64, D_ALL = 127 };

typedef enum { T_BOOLEAN, T_INT, T_LONG, T_FLOAT, T_DOUBLE, T_STRING } value_type_t;

typedef struct {
    char *id;          /* xmlFree */
    char *name;        /* attr.name, or a copy of id; xmlFree */
    int domain;        /* D_* mask */
    value_type_t type;
    char *def;         /* text of <default>, or NULL; xmlFree */
    long line;
} gkey_t;

typedef struct {
    const char *path;  /* as shown in messages */
    ssched_error_t *err;
    gkey_t *keys;
    size_t n_keys;
    const char **key_ids;          /* views of keys[k].id, for the index */
    ssched_name_index_t key_index;
    const char *w_name, *c_name;   /* attr.names read as w and c      */
    int skip_missing_c;            /* --missing-cost skip              */
    const char *l_name;            /* attr.name read as the latency    */
    int w_required, l_required;    /* named by --speed-from / --latency-from */
    size_t w_key, c_key, l_key;    /* indices into keys, or NO_INDEX */
    size_t ports_key;              /* node key 'ports' (one|multi), or NO_INDEX */
    const char *names_name;        /* --names-from: node attr. giving names, or NULL */
    size_t names_key;              /* its key, or NO_INDEX                */
    char **node_ids;               /* xmlFree each */
    long *node_line;
    size_t n_nodes, node_cap;
    ssched_name_index_t node_index;
    xmlNodePtr *edges;
    size_t n_edge_elems, edge_elem_cap;
    long *edge_line;               /* per platform edge */
    size_t edge_line_cap;
} reader_t;

/* Every rejection: "PATH:LINE: " + text on one line (LINE <= 0: none). */
SSCHED_INTERNAL ssched_status_t ssched_i_graphml_fail(reader_t *r, long line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
SSCHED_INTERNAL ssched_status_t ssched_i_graphml_nomem(reader_t *r);
/* XML helpers: an element's exact line, GraphML namespace and name tests,
 * "<prefix:name>" for messages, an attribute (xmlFree it), and the check
 * that a child is not an entity reference hiding content. */
SSCHED_INTERNAL long ssched_i_graphml_line_of(xmlNodePtr n);
SSCHED_INTERNAL int ssched_i_graphml_is_graphml(xmlNodePtr n);
SSCHED_INTERNAL int ssched_i_graphml_is_el(xmlNodePtr n, const char *name);
SSCHED_INTERNAL const char *ssched_i_graphml_el_name(xmlNodePtr n, char *buf, size_t size);
SSCHED_INTERNAL char *ssched_i_graphml_get_attr(xmlNodePtr n, const char *name);
SSCHED_INTERNAL ssched_status_t ssched_i_graphml_check_child_kind(reader_t *r, xmlNodePtr c,
                                                                  const char *where);
/* A <key> declaration into r->keys (and the w, c, l, ports, names keys). */
SSCHED_INTERNAL ssched_status_t ssched_i_graphml_read_key(reader_t *r, xmlNodePtr el);
SSCHED_INTERNAL int ssched_i_graphml_xml_space(char c);
/* <data> of an item: declared for its domain; the one of key `want` (or
 * NULL) in *value; its exact value (1: given, 0: absent, -1: error); the
 * `ports` value (one|multi). */
SSCHED_INTERNAL ssched_status_t ssched_i_graphml_check_data(reader_t *r, xmlNodePtr d, int domain,
                                                            const char *where);
SSCHED_INTERNAL ssched_status_t ssched_i_graphml_scan_item_children(reader_t *r, xmlNodePtr el,
                                                                    int domain, const char *where,
                                                                    size_t want, xmlNodePtr *value);
SSCHED_INTERNAL int ssched_i_graphml_item_value(reader_t *r, size_t k, xmlNodePtr data, long line,
                                                const char *where, mpq_t q);
SSCHED_INTERNAL ssched_status_t ssched_i_graphml_ports_value(reader_t *r, xmlNodePtr data,
                                                             long line, const char *where,
                                                             int *multi);

#endif
