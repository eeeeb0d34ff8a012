import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the JVM itself says about its threads, printed as one "key=value ..."
 * line for the integration tests to compare with the agent's /metrics.
 */
final class GroundTruth {
    private GroundTruth() {}

    /**
     * ThreadMXBean counts, Thread.State counts and the sub-states JVM TI
     * reports (derived here from each thread's top frame and isInNative).
     * The calling thread is about to block reading stdin (RUNNABLE, in
     * native), so it is counted in that state rather than as it is now.
     */
    static String threads() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Map<String, Long> c = new TreeMap<>();
        for (Thread.State s : Thread.State.values()) c.put(s.name(), 0L);
        for (String k : new String[] {"parked", "sleeping", "object_wait", "native"}) c.put(k, 0L);
        long self = Thread.currentThread().getId();
        for (ThreadInfo ti : mx.getThreadInfo(mx.getAllThreadIds(), 1)) {
            if (ti == null) continue;  // ended meanwhile
            if (ti.getThreadId() == self) {
                c.merge("RUNNABLE", 1L, Long::sum);
                c.merge("native", 1L, Long::sum);
                continue;
            }
            c.merge(ti.getThreadState().name(), 1L, Long::sum);
            if (ti.isInNative()) c.merge("native", 1L, Long::sum);
            StackTraceElement[] st = ti.getStackTrace();
            if (st.length == 0) continue;
            String cls = st[0].getClassName(), m = st[0].getMethodName();
            if (cls.endsWith("Unsafe") && m.equals("park")) c.merge("parked", 1L, Long::sum);
            else if (cls.equals("java.lang.Thread") && m.startsWith("sleep")) c.merge("sleeping", 1L, Long::sum);
            else if (cls.equals("java.lang.Object") && m.startsWith("wait")) c.merge("object_wait", 1L, Long::sum);
        }
        StringBuilder b = new StringBuilder();
        b.append("current=").append(mx.getThreadCount())
         .append(" daemon=").append(mx.getDaemonThreadCount())
         .append(" peak=").append(mx.getPeakThreadCount())
         .append(" started=").append(mx.getTotalStartedThreadCount());
        c.forEach((k, v) -> b.append(' ').append(k).append('=').append(v));
        return b.toString();
    }

    /**
     * Daemon threads by Thread.State (Thread.isDaemon), for OTLP's
     * jvm.thread.count by jvm.thread.daemon; the calling thread counted as
     * in threads().
     */
    static String daemonStates() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Map<String, Long> c = new TreeMap<>();
        for (Thread.State s : Thread.State.values()) c.put(s.name(), 0L);
        long self = Thread.currentThread().getId();
        // ThreadInfo.isDaemon is Java 9+: the daemon flags from the thread groups (Java 8 too).
        java.util.Set<Long> daemons = new java.util.HashSet<>();
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) root = root.getParent();
        Thread[] all = new Thread[root.activeCount() * 2 + 16];
        for (int i = 0, n = root.enumerate(all, true); i < n; i++) if (all[i].isDaemon()) daemons.add(all[i].getId());
        for (ThreadInfo ti : mx.getThreadInfo(mx.getAllThreadIds(), 0)) {
            if (ti == null || !daemons.contains(ti.getThreadId())) continue;
            c.merge(ti.getThreadId() == self ? "RUNNABLE" : ti.getThreadState().name(), 1L, Long::sum);
        }
        StringBuilder b = new StringBuilder();
        c.forEach((k, v) -> b.append(b.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return b.toString();
    }

    private static final java.util.List<Thread> spawned = new java.util.ArrayList<>();

    /**
     * Serves commands from stdin until EOF or "exit": "report" prints a fresh
     * THREADS line; "daemons" a DAEMONS line (daemonStates()); "spawn N" starts N sleeping threads and "end" ends them
     * (each answered by a DONE line once the threads are running or gone).
     */
    static void serveCommands() throws Exception {
        serveCommands(line -> {});
    }

    /** A fixture's own stdin commands, besides "report" and "exit". */
    interface Command {
        void run(String line) throws Exception;
    }

    /** As serveCommands(), passing every other line to extra. */
    static void serveCommands(Command extra) throws Exception {
        java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.equals("report")) System.out.println("THREADS " + threads());
            else if (line.equals("daemons")) System.out.println("DAEMONS " + daemonStates());
            else if (line.equals("exit")) break;
            else if (line.startsWith("spawn ")) {
                Map<Thread, Thread.State> expected = new java.util.HashMap<>();
                for (int i = Integer.parseInt(line.substring(6)); i > 0; i--) {
                    Thread t = new Thread(() -> {
                        try { Thread.sleep(600_000); } catch (InterruptedException e) { }
                    }, "spawned-" + spawned.size());
                    t.setDaemon(true);
                    t.start();
                    spawned.add(t);
                    expected.put(t, Thread.State.TIMED_WAITING);
                }
                awaitStates(expected);
                System.out.println("DONE spawned=" + spawned.size());
            } else if (line.equals("end")) {
                for (Thread t : spawned) t.interrupt();
                for (Thread t : spawned) t.join();
                spawned.clear();
                System.out.println("DONE spawned=0");
            } else extra.run(line);
            System.out.flush();
        }
    }

    /** Waits until every thread is in its expected state. */
    static void awaitStates(Map<Thread, Thread.State> expected) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        for (Map.Entry<Thread, Thread.State> e : expected.entrySet()) {
            while (e.getKey().getState() != e.getValue()) {
                if (System.nanoTime() > deadline) throw new IllegalStateException(e.getKey().getName() + " never reached " + e.getValue());
                Thread.sleep(5);
            }
        }
    }
}
