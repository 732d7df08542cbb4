# CMake toolchain for bare-metal Arm Cortex-M with arm-none-eabi-gcc (Debian:
# gcc-arm-none-eabi + libnewlib-arm-none-eabi).
#   cmake -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi.cmake -DPTERA_MCU_CPU=cortex-m4 ...
# PTERA_MCU_CPU: cortex-m4  (Cortex-M4F: single-precision FPU, hard-float ABI)
#                cortex-m55 (Armv8.1-M with MVE and FPU, hard-float ABI)
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
set(CMAKE_AR arm-none-eabi-ar)
set(CMAKE_RANLIB arm-none-eabi-ranlib)
set(CMAKE_SIZE arm-none-eabi-size)
set(CMAKE_OBJCOPY arm-none-eabi-objcopy)
# No host executable can be linked without a startup file and linker script.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(PTERA_MCU_CPU "cortex-m4" CACHE STRING "Target core: cortex-m4 (M4F) or cortex-m55")
set_property(CACHE PTERA_MCU_CPU PROPERTY STRINGS cortex-m4 cortex-m55)
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES PTERA_MCU_CPU)
if(PTERA_MCU_CPU STREQUAL "cortex-m4")
  set(_ptera_mcu_flags "-mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard -mthumb")
elseif(PTERA_MCU_CPU STREQUAL "cortex-m55")
  # gcc 12 knows cortex-m55 (Armv8.1-M.main + MVE + FP); the FPU comes with -mcpu.
  set(_ptera_mcu_flags "-mcpu=cortex-m55 -mfloat-abi=hard -mthumb")
else()
  message(FATAL_ERROR "PTERA_MCU_CPU: '${PTERA_MCU_CPU}' is not cortex-m4 or cortex-m55")
endif()
set(CMAKE_C_FLAGS_INIT "${_ptera_mcu_flags}")
set(CMAKE_ASM_FLAGS_INIT "${_ptera_mcu_flags}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${_ptera_mcu_flags}")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
