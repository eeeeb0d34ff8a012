package java.util.concurrent.locks;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The background deadlock check's first pass, run in Java by jvmsight's agent
 * thread: which of these threads could be part of a deadlock (blocked on a
 * monitor, or parked on a java.util.concurrent lock that has an exclusive
 * owner)? JIT-compiled, this reads each thread's status word and park blocker
 * in nanoseconds; through JNI, each field read costs a VM transition. The
 * thread-state collector reads every thread's status word here too
 * (statuses): one JNI call per scrape instead of one per thread.
 * Defined by the agent in the bootstrap loader in this package, the only way
 * to call the protected getExclusiveOwnerThread without opening java.base.
 * One class file for JDK 8 to 25 (compiled --release 8): it reads fields
 * through JvmsightUnsafe, which finds this JDK's Unsafe.
 */
final class JvmsightLockScan {
    private JvmsightLockScan() {}

    // JVM TI thread state bits, which HotSpot keeps in Thread's threadStatus.
    private static final int BLOCKED_ON_MONITOR_ENTER = 0x400;
    static final int PARKED = 0x200;

    // Where the status word is: Thread.threadStatus (JDK 8-17), or
    // Thread.holder.threadStatus (JDK 19+). STATUS < 0: neither; use getState().
    private static final long STATUS;
    private static final long HOLDER;

    static {
        long status = -1, holder = -1;
        try {
            status = JvmsightUnsafe.offset(Thread.class, "threadStatus");
        } catch (ReflectiveOperationException | RuntimeException | Error e) {
            try {
                holder = JvmsightUnsafe.offset(Thread.class, "holder");
                status = JvmsightUnsafe.offset(Class.forName("java.lang.Thread$FieldHolder"), "threadStatus");
            } catch (ReflectiveOperationException | RuntimeException | Error e2) {
                status = holder = -1;
            }
        }
        STATUS = JvmsightUnsafe.available() ? status : -1;
        HOLDER = holder;
    }

    // JDK 21+: the sets the JDK's thread containers (ThreadContainers) keep
    // live virtual threads in, read directly: the root's (null with
    // -Djdk.trackAllThreads=false, which only counts them), and each
    // registered SharedThreadContainer's or ThreadPerTaskExecutor's; other
    // registered containers through threads(). Not the root's or a shared
    // container's threads(): each call lists every platform thread too
    // (Thread.getAllThreads()). StructuredTaskScope forks are not visited
    // (as jvmsight_virtual_threads_live). Null before 21.
    private static final Class<?> VIRTUAL_THREAD;
    private static final Set<?> ROOT_VIRTUAL_THREADS;
    private static final Set<?> REGISTRY;  // of WeakReference<ThreadContainer>
    private static final Class<?> SHARED_CONTAINER, PER_TASK_EXECUTOR;
    private static final long SHARED_VIRTUAL_THREADS, EXECUTOR_THREADS;
    private static final MethodHandle CONTAINER_THREADS;

    static {
        Class<?> virtual = null, shared = null, executor = null;
        Set<?> rootSet = null, registry = null;
        long sharedSet = -1, executorSet = -1;
        MethodHandle threads = null;
        try {
            virtual = Class.forName("java.lang.VirtualThread");
            Class<?> containers = Class.forName("jdk.internal.vm.ThreadContainers");
            Object root = staticField(containers, "ROOT_CONTAINER");
            Class<?> tracking = Class.forName("jdk.internal.vm.ThreadContainers$RootContainer$TrackingRootContainer");
            rootSet = tracking.isInstance(root) ? (Set<?>) staticField(tracking, "VTHREADS") : null;
            registry = (Set<?>) staticField(containers, "CONTAINER_REGISTRY");
            shared = Class.forName("jdk.internal.vm.SharedThreadContainer");
            executor = Class.forName("java.util.concurrent.ThreadPerTaskExecutor");
            sharedSet = JvmsightUnsafe.offset(shared, "virtualThreads");
            executorSet = JvmsightUnsafe.offset(executor, "threads");
            // Typed on Object, so calls are invokeExact: no adaptation per call.
            Class<?> container = Class.forName("jdk.internal.vm.ThreadContainer");
            threads = MethodHandles.lookup().findVirtual(container, "threads", MethodType.methodType(Stream.class))
                                   .asType(MethodType.methodType(Stream.class, Object.class));
        } catch (ReflectiveOperationException | RuntimeException | Error e) {
            virtual = null;
        }
        VIRTUAL_THREAD = JvmsightUnsafe.available() ? virtual : null;
        ROOT_VIRTUAL_THREADS = rootSet;
        REGISTRY = registry;
        SHARED_CONTAINER = shared;
        PER_TASK_EXECUTOR = executor;
        SHARED_VIRTUAL_THREADS = sharedSet;
        EXECUTOR_THREADS = executorSet;
        CONTAINER_THREADS = threads;
    }

