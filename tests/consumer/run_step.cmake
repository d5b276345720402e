# run(WHAT COMMAND...): runs a step of an install check, prints its output, and stops the check with
# WHAT when it fails; its stdout is left in run_output. Included by the check_*.cmake scripts here.
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc})")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()
