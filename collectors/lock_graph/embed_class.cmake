# Turns a .class file into a C++ source defining a byte array:
# cmake -DINPUT=x.class -DOUTPUT=x.cpp -DNAME=symbol -P embed_class.cmake
file(READ ${INPUT} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE ${OUTPUT} "// Generated from ${INPUT}; do not edit.\n#include <cstddef>\nnamespace jvmsight {\nextern const unsigned char ${NAME}[] = {${bytes}};\nextern const size_t ${NAME}_size = sizeof(${NAME});\n}\n")
