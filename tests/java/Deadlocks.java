import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Deadlocks of known shape, with the JVM's own verdict as ground truth.
 * Args: monitor2 | monitor3 | reentrant | mixed | rwlock | pool | virtual, then an
 * optional delay in ms before the deadlock forms (with 3 threads blocked
 * behind a busy holder meanwhile), then optionally "storm": instead of the
 * busy holder, 8 threads contend on 2 monitors from the start to the end,
 * each yielding the CPU while it holds one, so the set of blocked threads
 * changes all the time.
 * Thread i of a cycle holds lock i and wants lock i+1. "pool" blocks many
 * threads on held locks (monitors, a ReentrantLock, a semaphore, a chain)
 * with no cycle. Prints READY, then once ThreadMXBean agrees:
 * "DEADLOCKED names=a,b all=N monitor=M at_ms=T" (T: wall clock when the JVM
 * first reported it). Stdin: "report" prints a fresh DEADLOCKED line.
 * "virtual" (JDK 21+): two virtual threads in a ReentrantLock cycle, which
 * ThreadMXBean cannot see, one started by a thread-per-task executor and
 * one a pool's worker (the JDK keeps them in two kinds of thread
 * container, neither the root); the ground truth is what the locks themselves say
 * (ReentrantLock.getOwner and hasQueuedThread), printed in the same form.
 */
public class Deadlocks {
    /** A monitor with a recognisable class name. */
    static final class Resource { }

    public static void main(String[] args) throws Exception {
        String kind = args.length > 0 ? args[0] : "monitor2";
        long delayMs = args.length > 1 ? Long.parseLong(args[1]) : 0;
        // Threads blocked behind a busy holder meanwhile, so the agent's
        // check has waiting threads to look at before the deadlock forms.
        Object busy = new Object();
        Thread busyHolder = daemon("busy-holder", () -> { synchronized (busy) { try { Thread.sleep(delayMs + 60_000); } catch (InterruptedException e) { } } });
        boolean storm = args.length > 2 && args[2].equals("storm");
        if (storm) storm(8, 2);
        if (delayMs > 0 && !storm) {
            busyHolder.start();
            for (int i = 0; i < 3; i++) daemon("busy-" + i, () -> { synchronized (busy) { } }).start();
        }
        System.out.println("READY");
        System.out.flush();
        Thread.sleep(delayMs);
        switch (kind) {
            case "monitor2": cycle(new Object[] {new Resource(), new Resource()}); break;
            case "monitor3": cycle(new Object[] {new Resource(), new Resource(), new Resource()}); break;
            case "reentrant": cycle(new Object[] {new ReentrantLock(), new ReentrantLock()}); break;
            case "mixed": cycle(new Object[] {new Resource(), new ReentrantLock()}); break;
            case "rwlock": cycle(new Object[] {new ReentrantReadWriteLock().writeLock(), new ReentrantReadWriteLock().writeLock()}); break;
            case "pool": pool(); break;
            case "many": many(); break;
            case "bystanders": bystanders(); break;
            case "virtual": virtualCycle(); break;
            default: throw new IllegalArgumentException(kind);
        }
        long deadline = System.nanoTime() + 30_000_000_000L;
        String line;
        while ((line = kind.equals("virtual") ? virtualReport() : report()) == null
               || (!kind.equals("pool") && line.contains(" all=0 "))) {
            if (System.nanoTime() > deadline) throw new IllegalStateException("no deadlock formed");
            Thread.sleep(2);
        }
        System.out.println(line + " at_ms=" + System.currentTimeMillis());
        System.out.flush();
        java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
        for (String cmd; (cmd = in.readLine()) != null; ) {
            if (cmd.equals("report")) System.out.println(kind.equals("virtual") ? virtualReport() : report());
            else if (cmd.equals("queues")) System.out.println(queues());
            else if (cmd.equals("more")) System.out.println(more());
            else if (cmd.equals("exit")) break;
            System.out.flush();
        }
        System.exit(0);
    }

