# run(WHAT COMMAND...): runs a step of an install check, prints its output, and stops the check with
# WHAT when it fails; its stdout is left in run_output. Included by the check_*.cmake scripts here
# and by examples/*/check.cmake.
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc})")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

# build_against_install(WHAT SOURCE_DIR BINARY_DIR [CONFIGURE_ARGS...]): configures the project in
# SOURCE_DIR against the install in PREFIX (compilers CXX and, with CUDA, CUDA for CUDA_ARCHITECTURES,
# comma-separated; more -D arguments after BINARY_DIR) and builds it in BINARY_DIR; WHAT names it in
# the steps' messages.
function(build_against_install what source_dir binary_dir)
  set(args -S ${source_dir} -B ${binary_dir} -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${PREFIX}
           -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release)
  if(CUDA)
    list(APPEND args -DCMAKE_CUDA_COMPILER=${CUDA})
    # A list cannot be one argument of execute_process; CMake reads CUDAARCHS when nothing is given.
    string(REPLACE "," ";" ENV{CUDAARCHS} "${CUDA_ARCHITECTURES}")
  endif()
  run("configuring ${what}" ${CMAKE_COMMAND} ${args} ${ARGN})
  run("building ${what}" ${CMAKE_COMMAND} --build ${binary_dir})
endfunction()
