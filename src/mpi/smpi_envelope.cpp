// SMPI only (ssched-exec-smpi, bench/mpi_collectives.c): cancel SMPI's
// 16-byte message envelope, so that s bytes over a route take exactly
// s / bandwidth (+ latency), as `ssched export simgrid` intends.
//
// SimGrid 3.32 simulates every message as payload + 16 bytes
// (src/smpi/mpi/smpi_request.cpp: payload_size_ = size_ + 16); a bandwidth
// factor size / (size - 16) on the simulated size cancels it.  Under
// network/model:CM02 this callback is the only factor (smpi/bw-factor and
// smpi/lat-factor are ignored; bench/smpi_exact.sh checks the exactness).
// Empty payloads (16 simulated bytes) get a huge factor: (almost) free.
#include <exception>
#include <simgrid/kernel/resource/NetworkModelIntf.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/NetZone.hpp>

// Install the callback (call it after MPI_Init, from any rank: it is
// global to the simulation, installing it twice is harmless).  0 on
// success, -1 when SimGrid refuses (e.g. factors set by the configuration).
extern "C" int ssched_smpi_exact_envelope(void)
{
    try {
        simgrid::s4u::Engine::get_instance()->get_netzone_root()->get_network_model()->set_bw_factor_cb(
            [](double size, const simgrid::s4u::Host*, const simgrid::s4u::Host*,
               const std::vector<simgrid::s4u::Link*>&,
               const std::unordered_set<simgrid::s4u::NetZone*>&) {
                return size > 16 ? size / (size - 16) : 1e6;
            });
    } catch (const std::exception&) {
        return -1;
    }
    return 0;
}

// Is the simulation run under the exact configuration (bench/smpi_exact.sh
// --print-cfg B)?  0 if so; else 1 and `why` names the first option that
// differs.  Read through SimGrid's own configuration (xbt/config.hpp), so
// it sees --cfg options and the platform file's <config> alike.
#include <cstdio>
#include <sstream>
#include <string>
#include <xbt/config.hpp>

namespace {
template <class T> std::string show(const T& v)
{
    std::ostringstream o;
    o << std::boolalpha << v;
    return o.str();
}

template <class T> bool differs(const char* name, const T& want, std::string& why)
{
    try {
        const T& got = simgrid::config::get_value<T>(name);
        if (got == want)
            return false;
        why = std::string(name) + " is " + show(got) + ", not " + show(want);
    } catch (const std::exception&) {
        why = std::string(name) + " cannot be read";
    }
    return true;
}
} // namespace

extern "C" int ssched_smpi_config_check(char* why, size_t len)
{
    std::string w;
    bool bad = differs<std::string>("network/model", "CM02", w) ||
               differs<bool>("network/crosstraffic", false, w) ||
               differs<double>("network/weight-S", 0.0, w) ||
               differs<bool>("smpi/simulate-computation", false, w) ||
               differs<double>("smpi/wtime", 0.0, w) || differs<double>("smpi/test", 0.0, w) ||
               differs<double>("smpi/iprobe", 0.0, w) ||
               differs<int>("smpi/send-is-detached-thresh", 0, w) ||
               differs<int>("smpi/async-small-thresh", 0, w) ||
               differs<double>("network/latency-factor", 1.0, w) ||
               differs<double>("network/bandwidth-factor", 1.0, w);
    if (!bad) { // the TCP window bound gamma / (2 latency) must never bind
        try {
            double g = simgrid::config::get_value<double>("network/TCP-gamma");
            if (g < 1e20)
                bad = true, w = "network/TCP-gamma is " + show(g) + ", not 1e30";
        } catch (const std::exception&) {
            bad = true, w = "network/TCP-gamma cannot be read";
        }
    }
    if (bad && why && len)
        std::snprintf(why, len, "%s", w.c_str());
    return bad ? 1 : 0;
}
