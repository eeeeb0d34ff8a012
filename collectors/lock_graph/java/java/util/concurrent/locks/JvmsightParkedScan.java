package java.util.concurrent.locks;

import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;

/**
 * The block profile's pass (/debug/pprof/block), run by jvmsight's agent
 * thread: which threads are parked on a java.util.concurrent synchronizer
 * (their park blocker an AbstractQueuedSynchronizer or
 * AbstractQueuedLongSynchronizer: locks, read-write locks, semaphores,
 * latches; not a Condition, whose blocker is its ConditionObject, so idle
 * pool workers waiting on a queue stay out), and which wait each is in. A
 * wait is known by the thread's node in the synchronizer's queue: each
 * acquire creates its own and keeps it until it returns, so a thread seen
 * parked with the same node in two rounds is still in the same acquisition,
 * and with another node in a new one. Its token is the node's identity hash
 * (0: not found, the thread moved on meanwhile). The queue's fields are read
 * through JvmsightUnsafe, their names found per JDK: tail and prev
 * everywhere, the node's thread "thread" before JDK 14 and "waiter" since.
 * Defined by the agent in the bootstrap loader after JvmsightLockScan, whose
 * scan finds the parked threads and groups them by lock.
 */
final class JvmsightParkedScan {
    private JvmsightParkedScan() {}

    // Each synchronizer class's queue offsets: its tail, and each node's prev
    // and thread (no nested class: the agent defines only this one).
    private static final int TAIL = 0, PREV = 1, WAITER = 2;
    private static final long[] AQS = queueOf(AbstractQueuedSynchronizer.class);
    private static final long[] AQLS = queueOf(AbstractQueuedLongSynchronizer.class);
    // Past this many threads on one lock, its queue is walked once into a map.
    private static final int WALK_EACH_BELOW = 8;
    // A queue read while it changes could in theory lead anywhere: never walk further.
    private static final int MAX_WALK = 1 << 20;
    // Scratch, reused by every call (agent thread only).
    private static final IdentityHashMap<Thread, Object> NODES = new IdentityHashMap<>();
    private static final int[] PER_LOCK = new int[64];

    private static long[] queueOf(Class<?> sync) {
        try {
            Class<?> node = sync.getDeclaredField("tail").getType();
            String waiter = "waiter";
            try {
                node.getDeclaredField(waiter);
            } catch (NoSuchFieldException e) {
                waiter = "thread"; // before JDK 14
            }
            return new long[] {JvmsightUnsafe.offset(sync, "tail"), JvmsightUnsafe.offset(node, "prev"),
                               JvmsightUnsafe.offset(node, waiter)};
        } catch (ReflectiveOperationException | RuntimeException | Error e) {
            return null;
        }
    }

    /** The queue offsets of a blocker's class; null for anything but a synchronizer. */
    private static long[] queue(Object blocker) {
        if (blocker instanceof AbstractQueuedSynchronizer) return AQS;
        if (blocker instanceof AbstractQueuedLongSynchronizer) return AQLS;
        return null;
    }

    /** Walks sync's queue from its tail: t's node, or (t null) every node into nodes by its thread. */
    private static Object walk(long[] q, Object sync, Thread t, IdentityHashMap<Thread, Object> nodes) {
        Object node = JvmsightUnsafe.getReference(sync, q[TAIL]);
        for (int steps = 0; node != null && steps < MAX_WALK; steps++) {
            Object w = JvmsightUnsafe.getReference(node, q[WAITER]);
            if (t == null && w != null) nodes.put((Thread) w, node);
            if (t != null && w == t) return node;
            node = JvmsightUnsafe.getReference(node, q[PREV]);
        }
        return null;
    }

    /** Whether the queues can be read here (both layouts known, JvmsightUnsafe available). */
    static boolean available() {
        return AQS != null && AQLS != null && JvmsightUnsafe.available();
    }

