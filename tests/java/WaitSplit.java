import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Two call sites waiting for locks in a split of waiting time the fixture
 * measures itself: slowSite's threads queue for a lock held ~2 ms at a time
 * (long, rare waits), fastSite's for one held ~20 us (short, frequent
 * waits). Each acquisition is timed with nanoTime around it, summed per
 * site; waits are the acquisitions that took over 5 us (an uncontended one
 * takes well under 1 us), and, with monitors on platform threads, also the
 * JVM's own blocked counts (ThreadInfo.getBlockedCount).
 * Args: monitor|juc platform|virtual millis [delay_millis: before the run
 * starts, READY already printed]. Prints READY, then after the run "SPLIT slow_ns=.. slow_waits=.. fast_ns=.. fast_waits=.. slow_blocked=..
 * fast_blocked=..", then serves commands (GroundTruth) with the threads
 * alive and idle.
 */
public class WaitSplit {
    static final int SLOW_THREADS = 3, FAST_THREADS = 4;
    static final long WAIT_NS = 5_000;

    static final Object slowMonitor = new Object(), fastMonitor = new Object();
    static final ReentrantLock slowLock = new ReentrantLock(), fastLock = new ReentrantLock();
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
                Thread.sleep(2);
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

    static void fastSite(boolean juc) {
        long t0 = System.nanoTime();
        if (juc) {
            fastLock.lock();
            try {
                count(System.nanoTime() - t0, fastNs, fastWaits);
                spin(20_000);
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

    public static void main(String[] args) throws Exception {
        final boolean juc = args[0].equals("juc");
        final boolean virtual = args[1].equals("virtual");
        System.out.println("READY");
        System.out.flush();
        if (args.length > 3) Thread.sleep(Long.parseLong(args[3]));
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
                + blocked(virtual, fast));
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
}
