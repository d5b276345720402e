# cmake -P check_example_spmv.cmake: installs the build BUILD into PREFIX (emptied first), builds the
# example examples/spmv against it as a user would (find_package(warpspan)), and searches the harness
# it makes with the installed `warpspan inputs --harness` (as check_install.cmake does for the
# consumer project). With nvcc (CUDA), the GPU variant must carry its GPU entry; against the CUDA
# emulation (EMULATION), it must also search with `--fitness gpu` on the emulated device.
# Variables: BUILD PREFIX SOURCE GENERATOR CXX [CUDA CUDA_ARCHITECTURES (comma-separated)] [EMULATION].
include(${CMAKE_CURRENT_LIST_DIR}/run_step.cmake)

file(REMOVE_RECURSE ${PREFIX} ${PREFIX}-spmv)
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX})
if(NOT EXISTS ${PREFIX}/include/warpspan/harness.hpp)
  message(FATAL_ERROR "the install has no include/warpspan/harness.hpp")
endif()

build_against_install("examples/spmv" ${SOURCE}/examples/spmv ${PREFIX}-spmv)

set(warpspan ${PREFIX}/bin/warpspan)
set(harness ${PREFIX}-spmv/libspmv.so)
run("inputs --list --harness" ${warpspan} inputs --list --harness ${harness})
if(NOT run_output MATCHES "^spmv \\(harness .*libspmv.so, ABI version 1\\)\n.*weight  per thread, int in \\[0, 15\\]")
  message(FATAL_ERROR "inputs --list --harness: not the spmv harness:\n${run_output}")
endif()
run("inputs --harness --compare" ${warpspan} inputs --harness ${harness} --threads 256 --compare --evaluations 200
    --jobs 1 --json)
string(JSON kernel GET "${run_output}" kernel)
string(JSON runs LENGTH "${run_output}" runs)
string(JSON gdivan GET "${run_output}" runs 0 best_fitness)
string(JSON random GET "${run_output}" runs 2 best_fitness)
if(NOT kernel STREQUAL "spmv" OR NOT runs EQUAL 3 OR gdivan LESS random)
  message(FATAL_ERROR "inputs --harness --compare: kernel ${kernel}, ${runs} runs, gdivan ${gdivan} < random ${random}")
endif()
message("spmv, 256 rows: gdivan ${gdivan} cycles, random ${random}")

if(EXISTS ${PREFIX}-spmv/libspmv_gpu.so)
  run("inputs --list --harness (GPU variant)" ${warpspan} inputs --list --harness ${PREFIX}-spmv/libspmv_gpu.so)
  if(NOT run_output MATCHES ", GPU entry\n")
    message(FATAL_ERROR "libspmv_gpu.so has no GPU entry:\n${run_output}")
  endif()
  if(EMULATION)
    # Built against the emulated runtime: its GPU entry runs on the emulated device of the installed
    # warpspan, which answers its CUDA calls (docs/harness.md, section 7).
    run("inputs --harness --fitness gpu (emulation)" ${warpspan} inputs --harness ${PREFIX}-spmv/libspmv_gpu.so
        --threads 256 --fitness gpu --method random --evaluations 12 --json)
    string(JSON unit GET "${run_output}" fitness_unit)
    string(JSON evaluations GET "${run_output}" evaluations)
    string(JSON best GET "${run_output}" best_fitness)
    if(NOT unit STREQUAL "ms" OR NOT evaluations EQUAL 12 OR NOT best GREATER 0)
      message(FATAL_ERROR "inputs --fitness gpu on libspmv_gpu.so: ${evaluations} evaluations, best ${best} ${unit}")
    endif()
    message("spmv, 256 rows, GPU entry in the emulation: best ${best} ms")
  endif()
elseif(CUDA OR EMULATION)
  message(FATAL_ERROR "examples/spmv built no libspmv_gpu.so (with nvcc or against the emulation)")
endif()
