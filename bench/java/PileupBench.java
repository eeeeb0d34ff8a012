import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A lock pileup at N threads, as in issue #11: a quarter each sleeping,
 * BLOCKED on one held monitor, parked on one held ReentrantLock, and in
 * Object.wait. Two modes:
 *
 * scrape: R rounds, interleaved, of getThreadInfo(getAllThreadIds()) (what a
 * Java exporter pays for thread states) and a whole /metrics response over
 * HTTP, with the agent's own share (jvmsight_scrape_duration_seconds) and the
 * lock-queue collector's.
 *
 * idle: nobody scrapes; the process's CPU time from /proc/self/stat over a
 * window soon after the pileup formed and, optionally, one at rest (run with
 * and without the agent to get what the agent adds); with the agent, one
 * scrape after both reads the check's own CPU counter.
 *
 * Args: scrape threads rounds portfile | idle threads seconds [portfile|-] [rest_at_seconds]
 */
public class PileupBench {
    static final Object MONITOR = new Object();
    static final Object WAIT_ON = new Object();
    static final ReentrantLock LOCK = new ReentrantLock();

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        int n = Integer.parseInt(args[1]);
        pileup(n);
        if (mode.equals("scrape")) {
            scrape(Integer.parseInt(args[2]), args[3]);
        } else {
            idle(Integer.parseInt(args[2]), args.length > 3 && !args[3].equals("-") ? args[3] : null,
                 args.length > 4 ? Integer.parseInt(args[4]) : 0);
        }
    }

    static void pileup(int n) throws InterruptedException {
        Thread holder = daemon(() -> {
            LOCK.lock();
            synchronized (MONITOR) {
                sleepForever();
            }
        }, "pileup-holder");
        while (holder.getState() != Thread.State.TIMED_WAITING) Thread.sleep(1);
        for (int i = 0; i < n; i++) {
            switch (i % 4) {
                case 0: daemon(PileupBench::sleepForever, "sleeping-" + i); break;
                case 1: daemon(() -> { synchronized (MONITOR) { } }, "blocked-" + i); break;
                case 2: daemon(LOCK::lock, "parked-" + i); break;
                default: daemon(() -> {
                    synchronized (WAIT_ON) {
                        try { WAIT_ON.wait(); } catch (InterruptedException e) { }
                    }
                }, "waiting-" + i);
            }
        }
        // Until every thread is where it should be, then a little longer.
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (int tries = 0; tries < 600; tries++) {
            long runnable = Arrays.stream(mx.getThreadInfo(mx.getAllThreadIds()))
                                .filter(t -> t != null && t.getThreadName().matches("(sleeping|blocked|parked|waiting)-.*")
                                             && t.getThreadState() == Thread.State.RUNNABLE)
                                .count();
            if (runnable == 0) break;
            Thread.sleep(100);
        }
        Thread.sleep(3000);
    }

    static void scrape(int rounds, String portfile) throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        int port = Integer.parseInt(Io.read(portfile).trim());
        double[] mxMs = new double[rounds], httpMs = new double[rounds], agentMs = new double[rounds],
                 queueMs = new double[rounds], mxCpuMs = new double[rounds], scrapeCpuMs = new double[rounds];
        // CPU: getThreadInfo's is the calling thread's plus the VM thread's
        // (its VM operation); a scrape's is the agent's threads' (the agent
        // thread, the HTTP thread), what a scraper's request costs the JVM.
        ThreadCpu vmThread = new ThreadCpu("VM Thread"), agentThreads = new ThreadCpu("jvmsight");
        String body = "";
        for (int r = -3; r < rounds; r++) {  // 3 warm-up rounds
            long c0 = mx.getCurrentThreadCpuTime() + vmThread.ns();
            long t0 = System.nanoTime();
            mx.getThreadInfo(mx.getAllThreadIds());
            double m = (System.nanoTime() - t0) / 1e6;
            double mc = (mx.getCurrentThreadCpuTime() + vmThread.ns() - c0) / 1e6;
            // getThreadInfo stops the JVM (3.5 s on JDK 8 here), which holds
            // up the agent's periodic work (the deadlock check, the lock
            // scan); a scrape right after it would count that work catching
            // up as its own (1-10 ms on JDK 8, against 0.5 ms alone).
            Thread.sleep(500);
            long c1 = agentThreads.ns();
            long t1 = System.nanoTime();
            body = AgentMetrics.get(port);
            double h = (System.nanoTime() - t1) / 1e6;
            double hc = (agentThreads.ns() - c1) / 1e6;
            Thread.sleep(200);
            if (r < 0) continue;
            mxMs[r] = m;
            httpMs[r] = h;
            mxCpuMs[r] = mc;
            scrapeCpuMs[r] = hc;
            AgentMetrics scraped = AgentMetrics.parse(body);
            agentMs[r] = scraped.value("jvmsight_scrape_duration_seconds") * 1e3;
            queueMs[r] = scraped.value("jvmsight_collector_duration_seconds{collector=\"lock_queue\"}") * 1e3;
        }
        AgentMetrics last = AgentMetrics.parse(body);
        System.out.printf("RESULT live=%d mx_ms=%.3f http_ms=%.3f agent_ms=%.3f lock_queue_ms=%.3f blocked=%.0f"
                              + " parked=%.0f ratio=%.1f mx_cpu_ms=%.3f scrape_cpu_ms=%.3f cpu_ratio=%.1f%n",
            mx.getThreadCount(), median(mxMs), median(httpMs), median(agentMs), median(queueMs),
            last.value("jvmsight_lock_waiting_threads{kind=\"monitor\"}"),
            last.value("jvmsight_lock_waiting_threads{kind=\"juc\"}"), median(mxMs) / median(httpMs),
            median(mxCpuMs), median(scrapeCpuMs), median(mxCpuMs) / median(scrapeCpuMs));
    }

    /**
     * Two windows of the same length: one from 3 s after the pileup formed
     * (the agent still reacting to thousands of new waits: stacks, lock-order
     * probes, the JIT), and, with restAt > 0, one from restAt s after that
     * (the pileup unchanged for half a minute: the agent at rest). Nothing
     * scrapes before both are over: a scrape starts the agent's background
     * refreshes for the next minutes, which is not rest.
     */
    static void idle(int seconds, String portfile, int restAt) throws Exception {
        long start = System.nanoTime();
        double early = cpuPercent(seconds);
        String rest = "";
        if (restAt > 0) {
            long wait = start + restAt * 1_000_000_000L - System.nanoTime();
            if (wait > 0) Thread.sleep(wait / 1_000_000);
            rest = String.format(" rest_cpu_pct=%.2f", cpuPercent(seconds));
        }
        double checkCpu = -1, checks = -1;
        if (portfile != null) {
            AgentMetrics m = AgentMetrics.scrape(portfile);
            checkCpu = m.value("jvmsight_deadlock_check_cpu_seconds_total");
            checks = m.value("jvmsight_deadlock_checks_total");
        }
        System.out.printf("RESULT live=%d cpu_pct=%.2f check_cpu_s=%.3f checks=%.0f%s%n",
            ManagementFactory.getThreadMXBean().getThreadCount(), early, checkCpu, checks, rest);
    }

    /** The process's CPU over the next `seconds`, in % of a core. */
    static double cpuPercent(int seconds) throws Exception {
        long ticks0 = cpuTicks(), t0 = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        long ticks1 = cpuTicks(), t1 = System.nanoTime();
        return (ticks1 - ticks0) / 100.0 / ((t1 - t0) / 1e9) * 100;  // USER_HZ is 100 on Linux
    }

    /** utime + stime of this process, in clock ticks. */
    static long cpuTicks() throws Exception {
        String stat = Io.read("/proc/self/stat");
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(null, r, name, 128 * 1024);
        t.setDaemon(true);
        t.start();
        return t;
    }

    static void sleepForever() {
        try {
            Thread.sleep(Long.MAX_VALUE);
        } catch (InterruptedException e) {
        }
    }



    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
