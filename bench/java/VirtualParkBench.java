import java.lang.reflect.Method;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.SynchronousQueue;

/**
 * JDK 21+: PAIRS pairs of virtual threads hand ROUNDS values each across a
 * SynchronousQueue (every hand-off parks and unparks a virtual thread, which
 * unmounts: nothing pins), each also taking a lock of its own with
 * synchronized around the hand-off count. Warms up for WARMUP seconds (at
 * least two quarter-length runs), then times REPEAT runs; prints
 * "RESULT ms=<elapsed> cpu_ms=<the process's CPU time meanwhile>".
 * Usage: PAIRS ROUNDS [WARMUP=0 [REPEAT=1]]; -Dbench.idle_threads=N starts
 * N idle platform threads first (IdleThreads.startForLayout).
 * Compiled for release 8: virtual threads by reflection.
 */
public class VirtualParkBench {
    public static void main(String[] args) throws Exception {
        int pairs = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        double warmup = args.length > 2 ? Double.parseDouble(args[2]) : 0;
        int repeat = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        IdleThreads.startForLayout();
        Method startVirtual = Thread.class.getMethod("startVirtualThread", Runnable.class);
        long warmStart = System.nanoTime();
        for (int warm = 0; warm < 2 || System.nanoTime() - warmStart < warmup * 1e9; warm++) {
            run(startVirtual, pairs, rounds / 4);
        }
        long cpu = ProcessCpu.ms();
        long start = System.nanoTime();
        for (int i = 0; i < repeat; i++) run(startVirtual, pairs, rounds);
        long elapsed = (System.nanoTime() - start) / 1_000_000;
        System.out.println("RESULT ms=" + elapsed + " cpu_ms=" + (ProcessCpu.ms() - cpu));
    }

    static void run(Method startVirtual, int pairs, int rounds) throws Exception {
        CountDownLatch done = new CountDownLatch(pairs * 2);
        for (int p = 0; p < pairs; p++) {
            SynchronousQueue<Integer> q = new SynchronousQueue<>();
            Object lock = new Object();
            long[] handed = new long[1];
            startVirtual.invoke(null, (Runnable) () -> {
                try {
                    for (int i = 0; i < rounds; i++) q.put(i);
                } catch (InterruptedException e) { }
                done.countDown();
            });
            startVirtual.invoke(null, (Runnable) () -> {
                try {
                    for (int i = 0; i < rounds; i++) {
                        q.take();
                        synchronized (lock) { handed[0]++; }
                    }
                } catch (InterruptedException e) { }
                done.countDown();
            });
        }
        done.await();
    }
}
