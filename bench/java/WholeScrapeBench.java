import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * A whole /metrics response at N live threads, side by side in one JVM with
 * what a Java exporter pays for thread states alone
 * (ThreadMXBean.getThreadInfo over all ids): the HTTP round trip as a
 * scraper sees it, the agent thread's share (jvmsight_scrape_duration_seconds),
 * and the runtime families' share (collector="runtime").
 * Args: threads rounds portfile [pools: the threads' names spread them over
 * this many thread pools, pool-P-thread-I; default 1, parked-I].
 */
public class WholeScrapeBench {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        int pools = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        for (int i = 0; i < n; i++) {
            String name = pools > 1 ? "pool-" + (i % pools) + "-thread-" + i : "parked-" + i;
            Thread t = new Thread(null, LockSupport::park, name, 128 * 1024);
            t.setDaemon(true);
            t.start();
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        int port = Integer.parseInt(Io.read(args[2]).trim());
        double[] mxMs = new double[rounds], httpMs = new double[rounds], scrapeMs = new double[rounds],
                runtimeMs = new double[rounds], mxCpuMs = new double[rounds], scrapeCpuMs = new double[rounds];
        // CPU as in PileupBench: the caller's and the VM thread's for getThreadInfo, the agent's threads' for a scrape.
        ThreadCpu vmThread = new ThreadCpu("VM Thread"), agentThreads = new ThreadCpu("jvmsight");
        int bytes = 0;
        for (int r = -3; r < rounds; r++) {  // 3 warm-up rounds
            long c0 = mx.getCurrentThreadCpuTime() + vmThread.ns();
            long t0 = System.nanoTime();
            mx.getThreadInfo(mx.getAllThreadIds());
            double m = (System.nanoTime() - t0) / 1e6;
            double mc = (mx.getCurrentThreadCpuTime() + vmThread.ns() - c0) / 1e6;
            long c1 = agentThreads.ns();
            long t1 = System.nanoTime();
            String body = AgentMetrics.get(port);
            double h = (System.nanoTime() - t1) / 1e6;
            double hc = (agentThreads.ns() - c1) / 1e6;
            Thread.sleep(200);
            if (r < 0) continue;
            mxMs[r] = m;
            httpMs[r] = h;
            mxCpuMs[r] = mc;
            scrapeCpuMs[r] = hc;
            AgentMetrics scraped = AgentMetrics.parse(body);
            scrapeMs[r] = scraped.value("jvmsight_scrape_duration_seconds") * 1e3;
            runtimeMs[r] = scraped.value("jvmsight_collector_duration_seconds{collector=\"runtime\"}") * 1e3;
            bytes = body.length();
        }
        System.out.printf("RESULT live=%d rounds=%d mx_ms=%.3f http_ms=%.3f scrape_ms=%.3f runtime_ms=%.3f bytes=%d"
                + " ratio=%.1f mx_cpu_ms=%.3f scrape_cpu_ms=%.3f cpu_ratio=%.1f%n", mx.getThreadCount(), rounds,
                median(mxMs), median(httpMs), median(scrapeMs), median(runtimeMs), bytes, median(mxMs) / median(httpMs),
                median(mxCpuMs), median(scrapeCpuMs), median(mxCpuMs) / median(scrapeCpuMs));
    }



    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
