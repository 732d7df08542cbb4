# Fuzzing: libFuzzer harnesses (PTERA_FUZZ=ON, clang only) and, in every
# build with tests, a replay test that runs each harness's entry function
# over tests/fuzz/regressions/<harness>/. Run everything with
# scripts/fuzz.sh [SECONDS].
option(PTERA_FUZZ "Build the libFuzzer harnesses (clang)" OFF)

set(PTERA_FUZZ_HARNESSES pte ptd bpte npy load_execute ptg compile xnngraph xnn_delegate)
set(PTERA_FUZZ_DIR ${PROJECT_SOURCE_DIR}/tests/fuzz)

if(PTERA_BUILD_TESTS)
  set(_fuzz_sources ${PTERA_FUZZ_DIR}/replay.c ${PTERA_FUZZ_DIR}/fuzz_program.c)
  foreach(h ${PTERA_FUZZ_HARNESSES})
    list(APPEND _fuzz_sources ${PTERA_FUZZ_DIR}/fuzz_${h}.c)
  endforeach()
  add_executable(fuzz_replay ${_fuzz_sources})
  target_link_libraries(fuzz_replay PRIVATE ptera_static)
  foreach(h ${PTERA_FUZZ_HARNESSES})
    add_test(NAME fuzz_replay_${h}
             COMMAND fuzz_replay ${h} ${PTERA_FUZZ_DIR}/regressions)
  endforeach()
endif()

if(PTERA_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "PTERA_FUZZ needs clang (configure with -DCMAKE_C_COMPILER=clang)")
  endif()
  set(_san -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  # The library under test: coverage instrumentation plus the sanitizers.
  foreach(t ${PTERA_LAYER_TARGETS} ptera_table)
    target_compile_options(${t} PRIVATE -fsanitize=fuzzer-no-link ${_san})
  endforeach()
  add_custom_target(fuzzers)
  foreach(h ${PTERA_FUZZ_HARNESSES})
    add_executable(fuzz_${h} ${PTERA_FUZZ_DIR}/fuzz_${h}.c ${PTERA_FUZZ_DIR}/fuzz_program.c)
    target_compile_definitions(fuzz_${h} PRIVATE PTERA_LIBFUZZER=1)
    target_compile_options(fuzz_${h} PRIVATE -fsanitize=fuzzer ${_san})
    target_link_options(fuzz_${h} PRIVATE -fsanitize=fuzzer ${_san})
    target_link_libraries(fuzz_${h} PRIVATE ptera_static)
    add_dependencies(fuzzers fuzz_${h})
  endforeach()
  # Everything else that links the instrumented library needs the runtimes.
  target_link_options(ptera_static INTERFACE ${_san})
  target_link_options(ptera_shared PRIVATE ${_san})
endif()
