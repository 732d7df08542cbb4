# `cmake --install`: headers, libptera.a, libptera.so (with soname), the
# ptera CLI, ptera.pc for pkg-config and a CMake package:
#   find_package(ptera) -> ptera::ptera (shared), ptera::ptera_static.
include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ptera DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_BINARY_DIR}/include/ptera/version.h ${PROJECT_BINARY_DIR}/include/ptera/config_build.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ptera)
set(_ptera_libs ptera_static)
if(TARGET ptera_shared)
  list(APPEND _ptera_libs ptera_shared)
endif()
install(TARGETS ${_ptera_libs} EXPORT pteraTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET ptera)
  install(TARGETS ptera RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

set(PTERA_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ptera)
install(EXPORT pteraTargets NAMESPACE ptera:: FILE pteraTargets.cmake DESTINATION ${PTERA_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/pteraConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/pteraConfig.cmake
                              INSTALL_DESTINATION ${PTERA_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pteraConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/pteraConfig.cmake ${PROJECT_BINARY_DIR}/pteraConfigVersion.cmake
        DESTINATION ${PTERA_CMAKE_DIR})

# pkg-config: `pkg-config --cflags --libs ptera` (shared) and `--static`,
# whose Libs.private are what a static link of libptera.a needs. The prefix
# is found from the .pc file's own place, so `cmake --install --prefix P`
# (chosen after configuring) and a moved install tree both work.
file(RELATIVE_PATH PTERA_PC_UP /x/${CMAKE_INSTALL_LIBDIR}/pkgconfig /x)
string(REGEX REPLACE "/$" "" PTERA_PC_UP "${PTERA_PC_UP}")
set(PTERA_PC_PREFIX "\${pcfiledir}/${PTERA_PC_UP}")
set(PTERA_PC_LIBS_PRIVATE "-lm")
if(PTERA_THREADS AND CMAKE_THREAD_LIBS_INIT)
  string(APPEND PTERA_PC_LIBS_PRIVATE " ${CMAKE_THREAD_LIBS_INIT}")
elseif(PTERA_THREADS)
  string(APPEND PTERA_PC_LIBS_PRIVATE " -lpthread")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/ptera.pc.in ${PROJECT_BINARY_DIR}/ptera.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/ptera.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