    /** A private static field's value (same module: java.base). */
    private static Object staticField(Class<?> c, String name) throws ReflectiveOperationException {
        java.lang.reflect.Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(null);
    }

    /**
     * Gets scan and statuses JIT-compiled before their first real call.
     * Called twice a second (or once a scrape), they would stay interpreted
     * for minutes. And scan must be compiled from a profile that saw every
     * branch: compiled after seeing only runnable threads, the first parked
     * thread hits a trap that sends the rest of that loop, and of every
     * later one, back to the interpreter (4-9 ms a check at 10,000 threads
     * instead of 0.3-0.9 ms, measured). So
     * the warm-up threads, allocated but never constructed or started, are
     * given each status the pass tells apart and park blockers of several
     * kinds: no lock, a held and a free ReentrantLock, a latch, a semaphore,
     * a read-write lock. Returns a sum of what it found (for the caller to
     * use, so none of this is optimised away).
     */
    static int warmUp(int rounds) {
        Thread[] threads = new Thread[64];
        ReentrantLock held = new ReentrantLock();
        held.lock();
        try {
            try {
                Object[] blockers = warmUpBlockers(held);
                int[] statuses = {0, 0x5, BLOCKED_ON_MONITOR_ENTER | 0x1, PARKED | 0x10 | 0x80 | 0x1, PARKED | 0x20 | 0x80 | 0x1};
                for (int i = 0; i < threads.length; i++) {
                    threads[i] = fakeThread(statuses[i % statuses.length], blockers[i % blockers.length]);
                }
            } catch (ReflectiveOperationException | RuntimeException | InternalError e) {
                // Unknown layout: warm up on the calling thread alone.
                Arrays.fill(threads, Thread.currentThread());
            }
            int[] out = new int[threads.length];
            int[] groups = new int[threads.length];
            // Room for fewer locks than the warm-up uses too, so the overflow branch is compiled.
            Object[][] locks = {new Object[64], new Object[3]};
            int found = 0;
            for (int r = 0; r < rounds; r++) {
                found += scan(threads, out, groups, locks[r & 1], (r & 2) != 0);
                if (statuses(threads, out)) found += out[r % out.length] & 1;
            }
            return found;
        } finally {
            held.unlock();
        }
    }

    private static Object[] warmUpBlockers(ReentrantLock held) throws ReflectiveOperationException {
        // The synchronizers themselves (each lock's private "sync"), as a
        // parked thread's blocker is.
        return new Object[] {null, new Object(), syncOf(held), syncOf(new ReentrantLock()), syncOf(new ReentrantLock(true)),
                             syncOf(new CountDownLatch(1)), syncOf(new Semaphore(1)), syncOf(new ReentrantReadWriteLock())};
    }

    static Object syncOf(Object lock) throws ReflectiveOperationException {
        return JvmsightUnsafe.getReference(lock, JvmsightUnsafe.offset(lock.getClass(), "sync"));
    }

