#pragma once
// Reads a method's bytecodes (JVM TI GetBytecodes) instruction by
// instruction, so breakpoints land on instruction starts found by the JVM
// specification's encoding (JVMS chapter 6), never on an operand byte that
// happens to equal an opcode. Pure: unit-tested without a JVM.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace jvmsight {

// Bytecode offsets of every `return` (void return) instruction; empty if the
// code does not decode (an unknown opcode or a truncated instruction).
std::vector<int64_t> void_return_offsets(const uint8_t* code, size_t size);

}  // namespace jvmsight
