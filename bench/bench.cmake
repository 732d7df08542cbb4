# Benchmarks: built with the library, never run by ctest.
find_package(Threads REQUIRED)
add_executable(gemm_bench ${PROJECT_SOURCE_DIR}/bench/gemm_bench.c)
target_link_libraries(gemm_bench PRIVATE ptera_static Threads::Threads)
add_executable(conv_bench ${PROJECT_SOURCE_DIR}/bench/conv_bench.c)
target_link_libraries(conv_bench PRIVATE ptera_static)
