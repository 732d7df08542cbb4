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
