import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * Thread-state collection cost at N live threads, side by side in one JVM:
 * what client_java-style exporters do (ThreadMXBean.getThreadInfo over all
 * ids) versus the agent's collector (its own timing, read from /metrics).
 * Args: threads rounds portfile.
 */
public class ThreadStatesBench {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        String portfile = args[2];
        for (int i = 0; i < n; i++) {
            Thread t = new Thread(null, LockSupport::park, "parked-" + i, 128 * 1024);
            t.setDaemon(true);
            t.start();
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        int port = Integer.parseInt(Io.read(portfile).trim());
        double[] mxMs = new double[rounds], agentMs = new double[rounds];
        for (int r = -3; r < rounds; r++) {  // 3 warm-up rounds
            long t0 = System.nanoTime();
            mx.getThreadInfo(mx.getAllThreadIds());
            double m = (System.nanoTime() - t0) / 1e6;
            double a = agentThreadsSeconds(port) * 1e3;
            if (r >= 0) { mxMs[r] = m; agentMs[r] = a; }
        }
        double mxMed = median(mxMs), agentMed = median(agentMs);
        System.out.printf("RESULT threads=%d live=%d rounds=%d mx_ms=%.3f agent_ms=%.3f ratio=%.1f%n",
                n, mx.getThreadCount(), rounds, mxMed, agentMed, mxMed / agentMed);
    }

    static double agentThreadsSeconds(int port) throws Exception {
        HttpURLConnection c = (HttpURLConnection) new URL("http://127.0.0.1:" + port + "/metrics").openConnection();
        String body = new String(Io.readAll(c.getInputStream()));
        for (String line : body.split("\n"))
            if (line.startsWith("jvmsight_collector_duration_seconds{collector=\"threads\"}"))
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
        throw new IllegalStateException("no thread collector timing in /metrics");
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
