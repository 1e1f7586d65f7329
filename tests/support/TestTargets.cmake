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

# nav_test_support (tests/support/*.cpp: Recast bakes for the differential tests), made by the
# first test folder that needs it.
function(navbench_nav_test_support)
  if(TARGET nav_test_support)
    return()
  endif()
  file(GLOB srcs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/support/*.cpp)
  add_library(nav_test_support STATIC ${srcs} ${PROJECT_SOURCE_DIR}/tests/support/RecastPolyMesh.h)
  target_include_directories(nav_test_support PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(nav_test_support PUBLIC recast_ext)
  navbench_warnings(nav_test_support)
endfunction()

# navbench_test_library(NAME SOURCES... LIBS LIBRARIES...): a folder's static test-support library;
# its users get the project root and the folder on the include path, LIBRARIES and the test paths.
function(navbench_test_library name)
  cmake_parse_arguments(L "" "" "LIBS" ${ARGN})
  add_library(${name} STATIC ${L_UNPARSED_ARGUMENTS})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${name} PUBLIC ${L_LIBS})
  navbench_test_paths(${name} PUBLIC)
  navbench_warnings(${name})
endfunction()
