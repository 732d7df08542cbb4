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
# ptera run's top-k line: the helper is tools code, linked into its unit test.
if(TARGET test_cli_topk)
  target_sources(test_cli_topk PRIVATE ${CMAKE_SOURCE_DIR}/tools/ptera/cli_topk.c)
  target_include_directories(test_cli_topk PRIVATE ${CMAKE_SOURCE_DIR}/tools/ptera)
endif()
add_test(NAME cli_run_topk
         COMMAND ${PTERA_PYTHON} ${CMAKE_SOURCE_DIR}/tests/cli/run_topk.py $<TARGET_FILE:ptera>
                 ${PTERA_CORPUS_DIR})

# `ptera compile` end to end: a generated .ptg compiled, run and checked.
add_test(NAME compile_cli
         COMMAND ${PTERA_PYTHON} ${CMAKE_SOURCE_DIR}/tests/compile/test_compile_cli.py
                 $<TARGET_FILE:ptera> ${CMAKE_BINARY_DIR}/compile_cli)
# The Python front end (python/ptera): capture and operator mapping checked by
# a reference interpreter, and export -> ptera compile -> ptera run against
# eager PyTorch. Skips fail the test (PTERA_NO_SKIP).
add_test(NAME python_frontend
         COMMAND ${CMAKE_COMMAND} -E env PTERA_BIN=$<TARGET_FILE:ptera> PTERA_NO_SKIP=1
                 ${PTERA_PYTHON} -m pytest -q -p no:cacheprovider ${CMAKE_SOURCE_DIR}/python/tests)
set_tests_properties(python_frontend PROPERTIES TIMEOUT 900 COST 500)

# The model zoo end to end (tests/zoo): export with python/ptera, run with
# `ptera run`, compare with eager PyTorch (needs torch and torchvision, which
# scripts/deps.sh installs; a missing one fails the test). PTERA_ZOO_SKIP_HEAVY=1
# in the environment (or --skip-heavy) keeps only the small models.
add_test(NAME zoo COMMAND ${PTERA_PYTHON} ${CMAKE_SOURCE_DIR}/tests/zoo/run_zoo.py $<TARGET_FILE:ptera>)
set_tests_properties(zoo PROPERTIES TIMEOUT 1800 COST 1100)

# test_emit_named also runs `ptera inspect` on a file it emits.
if(TARGET test_emit_named)
  target_compile_definitions(test_emit_named PRIVATE PTERA_CLI="$<TARGET_FILE:ptera>")
  add_dependencies(test_emit_named ptera)
endif()

# The .pte/.ptd schema checked with Google's flatc (tests/schema): our
# ExecuTorch schemas must reproduce flatc's reference parses of the corpus
# (written by ExecuTorch) exactly, and the files ptera writes must decode
# and pass flatbuffers::Verifier and the loader's structural checks. A
# missing flatc / libflatbuffers-dev (scripts/deps.sh) fails the test.
add_test(NAME schema
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 sh -c
                 "\"$0\" \"$1\" \"$2\" && \"$0\" \"$3\" \"$4\""
                 ${PTERA_PYTHON} ${CMAKE_SOURCE_DIR}/tests/schema/check_corpus.py ${PTERA_CORPUS_DIR}
                 ${CMAKE_SOURCE_DIR}/tests/schema/check_emitted.py $<TARGET_FILE:ptera>)
set_tests_properties(schema PROPERTIES TIMEOUT 300)

# `ptera bench`: statistics, --profile against --trace, option validation.
add_test(NAME cli_bench
         COMMAND ${PTERA_PYTHON} ${CMAKE_SOURCE_DIR}/tests/cli/bench.py $<TARGET_FILE:ptera>
                 ${CMAKE_SOURCE_DIR})

# `ptera inspect` ends with each method's memory once loaded: AddModel has one
# 32-byte planned buffer, no prepared kernel, and float[3] tensors only, so
# the temp arena is the 4 KiB minimum (method.h).
add_test(NAME cli_inspect_memory
         COMMAND sh -c "\"$0\" inspect \"$1\" | grep -Eq '^memory forward: arena [1-9][0-9]*, planned 32, temp 4096, packed 0 bytes$'"
                 $<TARGET_FILE:ptera>
                 ${PTERA_CORPUS_DIR}/pte/pytorch+executorch__examples_arduino_examples_AddModel_model.pte)
