import java.util.concurrent.locks.LockSupport;

/**
 * What reading the thread pools' CPU in the background costs: N parked
 * threads in P pools (pool-P-thread-I), the agent scraped every second for
 * a while after a warm-up, and the CPU time of the agent's own threads
 * (jvmsight*, from the kernel: ThreadCpu) over that while. Run once with
 * thread_pools on and once with thread_pools=0, the difference is what the
 * pool families cost, scrapes included. Also counts the background
 * readings in the window (the served age went back) with what each cost
 * (jvmsight_thread_pool_cpu_refresh_seconds), and the largest age seen.
 * Args: threads pools seconds portfile.
 */
public class ThreadPoolCpuBench {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]), pools = Integer.parseInt(args[1]), seconds = Integer.parseInt(args[2]);
        String portfile = args[3];
        for (int i = 0; i < n; i++) {
            Thread t = new Thread(null, LockSupport::park, "pool-" + (i % pools) + "-thread-" + i, 128 * 1024);
            t.setDaemon(true);
            t.start();
        }
        ThreadCpu agent = new ThreadCpu("jvmsight");
        // Warm-up: the first reading (names, classes, the first bulk call) is not the steady state.
        AgentMetrics m = AgentMetrics.scrape(portfile);
        for (int i = 0; i < 15; i++) {
            Thread.sleep(1000);
            m = AgentMetrics.scrape(portfile);
        }
        long wall0 = System.nanoTime(), cpu0 = agent.ns();
        double maxAge = 0, lastRefresh = 0, readingsMs = 0, age = m.value("jvmsight_thread_pool_cpu_age_seconds");
        int scrapes = 0, readings = 0;
        while (System.nanoTime() - wall0 < seconds * 1_000_000_000L) {
            Thread.sleep(1000);
            m = AgentMetrics.scrape(portfile);
            scrapes++;
            // A background reading since the last scrape: the age went back; its cost is the refresh's.
            double now = m.value("jvmsight_thread_pool_cpu_age_seconds");
            if (now >= 0 && now < age) {
                readings++;
                lastRefresh = m.ms("jvmsight_thread_pool_cpu_refresh_seconds");
                readingsMs += lastRefresh;
            }
            age = now;
            maxAge = Math.max(maxAge, now);
        }
        double wallS = (System.nanoTime() - wall0) / 1e9, cpuMs = (agent.ns() - cpu0) / 1e6;
        if (readings == 0) lastRefresh = m.ms("jvmsight_thread_pool_cpu_refresh_seconds");
        System.out.printf("RESULT live=%d pools=%d scrapes=%d agent_cpu_ms_per_s=%.3f readings=%d"
                + " readings_ms_per_s=%.3f refresh_ms=%.3f max_age_s=%.2f%n", Thread.activeCount(), pools, scrapes,
                cpuMs / wallS, readings, readingsMs / wallS, Math.max(0, lastRefresh), maxAge);
    }
}
