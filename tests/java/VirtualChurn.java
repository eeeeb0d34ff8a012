import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * JDK 21+: virtual threads started and ended by the million a second, the
 * way Skynet does it, from start-up on (as a JVM whose work begins at once):
 * grows trees of 1,111,110 virtual threads (each node starts ten children
 * and joins them) one after another for MS milliseconds, then prints
 * "CHURNED trees=N threads=T" and serves GroundTruth's commands.
 * Usage: MS. Compiled for release 8, so virtual threads are reached by
 * reflection.
 */
public class VirtualChurn {
    static Method startVirtual;

    /** Starts a node's subtree of ten-way fan-outs, depth levels deep; returns how many threads it started. */
    static long node(int depth) throws Exception {
        if (depth == 0) return 0;
        List<Thread> children = new ArrayList<>(10);
        long[] below = new long[10];
        for (int i = 0; i < 10; i++) {
            final int k = i;
            children.add((Thread) startVirtual.invoke(null, (Runnable) () -> {
                try {
                    below[k] = node(depth - 1);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        long started = 10;
        for (int i = 0; i < 10; i++) {
            children.get(i).join();
            started += below[i];
        }
        return started;
    }

    public static void main(String[] args) throws Exception {
        startVirtual = Thread.class.getMethod("startVirtualThread", Runnable.class);
        System.out.println("READY");
        System.out.flush();
        long until = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000L;
        long trees = 0, threads = 0;
        do {
            threads += node(6);
            trees++;
        } while (System.nanoTime() < until);
        System.out.println("CHURNED trees=" + trees + " threads=" + threads);
        GroundTruth.serveCommands();
        System.exit(0);
    }
}
