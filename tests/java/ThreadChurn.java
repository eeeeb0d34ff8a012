import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * Thread churn for the soak tests, on stdin commands (GroundTruth's
 * "report" and "exit" too):
 * "platform N" starts N platform threads, at most 64 alive at a time, each
 * ending at once, and prints "PLATFORM started=N" when all have ended;
 * "virtual N" (JDK 21+) starts N virtual threads that end at once, joins
 * them all, and prints "VIRTUAL started=N alive=0"; "platform-for S" starts
 * platform threads as "platform" does for S seconds and prints "PLATFORM
 * started=N". Compiled for release 8, so virtual threads are reached by
 * reflection.
 */
public class ThreadChurn {
    public static void main(String[] args) throws Exception {
        System.out.println("READY");
        System.out.flush();
        GroundTruth.serveCommands(line -> {
            if (line.startsWith("platform-for ")) {
                long until = System.nanoTime() + Long.parseLong(line.substring(13)) * 1_000_000_000L;
                System.out.println("PLATFORM started=" + platform(Integer.MAX_VALUE, until));
            } else if (line.startsWith("platform ")) {
                int n = Integer.parseInt(line.substring(9));
                platform(n, Long.MAX_VALUE);
                System.out.println("PLATFORM started=" + n);
            } else if (line.startsWith("virtual ")) {
                int n = Integer.parseInt(line.substring(8));
                virtual(n);
                System.out.println("VIRTUAL started=" + n + " alive=0");
            }
        });
        System.exit(0);
    }

    /** Starts up to n threads, none after the deadline (System.nanoTime()); how many it started. */
    static int platform(int n, long deadline) throws InterruptedException {
        Thread[] window = new Thread[64];
        int i = 0;
        for (; i < n && (i % 1024 != 0 || System.nanoTime() - deadline < 0); i++) {
            int slot = i % window.length;
            if (window[slot] != null) window[slot].join();
            window[slot] = new Thread(() -> { }, "churn-" + i);
            window[slot].start();
        }
        for (Thread t : window) if (t != null) t.join();
        return i;
    }

    static void virtual(int n) throws Exception {
        Method startVirtual = Thread.class.getMethod("startVirtualThread", Runnable.class);
        // Joined in batches: a million Thread objects need not live at once.
        List<Thread> batch = new ArrayList<>(10_000);
        for (int i = 0; i < n; i++) {
            batch.add((Thread) startVirtual.invoke(null, (Runnable) () -> { }));
            if (batch.size() == 10_000 || i == n - 1) {
                for (Thread t : batch) t.join();
                batch.clear();
            }
        }
    }
}