    static String report() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long[] all = mx.findDeadlockedThreads();
        long[] monitor = mx.findMonitorDeadlockedThreads();
        TreeSet<String> names = new TreeSet<>();
        if (all != null) for (ThreadInfo ti : mx.getThreadInfo(all)) if (ti != null) names.add(ti.getThreadName());
        return "DEADLOCKED names=" + String.join(",", names) + " all=" + (all == null ? 0 : all.length)
            + " monitor=" + (monitor == null ? 0 : monitor.length);
    }

    /**
     * "QUEUES holder=n ... parked.<class>=n": threads waiting per lock owner,
     * and threads parked per j.u.c. synchronizer class, as ThreadMXBean says.
     */
    static String queues() throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        java.util.TreeMap<String, Integer> c = new java.util.TreeMap<>();
        for (ThreadInfo ti : mx.dumpAllThreads(false, false)) {
            if (ti.getLockOwnerName() != null) c.merge(ti.getLockOwnerName(), 1, Integer::sum);
            if (ti.getThreadState() == Thread.State.BLOCKED) c.merge("blocked", 1, Integer::sum);
            if (ti.getThreadState() == Thread.State.WAITING && ti.getLockInfo() != null
                && java.util.concurrent.locks.AbstractOwnableSynchronizer.class.isAssignableFrom(Class.forName(ti.getLockInfo().getClassName())))
                c.merge("parked." + ti.getLockInfo().getClassName(), 1, Integer::sum);
        }
        StringBuilder b = new StringBuilder("QUEUES");
        c.forEach((k, v) -> b.append(' ').append(k).append('=').append(v));
        return b.toString();
    }

    static void cycle(Object[] locks) {
        CyclicBarrier allHoldOne = new CyclicBarrier(locks.length);
        for (int i = 0; i < locks.length; i++) {
            Object first = locks[i], second = locks[(i + 1) % locks.length];
            daemon("dl-" + (char) ('a' + i), () -> with(first, () -> {
                try { allHoldOne.await(); } catch (Exception e) { throw new RuntimeException(e); }
                with(second, () -> { });
            })).start();
        }
    }

    static void storm(int threads, int locks) {
        Object[] hot = new Object[locks];
        for (int i = 0; i < locks; i++) hot[i] = new Object();
        for (int t = 0; t < threads; t++) {
            daemon("storm-" + t, () -> {
                for (long n = 0; ; n++) {
                    synchronized (hot[(int) (n % locks)]) { Thread.yield(); }
                }
            }).start();
        }
    }

    static void with(Object lock, Runnable body) {
        if (lock instanceof Lock) {
            Lock l = (Lock) lock;
            l.lock();
            try { body.run(); } finally { l.unlock(); }
        } else {
            synchronized (lock) { body.run(); }
        }
    }

    /**
     * A monitor cycle with two threads blocked on one of its locks: one
     * started before the cycle's threads (earlier in the JVM's thread list,
     * so findDeadlockedThreads lists it too), one after (not listed).
     */
    static void bystanders() throws InterruptedException {
        Object[] locks = {new Resource(), new Resource()};
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        Thread early = daemon("bystander-early", () -> {
            try { go.await(); } catch (InterruptedException e) { return; }
            synchronized (locks[0]) { }
        });
        early.start();
        cycle(locks);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        while (mx.findDeadlockedThreads() == null) Thread.sleep(1);
        go.countDown();
        Thread late = daemon("bystander-late", () -> { synchronized (locks[0]) { } });
        late.start();
        while (early.getState() != Thread.State.BLOCKED || late.getState() != Thread.State.BLOCKED) Thread.sleep(1);
    }

    /** Heavily blocked, never deadlocked: every chain ends in a thread that waits for nothing. */
    static void pool() throws InterruptedException {
        Object hot = new Resource();
        ReentrantLock rl = new ReentrantLock();
        Semaphore none = new Semaphore(0);
        List<Thread> all = new ArrayList<>();
        Thread holder = daemon("pool-holder", () -> { synchronized (hot) { LockSupport.park(); } });
        holder.start();
        while (holder.getState() != Thread.State.WAITING) Thread.sleep(1);
        // Holds the ReentrantLock and blocks on the monitor: parked threads queue behind it.
        Thread middle = daemon("pool-middle", () -> { rl.lock(); synchronized (hot) { } });
        middle.start();
        while (middle.getState() != Thread.State.BLOCKED) Thread.sleep(1);
        for (int i = 0; i < 20; i++) all.add(daemon("pool-blocked-" + i, () -> { synchronized (hot) { } }));
        for (int i = 0; i < 10; i++) all.add(daemon("pool-parked-" + i, rl::lock));
        for (int i = 0; i < 5; i++) all.add(daemon("pool-semaphore-" + i, none::acquireUninterruptibly));
        // A chain of monitors: chain-k holds link k and wants link k+1; the last sleeps holding its link.
        Object[] links = new Object[10];
        for (int i = 0; i < links.length; i++) links[i] = new Object();
        for (int i = links.length - 1; i >= 0; i--) {
            int k = i;
            Thread t = daemon("pool-chain-" + k, () -> {
                synchronized (links[k]) {
                    if (k == links.length - 1) LockSupport.park();
                    else synchronized (links[k + 1]) { }
                }
            });
            t.start();
            Thread.State want = k == links.length - 1 ? Thread.State.WAITING : Thread.State.BLOCKED;
            while (t.getState() != want) Thread.sleep(1);
        }
        for (Thread t : all) t.start();
        for (Thread t : all) while (t.getState() != Thread.State.BLOCKED && t.getState() != Thread.State.WAITING) Thread.sleep(1);
    }

    /**
     * More distinct locks than the agent's scan budgets: 80 held monitors and
     * 70 held ReentrantLocks with one waiter each (past 32 monitor lookups,
     * 64 handshakes a scrape and 64 grouped j.u.c. locks), then a monitor
     * cycle, whose threads come last in the thread list.
     */
    static void many() throws InterruptedException {
        for (int i = 0; i < 80; i++) heldWithOneWaiter("many-monitor-" + i, new Resource());
        for (int i = 0; i < 70; i++) heldWithOneWaiter("many-rl-" + i, new ReentrantLock());
        cycle(new Object[] {new Resource(), new Resource()});
    }

    static int moreRounds = 0;

    /** Five more threads blocked on a new held monitor; "MORE" once they are. */
    static String more() throws InterruptedException {
        Object lock = new Resource();
        Thread holder = daemon("more-holder-" + moreRounds++, () -> with(lock, Deadlocks::parkForever));
        holder.start();
        while (holder.getState() != Thread.State.WAITING) Thread.sleep(1);
        List<Thread> waiters = new ArrayList<>();
        for (int i = 0; i < 5; i++) waiters.add(daemon("more-waiter-" + i, () -> with(lock, () -> { })));
        for (Thread t : waiters) t.start();
        for (Thread t : waiters) while (t.getState() != Thread.State.BLOCKED) Thread.sleep(1);
        return "MORE";
    }

    static void heldWithOneWaiter(String name, Object lock) throws InterruptedException {
        Thread holder = daemon(name + "-holder", () -> with(lock, Deadlocks::parkForever));
        holder.start();
        while (holder.getState() != Thread.State.WAITING) Thread.sleep(1);
        Thread waiter = daemon(name + "-waiter", () -> with(lock, () -> { }));
        waiter.start();
        while (waiter.getState() != Thread.State.BLOCKED && waiter.getState() != Thread.State.WAITING) Thread.sleep(1);
    }

    static void parkForever() {
        for (;;) LockSupport.park();
    }

    /** A ReentrantLock that tells its owner (getOwner is protected). */
    static final class OwnedLock extends ReentrantLock {
        Thread owner() { return getOwner(); }
    }

    static final List<OwnedLock> virtualLocks = new ArrayList<>();
    static final List<Thread> virtualThreads = new ArrayList<>();

    static final List<ExecutorService> virtualExecutors = new ArrayList<>();

    /**
     * vt-a holds lock 0 and wants lock 1, vt-b the other way round: vt-a from
     * newThreadPerTaskExecutor, vt-b a newSingleThreadExecutor's worker, both
     * made by a named virtual-thread factory (found by reflection: built for
     * release 17). The executors stay referenced: a pool is shut down once unreachable.
     */
    static void virtualCycle() throws Exception {
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        java.lang.reflect.Method name = Class.forName("java.lang.Thread$Builder$OfVirtual").getMethod("name", String.class);
        java.lang.reflect.Method factory = Class.forName("java.lang.Thread$Builder").getMethod("factory");
        for (int i = 0; i < 2; i++) virtualLocks.add(new OwnedLock());
        CyclicBarrier allHoldOne = new CyclicBarrier(2);
        for (int i = 0; i < 2; i++) {
            OwnedLock first = virtualLocks.get(i), second = virtualLocks.get((i + 1) % 2);
            Runnable body = () -> with(first, () -> {
                try { allHoldOne.await(); } catch (Exception e) { throw new RuntimeException(e); }
                with(second, () -> { });
            });
            ThreadFactory named = (ThreadFactory) factory.invoke(name.invoke(builder, "vt-" + (char) ('a' + i)));
            ThreadFactory kept = r -> {
                Thread t = named.newThread(r);
                synchronized (virtualThreads) { virtualThreads.add(t); }
                return t;
            };
            ExecutorService executor = i == 0
                    ? (ExecutorService) Executors.class.getMethod("newThreadPerTaskExecutor", ThreadFactory.class).invoke(null, kept)
                    : Executors.newSingleThreadExecutor(kept);
            virtualExecutors.add(executor);
            executor.execute(body);
        }
    }

    /** The virtual threads from which "queued on a lock, owned by" leads back to themselves. */
    static String virtualReport() {
        TreeSet<String> names = new TreeSet<>();
        for (Thread start : virtualThreads) {
            Thread at = start;
            for (int step = 0; step < virtualThreads.size(); step++) {
                Thread next = null;
                for (OwnedLock l : virtualLocks) if (l.hasQueuedThread(at)) next = l.owner();
                if (next == null) break;
                at = next;
                if (at == start) { names.add(start.getName()); break; }
            }
        }
        return "DEADLOCKED names=" + String.join(",", names) + " all=" + names.size() + " monitor=0";
    }

    static Thread daemon(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
