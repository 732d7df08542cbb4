# Conformance: cases generated at test time by gen.py (Debian's python3-torch)
# and checked by the C runner against ptera's kernels.
add_executable(conformance_runner ${PROJECT_SOURCE_DIR}/tests/conformance/runner.c)
target_include_directories(conformance_runner PRIVATE ${PROJECT_SOURCE_DIR}/tests/support)
target_link_libraries(conformance_runner PRIVATE ptera_static)
if(EXISTS /usr/bin/python3)
  set(PTERA_TORCH_PYTHON /usr/bin/python3 CACHE FILEPATH "Python with torch for the conformance cases")
else()
  find_program(PTERA_TORCH_PYTHON python3)
endif()
add_test(NAME conformance
         COMMAND sh ${PROJECT_SOURCE_DIR}/tests/conformance/run.sh ${PTERA_TORCH_PYTHON}
                 $<TARGET_FILE:conformance_runner> ${PROJECT_BINARY_DIR}/conformance)
set_tests_properties(conformance PROPERTIES TIMEOUT 600)
# cortex_m:: kernels: numpy references of the CMSIS-NN formulas (gen_cortex_m.py, no torch),
# bit-exact; --strict fails on any listed op without a kernel or cases. PTERA_RUN_PREFIX
# (valgrind in scripts/test_deep.sh) goes before the runner.
add_test(NAME conformance_cortex_m
         COMMAND sh -c "rm -rf \"$2\" && \"$0\" \"$1\" \"$2\" && $PTERA_RUN_PREFIX \"$3\" \"$2\" \"$4\" --strict"
                 ${PTERA_TORCH_PYTHON} ${PROJECT_SOURCE_DIR}/tests/conformance/gen_cortex_m.py
                 ${CMAKE_BINARY_DIR}/conformance_cortex_m $<TARGET_FILE:conformance_runner>
                 ${PROJECT_SOURCE_DIR}/tests/conformance/cortex_m_ops.txt)
