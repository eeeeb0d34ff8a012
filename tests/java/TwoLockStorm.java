import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A contention storm far above the contention_sampling bound, on two lock
 * classes with known shares: A threads contend only on a BigLock, B threads
 * only on a SmallLock, each yielding the CPU while holding its lock every
 * other time so the others really block. After D ms the threads stop and
 * stay alive, so the JVM still holds their counts. Ground truth: the JVM's
 * own per-thread blocked counts (ThreadInfo.getBlockedCount), summed per group.
 * Args: A B D. Prints READY, then "STORM big=<sum> small=<sum>", then serves commands.
 */
public class TwoLockStorm {
    static final class BigLock { long n; }
    static final class SmallLock { long n; }

    public static void main(String[] args) throws Exception {
        int a = Integer.parseInt(args[0]);
        int b = Integer.parseInt(args[1]);
        long millis = Long.parseLong(args[2]);
        System.out.println("READY");
        System.out.flush();
        BigLock big = new BigLock();
        SmallLock small = new SmallLock();
        long end = System.nanoTime() + millis * 1_000_000;
        CountDownLatch stopped = new CountDownLatch(a + b);
        CountDownLatch release = new CountDownLatch(1);
        List<Thread> bigThreads = new ArrayList<>(), smallThreads = new ArrayList<>();
        for (int i = 0; i < a + b; i++) {
            boolean onBig = i < a;
            Thread t = new Thread(() -> {
                while (System.nanoTime() < end) {
                    if (onBig) {
                        synchronized (big) {
                            if ((++big.n & 1) == 0) Thread.yield();
                        }
                    } else {
                        synchronized (small) {
                            if ((++small.n & 1) == 0) Thread.yield();
                        }
                    }
                }
                stopped.countDown();
                try { release.await(); } catch (InterruptedException e) { }
            }, (onBig ? "big-" : "small-") + i);
            t.setDaemon(true);
            t.start();
            (onBig ? bigThreads : smallThreads).add(t);
        }
        stopped.await();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        System.out.println("STORM big=" + blocked(mx, bigThreads) + " small=" + blocked(mx, smallThreads));
        System.out.flush();
        GroundTruth.serveCommands();
        release.countDown();
        System.exit(0);
    }

    static long blocked(ThreadMXBean mx, List<Thread> threads) {
        long sum = 0;
        for (Thread t : threads) {
            ThreadInfo info = mx.getThreadInfo(t.getId());
            sum += info.getBlockedCount();
        }
        return sum;
    }
}
