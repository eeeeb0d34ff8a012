import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.LongAdder;

/**
 * Allocation-heavy workload for the GC overhead bench: worker threads
 * allocate short-lived arrays and objects and keep a rotating set alive (so
 * young collections have survivors to copy). After a warm-up it measures for
 * a fixed time and prints one line:
 * "RESULT ops_per_s=<n> gc_count=<n> gc_ms=<n> pause_count=<n> pause_ms=<n>"
 * where gc_* covers every GarbageCollectorMXBean and pause_* only the
 * stop-the-world ones (names not ending in " Cycles"), both over the
 * measured window.
 */
public class AllocBench {
    static final LongAdder ops = new LongAdder();
    static volatile boolean running = true;

    static long[] gcTotals() {
        long[] t = new long[4];
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            t[0] += b.getCollectionCount();
            t[1] += b.getCollectionTime();
            if (!b.getName().endsWith(" Cycles")) {
                t[2] += b.getCollectionCount();
                t[3] += b.getCollectionTime();
            }
        }
        return t;
    }

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        long warmupMs = args.length > 1 ? Long.parseLong(args[1]) : 2000;
        long measureMs = args.length > 2 ? Long.parseLong(args[2]) : 8000;
        Thread[] workers = new Thread[threads];
        for (int w = 0; w < threads; w++) {
            workers[w] = new Thread(() -> {
                Object[] live = new Object[4096];
                java.util.Random r = new java.util.Random(42);
                while (running) {
                    for (int i = 0; i < 1000; i++) {
                        Object o = (i & 3) == 0 ? new long[16 + r.nextInt(64)] : new StringBuilder(32).append(i);
                        if ((i & 15) == 0) live[r.nextInt(live.length)] = o;
                    }
                    ops.add(1000);  // per batch: the count is exact to 1000 ops at any moment
                }
            });
            workers[w].setDaemon(true);
            workers[w].start();
        }
        Thread.sleep(warmupMs);
        long[] g0 = gcTotals();
        long o0 = ops.sum(), t0 = System.nanoTime();
        Thread.sleep(measureMs);
        long o1 = ops.sum(), t1 = System.nanoTime();
        long[] g1 = gcTotals();
        running = false;
        for (Thread t : workers) t.join();
        double seconds = (t1 - t0) / 1e9;
        System.out.printf("RESULT ops_per_s=%.0f gc_count=%d gc_ms=%d pause_count=%d pause_ms=%d%n",
                (o1 - o0) / seconds, g1[0] - g0[0], g1[1] - g0[1], g1[2] - g0[2], g1[3] - g0[3]);
    }
}
