# XNNPACK node conformance: cases generated at test time by gen.py (PyTorch
# references, numpy spec formulas for quantized nodes), run through the
# built-in XnnpackBackend on blobs written by compiler/emit_xnn.c.
add_executable(xnn_runner ${PROJECT_SOURCE_DIR}/tests/xnn/runner.c)
target_link_libraries(xnn_runner PRIVATE ptera_static)
if(EXISTS /usr/bin/python3)
  set(PTERA_TORCH_PYTHON /usr/bin/python3 CACHE FILEPATH "Python with torch for generated cases")
else()
  find_program(PTERA_TORCH_PYTHON python3)
endif()
add_test(NAME xnn_nodes
         COMMAND sh ${PROJECT_SOURCE_DIR}/tests/xnn/run.sh ${PTERA_TORCH_PYTHON}
                 $<TARGET_FILE:xnn_runner> ${CMAKE_BINARY_DIR}/xnn_cases)
set_tests_properties(xnn_nodes PROPERTIES TIMEOUT 300)
