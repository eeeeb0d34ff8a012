/**
 * Many threads on a few hot `synchronized` locks, enough that they really
 * block (not just spin): throughput in lock entries per second over a fixed
 * time, after a warm-up. Args: threads locks warmupMs measureMs insideWork outsideWork
 * [yield[=K] | park=MICROS | spin=MICROS] (work = iterations of a cheap LCG
 * step). Inside the critical section, "yield" gives up the CPU (a stress
 * case: the most contended entries a second a few CPUs can produce;
 * "yield=K" only in every K-th critical section of a thread),
 * "park=N" sleeps N microseconds as blocking I/O under a lock would,
 * "spin=N" computes for N microseconds. The other threads outlast
 * HotSpot's spinning and park: real contended entries.
 * Prints "RESULT ops_per_s=<n> blocked=<contended entries, ThreadMXBean>".
 */
public class ContentionBench {
    static final class Hot { long n; }

    static volatile boolean running = true;
    static volatile boolean measuring = false;

    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        int locks = Integer.parseInt(args[1]);
        long warmup = Long.parseLong(args[2]);
        long measure = Long.parseLong(args[3]);
        int inside = args.length > 4 ? Integer.parseInt(args[4]) : 50;
        int outside = args.length > 5 ? Integer.parseInt(args[5]) : 50;
        String blockInside = args.length > 6 ? args[6] : "";
        int yieldEvery = blockInside.equals("yield") ? 1
                : blockInside.startsWith("yield=") ? Integer.parseInt(blockInside.substring(6)) : 0;
        long parkInsideNs = blockInside.startsWith("park=") ? Long.parseLong(blockInside.substring(5)) * 1000 : 0;
        long spinInsideNs = blockInside.startsWith("spin=") ? Long.parseLong(blockInside.substring(5)) * 1000 : 0;
        Hot[] hot = new Hot[locks];
        for (int i = 0; i < locks; i++) hot[i] = new Hot();
        long[] counts = new long[threads * 16];  // padded per thread
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int id = t;
            ts[t] = new Thread(() -> {
                long local = 0, x = id;
                while (running) {
                    Hot h = hot[(int) (local % locks)];
                    synchronized (h) {
                        for (int k = 0; k < inside; k++) x = x * 6364136223846793005L + 1442695040888963407L;
                        h.n += x & 1;
                        // Hand the CPU over while holding: the others block.
                        if (yieldEvery > 0 && local % yieldEvery == 0) Thread.yield();
                        if (parkInsideNs > 0) java.util.concurrent.locks.LockSupport.parkNanos(parkInsideNs);
                        if (spinInsideNs > 0) {
                            long until = System.nanoTime() + spinInsideNs;
                            while (System.nanoTime() < until) x = x * 6364136223846793005L + 1442695040888963407L;
                        }
                    }
                    for (int k = 0; k < outside; k++) x = x * 6364136223846793005L + 1442695040888963407L;
                    local++;
                    if (measuring) counts[id * 16]++;
                }
                if (x == 42) System.out.print("");
            }, "worker-" + t);
            ts[t].start();
        }
        Thread.sleep(warmup);
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long blocked0 = 0;
        for (Thread t : ts) blocked0 += mx.getThreadInfo(t.getId()).getBlockedCount();
        measuring = true;
        long t0 = System.nanoTime();
        Thread.sleep(measure);
        measuring = false;
        long elapsed = System.nanoTime() - t0;
        long blocked1 = 0;
        for (Thread t : ts) blocked1 += mx.getThreadInfo(t.getId()).getBlockedCount();
        running = false;
        for (Thread t : ts) t.join();
        long total = 0;
        for (int t = 0; t < threads; t++) total += counts[t * 16];
        System.out.printf("RESULT ops_per_s=%.0f blocked_per_s=%.0f%n", total / (elapsed / 1e9), (blocked1 - blocked0) / (elapsed / 1e9));
    }
}
