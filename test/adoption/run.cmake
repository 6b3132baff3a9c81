# The steps of the adoption tests (ctest, ../CMakeLists.txt), in script mode:
#   cmake -DSTEP=install -DBUILD=DIR -DPREFIX=DIR -DVERSION=X.Y.Z -P run.cmake
#   cmake -DSTEP=find_package|subdirectory|makefile -DWORK=DIR -DPREFIX=DIR
#         -DGENERATOR=... -DCXX=... [-DTF_SOURCE_DIR=DIR] -P run.cmake
# Each step starts from an empty WORK (or PREFIX) and stops at the first
# command that does not do what it should.
cmake_minimum_required(VERSION 3.25)
set(here ${CMAKE_CURRENT_LIST_DIR})

# Runs ARGN; fails unless it succeeds and its output matches EXPECT (if given).
function(expect_success)
  cmake_parse_arguments(PARSE_ARGV 0 RUN "" "EXPECT" "")
  execute_process(COMMAND ${RUN_UNPARSED_ARGUMENTS} RESULT_VARIABLE status
                  OUTPUT_VARIABLE out ERROR_VARIABLE out)
  string(REPLACE ";" " " shown "${RUN_UNPARSED_ARGUMENTS}")
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "adoption: '${shown}' failed (${status}):\n${out}")
  endif()
  if(RUN_EXPECT AND NOT out MATCHES "${RUN_EXPECT}")
    message(FATAL_ERROR "adoption: '${shown}' printed no '${RUN_EXPECT}':\n${out}")
  endif()
  message(STATUS "adoption: ok: ${shown}")
endfunction()

# Runs ARGN; fails unless it fails and its output matches EXPECT.
function(expect_failure)
  cmake_parse_arguments(PARSE_ARGV 0 RUN "" "EXPECT" "")
  execute_process(COMMAND ${RUN_UNPARSED_ARGUMENTS} RESULT_VARIABLE status
                  OUTPUT_VARIABLE out ERROR_VARIABLE out)
  string(REPLACE ";" " " shown "${RUN_UNPARSED_ARGUMENTS}")
  if(status EQUAL 0 OR NOT out MATCHES "${RUN_EXPECT}")
    message(FATAL_ERROR "adoption: '${shown}' should fail with '${RUN_EXPECT}' "
                        "(exit status ${status}):\n${out}")
  endif()
  message(STATUS "adoption: fails as it should: ${shown}")
endfunction()

set(broken_kernel "error: written Repeat<2, 1, 2> disagrees with the derived Repeat<2, 1, 4>[^\n]*\\[tf:repeat-mismatch\\]")

if(STEP STREQUAL "install")
  file(REMOVE_RECURSE ${PREFIX})
  expect_success(${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX})
  expect_success(${PREFIX}/bin/tf --version EXPECT "^tf ${VERSION} ")
  # The installed tool reads the installed facts, found from its own place.
  string(REGEX REPLACE "([][+.*()^$?|\\])" "\\\\\\1" prefix_pattern "${PREFIX}")
  expect_success(${PREFIX}/bin/tf targets
                 EXPECT "8 targets in ${prefix_pattern}/share/tf/targets \\(default\\)")
  # The installed clangd launcher finds the installed plugin from its own place
  # and runs clangd with it loaded.
  expect_success(${PREFIX}/bin/tf-clangd --version EXPECT "clangd version 22")
  return()
endif()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
if(STEP STREQUAL "makefile")
  set(make make -C ${WORK} -f ${here}/makefile/Makefile TF_PREFIX=${PREFIX} CXX=${CXX})
  expect_success(${make} hello check)
  expect_success(${WORK}/hello EXPECT "tf's headers work")
  expect_failure(${make} broken EXPECT "${broken_kernel}")
  return()
endif()

set(configure ${CMAKE_COMMAND} -S ${here}/${STEP} -B ${WORK} -G ${GENERATOR}
              -DCMAKE_CXX_COMPILER=${CXX})
if(STEP STREQUAL "find_package")
  expect_success(${configure} -DCMAKE_PREFIX_PATH=${PREFIX} -DTF_GEMM_EXAMPLE=${TF_GEMM_EXAMPLE})
  expect_success(${CMAKE_COMMAND} --build ${WORK})
  expect_success(${WORK}/hello EXPECT "tf's headers work")
  expect_failure(${CMAKE_COMMAND} --build ${WORK} --target broken EXPECT "${broken_kernel}")
elseif(STEP STREQUAL "subdirectory")
  expect_success(${configure} -DTF_SOURCE_DIR=${TF_SOURCE_DIR})
  expect_success(${CMAKE_COMMAND} --build ${WORK})
  expect_success(${WORK}/hello EXPECT "tf's headers work")
else()
  message(FATAL_ERROR "adoption: unknown STEP '${STEP}'")
endif()
