# run_readme_example.cmake - runs one README example (-DPROGRAM=...) and checks
# that it exits 0 and prints exactly the lines in -DEXPECTED=FILE (the
# block's "prints:" comments; an empty file checks the exit status only).
cmake_minimum_required(VERSION 3.25)  # script mode: set the policies

execute_process(COMMAND "${PROGRAM}" OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
if(NOT status STREQUAL "0")
  message(FATAL_ERROR "${PROGRAM} exited with '${status}'\nstdout:\n${out}\nstderr:\n${err}")
endif()
file(READ "${EXPECTED}" expected)
if(NOT expected STREQUAL "" AND NOT out STREQUAL expected)
  message(FATAL_ERROR "${PROGRAM} printed:\n${out}\nbut the README says it prints:\n${expected}")
endif()
