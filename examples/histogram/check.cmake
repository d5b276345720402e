# cmake -P check.cmake (the ctest example_histogram, tests/CMakeLists.txt): installs the build BUILD
# into PREFIX (emptied first), builds this example against it, runs it (RUNS launches over N values)
# and analyses its trace with the installed `warpspan wcet`, the structure from the PTX (with nvcc the
# build's; in the emulation, which has none, histogram.ptx here, from nvcc 13) and nothing else. Checks what can be
# counted by hand: every warp of every run parsed, and the loop's bound (iterations after the first
# pass) from the most elements a thread visits, ceil(N / 512) for 4 blocks of 128 threads. Without a CUDA device (an nvcc build of warpspan
# on a machine without a GPU) only the build is checked. Variables: BUILD PREFIX GENERATOR CXX
# [CUDA CUDA_ARCHITECTURES (comma-separated)] N RUNS.
include(${CMAKE_CURRENT_LIST_DIR}/../../tests/consumer/run_step.cmake)  # run(WHAT COMMAND...)

file(REMOVE_RECURSE ${PREFIX} ${PREFIX}-histogram)
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX})
build_against_install("the example" ${CMAKE_CURRENT_LIST_DIR} ${PREFIX}-histogram)
set(trace ${PREFIX}-histogram/histogram.trace)
run("the example" ${PREFIX}-histogram/histogram ${N} ${RUNS} ${trace} ${PREFIX}-histogram/histogram.bin)
if(run_output MATCHES "no CUDA device")
  return()
endif()

# On a GPU, the PTX this build's nvcc wrote for the kernel it ran; in the emulation, the committed one.
set(ptx ${CMAKE_CURRENT_LIST_DIR}/histogram.ptx)
if(CUDA AND EXISTS ${PREFIX}-histogram/CMakeFiles/histogram_ptx.dir/histogram.ptx)
  set(ptx ${PREFIX}-histogram/CMakeFiles/histogram_ptx.dir/histogram.ptx)
endif()
math(EXPR warps "${RUNS} * 4 * 128 / 32")
math(EXPR bound "(${N} + 511) / 512 - 1")
foreach(form ${trace} ${PREFIX}-histogram/histogram.bin)
  run("warpspan wcet on ${form}" ${PREFIX}/bin/warpspan wcet --ptx ${ptx} --trace ${form}
      --json)
  string(JSON got_warps GET "${run_output}" warps)
  string(JSON got_runs GET "${run_output}" runs)
  string(JSON got_bound GET "${run_output}" loops 0 bound)
  if(NOT got_warps EQUAL warps OR NOT got_runs EQUAL RUNS OR NOT got_bound EQUAL bound)
    message(FATAL_ERROR "${form}: expected ${RUNS} runs, ${warps} warps and a loop bound of ${bound}; got "
                        "${got_runs}, ${got_warps} and ${got_bound}")
  endif()
endforeach()
