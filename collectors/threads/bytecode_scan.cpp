#include "collectors/threads/bytecode_scan.h"

#include <array>

namespace jvmsight {
namespace {

constexpr uint8_t op_tableswitch = 0xaa;
constexpr uint8_t op_lookupswitch = 0xab;
constexpr uint8_t op_return = 0xb1;
constexpr uint8_t op_wide = 0xc4;
constexpr uint8_t op_iinc = 0x84;
constexpr uint8_t op_last = 0xc9;  // jsr_w; 0xca (breakpoint) and up never reach a class file

// Length of each fixed-size instruction, opcode byte included (JVMS 6.5);
// 0 for the variable-size ones (tableswitch, lookupswitch, wide).
constexpr std::array<uint8_t, op_last + 1> fixed_lengths() {
  std::array<uint8_t, op_last + 1> len{};
  for (auto& l : len) l = 1;
  len[0x10] = 2;                                      // bipush
  len[0x11] = 3;                                      // sipush
  len[0x12] = 2;                                      // ldc
  len[0x13] = len[0x14] = 3;                          // ldc_w, ldc2_w
  for (int op = 0x15; op <= 0x19; ++op) len[op] = 2;  // iload..aload
  for (int op = 0x36; op <= 0x3a; ++op) len[op] = 2;  // istore..astore
  len[op_iinc] = 3;                                   // iinc
  for (int op = 0x99; op <= 0xa8; ++op) len[op] = 3;  // if*, goto, jsr
  len[0xa9] = 2;                                      // ret
  len[op_tableswitch] = len[op_lookupswitch] = 0;     // padded, variable
  for (int op = 0xb2; op <= 0xb8; ++op) len[op] = 3;  // get/put field/static, invoke*
  len[0xb9] = len[0xba] = 5;                          // invokeinterface, invokedynamic
  len[0xbb] = 3;                                      // new
  len[0xbc] = 2;                                      // newarray
  len[0xbd] = len[0xc0] = len[0xc1] = 3;              // anewarray, checkcast, instanceof
  len[op_wide] = 0;                                   // variable
  len[0xc5] = 4;                                      // multianewarray
  len[0xc6] = len[0xc7] = 3;                          // ifnull, ifnonnull
  len[0xc8] = len[0xc9] = 5;                          // goto_w, jsr_w
  return len;
}
constexpr auto lengths = fixed_lengths();

int32_t read_s4(const uint8_t* p) {
  return static_cast<int32_t>((uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3]);
}

// Where a switch's 4-byte-aligned operands start.
size_t switch_operands(size_t at) { return (at + 4) & ~size_t{3}; }

// Length of the instruction at `at`, or 0 if it does not decode.
size_t length_at(const uint8_t* code, size_t size, size_t at) {
  const uint8_t op = code[at];
  if (op > op_last) return 0;
  if (lengths[op] != 0) return lengths[op];
  if (op == op_wide) {
    if (at + 1 >= size) return 0;
    return code[at + 1] == op_iinc ? 6 : 4;
  }
  const size_t ops = switch_operands(at);
  if (ops + 12 > size) return 0;
  if (op == op_tableswitch) {
    const int64_t low = read_s4(code + ops + 4), high = read_s4(code + ops + 8);
    if (high < low) return 0;
    return ops - at + 12 + static_cast<size_t>(high - low + 1) * 4;
  }
  const int32_t pairs = read_s4(code + ops + 4);
  if (pairs < 0) return 0;
  return ops - at + 8 + static_cast<size_t>(pairs) * 8;
}

// Calls visit(offset) for each instruction; false if the code does not decode.
template <class Visit>
bool for_each_instruction(const uint8_t* code, size_t size, Visit visit) {
  for (size_t at = 0; at < size;) {
    const size_t len = length_at(code, size, at);
    if (len == 0 || at + len > size) return false;
    visit(at);
    at += len;
  }
  return true;
}

}  // namespace

std::vector<int64_t> void_return_offsets(const uint8_t* code, size_t size) {
  std::vector<int64_t> out;
  if (!for_each_instruction(code, size, [&](size_t at) {
        if (code[at] == op_return) out.push_back(static_cast<int64_t>(at));
      }))
    out.clear();
  return out;
}

}  // namespace jvmsight
