import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Cost of a deadlock check at N live threads, in one JVM:
 * ThreadMXBean.findDeadlockedThreads() timed here, against the agent's own
 * background check (jvmsight_deadlock_check_seconds, read over HTTP).
 * Mixes: "idle": half sleep, half park on a CountDownLatch (an AQS with no
 * owner), 4 block on a held monitor, 2 park on a held ReentrantLock.
 * "pileup": a quarter each sleeping, BLOCKED on one held monitor, parked on
 * one held ReentrantLock, and in Object.wait (issue #11's incident).
 * Args: threads samples portfile(or "-") [mix=idle].
 */
public class DeadlockCheckBench {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        int samples = Integer.parseInt(args[1]);
        String portfile = args[2];
        String mix = args.length > 3 ? args[3] : "idle";
        Object monitor = new Object();
        Object waitOn = new Object();
        ReentrantLock lock = new ReentrantLock();
        Thread holder = new Thread(() -> { lock.lock(); synchronized (monitor) { LockSupport.park(); } }, "holder");
        holder.setDaemon(true);
        holder.start();
        while (holder.getState() != Thread.State.WAITING) Thread.sleep(1);
        CountDownLatch never = new CountDownLatch(1);
        Runnable sleep = () -> { try { Thread.sleep(3_600_000); } catch (InterruptedException e) { } };
        if (mix.equals("pileup")) {
            for (int i = 0; i < n; i++) {
                switch (i % 4) {
                    case 0: start(sleep, "sleeping-" + i); break;
                    case 1: start(() -> { synchronized (monitor) { } }, "blocked-" + i); break;
                    case 2: start(lock::lock, "parked-" + i); break;
                    default: start(() -> {
                        synchronized (waitOn) {
                            try { waitOn.wait(); } catch (InterruptedException e) { }
                        }
                    }, "waiting-" + i);
                }
            }
        } else {
            for (int i = 0; i < n; i++)
                start(i % 2 == 0 ? sleep : () -> { try { never.await(); } catch (InterruptedException e) { } }, "idle-" + i);
            for (int i = 0; i < 4; i++) start(() -> { synchronized (monitor) { } }, "blocked-" + i);
            for (int i = 0; i < 2; i++) start(lock::lock, "parked-" + i);
        }
        Thread.sleep(3000);  // let every thread settle
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        System.out.println("live threads: " + mx.getThreadCount());

        // Interleaved, so both see the same machine load: each round waits
        // for one background check of the agent (every 500 ms, concurrent,
        // no safepoint), then times one ThreadMXBean.findDeadlockedThreads
        // (a stop-the-world VM operation). The agent's own timings (median
        // of its last 32 checks) are read over HTTP at the end.
        long[] mxNs = new long[samples];
        for (int i = 0; i < samples; i++) {
            Thread.sleep(500);
            long t0 = System.nanoTime();
            long[] found = mx.findDeadlockedThreads();
            mxNs[i] = System.nanoTime() - t0;
            if (found != null) throw new IllegalStateException("unexpected deadlock");
        }
        Arrays.sort(mxNs);
        double mxMedianMs = mxNs[samples / 2] / 1e6;
        System.out.printf("findDeadlockedThreads: median %.3f ms, min %.3f ms, max %.3f ms (%d runs)%n",
                          mxMedianMs, mxNs[0] / 1e6, mxNs[samples - 1] / 1e6, samples);
        if (!portfile.equals("-")) {
            AgentMetrics agent = AgentMetrics.scrape(portfile);
            double agentMedianMs = agent.ms("jvmsight_deadlock_check_median_seconds");
            double agentMaxMs = agent.ms("jvmsight_deadlock_check_max_seconds");
            double agentCpuMs = agent.ms("jvmsight_deadlock_check_cpu_median_seconds");
            // Every check since start, the first ones and those reading monitors afresh included.
            double agentCpuMeanMs = agent.ms("jvmsight_deadlock_check_cpu_seconds_total")
                / agent.value("jvmsight_deadlock_checks_total");
            System.out.printf("jvmsight background check: median %.3f ms of the last 32, max %.3f ms since start%n",
                              agentMedianMs, agentMaxMs);
            System.out.printf("RESULT mix=" + mix + " threads=%d mx_median_ms=%.3f agent_median_ms=%.3f ratio=%.1f agent_cpu_median_ms=%.3f"
                              + " agent_cpu_mean_ms=%.3f%n",
                              mx.getThreadCount(), mxMedianMs, agentMedianMs, mxMedianMs / agentMedianMs, agentCpuMs,
                              agentCpuMeanMs);
        }
        System.exit(0);
    }

    static void start(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }
}
