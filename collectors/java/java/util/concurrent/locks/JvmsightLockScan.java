package java.util.concurrent.locks;

import jdk.internal.misc.Unsafe;

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

    // JVM TI thread state bits, which HotSpot keeps in Thread's threadStatus.
    private static final int BLOCKED_ON_MONITOR_ENTER = 0x400;
    private static final int PARKED = 0x200;

    private static final Unsafe U = Unsafe.getUnsafe();
    // Where the status word is: Thread.threadStatus (JDK 17), or
    // Thread.holder.threadStatus (JDK 19+). STATUS < 0: neither; use getState().
    private static final long STATUS;
    private static final long HOLDER;

    static {
        long status = -1, holder = -1;
        try {
            status = U.objectFieldOffset(Thread.class, "threadStatus");
        } catch (RuntimeException | Error e) {
            try {
                holder = U.objectFieldOffset(Thread.class, "holder");
                status = U.objectFieldOffset(Class.forName("java.lang.Thread$FieldHolder"), "threadStatus");
            } catch (RuntimeException | Error | ClassNotFoundException e2) {
                status = holder = -1;
            }
        }
        STATUS = status;
        HOLDER = holder;
    }

    /** Writes the indices of candidate threads into out; returns how many (at most out.length). */
    static int scan(Thread[] threads, int[] out) {
        int n = 0;
        for (int i = 0; i < threads.length && n < out.length; i++) {
            Thread t = threads[i];
            if (t == null) continue;
            // The raw status tells parked threads from sleeping or waiting
            // ones, so only those pay for the park blocker read (a second
            // cache line of the Thread: this loop is all cache misses).
            int s = status(t);
            if ((s & BLOCKED_ON_MONITOR_ENTER) != 0) {
                out[n++] = i;
            } else if ((s & PARKED) != 0 && ownedLock(LockSupport.getBlocker(t))) {
                out[n++] = i;
            }
        }
        return n;
    }

    private static int status(Thread t) {
        if (STATUS >= 0) {
            Object holder = HOLDER >= 0 ? U.getReference(t, HOLDER) : t;
            return holder == null ? 0 : U.getInt(holder, STATUS);
        }
        switch (t.getState()) {
            case BLOCKED: return BLOCKED_ON_MONITOR_ENTER;
            case WAITING: case TIMED_WAITING: return PARKED;  // may be parked: look at the blocker
            default: return 0;
        }
    }

    private static boolean ownedLock(Object blocker) {
        return blocker instanceof AbstractOwnableSynchronizer
                && ((AbstractOwnableSynchronizer) blocker).getExclusiveOwnerThread() != null;
    }
}
