import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicLong;

/**
 * JDK 21+: Skynet with virtual threads. A tree of virtual threads, each
 * node starting ten children until 1,000,000 leaves (1,111,111 threads a
 * run), each leaf adding its number to its parent's sum, each parent
 * joining its children. Warms up for WARMUP seconds (at least two runs),
 * then times ROUNDS runs; prints "RESULT ms=<total of the timed runs>
 * cpu_ms=<the process's CPU time meanwhile>".
 * Usage: [ROUNDS=3 [WARMUP=0]]; -Dbench.idle_threads=N starts N idle
 * platform threads first (IdleThreads.startForLayout). Compiled for release
 * 8: virtual threads by reflection.
 */
public class Skynet {
    static Method startVirtual;

    static long skynet(long num, long size) throws Exception {
        if (size == 1) return num;
        final AtomicLong sum = new AtomicLong();
        final long sub = size / 10;
        Thread[] children = new Thread[10];
        for (int i = 0; i < 10; i++) {
            final long childNum = num + i * sub;
            children[i] = (Thread) startVirtual.invoke(null, (Runnable) () -> {
                try {
                    sum.addAndGet(skynet(childNum, sub));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        for (Thread t : children) t.join();
        return sum.get();
    }

    static long run() throws Exception {
        final long[] result = new long[1];
        Thread root = (Thread) startVirtual.invoke(null, (Runnable) () -> {
            try {
                result[0] = skynet(0, 1_000_000);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        root.join();
        if (result[0] != 499_999_500_000L) throw new IllegalStateException("wrong sum " + result[0]);
        return result[0];
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        double warmup = args.length > 1 ? Double.parseDouble(args[1]) : 0;
        IdleThreads.startForLayout();
        startVirtual = Thread.class.getMethod("startVirtualThread", Runnable.class);
        long warmStart = System.nanoTime();
        for (int i = 0; i < 2 || System.nanoTime() - warmStart < warmup * 1e9; i++) run();
        long cpu = ProcessCpu.ms();
        long start = System.nanoTime();
        for (int i = 0; i < rounds; i++) run();
        long elapsed = (System.nanoTime() - start) / 1_000_000;
        System.out.println("RESULT ms=" + elapsed + " cpu_ms=" + (ProcessCpu.ms() - cpu));
    }
}
