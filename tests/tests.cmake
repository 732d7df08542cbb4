# Tests beyond the per-file unit tests: the corpus run through the CLI.
if(EXISTS /usr/bin/python3)
  set(PTERA_PYTHON /usr/bin/python3 CACHE FILEPATH "Python with numpy for the corpus test")
else()
  find_program(PTERA_PYTHON python3)
endif()
add_test(NAME corpus
         COMMAND ${PTERA_PYTHON} ${CMAKE_SOURCE_DIR}/tests/corpus/run_corpus.py $<TARGET_FILE:ptera>
                 ${PTERA_CORPUS_DIR})
set_tests_properties(corpus PROPERTIES TIMEOUT 900)
# The two longest tests start first so that `ctest -j` runs them side by
# side (matters most under valgrind, where each takes minutes).
set_tests_properties(corpus PROPERTIES COST 1000)
if(TEST test_corrupt_corpus)
  set_tests_properties(test_corrupt_corpus PROPERTIES COST 900)
endif()

# The model zoo end to end (tests/zoo): export with python/ptera, run with
# `ptera run`, compare with eager PyTorch. Needs torch and torchvision in
# PTERA_PYTHON; without them the test is left out. PTERA_ZOO_SKIP_HEAVY=1 in
# the environment (or --skip-heavy) keeps only the small models for the
# valgrind/sanitizer runs.
if(PTERA_PYTHON)
  execute_process(COMMAND ${PTERA_PYTHON} -c "import torch, torchvision, numpy"
                  RESULT_VARIABLE PTERA_ZOO_PY_RC OUTPUT_QUIET ERROR_QUIET)
  if(PTERA_ZOO_PY_RC EQUAL 0)
    add_test(NAME zoo COMMAND ${PTERA_PYTHON} ${CMAKE_SOURCE_DIR}/tests/zoo/run_zoo.py $<TARGET_FILE:ptera>)
    set_tests_properties(zoo PROPERTIES TIMEOUT 1800 COST 1100)
  else()
    message(STATUS "zoo test skipped: ${PTERA_PYTHON} lacks torch/torchvision")
  endif()
endif()
