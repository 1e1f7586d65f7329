# Test target helpers for the test folders (include()d by their CMakeLists.txt).
include_guard(GLOBAL)

# Where a test finds the team's shared levels (skipping clearly when absent) and the project's own
# assets: both paths compiled in.
function(navbench_test_paths target scope)
  target_compile_definitions(${target} ${scope}
    NAVBENCH_SHARED_DIR="${NAVBENCH_SHARED_DIR}"
    NAVBENCH_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
endfunction()

# navbench_gtest(NAME LABEL SOURCES... [LIBS LIBRARIES...]): a Google Test executable with the
# project's warnings, linked with LIBRARIES and gtest_main, its tests discovered into ctest under LABEL.
function(navbench_gtest name label)
  cmake_parse_arguments(G "" "" "LIBS" ${ARGN})
  add_executable(${name} ${G_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE ${G_LIBS} GTest::gtest_main)
  navbench_warnings(${name})
  gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST PROPERTIES LABELS ${label})
endfunction()
