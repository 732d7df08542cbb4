# Benchmarks: built with the library, never run by ctest.
find_package(Threads REQUIRED)
add_executable(gemm_bench ${CMAKE_SOURCE_DIR}/bench/gemm_bench.c)
target_link_libraries(gemm_bench PRIVATE ptera_static Threads::Threads)
