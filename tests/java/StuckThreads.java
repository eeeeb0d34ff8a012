import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Threads stuck on a lock, and threads that only look idle or busy, with the
 * JVM's own view as ground truth.
 *   stuck:      "waiter-m" blocked entering a Ledger monitor that "holder-m"
 *               holds; "waiter-j" parked on a ReentrantLock "holder-j" holds.
 *               The holders hold until told to let go.
 *   lookalikes: "idle-wait" in Object.wait(), "idle-sleep" sleeping, the idle
 *               workers of a ThreadPoolExecutor ("idle-pool-N", parked on its
 *               queue's Condition), "idle-latch" on a CountDownLatch,
 *               "idle-semaphore" on a Semaphore without permits, and the
 *               holders themselves; "storm-m-N" and "storm-j-N" take one
 *               monitor / ReentrantLock in turn, each holding it 2 ms, so at
 *               any moment most of them wait (again and again, never long).
 *   "virtual" (JDK 21+): also a virtual thread "waiter-v" parked on a
 *               ReentrantLock that "holder-v" holds.
 * Prints, as the JVM shows each stuck waiter waiting with that owner:
 *   WAITING name=N kind=monitor|juc lock=0x%08x:class owner=O at_ms=T
 * (for the virtual thread, from the lock's own queue: ThreadMXBean does not
 * list virtual threads), "IDLE name=N state=S" for each lookalike as
 * ThreadMXBean shows it, then "READY".
 * Stdin: "release" lets the holders go and prints "RELEASED at_ms=T" once
 * every waiter holds its lock; "exit".
 */
public class StuckThreads {
    static final class Ledger { }
    static final class Hot { }

    static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    static final CountDownLatch release = new CountDownLatch(1);
    static final CountDownLatch done = new CountDownLatch(1);

    public static void main(String[] args) throws Exception {
        boolean virtual = args.length > 0 && args[0].equals("virtual");
        List<Thread> lookalikes = new ArrayList<>();
        Object room = new Object();
        lookalikes.add(start("idle-wait", () -> { synchronized (room) { try { room.wait(); } catch (InterruptedException e) { } } }));
        lookalikes.add(start("idle-sleep", () -> sleep(Long.MAX_VALUE / 2)));
        CountDownLatch never = new CountDownLatch(1);
        lookalikes.add(start("idle-latch", () -> { try { never.await(); } catch (InterruptedException e) { } }));
        Semaphore none = new Semaphore(0);
        lookalikes.add(start("idle-semaphore", () -> none.acquireUninterruptibly()));
        ExecutorService pool = idlePool(lookalikes);
        storm("storm-m", new Hot(), 3);
        storm("storm-j", new ReentrantLock(), 3);

        Ledger ledger = new Ledger();
        ReentrantLock lock = new ReentrantLock();
        Thread holderM = start("holder-m", () -> { synchronized (ledger) { awaitRelease(); } });
        Thread holderJ = start("holder-j", () -> { lock.lock(); try { awaitRelease(); } finally { lock.unlock(); } });
        lookalikes.add(holderM);
        lookalikes.add(holderJ);
        while (!Thread.holdsLock(ledger) && !lock.isLocked()) sleep(1);
        awaitState(holderM, Thread.State.WAITING);
        awaitState(holderJ, Thread.State.WAITING);
        Thread waiterM = start("waiter-m", () -> { synchronized (ledger) { } });
        Thread waiterJ = start("waiter-j", () -> { lock.lock(); lock.unlock(); });
        announce(waiterM, holderM, "monitor");
        announce(waiterJ, holderJ, "juc");
        List<Runnable> virtualRelease = new ArrayList<>();
        if (virtual) startVirtual(virtualRelease);
        for (Thread t : lookalikes) {
            Thread.State s = MX.getThreadInfo(t.getId()).getThreadState();
            if (s == Thread.State.BLOCKED || s == Thread.State.RUNNABLE)
                throw new IllegalStateException(t.getName() + " is " + s + ", not idle");
            System.out.println("IDLE name=" + t.getName() + " state=" + s);
        }
        System.out.println("READY");
        System.out.flush();

        java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
        for (String cmd; (cmd = in.readLine()) != null; ) {
            if (cmd.equals("release")) {
                release.countDown();
                for (Runnable r : virtualRelease) r.run();
                waiterM.join();
                waiterJ.join();
                System.out.println("RELEASED at_ms=" + System.currentTimeMillis());
            } else if (cmd.equals("exit")) {
                break;
            }
            System.out.flush();
        }
        pool.shutdownNow();
        System.exit(0);
    }

    /** Prints WAITING once the JVM shows `waiter` waiting for a lock `owner` holds. */
    static void announce(Thread waiter, Thread owner, String kind) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            ThreadInfo ti = MX.getThreadInfo(waiter.getId());
            if (ti != null && ti.getLockOwnerId() == owner.getId() && ti.getLockInfo() != null) {
                System.out.println("WAITING name=" + waiter.getName() + " kind=" + kind + " lock="
                    + String.format("0x%08x:%s", ti.getLockInfo().getIdentityHashCode(), ti.getLockInfo().getClassName())
                    + " owner=" + owner.getName() + " at_ms=" + System.currentTimeMillis());
                return;
            }
            sleep(2);
        }
        throw new IllegalStateException(waiter.getName() + " never waited");
    }

    /** A pool whose two workers ran a task each and now wait for work on the queue. */
    static ExecutorService idlePool(List<Thread> lookalikes) throws Exception {
        List<Thread> workers = new ArrayList<>();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(2, 2, 1, TimeUnit.HOURS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "idle-pool-" + workers.size());
            t.setDaemon(true);
            workers.add(t);
            return t;
        });
        CountDownLatch ran = new CountDownLatch(2);
        for (int i = 0; i < 2; i++) pool.execute(ran::countDown);
        ran.await();
        for (Thread t : workers) awaitState(t, Thread.State.WAITING);
        lookalikes.addAll(workers);
        return pool;
    }

    static void storm(String prefix, Object lock, int threads) {
        for (int i = 0; i < threads; i++)
            start(prefix + "-" + i, () -> {
                while (true) {
                    if (lock instanceof ReentrantLock) {
                        ((ReentrantLock) lock).lock();
                        try { LockSupport.parkNanos(2_000_000); } finally { ((ReentrantLock) lock).unlock(); }
                    } else {
                        synchronized (lock) { LockSupport.parkNanos(2_000_000); }
                    }
                }
            });
    }

    /** JDK 21+: "waiter-v", a virtual thread, parks on a ReentrantLock "holder-v" holds. Built for 8: reflection. */
    static void startVirtual(List<Runnable> releases) throws Exception {
        Method startVirtual = Thread.class.getMethod("startVirtualThread", Runnable.class);
        ReentrantLock lock = new ReentrantLock();
        CountDownLatch letGo = new CountDownLatch(1);
        Thread holder = start("holder-v", () -> { lock.lock(); try { letGo.await(); } catch (InterruptedException e) { } finally { lock.unlock(); } });
        while (!lock.isLocked()) sleep(1);
        Thread v = (Thread) startVirtual.invoke(null, (Runnable) () -> {
            Thread.currentThread().setName("waiter-v");
            lock.lock();
            lock.unlock();
        });
        while (!lock.hasQueuedThread(v)) sleep(2);
        System.out.println("WAITING name=waiter-v kind=juc virtual=true owner=" + holder.getName()
            + " at_ms=" + System.currentTimeMillis());
        releases.add(() -> {
            letGo.countDown();
            try { v.join(); } catch (InterruptedException e) { throw new RuntimeException(e); }
        });
    }

    static void awaitRelease() {
        try { release.await(); } catch (InterruptedException e) { }
    }

    static void awaitState(Thread t, Thread.State want) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (t.getState() != want) {
            if (System.nanoTime() > deadline) throw new IllegalStateException(t.getName() + " never " + want);
            sleep(1);
        }
    }

    static void sleep(long ms) {
        try { Thread.sleep(ms); } catch (InterruptedException e) { throw new RuntimeException(e); }
    }

    static Thread start(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
