// The bytecode walk that places the pinning probes: the offsets of every
// void return, never an operand byte that looks like one.
#include "collectors/threads/bytecode_scan.h"

#include <gtest/gtest.h>

#include <vector>

namespace jvmsight {
namespace {

// Opcodes and operands as JVMS chapter 6 gives them.
TEST(BytecodeScan, FindsReturnsNotOperandBytesThatLookLikeOne) {
  const std::vector<uint8_t> code = {
      0x10, 0xb1,                          // 0: bipush -79 (operand = return's opcode)
      0x11, 0xb1, 0xb1,                    // 2: sipush
      0xc4, 0x84, 0x00, 0xb1, 0xb1, 0xb1,  // 5: wide iinc
      0x99, 0x00, 0x04,                    // 11: ifeq +4
      0xb1,                                // 14: return
      0xb1,                                // 15: return
  };
  EXPECT_EQ(void_return_offsets(code.data(), code.size()), (std::vector<int64_t>{14, 15}));
}

TEST(BytecodeScan, StepsOverPaddedSwitches) {
  std::vector<uint8_t> code = {0x03,                                        // 0: iconst_0
                               0xaa,                                        // 1: tableswitch, padded to 4
                               0xb1, 0xb1,                                  // padding
                               0,    0,    0,    27,                        // default
                               0,    0,    0,    1,    0, 0, 0, 2,          // low 1, high 2
                               0,    0,    0,    27,   0, 0, 0, 27,         // two offsets
                               0xab,                                        // 24: lookupswitch, padded to 28
                               0xb1, 0xb1, 0xb1, 0,    0, 0, 3,             // default
                               0,    0,    0,    1,                         // one pair
                               0,    0,    0,    0xb1, 0, 0, 0, 3,  0xb1};  // 44: return
  EXPECT_EQ(void_return_offsets(code.data(), code.size()), (std::vector<int64_t>{44}));
}

TEST(BytecodeScan, CodeThatDoesNotDecodeGivesNothing) {
  const std::vector<uint8_t> truncated = {0xb1, 0x11, 0x00};  // sipush missing a byte
  EXPECT_TRUE(void_return_offsets(truncated.data(), truncated.size()).empty());
  const std::vector<uint8_t> unknown = {0xb1, 0xcb};  // no such opcode in a class file
  EXPECT_TRUE(void_return_offsets(unknown.data(), unknown.size()).empty());
}

}  // namespace
}  // namespace jvmsight
