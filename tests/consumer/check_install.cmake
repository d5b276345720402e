# cmake -P check_install.cmake: installs the build BUILD into PREFIX (emptied first), checks that the
# installed CMake package names nothing in the source tree SOURCE, builds the consumer project next to
# it against PREFIX and runs it (and its probe program when warpspan has CUDA or its emulation). With PYTHON (and
# PYTHON_DIR, the package's directory under the prefix), also imports the installed Python module
# from there. Variables: BUILD PREFIX SOURCE GENERATOR CXX [CUDA CUDA_ARCHITECTURES (comma-separated)]
# [EMULATION] [PYTHON PYTHON_DIR].
include(${CMAKE_CURRENT_LIST_DIR}/run_step.cmake)

file(REMOVE_RECURSE ${PREFIX} ${PREFIX}-consumer)
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX})

file(GLOB_RECURSE package_files ${PREFIX}/*.cmake)
if(NOT package_files)
  message(FATAL_ERROR "no CMake package installed under ${PREFIX}")
endif()
foreach(f IN LISTS package_files)
  file(READ ${f} text)
  foreach(private include cuda host data)
    string(FIND "${text}" "${SOURCE}/${private}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${f} names the source tree (${SOURCE}/${private})")
    endif()
  endforeach()
endforeach()

build_against_install("the consumer" ${CMAKE_CURRENT_LIST_DIR} ${PREFIX}-consumer -DWARPSPAN_DOC=${SOURCE}/docs/library.md)
run("the consumer" ${PREFIX}-consumer/consumer ${PREFIX}/share/warpspan/data)
# The C++ API page's examples (docs/library.md), each a program of its own.
file(STRINGS ${PREFIX}-consumer/doc_examples.txt examples)
foreach(example IN LISTS examples)
  run("the example '${example}' of docs/library.md" ${PREFIX}-consumer/doc_${example} ${PREFIX}/share/warpspan/data)
endforeach()
if(CUDA OR EMULATION)
  if(NOT EXISTS ${PREFIX}-consumer/consumer_probe)
    message(FATAL_ERROR "warpspan has CUDA (or its emulation) but the consumer found no warpspan::probe")
  endif()
  run("the consumer's probe" ${PREFIX}-consumer/consumer_probe)
  if(EMULATION AND NOT run_output MATCHES "as expected")
    message(FATAL_ERROR "the emulated probe did not run its kernel")
  endif()
endif()

if(PYTHON)
  run("import warpspan from ${PREFIX}/${PYTHON_DIR}" ${CMAKE_COMMAND} -E env PYTHONPATH=${PREFIX}/${PYTHON_DIR}
      PYTHONDONTWRITEBYTECODE=1 ${PYTHON} -c
      "import warpspan\nprint(warpspan.__file__)\nprint(warpspan.bound('5L9C2L9C', 16, 'L=1,C=4').pessimistic)")
  if(NOT run_output MATCHES "^${PREFIX}/${PYTHON_DIR}/warpspan/__init__.py\n197\n$")
    message(FATAL_ERROR "the installed Python module: expected its path and 197, got:\n${run_output}")
  endif()
endif()