    /** A Thread object that was never constructed, with this status word and park blocker. */
    static Thread fakeThread(int status, Object blocker) throws ReflectiveOperationException {
        if (STATUS < 0) throw new IllegalStateException("no status word");
        Thread t = (Thread) allocate(Thread.class);
        Object word = HOLDER >= 0 ? allocate(Class.forName("java.lang.Thread$FieldHolder")) : t;
        if (HOLDER >= 0) putReference(t, HOLDER, word);
        JvmsightUnsafe.call(new String[] {"putInt"}, void.class, new Class<?>[] {Object.class, long.class, int.class},
                            word, STATUS, status);
        putReference(t, JvmsightUnsafe.offset(Thread.class, "parkBlocker"), blocker);
        return t;
    }

    static Object allocate(Class<?> c) throws ReflectiveOperationException {
        return JvmsightUnsafe.call(new String[] {"allocateInstance"}, Object.class, new Class<?>[] {Class.class}, c);
    }

    static void putReference(Object o, long offset, Object value) throws ReflectiveOperationException {
        JvmsightUnsafe.call(new String[] {"putReference", "putObject"}, void.class,
                            new Class<?>[] {Object.class, long.class, Object.class}, o, offset, value);
    }

    /** The threads' ids, read once per list: in scan each would be one more cache miss per candidate. */
    @SuppressWarnings("deprecation")  // getId: threadId() is JDK 19+
    static long[] ids(Thread[] threads) {
        long[] ids = new long[threads.length];
        for (int i = 0; i < threads.length; i++) ids[i] = threads[i] == null ? 0 : threads[i].getId();
        return ids;
    }

    /**
     * Writes the indices of candidate threads into out; returns how many (at
     * most out.length). Candidates: threads blocked
     * on a monitor, and threads parked on an AbstractOwnableSynchronizer that
     * has an exclusive owner (any, with unowned). groups[k] says what
     * candidate k waits for: -1 a monitor (the agent asks the JVM which);
     * otherwise the slot of its lock in locks, where each distinct lock is
     * put once, so the agent does its per-lock work once per lock instead of
     * once per parked thread; -2 when locks is full (the agent reads that
     * thread's blocker itself).
     */
    static int scan(Thread[] threads, int[] out, int[] groups, Object[] locks, boolean unowned) {
        Arrays.fill(locks, null);
        // First every thread's status word (gather: this pass is all cache
        // misses; one loop doing everything waited for each thread's miss in
        // turn, then mispredicted the branch on its state). groups holds the
        // words until the loop below overwrites it, never ahead of what it reads.
        final int len = Math.min(threads.length, groups.length);
        gather(threads, groups, len);
        int n = 0, used = 0, last = -1;
        for (int i = 0; i < len && n < out.length; i++) {
            // The raw status tells parked threads from sleeping or waiting
            // ones, so only those pay for the park blocker read (a second
            // cache line of the Thread).
            int s = groups[i];
            if ((s & (BLOCKED_ON_MONITOR_ENTER | PARKED)) == 0) continue;
            Thread t = threads[i];
            int group;
            if ((s & BLOCKED_ON_MONITOR_ENTER) != 0) {
                group = -1;
            } else {
                Object blocker = LockSupport.getBlocker(t);
                if (!(blocker instanceof AbstractOwnableSynchronizer)) continue;
                if (!unowned && ((AbstractOwnableSynchronizer) blocker).getExclusiveOwnerThread() == null) continue;
                // Threads piled up on one lock come in runs: try the last slot first.
                if (last >= 0 && locks[last] == blocker) {
                    group = last;
                } else {
                    group = -2;
                    for (int k = 0; k < used; k++) {
                        if (locks[k] == blocker) {
                            group = k;
                            break;
                        }
                    }
                    if (group == -2 && used < locks.length) {
                        locks[used] = blocker;
                        group = used++;
                    }
                    if (group >= 0) last = group;
                }
            }
            out[n] = i;
            groups[n] = group;
            n++;
        }
        return n;
    }

