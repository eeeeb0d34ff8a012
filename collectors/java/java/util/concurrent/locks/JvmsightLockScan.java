package java.util.concurrent.locks;

/**
 * The background deadlock check's first pass, run in Java by jvmsight's agent
 * thread: which of these threads could be part of a deadlock (blocked on a
 * monitor, or parked on a java.util.concurrent lock that has an exclusive
 * owner)? JIT-compiled, this reads each thread's status word and park blocker
 * in nanoseconds; through JNI, each field read costs a VM transition.
 * Defined by the agent in the bootstrap loader in this package, the only way
 * to call the protected getExclusiveOwnerThread without opening java.base.
 */
final class JvmsightLockScan {
    private JvmsightLockScan() {}

    /** Writes the indices of candidate threads into out; returns how many (at most out.length). */
    static int scan(Thread[] threads, int[] out) {
        int n = 0;
        for (int i = 0; i < threads.length && n < out.length; i++) {
            Thread t = threads[i];
            if (t == null) continue;
            Thread.State s = t.getState();
            if (s == Thread.State.BLOCKED) {
                out[n++] = i;
            } else if (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING) {
                Object b = LockSupport.getBlocker(t);
                if (b instanceof AbstractOwnableSynchronizer
                        && ((AbstractOwnableSynchronizer) b).getExclusiveOwnerThread() != null) {
                    out[n++] = i;
                }
            }
        }
        return n;
    }
}
