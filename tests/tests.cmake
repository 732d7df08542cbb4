# Tests beyond the per-file unit tests: the corpus run through the CLI.
if(EXISTS /usr/bin/python3)
  set(PTERA_PYTHON /usr/bin/python3 CACHE FILEPATH "Python with numpy for the corpus test")
else()
  find_program(PTERA_PYTHON python3)
endif()
add_test(NAME corpus
         COMMAND ${PTERA_PYTHON} ${PROJECT_SOURCE_DIR}/tests/corpus/run_corpus.py $<TARGET_FILE:ptera>
                 ${PTERA_CORPUS_DIR})
set_tests_properties(corpus PROPERTIES TIMEOUT 900)
# The same with load-time fusion off (PTERA_NO_FUSE=1 reaches `ptera run`):
# fused and unfused runs both match ExecuTorch's outputs.
add_test(NAME corpus_no_fuse
         COMMAND ${PTERA_PYTHON} ${PROJECT_SOURCE_DIR}/tests/corpus/run_corpus.py $<TARGET_FILE:ptera>
                 ${PTERA_CORPUS_DIR})
set_tests_properties(corpus_no_fuse PROPERTIES TIMEOUT 900 ENVIRONMENT PTERA_NO_FUSE=1)
# The two longest tests start first so that `ctest -j` runs them side by
# side (matters most under valgrind, where each takes minutes).
set_tests_properties(corpus PROPERTIES COST 1000)
if(TEST test_corrupt_corpus)
  set_tests_properties(test_corrupt_corpus PROPERTIES COST 900)
endif()
# ptera run's top-k line: the helper is tools code, linked into its unit test.
if(TARGET test_cli_topk)
  target_sources(test_cli_topk PRIVATE ${PROJECT_SOURCE_DIR}/tools/ptera/cli_topk.c)
  target_include_directories(test_cli_topk PRIVATE ${PROJECT_SOURCE_DIR}/tools/ptera)
endif()
add_test(NAME cli_run_topk
         COMMAND ${PTERA_PYTHON} ${PROJECT_SOURCE_DIR}/tests/cli/run_topk.py $<TARGET_FILE:ptera>
                 ${PTERA_CORPUS_DIR})

# `ptera compile` end to end: a generated .ptg compiled, run and checked.
add_test(NAME compile_cli
         COMMAND ${PTERA_PYTHON} ${PROJECT_SOURCE_DIR}/tests/compile/test_compile_cli.py
                 $<TARGET_FILE:ptera> ${PROJECT_BINARY_DIR}/compile_cli)
# A keyword-spotting DS-CNN exported with --backend cortex_m and calibration,
# run with `ptera run`, bit-exact to a numpy reference of the int8 arithmetic
# (tests/compile/cortex_m_dscnn.py; needs torch).
add_test(NAME cortex_m_dscnn
         COMMAND ${PTERA_PYTHON} ${PROJECT_SOURCE_DIR}/tests/compile/cortex_m_dscnn.py
                 $<TARGET_FILE:ptera> ${PROJECT_BINARY_DIR}/cortex_m_dscnn)
# The quantizers' scope by module (--quantize-scope / --quantize-skip): a
# two-branch model whose branches meet in an add, a pool and a cat, which
# nodes of the lowered XNNGraph run in int8 (read with flatc) and the outputs
# against eager PyTorch (tests/compile/quant_scope.py; needs torch, flatc).
add_test(NAME quant_scope
         COMMAND ${PTERA_PYTHON} ${PROJECT_SOURCE_DIR}/tests/compile/quant_scope.py
                 $<TARGET_FILE:ptera> ${PROJECT_BINARY_DIR}/quant_scope)
# The Python front end (python/ptera): capture and operator mapping checked by
# a reference interpreter, and export -> ptera compile -> ptera run against
# eager PyTorch. Skips fail the test (PTERA_NO_SKIP).
add_test(NAME python_frontend
         COMMAND ${CMAKE_COMMAND} -E env PTERA_BIN=$<TARGET_FILE:ptera> PTERA_NO_SKIP=1
                 ${PTERA_PYTHON} -m pytest -q -p no:cacheprovider
                 --ignore=${PROJECT_SOURCE_DIR}/python/tests/test_runtime.py
                 --ignore=${PROJECT_SOURCE_DIR}/python/tests/test_dynamic.py ${PROJECT_SOURCE_DIR}/python/tests)
set_tests_properties(python_frontend PROPERTIES TIMEOUT 900 COST 500)

