import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.LockSupport;

/**
 * A small always-busy service for trying the agent: a worker pool contending
 * on a hot lock, sleepers, idle parked threads, and allocation churn for the
 * collector. Runs until stopped (or for the seconds given as argument).
 */
public class JvmsightDemo {
    static final Object hotLock = new Object();
    static long shared;

    public static void main(String[] args) throws Exception {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : Long.MAX_VALUE / 2_000;
        ExecutorService workers = Executors.newFixedThreadPool(8, r -> daemon(r, "worker"));
        for (int i = 0; i < 8; i++) workers.submit(i % 2 == 0 ? JvmsightDemo::placeOrders : JvmsightDemo::auditLedger);
        for (int i = 0; i < 4; i++) daemon(() -> sleepForever(), "sleeper-" + i).start();
        for (int i = 0; i < 4; i++) daemon(LockSupport::park, "idle-" + i).start();
        daemon(JvmsightDemo::churn, "allocator").start();
        Thread.sleep(seconds * 1000);
    }

    // Two call sites on one lock, for the contention profile
    // (/debug/pprof/mutex): orders hold it long, audits briefly.
    static void placeOrders() {
        while (true) {
            synchronized (hotLock) {
                shared++;
                LockSupport.parkNanos(200_000);  // hold it long enough that others really block
            }
            LockSupport.parkNanos(100_000);
        }
    }

    static void auditLedger() {
        while (true) {
            synchronized (hotLock) {
                shared--;
                LockSupport.parkNanos(50_000);
            }
            LockSupport.parkNanos(100_000);
        }
    }

    static void churn() {
        List<byte[]> keep = new ArrayList<>();
        while (true) {
            keep.add(new byte[16 * 1024]);
            if (keep.size() > 2_000) keep.clear();
            LockSupport.parkNanos(20_000);
        }
    }

    static void sleepForever() {
        try { Thread.sleep(Long.MAX_VALUE); } catch (InterruptedException e) { }
    }

    static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
