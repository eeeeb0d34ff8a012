import java.util.concurrent.locks.LockSupport;

/**
 * N parked platform threads and nothing else, until killed. Prints READY.
 * Args: threads. Also the skynet and park benches' layout shuffle (start).
 */
public class IdleThreads {
    public static void main(String[] args) throws Exception {
        start(Integer.parseInt(args[0]), 128 * 1024);
        System.out.println("READY");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    /** Starts n daemon platform threads that park for good (stackSize 0: the JVM's default). */
    static void start(int n, long stackSize) {
        for (int i = 0; i < n; i++) {
            Thread t = new Thread(null, LockSupport::park, "idle-" + i, stackSize);
            t.setDaemon(true);
            t.start();
        }
    }

    /**
     * The skynet and park benches start -Dbench.idle_threads idle threads
     * first, as a real application has threads of its own:
     * bench/vt_overhead.sh varies the number by round, because on two
     * carriers each number sets these benches into its own speed (BENCHMARKS.md).
     */
    static void startForLayout() {
        start(Integer.getInteger("bench.idle_threads", 0), 0);
    }
}
