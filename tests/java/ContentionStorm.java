import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Far more contended entries a second than anyone times in full: T platform
 * threads take one StormLock for D ms, yielding the CPU while holding it
 * every other time, so the others really block (on 2 CPUs, about 100,000
 * contended entries a second). Each thread then adds the JVM's own count of
 * its contended entries (ThreadInfo.getBlockedCount), the ground truth.
 * Args: T D. Prints READY, then "STORM blocked=<sum> entries=<critical sections>".
 */
public class ContentionStorm {
    static final class StormLock { long n; }

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        long millis = args.length > 1 ? Long.parseLong(args[1]) : 4000;
        System.out.println("READY");
        System.out.flush();
        StormLock lock = new StormLock();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        AtomicLong blocked = new AtomicLong();
        long end = System.nanoTime() + millis * 1_000_000;
        List<Thread> all = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                while (System.nanoTime() < end) {
                    synchronized (lock) {
                        if ((++lock.n & 1) == 0) Thread.yield();
                    }
                }
                blocked.addAndGet(mx.getThreadInfo(Thread.currentThread().getId()).getBlockedCount());
            }, "storm-" + i);
            t.start();
            all.add(t);
        }
        for (Thread t : all) t.join();
        System.out.println("STORM blocked=" + blocked.get() + " entries=" + lock.n);
        System.out.flush();
        GroundTruth.serveCommands();
        System.exit(0);
    }
}