# The model zoo end to end (tests/zoo): export with python/ptera, run with
# `ptera run`, compare with eager PyTorch (needs torch and torchvision, which
# scripts/deps.sh installs; a missing one fails the test). PTERA_ZOO_SKIP_HEAVY=1
# in the environment (or --skip-heavy) keeps only the small models.
add_test(NAME zoo COMMAND ${PTERA_PYTHON} ${PROJECT_SOURCE_DIR}/tests/zoo/run_zoo.py $<TARGET_FILE:ptera>)
set_tests_properties(zoo PROPERTIES TIMEOUT 1800 COST 1100)
# The same with load-time fusion off (PTERA_NO_FUSE=1 reaches `ptera run`):
# every model matches eager with its instructions run as written too.
add_test(NAME zoo_no_fuse COMMAND ${PTERA_PYTHON} ${PROJECT_SOURCE_DIR}/tests/zoo/run_zoo.py $<TARGET_FILE:ptera>)
set_tests_properties(zoo_no_fuse PROPERTIES TIMEOUT 1800 COST 1000 ENVIRONMENT PTERA_NO_FUSE=1)

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
                 ${PTERA_PYTHON} ${PROJECT_SOURCE_DIR}/tests/schema/check_corpus.py ${PTERA_CORPUS_DIR}
                 ${PROJECT_SOURCE_DIR}/tests/schema/check_emitted.py $<TARGET_FILE:ptera>)
set_tests_properties(schema PROPERTIES TIMEOUT 300)

# `ptera bench`: statistics, --profile against --trace, option validation.
add_test(NAME cli_bench
         COMMAND ${PTERA_PYTHON} ${PROJECT_SOURCE_DIR}/tests/cli/bench.py $<TARGET_FILE:ptera>
                 ${PROJECT_SOURCE_DIR})

# `ptera inspect` ends with each method's memory once loaded: AddModel has one
# 32-byte planned buffer, no prepared kernel, and float[3] tensors only, so
# the temp arena is the 4 KiB minimum (method.h).
add_test(NAME cli_inspect_memory
         COMMAND sh -c "\"$0\" inspect \"$1\" | grep -Eq '^memory forward: arena [1-9][0-9]*, planned 32, temp 4096, packed 0 bytes$'"
                 $<TARGET_FILE:ptera>
                 ${PTERA_CORPUS_DIR}/pte/pytorch+executorch__examples_arduino_examples_AddModel_model.pte)
# `ptera ops --used` against the corpus's flatc dumps (tests/cli/ops_used.py).
add_test(NAME cli_ops_used
         COMMAND ${PTERA_PYTHON} ${PROJECT_SOURCE_DIR}/tests/cli/ops_used.py $<TARGET_FILE:ptera>
                 ${PTERA_CORPUS_DIR})

# A selective kernel table (what -DPTERA_SELECTED_OPS builds, kernels/selected_ops.cmake):
# the CLI linked with only the operators of tests/cli/selected_ops.txt.
ptera_add_op_table(ptera_table_selected ${PROJECT_SOURCE_DIR}/tests/cli/selected_ops.txt)
add_executable(ptera_selected ${PTERA_CLI_OBJECTS} ${PTERA_LAYER_OBJECTS}
                              $<TARGET_OBJECTS:ptera_table_selected>)
set_target_properties(ptera_selected PROPERTIES LINKER_LANGUAGE C)
target_link_libraries(ptera_selected PRIVATE m ${PTERA_THREAD_LIBS})
target_link_options(ptera_selected PRIVATE -Wl,--gc-sections)
add_test(NAME selected_ops
         COMMAND ${PTERA_PYTHON} ${PROJECT_SOURCE_DIR}/tests/cli/selected_ops.py $<TARGET_FILE:ptera_selected>
                 ${PROJECT_SOURCE_DIR}/tests/cli/selected_ops.txt ${PTERA_CORPUS_DIR} ${CMAKE_COMMAND}
                 ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR}/selected_ops_scratch)

