// The SimGrid side of the SimGrid platform reader (simgrid_read.c): runs in
// a forked child process only, loads the file with libsimgrid's own loader
// and streams what ssched needs (hosts, the links of every route) to a
// pipe.  A child because SimGrid keeps one engine per process (a second
// file cannot be loaded beside the first) and because some of its errors
// abort the process (xbt_die, e.g. a missing route under Dijkstra
// routing): the parent survives both and reports one line.
//
// libsimgrid is opened here with dlopen, not linked: loading it costs a
// process about 60 ms of static initialisation, which every ssched command
// would otherwise pay.  Only its C API is called (simgrid/engine.h, host.h,
// link.h), inside try blocks: its parse errors are C++ exceptions
// (simgrid::ParseError), which must not cross C frames.  No template is
// instantiated here, so the object defines no weak symbol outside ssched_
// (tests/test_symbols.c).
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
#include <cstdlib>
#include <cstring>
#include <exception>

#include <dlfcn.h>

#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <xbt/dynar.h>
#include <xbt/log.h>

#include "src/platform/simgrid_wire.h"

#ifndef SSCHED_SIMGRID_SONAME // the library CMake found, else its 3.32 soname
#define SSCHED_SIMGRID_SONAME "libsimgrid.so.3.32"
#endif

