import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Two call sites waiting for locks in a split of waiting time the fixture
 * measures itself. monitor (the mutex profile's fixture): slowSite's
 * threads queue for a monitor held ~2 ms at a time (long, rare waits),
 * fastSite's for one held ~20 us (short, frequent waits). juc (the block
 * profile's): fair ReentrantLocks held 100 ms at slowSite and 40 ms at
 * fastSite, so each acquisition waits 200 and 120 ms behind the others
 * (waits as a service sees them, and longer than the block sampler's
 * interval even where its rounds cost several times more, as under ASan
 * on a slow host, which spaced them past 100 ms); meanwhile idle pool
 * workers wait on their queue and a thread waits on a Condition, which
 * the block profile must leave out.
 * Each acquisition is timed with nanoTime around it, summed per site;
 * waits are the acquisitions that took over 5 us (an uncontended one takes
 * well under 1 us), and, with monitors on platform threads, also the JVM's
 * own blocked counts and times (ThreadInfo.getBlockedCount and, with
 * contention monitoring on, getBlockedTime: the time BLOCKED, which is
 * what a JVM TI agent can see; nanoTime also counts waits a thread spun
 * through and time it stood runnable without a CPU).
 * Args: monitor|juc platform|virtual millis [delay_millis, or "go": the
 * run starts that much later, or when a line comes on stdin; READY is
 * printed before]. Prints READY, then after the run "SPLIT slow_ns=..
 * slow_waits=.. fast_ns=.. fast_waits=.. slow_blocked=.. fast_blocked=..
 * slow_blocked_ms=.. fast_blocked_ms=.." (-1: not known),
 * then serves commands (GroundTruth) with the threads alive and idle.
 */
public class WaitSplit {
    static final int SLOW_THREADS = 3, FAST_THREADS = 4;
    static final long WAIT_NS = 5_000;

    static final Object slowMonitor = new Object(), fastMonitor = new Object();
    // Fair: each acquisition queues behind the others, none barges in.
    static final ReentrantLock slowLock = new ReentrantLock(true), fastLock = new ReentrantLock(true);
    static final AtomicLong slowNs = new AtomicLong(), slowWaits = new AtomicLong();
    static final AtomicLong fastNs = new AtomicLong(), fastWaits = new AtomicLong();
    static volatile long sink;

    static void spin(long nanos) {
        long end = System.nanoTime() + nanos;
        long x = 0;
        while (System.nanoTime() < end) x++;
        sink += x;
    }

    static void count(long waited, AtomicLong ns, AtomicLong waits) {
        ns.addAndGet(waited);
        if (waited > WAIT_NS) waits.incrementAndGet();
    }

    static void slowSite(boolean juc) throws InterruptedException {
        long t0 = System.nanoTime();
        if (juc) {
            slowLock.lock();
            try {
                count(System.nanoTime() - t0, slowNs, slowWaits);
                Thread.sleep(100);
            } finally {
                slowLock.unlock();
            }
        } else {
            synchronized (slowMonitor) {
                count(System.nanoTime() - t0, slowNs, slowWaits);
                Thread.sleep(2);
            }
        }
    }

    static void fastSite(boolean juc) throws InterruptedException {
        long t0 = System.nanoTime();
        if (juc) {
            fastLock.lock();
            try {
                count(System.nanoTime() - t0, fastNs, fastWaits);
                Thread.sleep(40);
            } finally {
                fastLock.unlock();
            }
        } else {
            synchronized (fastMonitor) {
                count(System.nanoTime() - t0, fastNs, fastWaits);
                spin(20_000);
            }
        }
        spin(5_000);
    }

    static ThreadFactory factory(boolean virtual) throws Exception {
        if (!virtual) return Thread::new;
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        Method factory = Class.forName("java.lang.Thread$Builder").getMethod("factory");
        return (ThreadFactory) factory.invoke(builder);
    }

    // Threads parked, but not on a lock: idle pool workers on their queue
    // (a Condition of its lock) and a thread in Condition.await.
    static void idleWaiters() {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(3, 3, 1, TimeUnit.HOURS, new LinkedBlockingQueue<>());
        pool.prestartAllCoreThreads();
        ReentrantLock lock = new ReentrantLock();
        Condition never = lock.newCondition();
        Thread waiter = new Thread(() -> {
            lock.lock();
            try {
                never.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                lock.unlock();
            }
        });
        waiter.setDaemon(true);
        waiter.start();
    }

    public static void main(String[] args) throws Exception {
        final boolean juc = args[0].equals("juc");
        final boolean virtual = args[1].equals("virtual");
        if (juc) idleWaiters();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        if (!juc && !virtual && mx.isThreadContentionMonitoringSupported()) mx.setThreadContentionMonitoringEnabled(true);
        System.out.println("READY");
        System.out.flush();
        if (args.length > 3 && args[3].equals("go")) {
            // One line, read unbuffered: serveCommands reads the rest.
            for (int c = System.in.read(); c >= 0 && c != '\n'; c = System.in.read()) { }
        } else if (args.length > 3) {
            Thread.sleep(Long.parseLong(args[3]));
        }
        final long end = System.nanoTime() + Long.parseLong(args[2]) * 1_000_000;
        ThreadFactory threads = factory(virtual);
        CountDownLatch stopped = new CountDownLatch(SLOW_THREADS + FAST_THREADS);
        CountDownLatch release = new CountDownLatch(1);
        List<Thread> slow = new ArrayList<>(), fast = new ArrayList<>();
        for (int i = 0; i < SLOW_THREADS + FAST_THREADS; i++) {
            final boolean isSlow = i < SLOW_THREADS;
            Thread t = threads.newThread(() -> {
                try {
                    while (System.nanoTime() < end) {
                        if (isSlow) slowSite(juc);
                        else fastSite(juc);
                    }
                    stopped.countDown();
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            if (!virtual) t.setDaemon(true);
            t.start();
            (isSlow ? slow : fast).add(t);
        }
        stopped.await();
        System.out.println("SPLIT slow_ns=" + slowNs.get() + " slow_waits=" + slowWaits.get() + " fast_ns=" + fastNs.get()
                + " fast_waits=" + fastWaits.get() + " slow_blocked=" + blocked(virtual, slow) + " fast_blocked="
                + blocked(virtual, fast) + " slow_blocked_ms=" + blockedMs(virtual, slow) + " fast_blocked_ms="
                + blockedMs(virtual, fast));
        System.out.flush();
        GroundTruth.serveCommands();
        release.countDown();
        System.exit(0);
    }

    // The JVM's own count of contended monitor entries; -1 where it has none
    // (virtual threads).
    static long blocked(boolean virtual, List<Thread> threads) {
        if (virtual) return -1;
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (Thread t : threads) {
            ThreadInfo info = mx.getThreadInfo(t.getId());
            sum += info.getBlockedCount();
        }
        return sum;
    }

    // The JVM's own time BLOCKED entering monitors, summed; -1 where it has
    // none (virtual threads, contention monitoring off or unsupported).
    static long blockedMs(boolean virtual, List<Thread> threads) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        if (virtual || !mx.isThreadContentionMonitoringEnabled()) return -1;
        long sum = 0;
        for (Thread t : threads) {
            long ms = mx.getThreadInfo(t.getId()).getBlockedTime();
            if (ms < 0) return -1;
            sum += ms;
        }
        return sum;
    }
}
