# Benchmarks: built with the library, never run by ctest.
find_package(Threads REQUIRED)
add_executable(gemm_bench ${PROJECT_SOURCE_DIR}/bench/gemm_bench.c)
target_link_libraries(gemm_bench PRIVATE ptera_static Threads::Threads)
# The XNNPACK halves of bench/xnn_speed.sh (delegate vs portable fast path).
add_executable(xnn_speed_gen ${PROJECT_SOURCE_DIR}/bench/xnn_speed_gen.c)
target_include_directories(xnn_speed_gen PRIVATE ${PROJECT_SOURCE_DIR}/compiler)
target_link_libraries(xnn_speed_gen PRIVATE ptera_static m)
