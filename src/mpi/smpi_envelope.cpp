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
