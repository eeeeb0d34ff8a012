import java.util.concurrent.CountDownLatch;

/**
 * What the deadlock check's walk over virtual threads costs (JDK 21+): N
 * virtual threads parked on a CountDownLatch (an AQS with no owner, so
 * every one is looked at and none is a candidate), then the agent's own
 * check timings after 20 s. Args: N portfile. Built for release 17, so
 * virtual threads are started by reflection.
 * Prints "RESULT virtual=N check_median_ms=.. check_max_ms=.. cpu_median_ms=..".
 */
public class VirtualWalkBench {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        CountDownLatch never = new CountDownLatch(1);
        java.lang.reflect.Method start = Thread.class.getMethod("startVirtualThread", Runnable.class);
        for (int i = 0; i < n; i++) {
            start.invoke(null, (Runnable) () -> {
                try { never.await(); } catch (InterruptedException e) { }
            });
        }
        Thread.sleep(20_000);
        AgentMetrics agent = AgentMetrics.scrape(args[1]);
        double median = agent.ms("jvmsight_deadlock_check_median_seconds");
        double max = agent.ms("jvmsight_deadlock_check_max_seconds");
        double cpu = agent.ms("jvmsight_deadlock_check_cpu_median_seconds");
        System.out.printf("RESULT virtual=%d check_median_ms=%.3f check_max_ms=%.3f cpu_median_ms=%.3f%n", n, median, max, cpu);
    }
}