    /**
     * Gets parked JIT-compiled before its first real call, from a profile
     * that saw every way a node is found (JvmsightLockScan.warmUp says why):
     * interpreted, each field read is a method handle call, and a round over
     * a few threads cost 0.05 ms. The threads are allocated, never
     * constructed or started, parked on synchronizers of each kind, also
     * allocated and never used, whose queues are built by hand as AQS keeps
     * them (a head node without a thread first): 20 on one (walked once into
     * the map), 4 on another and 1 each on the rest (each walked for its
     * node), and 2 on one whose queue lacks them (not found). On JDK 21+ the
     * walk of virtual threads too. Returns what it found, so none of it is
     * optimised away.
     */
    static int warmUp(int rounds) {
        Thread[] threads = new Thread[32];
        try {
            Class<?> node = AbstractQueuedSynchronizer.class.getDeclaredField("tail").getType();
            if (Modifier.isAbstract(node.getModifiers())) {
                node = Class.forName(AbstractQueuedSynchronizer.class.getName() + "$ExclusiveNode");
            }
            // Each kind of synchronizer, so the compiled code expects them all.
            Object[] kinds = {new ReentrantLock(), new ReentrantLock(true), new ReentrantReadWriteLock(),
                              new ReentrantReadWriteLock(true), new Semaphore(1), new CountDownLatch(1)};
            Object many = headed(kinds[0], node), four = headed(kinds[1], node), lacking = headed(kinds[2], node);
            int status = JvmsightLockScan.PARKED | 0x10 | 0x80 | 0x1; // parked, waiting indefinitely, alive
            for (int i = 0; i < threads.length; i++) {
                Object sync = i < 20 ? many : i < 24 ? four : i < 30 ? headed(kinds[i % kinds.length], node) : lacking;
                threads[i] = JvmsightLockScan.fakeThread(status, sync);
                if (sync != lacking) enqueue(sync, node, threads[i]);
            }
        } catch (ReflectiveOperationException | RuntimeException | Error e) {
            return 0; // an unknown layout: compiled later, from real calls
        }
        int[] out = new int[threads.length], groups = new int[threads.length], tokens = new int[threads.length];
        int[] lockIds = new int[threads.length];
        long[] ids = new long[threads.length];
        Object[] locks = new Object[64];
        int found = 0;
        for (int r = 0; r < rounds; r++) found += parked(threads, out, groups, locks, ids, tokens, lockIds) + tokens[r & 31];
        // JDK 21+: the walk of the thread containers too (a real one, read
        // only), as often as keeps it under WARM_UP_VISITS threads in all: a
        // JVM already running a million virtual threads (started with its
        // work, or attached to) held the agent thread for every walk of them.
        // Counted to one past the bound at most: then no walk at all.
        long[] live = {0};
        JvmsightLockScan.eachVirtualThread(t -> ++live[0] <= WARM_UP_VISITS);
        long walks = Math.min(rounds / 4, WARM_UP_VISITS / Math.max(live[0], 1));
        for (long r = 0; r < walks; r++) found += parkedVirtual(threads, ids, tokens, lockIds);
        return found;
    }

    /** Virtual threads the warm-up's walks may visit in all: some tens of milliseconds. */
    private static final long WARM_UP_VISITS = 200_000;

    /** A private lock's synchronizer (its own, or a copy of its kind's), with a head node in its queue. */
    private static Object headed(Object lock, Class<?> node) throws ReflectiveOperationException {
        Object sync = JvmsightLockScan.allocate(JvmsightLockScan.syncOf(lock).getClass());
        return enqueue(sync, node, null);
    }

    /** Appends a node for t (null: the head node) to sync's queue. */
    private static Object enqueue(Object sync, Class<?> node, Thread t) throws ReflectiveOperationException {
        Object n = JvmsightLockScan.allocate(node);
        JvmsightLockScan.putReference(n, AQS[WAITER], t);
        JvmsightLockScan.putReference(n, AQS[PREV], JvmsightUnsafe.getReference(sync, AQS[TAIL]));
        JvmsightLockScan.putReference(sync, AQS[TAIL], n);
        return sync;
    }