# Hostile names: crafted copies of corpus files (control bytes, ANSI escapes,
# invalid UTF-8 in names and keys) through inspect/run/verify; no raw control
# byte reaches the output and every `inspect --json` parses and matches
# docs/inspect.schema.json. Also every bad numeric option is a usage error.
add_test(NAME cli_hostile_output
         COMMAND ${PTERA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/cli/hostile_output.py $<TARGET_FILE:ptera>
                 ${PTERA_CORPUS_DIR})
# `ptera inspect --json` (the public inspection API underneath) against the
# corpus's flatc dumps (tests/cli/inspect_flatc.py).
add_test(NAME cli_inspect_flatc
         COMMAND ${PTERA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/cli/inspect_flatc.py $<TARGET_FILE:ptera>
                 ${PTERA_CORPUS_DIR})
add_test(NAME cli_options
         COMMAND ${PTERA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/cli/options.py $<TARGET_FILE:ptera>
                 ${PTERA_CORPUS_DIR})

# ptera as a dependency (tests/install/consumers.py): cmake --install into a
# temporary prefix, then examples/c_api built outside the tree through
# pkg-config (shared, --static), find_package(ptera) and add_subdirectory,
# each run on corpus programs against ExecuTorch's outputs, and the
# pip-installed Python package run against the installed library.
# The Python runtime binding (python/ptera/runtime.py, ctypes over this
# build's libptera.so): zoo models against eager PyTorch, state across calls,
# errors, threads; and dynamic shapes from the front end (test_dynamic.py:
# exported with bounds, run through the binding at several sizes). Neither runs in the sanitizer build: they check packaging and the
# binding, and the interpreter (torch) under a preloaded ASan runtime takes
# far too long; the C paths they use are covered there by the other tests.
# Nor in the valgrind build (CMAKE_CROSSCOMPILING_EMULATOR): the Python
# interpreter and the consumers' builds run outside valgrind anyway.
if(NOT PTERA_SANITIZE AND NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME install_consumers
           COMMAND ${PTERA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/install/consumers.py ${PROJECT_SOURCE_DIR}
                   ${PROJECT_BINARY_DIR} ${PTERA_CORPUS_DIR} ${PROJECT_VERSION} ${CMAKE_C_COMPILER})
  set_tests_properties(install_consumers PROPERTIES TIMEOUT 900 COST 800)
  add_test(NAME python_runtime
           COMMAND ${CMAKE_COMMAND} -E env PTERA_LIB=$<TARGET_FILE:ptera_shared> PTERA_BIN=$<TARGET_FILE:ptera>
                   PTERA_CORPUS_DIR=${PTERA_CORPUS_DIR} PTERA_NO_SKIP=1
                   ${PTERA_PYTHON} -m pytest -q -p no:cacheprovider ${PROJECT_SOURCE_DIR}/python/tests/test_runtime.py
                   ${PROJECT_SOURCE_DIR}/python/tests/test_dynamic.py)
  set_tests_properties(python_runtime PROPERTIES TIMEOUT 900 COST 600)
  # The digits CNN's 359 held-out images through the binding: test-set
  # accuracy of fp32 eager against ptera's fp32 and quantized programs
  # (8da8w/8da4w xnnpack, int8/int4-weight, cortex_m and xnnpack int8-static).
  add_test(NAME digits_quant_accuracy
           COMMAND ${CMAKE_COMMAND} -E env PTERA_LIB=$<TARGET_FILE:ptera_shared>
                   ${PTERA_PYTHON} ${PROJECT_SOURCE_DIR}/tests/zoo/digits_quant_accuracy.py
                   $<TARGET_FILE:ptera> ${PROJECT_BINARY_DIR}/digits_quant_accuracy)
  set_tests_properties(digits_quant_accuracy PROPERTIES TIMEOUT 600 COST 100)
  # int8-static through the XNNPACK delegate (a small CNN, MobileNetV2, ResNet-18):
  # bit-exact against a numpy interpreter of the lowered XNNGraph, the
  # compiler's parameters and weights against the eager model (flatc needed).
  add_test(NAME xnn_int8_static
           COMMAND ${CMAKE_COMMAND} -E env PTERA_LIB=$<TARGET_FILE:ptera_shared>
                   ${PTERA_PYTHON} ${PROJECT_SOURCE_DIR}/tests/compile/xnn_int8_static.py
                   $<TARGET_FILE:ptera> ${PROJECT_BINARY_DIR}/xnn_int8_static)
  set_tests_properties(xnn_int8_static PROPERTIES TIMEOUT 600 COST 100)
endif()

# The layers (cmake/layers.cmake): what each layer's include directories let
# it see, and a PTERA_BUILD_COMPILER=OFF configure of the runtime alone.
add_test(NAME build_layers
         COMMAND ${PTERA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/cli/layers.py ${CMAKE_C_COMPILER}
                 ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR} ${CMAKE_COMMAND}
                 ${PROJECT_BINARY_DIR}/layers_scratch)

# docs/API.md is generated from include/ptera/*.h (scripts/api_ref.py): it
# must be current.
add_test(NAME api_reference COMMAND ${PTERA_PYTHON} ${PROJECT_SOURCE_DIR}/scripts/api_ref.py --check)

# examples/c_api/custom_kernel.c in the tree: a program calling a custom op
# (written by tests/install/make_custom_op_pte.c), run by the example, its
# output checked against the formula (tests/install/custom_kernel.py; the
# install_consumers test builds the example outside the tree too).
add_executable(make_custom_op_pte ${PROJECT_SOURCE_DIR}/tests/install/make_custom_op_pte.c
               ${PROJECT_SOURCE_DIR}/tests/support/emit_util.c ${PROJECT_SOURCE_DIR}/tests/support/check.c)
target_include_directories(make_custom_op_pte PRIVATE ${PROJECT_SOURCE_DIR}/tests/support)
target_link_libraries(make_custom_op_pte PRIVATE ptera_static)
add_executable(example_custom_kernel ${PROJECT_SOURCE_DIR}/examples/c_api/custom_kernel.c)
target_link_libraries(example_custom_kernel PRIVATE ptera_shared)
add_test(NAME example_custom_kernel
         COMMAND ${PTERA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/install/custom_kernel.py
                 $<TARGET_FILE:make_custom_op_pte> $<TARGET_FILE:example_custom_kernel>
                 ${PROJECT_BINARY_DIR}/custom_kernel_scratch)

# examples/c_api/custom_backend.c in the tree: a backend registered through
# the public API runs a program's DelegateCall (the program written by
# tests/install/make_custom_backend_pte.c), its output checked against the
# formula (tests/install/custom_backend.py).
add_executable(make_custom_backend_pte ${PROJECT_SOURCE_DIR}/tests/install/make_custom_backend_pte.c
               ${PROJECT_SOURCE_DIR}/tests/support/emit_util.c ${PROJECT_SOURCE_DIR}/tests/support/check.c)
target_include_directories(make_custom_backend_pte PRIVATE ${PROJECT_SOURCE_DIR}/tests/support)
target_link_libraries(make_custom_backend_pte PRIVATE ptera_static)
add_executable(example_custom_backend ${PROJECT_SOURCE_DIR}/examples/c_api/custom_backend.c)
target_link_libraries(example_custom_backend PRIVATE ptera_shared)
add_test(NAME example_custom_backend
         COMMAND ${PTERA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/install/custom_backend.py
                 $<TARGET_FILE:make_custom_backend_pte> $<TARGET_FILE:example_custom_backend>
                 ${PROJECT_BINARY_DIR}/custom_backend_scratch)

# examples/c_api/caller_memory.c: corpus programs run from one caller-owned
# block sized by the memory queries, outputs against ExecuTorch's.
add_executable(example_caller_memory ${PROJECT_SOURCE_DIR}/examples/c_api/caller_memory.c)
target_link_libraries(example_caller_memory PRIVATE ptera_shared)
add_test(NAME example_caller_memory
         COMMAND ${PTERA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/install/caller_memory.py
                 $<TARGET_FILE:example_caller_memory> ${PTERA_CORPUS_DIR} ${PROJECT_BINARY_DIR}/caller_memory_scratch)

# `ptera compile` progress: on a terminal only (tests/cli/progress.py).
add_test(NAME cli_progress
         COMMAND ${PTERA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/cli/progress.py $<TARGET_FILE:ptera>
                 ${PROJECT_BINARY_DIR}/progress_scratch)

# The small-target switches on the host (tests/switches/switches.py): the
# runtime built from outside the tree with PTERA_NO_FS, PTERA_NO_HEAP,
# PTERA_STRIP_MESSAGES and PTERA_THREADS=OFF together; nm and strings show
# no file, heap, thread or message-formatting code in it, and corpus programs
# run from one static pool sized by the memory queries match ExecuTorch's
# outputs. Its build directory is kept (incremental; the compiler launcher,
# e.g. ccache, is passed on). Not in the sanitizer or valgrind builds, whose
# options the inner build would not have anyway.
if(NOT PTERA_SANITIZE AND NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME build_switches
           COMMAND ${PTERA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/switches/switches.py ${PROJECT_SOURCE_DIR}
                   $<TARGET_FILE:ptera_static> ${PTERA_CORPUS_DIR} ${PROJECT_BINARY_DIR}/switches_scratch
                   ${CMAKE_C_COMPILER} ${CMAKE_C_COMPILER_LAUNCHER})
  set_tests_properties(build_switches PROPERTIES TIMEOUT 600 COST 700)
endif()
