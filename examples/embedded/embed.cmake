# Writes a file's bytes as a C array (no xxd needed):
#   cmake -DIN=model.pte -DOUT=model.c -DNAME=ptera_model -P embed.cmake
# defines `const unsigned char NAME[]` (16-byte aligned, so the runtime uses
# it in place) and `const unsigned long NAME_size`.
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" nhex)
math(EXPR nbytes "${nhex} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
# 16 bytes a line: 16 x "0xNN," is 80 characters.
string(REPEAT "....." 16 line)
string(REGEX REPLACE "(${line})" "\\1\n  " body "${body}")
file(WRITE "${OUT}.tmp"
  "/* Generated from ${IN} by examples/embedded/embed.cmake. */\n"
  "__attribute__((aligned(16))) const unsigned char ${NAME}[${nbytes}] = {\n  ${body}\n};\n"
  "const unsigned long ${NAME}_size = ${nbytes};\n")
file(RENAME "${OUT}.tmp" "${OUT}")