    /**
     * Platform threads parked on a synchronizer: their indices into threads
     * in out, their ids, wait tokens and synchronizers' identity hashes in
     * ids, tokens and lockIds; returns how many.
     * groups and locks are JvmsightLockScan.scan's (as long as threads, and
     * its distinct locks).
     */
    @SuppressWarnings("deprecation") // getId: threadId() is JDK 19+
    static int parked(Thread[] threads, int[] out, int[] groups, Object[] locks, long[] ids, int[] tokens,
                      int[] lockIds) {
        int n = JvmsightLockScan.scan(threads, out, groups, locks, true);
        int[] perLock = locks.length <= PER_LOCK.length ? PER_LOCK : new int[locks.length];
        Arrays.fill(perLock, 0);
        for (int k = 0; k < n; k++) {
            if (groups[k] >= 0) perLock[groups[k]]++;
        }
        boolean mapped = false;
        for (int g = 0; g < locks.length && locks[g] != null; g++) {
            long[] q = queue(locks[g]);
            if (q != null && perLock[g] >= WALK_EACH_BELOW) {
                walk(q, locks[g], null, NODES);
                mapped = true;
            }
        }
        int m = 0;
        for (int k = 0; k < n; k++) {
            int g = groups[k];
            if (g == -1) continue; // blocked on a monitor: the mutex profile's
            Thread t = threads[out[k]];
            Object blocker = g >= 0 ? locks[g] : LockSupport.getBlocker(t);
            long[] q = queue(blocker);
            if (q == null) continue;
            Object node = g >= 0 && perLock[g] >= WALK_EACH_BELOW ? NODES.get(t) : walk(q, blocker, t, null);
            out[m] = out[k];
            ids[m] = t.getId();
            tokens[m] = node == null ? 0 : System.identityHashCode(node);
            lockIds[m] = System.identityHashCode(blocker);
            m++;
        }
        if (mapped) NODES.clear();
        return m;
    }

    /**
     * JDK 21+: virtual threads parked on a synchronizer, at most threads.length
     * of them, into threads with their ids, tokens and lock hashes (as
     * parked's); returns how many, or -1 when no virtual thread is alive
     * (always, where this JDK has none).
     */
    @SuppressWarnings("deprecation") // getId: threadId() is JDK 19+
    static int parkedVirtual(Thread[] threads, long[] ids, int[] tokens, int[] lockIds) {
        Arrays.fill(threads, null); // keeps no thread of an earlier round alive
        int[] n = {0};
        boolean[] any = {false};
        JvmsightLockScan.eachVirtualThread(t -> {
            any[0] = true;
            // The blocker first: a plain field read. A virtual thread's
            // getState() takes its carrier-access lock while it runs, which
            // every walk would contend with the thread itself for.
            Object blocker = LockSupport.getBlocker(t);
            long[] q = queue(blocker);
            if (q == null) return true;
            Thread.State s = t.getState();
            if (s != Thread.State.WAITING && s != Thread.State.TIMED_WAITING) return true;
            Object node = walk(q, blocker, t, null);
            threads[n[0]] = t;
            ids[n[0]] = t.getId();
            tokens[n[0]] = node == null ? 0 : System.identityHashCode(node);
            lockIds[n[0]] = System.identityHashCode(blocker);
            return ++n[0] < threads.length;
        });
        return any[0] ? n[0] : -1;
    }

    /**
     * The stacks of threads[which[i]] (virtual threads parkedVirtual found),
     * leaf first, at most depth frames: one string each, a line per frame of
     * "Class.method", its file and its line number separated by tabs; "" for
     * a thread no longer parked on a synchronizer (its stack would not be a
     * wait's).
     */
    static String[] stacks(Thread[] threads, int[] which, int depth) {
        String[] out = new String[which.length];
        for (int i = 0; i < which.length; i++) {
            Thread t = which[i] >= 0 && which[i] < threads.length ? threads[which[i]] : null;
            StackTraceElement[] frames = t == null ? null : t.getStackTrace();
            out[i] = frames == null || queue(LockSupport.getBlocker(t)) == null ? "" : format(frames, depth);
        }
        return out;
    }

    private static String format(StackTraceElement[] frames, int depth) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < frames.length && i < depth; i++) {
            StackTraceElement f = frames[i];
            b.append(clean(f.getClassName() + "." + f.getMethodName())).append('\t');
            b.append(f.getFileName() == null ? "" : clean(f.getFileName())).append('\t');
            b.append(Math.max(f.getLineNumber(), 0)).append('\n');
        }
        return b.toString();
    }

    /** Separators inside a name (the JVM allows them) would shift the fields. */
    private static String clean(String name) {
        return name.replace('\t', ' ').replace('\n', ' ');
    }
}
