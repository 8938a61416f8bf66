# libssched_pmpi (issue 25): the PMPI interposer, included by the top-level
# CMakeLists.txt after the MPI executor block.
#  - libssched_pmpi.so (Open MPI: LD_PRELOAD=.../libssched_pmpi.so mpirun ...):
#    the interposer, the executor (src/mpi) and libssched linked in, only
#    the MPI_* wrappers exported;
#  - libssched_pmpi_smpi.a (SimGrid): the same compiled with smpicc and
#    SSCHED_SMPI (below), linked into a program built with smpicc as
#    -Wl,--whole-archive libssched_pmpi_smpi.a -Wl,--no-whole-archive, then
#    libssched.a and its dependencies (SMPI declares MPI_* weak: a weak
#    reference pulls no archive member, hence --whole-archive; the
#    program's own definitions then win over SimGrid's).
set(SSCHED_PMPI_SOURCES ${PROJECT_SOURCE_DIR}/src/pmpi/pmpi.c ${PROJECT_SOURCE_DIR}/src/pmpi/plans.c)
if(MPI_C_FOUND)
  add_library(ssched_pmpi SHARED ${SSCHED_PMPI_SOURCES} ${SSCHED_MPI_LIB_SOURCES})
  target_include_directories(ssched_pmpi PRIVATE ${PROJECT_SOURCE_DIR} ${GMP_INCLUDE_DIR})
  target_link_libraries(ssched_pmpi PRIVATE ssched PkgConfig::JANSSON MPI::MPI_C)
  target_link_options(ssched_pmpi PRIVATE -Wl,--exclude-libs,ALL)
  install(TARGETS ssched_pmpi LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
if(SSCHED_SMPICC AND NOT SSCHED_SANITIZE)
  # with SSCHED_SMPI, as ssched-exec-smpi: plans paced where the platform
  # has latencies (the metronome, src/mpi/run_pace.c, announces every
  # event in time), combines as simulated flops (MPI_Reduce_local gives
  # the values, the plan's w the time); runs lean (ssched_i_mpi_lean: a
  # start one latency after the last rank entered, nothing after): a call
  # takes its plan plus a start constant
  set(SSCHED_PMPI_SMPI_FLAGS ${SSCHED_SMPI_FLAGS})
  set(SSCHED_PMPI_SMPI_OBJECTS)
  foreach(src ${SSCHED_PMPI_SOURCES} ${SSCHED_MPI_LIB_SOURCES})
    get_filename_component(base ${src} NAME_WE)
    set(obj ${PROJECT_BINARY_DIR}/pmpi_smpi/${base}.o)
    add_custom_command(OUTPUT ${obj}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/pmpi_smpi
      COMMAND ${SSCHED_SMPICC} ${SSCHED_PMPI_SMPI_FLAGS} -fPIC -I${PROJECT_SOURCE_DIR}/include
        -I${PROJECT_SOURCE_DIR} -I${GMP_INCLUDE_DIR} ${JANSSON_CFLAGS} -c ${src} -o ${obj}
      DEPENDS ${src} ${PROJECT_SOURCE_DIR}/src/pmpi/pmpi_internal.h
        ${PROJECT_SOURCE_DIR}/src/mpi/internal.h ${PROJECT_SOURCE_DIR}/src/mpi/run_internal.h
        ${PROJECT_SOURCE_DIR}/src/mpi/plan_internal.h ${PROJECT_SOURCE_DIR}/include/ssched/mpi.h
      COMMENT "smpicc ${base}.c (libssched_pmpi_smpi)" VERBATIM COMMAND_EXPAND_LISTS)
    list(APPEND SSCHED_PMPI_SMPI_OBJECTS ${obj})
  endforeach()
  add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/libssched_pmpi_smpi.a
    COMMAND ${CMAKE_COMMAND} -E rm -f ${PROJECT_BINARY_DIR}/libssched_pmpi_smpi.a
    COMMAND ${CMAKE_AR} rcs ${PROJECT_BINARY_DIR}/libssched_pmpi_smpi.a ${SSCHED_PMPI_SMPI_OBJECTS}
    DEPENDS ${SSCHED_PMPI_SMPI_OBJECTS} VERBATIM)
  add_custom_target(ssched_pmpi_smpi ALL DEPENDS ${PROJECT_BINARY_DIR}/libssched_pmpi_smpi.a)
  install(FILES ${PROJECT_BINARY_DIR}/libssched_pmpi_smpi.a DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