    /**
     * The thread-state collector's one call per scrape: the status word of
     * threads[i] into out[i], for every i up to the shorter length. False
     * (out untouched) if this JVM's Thread has no status word we can read.
     */
    static boolean statuses(Thread[] threads, int[] out) {
        if (STATUS < 0) return false;
        gather(threads, out, Math.min(threads.length, out.length));
        return true;
    }

    /**
     * The status words of threads[0..len) into words, in a loop that never
     * branches on what it read: the loads do not wait for each other, so the
     * CPU overlaps their cache misses. scan's first pass and statuses.
     */
    private static void gather(Thread[] threads, int[] words, int len) {
        for (int i = 0; i < len; i++) {
            Thread t = threads[i];
            words[i] = t == null ? 0 : status(t);
        }
    }

    /**
     * Virtual threads parked on a j.u.c. lock that has an exclusive owner, at
     * most max of them; null if there are none or this JDK has no virtual
     * threads. Platform threads are left to scan().
     */
    static Thread[] virtualCandidates(int max) {
        List<Thread> out = new ArrayList<>();
        boolean walked = eachVirtualThread(t -> {
            // The blocker first: a running virtual thread's getState() takes its carrier-access lock.
            if (!ownedLock(LockSupport.getBlocker(t))) return true;
            Thread.State s = t.getState();
            if (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING) out.add(t);
            return out.size() < max;
        });
        return walked && !out.isEmpty() ? out.toArray(new Thread[0]) : null;
    }

    /** The live virtual thread with this id (for its stack in a report); null if none. */
    @SuppressWarnings("deprecation")  // getId: threadId() is JDK 19+
    static Thread virtualThread(long tid) {
        Thread[] found = new Thread[1];
        eachVirtualThread(t -> {
            if (t.getId() == tid) found[0] = t;
            return found[0] == null;
        });
        return found[0];
    }

    /** Visits live virtual threads (as above) until visit says stop; false if this JDK has none or it failed. */
    static boolean eachVirtualThread(Predicate<Thread> visit) {
        if (VIRTUAL_THREAD == null) return false;
        try {
            if (ROOT_VIRTUAL_THREADS != null && !eachVirtual(ROOT_VIRTUAL_THREADS, visit)) return true;
            for (Object ref : REGISTRY.toArray()) {
                Object c = ((Reference<?>) ref).get();
                Iterable<?> threads = SHARED_CONTAINER.isInstance(c)
                        ? (Set<?>) JvmsightUnsafe.getReference(c, SHARED_VIRTUAL_THREADS)
                        : PER_TASK_EXECUTOR.isInstance(c) ? (Set<?>) JvmsightUnsafe.getReference(c, EXECUTOR_THREADS)
                        : c != null ? Arrays.asList(((Stream<?>) CONTAINER_THREADS.invokeExact(c)).toArray())
                        : null;
                if (!eachVirtual(threads, visit)) return true;
            }
            return true;
        } catch (Throwable e) {
            return false;
        }
    }

    /** The virtual threads among these (a set the JDK keeps; null: none yet); false once visit said stop. */
    private static boolean eachVirtual(Iterable<?> threads, Predicate<Thread> visit) {
        if (threads == null) return true;
        for (Object t : threads) {
            if (VIRTUAL_THREAD.isInstance(t) && !visit.test((Thread) t)) return false;
        }
        return true;
    }

    private static int status(Thread t) {
        if (STATUS >= 0) {
            Object holder = HOLDER >= 0 ? JvmsightUnsafe.getReference(t, HOLDER) : t;
            return holder == null ? 0 : JvmsightUnsafe.getInt(holder, STATUS);
        }
        // No switch: on an enum it compiles to a second class (JvmsightLockScan$1) the agent does not define.
        Thread.State s = t.getState();
        if (s == Thread.State.BLOCKED) return BLOCKED_ON_MONITOR_ENTER;
        return s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING ? PARKED : 0;  // may be parked: look at the blocker
    }

    private static boolean ownedLock(Object blocker) {
        return blocker instanceof AbstractOwnableSynchronizer
                && ((AbstractOwnableSynchronizer) blocker).getExclusiveOwnerThread() != null;
    }
}
