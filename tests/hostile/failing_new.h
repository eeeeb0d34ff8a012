#pragma once
// Allocation failure on the server's thread (named jvmsight-http), for the
// fault-injection tests: this executable replaces operator new, and fails
// it there while a test asks for it. Other threads allocate as usual.
namespace jvmsight::test {

// Every allocation on the server's thread fails until stopped.
void fail_server_allocations();
// Only the nth allocation from now on the server's thread fails (n >= 1).
void fail_nth_server_allocation(long n);
void stop_failing_allocations();
long failed_server_allocations();  // so far, in this process

}  // namespace jvmsight::test
