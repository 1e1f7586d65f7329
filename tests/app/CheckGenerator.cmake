# Runs the default-level generator into OUT and checks it equals EXPECTED byte for byte.
execute_process(COMMAND ${PYTHON} ${GEN} ${OUT} RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${GEN} failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT} ${EXPECTED} RESULT_VARIABLE diff)
if(NOT diff EQUAL 0)
  message(FATAL_ERROR "${EXPECTED} is not what ${GEN} writes: re-run the generator and commit both")
endif()
