// The SimGrid side of the SimGrid platform reader (simgrid_read.c): runs in
// a forked child process only, loads the file with libsimgrid's own loader
// and streams what ssched needs (hosts, the links of every route) to a
// pipe.  A child because SimGrid keeps one engine per process (a second
// file cannot be loaded beside the first) and because some of its errors
// abort the process (xbt_die, e.g. a missing route under Dijkstra
// routing): the parent survives both and reports one line.
//
// SimGrid's C API is called (simgrid/host.h, link.h; of the C++ API only
// Engine::seal_platform), inside try blocks: its parse errors are C++
// exceptions (simgrid::ParseError), which must not cross C frames.  No
// template is instantiated here, so the object defines no weak symbol
// outside ssched_ (tests/test_symbols.c).
//
// Stream (native byte order, the parent is the same program):
//   'H' u64 n, then n times { u32 len, name bytes, double speed }
//   then for each ordered host pair (i, j), i != j, in host order:
//     'L' u32 len, name, double bandwidth, double latency, i32 shared
//         (a link seen for the first time; its index is the count so far)
//     'R' u32 k, k times u32 link index   (k = 0: no route)
//   'Z' (end)            or   'E' u32 len, message   (a caught error)
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>

#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <simgrid/s4u/Engine.hpp>
#include <xbt/dynar.h>
#include <xbt/log.h>

#include "src/platform/simgrid_wire.h"

namespace {

void put(FILE* out, const void* data, size_t n)
{
    if (n && fwrite(data, 1, n, out) != n)
        throw std::exception();
}

void put_u32(FILE* out, uint32_t v) { put(out, &v, sizeof v); }

void put_text(FILE* out, const char* s)
{
    size_t n = strlen(s);
    put_u32(out, (uint32_t)n);
    put(out, s, n);
}

void put_error(FILE* out, const char* what)
{
    // one line: SimGrid's messages may go on ("Existing netpoints: ...")
    size_t n = strcspn(what, "\n");
    const char* more = strstr(what, " Existing netpoints");
    if (more && (size_t)(more - what) < n)
        n = (size_t)(more - what);
    fputc('E', out);
    put_u32(out, (uint32_t)n);
    fwrite(what, 1, n, out);
}

} // namespace

extern "C" int ssched_i_simgrid_child(const char* path, int fd)
{
    FILE* out = fdopen(fd, "wb");
    if (!out)
        return 3;
    // Silence SimGrid below its fatal messages (which go to the captured
    // stderr, read by the parent when the child dies).
    xbt_log_control_set("root.thresh:critical");
    int argc = 1;
    char name[] = "ssched";
    char* argv[] = {name, nullptr};
    int rc = 0;
    try {
        simgrid_init(&argc, argv);
        simgrid_load_platform(path);
        // Floyd and Dijkstra zones compute their routes when sealed (as a
        // simulation's start does); unsealed, they know only the one-hop
        // routes of the file.
        simgrid::s4u::Engine::get_instance()->seal_platform();
        size_t n = sg_host_count();
        sg_host_t* hosts = sg_host_list();
        fputc('H', out);
        uint64_t n64 = n;
        put(out, &n64, sizeof n64);
        for (size_t i = 0; i < n; i++) {
            put_text(out, sg_host_get_name(hosts[i]));
            double speed = sg_host_get_speed(hosts[i]);
            put(out, &speed, sizeof speed);
        }
        fflush(out);
        // A link's index + 1 is kept in its user data: no map needed.
        uintptr_t n_links = 0;
        xbt_dynar_t route = xbt_dynar_new(sizeof(sg_link_t), nullptr);
        for (size_t i = 0; i < n; i++) {
            for (size_t j = 0; j < n; j++) {
                if (i == j)
                    continue;
                xbt_dynar_reset(route);
                try {
                    sg_host_get_route(hosts[i], hosts[j], route);
                } catch (const std::exception&) {
                    xbt_dynar_reset(route); // "No route from a to b": no edge
                }
                unsigned long k = xbt_dynar_length(route);
                for (unsigned long a = 0; a < k; a++) {
                    sg_link_t link = xbt_dynar_get_as(route, a, sg_link_t);
                    if (sg_link_get_data(link))
                        continue;
                    sg_link_set_data(link, (void*)++n_links);
                    fputc('L', out);
                    put_text(out, sg_link_get_name(link));
                    double bw = sg_link_get_bandwidth(link), lat = sg_link_get_latency(link);
                    put(out, &bw, sizeof bw);
                    put(out, &lat, sizeof lat);
                    int32_t shared = sg_link_is_shared(link);
                    put(out, &shared, sizeof shared);
                }
                fputc('R', out);
                put_u32(out, (uint32_t)k);
                for (unsigned long a = 0; a < k; a++) {
                    sg_link_t link = xbt_dynar_get_as(route, a, sg_link_t);
                    put_u32(out, (uint32_t)((uintptr_t)sg_link_get_data(link) - 1));
                }
            }
        }
        xbt_dynar_free(&route);
        free(hosts);
        fputc('Z', out);
    } catch (const std::exception& e) {
        put_error(out, e.what());
        rc = 1;
    } catch (...) {
        put_error(out, "SimGrid failed with an unknown exception");
        rc = 1;
    }
    if (fflush(out) != 0)
        rc = 3;
    return rc;
}