namespace {

// The C API, resolved in libsimgrid at run time (types from its headers).
struct api_t {
    decltype(&::simgrid_init) init;
    decltype(&::simgrid_load_platform) load_platform;
    decltype(&::simgrid_run) run;
    decltype(&::sg_host_count) host_count;
    decltype(&::sg_host_list) host_list;
    decltype(&::sg_host_get_name) host_name;
    decltype(&::sg_host_get_speed) host_speed;
    decltype(&::sg_host_get_route) host_route;
    decltype(&::sg_link_get_name) link_name;
    decltype(&::sg_link_get_bandwidth) link_bandwidth;
    decltype(&::sg_link_get_latency) link_latency;
    decltype(&::sg_link_is_shared) link_shared;
    decltype(&::sg_link_get_data) link_data;
    decltype(&::sg_link_set_data) link_set_data;
    decltype(&::xbt_dynar_new) dynar_new;
    decltype(&::xbt_dynar_reset) dynar_reset;
    decltype(&::xbt_dynar_length) dynar_length;
    decltype(&::xbt_dynar_get_ptr) dynar_get_ptr;
    decltype(&::xbt_dynar_free) dynar_free;
    decltype(&::xbt_log_control_set) log_control_set;
};

template <typename F> bool resolve(void* lib, const char* name, F& out)
{
    out = reinterpret_cast<F>(dlsym(lib, name));
    return out != nullptr;
}

// nullptr and a message in *why when libsimgrid or a function is missing.
bool open_api(api_t& a, const char** why)
{
    static const char* const names[] = {SSCHED_SIMGRID_SONAME, "libsimgrid.so.3.32",
                                        "libsimgrid.so"};
    void* lib = nullptr;
    for (size_t k = 0; k < sizeof names / sizeof *names && !lib; k++)
        lib = dlopen(names[k], RTLD_NOW | RTLD_GLOBAL);
    if (!lib) {
        *why = "cannot load libsimgrid (SimGrid 3.32)";
        return false;
    }
    *why = "libsimgrid lacks a function of its C API";
    return resolve(lib, "simgrid_init", a.init) &&
           resolve(lib, "simgrid_load_platform", a.load_platform) &&
           resolve(lib, "simgrid_run", a.run) && resolve(lib, "sg_host_count", a.host_count) &&
           resolve(lib, "sg_host_list", a.host_list) &&
           resolve(lib, "sg_host_get_name", a.host_name) &&
           resolve(lib, "sg_host_get_speed", a.host_speed) &&
           resolve(lib, "sg_host_get_route", a.host_route) &&
           resolve(lib, "sg_link_get_name", a.link_name) &&
           resolve(lib, "sg_link_get_bandwidth", a.link_bandwidth) &&
           resolve(lib, "sg_link_get_latency", a.link_latency) &&
           resolve(lib, "sg_link_is_shared", a.link_shared) &&
           resolve(lib, "sg_link_get_data", a.link_data) &&
           resolve(lib, "sg_link_set_data", a.link_set_data) &&
           resolve(lib, "xbt_dynar_new", a.dynar_new) &&
           resolve(lib, "xbt_dynar_reset", a.dynar_reset) &&
           resolve(lib, "xbt_dynar_length", a.dynar_length) &&
           resolve(lib, "xbt_dynar_get_ptr", a.dynar_get_ptr) &&
           resolve(lib, "xbt_dynar_free", a.dynar_free) &&
           resolve(lib, "xbt_log_control_set", a.log_control_set);
}

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

extern "C" int ssched_i_simgrid_child(const char* path, int fd, volatile uint64_t* at)
{
    FILE* out = fdopen(fd, "wb");
    if (!out)
        return 3;
    api_t sg;
    const char* why = nullptr;
    if (!open_api(sg, &why)) {
        put_error(out, why);
        fflush(out);
        return 1;
    }
    // Silence SimGrid below its fatal messages (which go to the captured
    // stderr, read by the parent when the child dies).
    sg.log_control_set("root.thresh:critical");
    int argc = 1;
    char name[] = "ssched";
    char* argv[] = {name, nullptr};
    int rc = 0;
    try {
        sg.init(&argc, argv);
        sg.load_platform(path);
        // Floyd and Dijkstra zones compute their routes when the platform
        // is sealed, which a run does first (without actors it then
        // returns at once); unsealed, they know only the file's one-hop
        // routes.
        sg.run();
        size_t n = sg.host_count();
        sg_host_t* hosts = sg.host_list();
        fputc('H', out);
        uint64_t n64 = n;
        put(out, &n64, sizeof n64);
        for (size_t i = 0; i < n; i++) {
            put_text(out, sg.host_name(hosts[i]));
            double speed = sg.host_speed(hosts[i]);
            put(out, &speed, sizeof speed);
        }
        fflush(out);
        // A link's index + 1 is kept in its user data: no map needed.
        uintptr_t n_links = 0;
        xbt_dynar_t route = sg.dynar_new(sizeof(sg_link_t), nullptr);
        for (size_t i = 0; i < n; i++) {
            for (size_t j = 0; j < n; j++) {
                if (i == j)
                    continue;
                sg.dynar_reset(route);
                at[0] = i + 1;
                at[1] = j;
                try {
                    sg.host_route(hosts[i], hosts[j], route);
                } catch (const std::exception&) {
                    sg.dynar_reset(route); // "No route from a to b": no edge
                }
                unsigned long k = sg.dynar_length(route);
                for (unsigned long a = 0; a < k; a++) {
                    sg_link_t link = *(sg_link_t*)sg.dynar_get_ptr(route, a);
                    if (sg.link_data(link))
                        continue;
                    sg.link_set_data(link, (void*)++n_links);
                    fputc('L', out);
                    put_text(out, sg.link_name(link));
                    double bw = sg.link_bandwidth(link), lat = sg.link_latency(link);
                    put(out, &bw, sizeof bw);
                    put(out, &lat, sizeof lat);
                    int32_t shared = sg.link_shared(link);
                    put(out, &shared, sizeof shared);
                }
                fputc('R', out);
                put_u32(out, (uint32_t)k);
                for (unsigned long a = 0; a < k; a++) {
                    sg_link_t link = *(sg_link_t*)sg.dynar_get_ptr(route, a);
                    put_u32(out, (uint32_t)((uintptr_t)sg.link_data(link) - 1));
                }
            }
        }
        sg.dynar_free(&route);
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
