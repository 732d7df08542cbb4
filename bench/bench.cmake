# Benchmarks: built with the library, never run by ctest.
find_package(Threads REQUIRED)
add_executable(gemm_bench ${PROJECT_SOURCE_DIR}/bench/gemm_bench.c)
target_link_libraries(gemm_bench PRIVATE ptera_static Threads::Threads)
# The XNNPACK halves of bench/xnn_speed.sh (delegate vs portable fast path).
# Its program writer is the one test_xnn_program uses (tests/support/xnn_program.c).
add_executable(xnn_speed_gen ${PROJECT_SOURCE_DIR}/bench/xnn_speed_gen.c ${PROJECT_SOURCE_DIR}/tests/support/xnn_program.c)
target_include_directories(xnn_speed_gen PRIVATE ${PROJECT_SOURCE_DIR}/compiler ${PROJECT_SOURCE_DIR}/tests/support)
target_link_libraries(xnn_speed_gen PRIVATE ptera_static m)
add_executable(conv_bench ${PROJECT_SOURCE_DIR}/bench/conv_bench.c)
target_link_libraries(conv_bench PRIVATE ptera_static)
