import java.lang.reflect.Method;
import java.nio.ByteBuffer;

/**
 * A host JVM that stops itself for safepoints on request: "stop N" runs N
 * thread dumps (Thread.getAllStackTraces, a safepoint VM operation on every
 * JDK) and answers "STOPPED n", with n how many it ran. "perf" prints a PERF
 * line with HotSpot's safepoint counters as the JDK's own PerfData parser
 * (jvmstat's PerfDataBuffer, what jcmd PerfCounter.print and jstat use) reads
 * them from this JVM's own PerfData memory: how they can be read when
 * -XX:+PerfDisableSharedMem leaves jcmd no file. Needs the jvmstat classes
 * (JDK 8: lib/tools.jar) and, on 9+, the exports the test passes.
 */
public class Safepoints {
    static final String[] COUNTERS = {"sun.rt.safepoints", "sun.rt.safepointTime", "sun.rt.safepointSyncTime",
                                      "sun.os.hrt.frequency"};

    public static void main(String[] args) throws Exception {
        System.out.println("READY");
        System.out.flush();
        GroundTruth.serveCommands(line -> {
            if (line.equals("perf")) System.out.println("PERF " + perfCounters());
            if (!line.startsWith("stop ")) return;
            int n = Integer.parseInt(line.substring(5));
            for (int i = 0; i < n; i++) Thread.getAllStackTraces();
            System.out.println("STOPPED " + n);
        });
    }

    static String perfCounters() throws Exception {
        Class<?> perfClass;
        try {
            perfClass = Class.forName("jdk.internal.perf.Perf");
        } catch (ClassNotFoundException e) {
            perfClass = Class.forName("sun.misc.Perf");
        }
        Object perf = perfClass.getMethod("getPerf").invoke(null);
        ByteBuffer own;
        try {
            own = (ByteBuffer) perfClass.getMethod("attach", int.class).invoke(perf, 0);
        } catch (NoSuchMethodException e) {
            own = (ByteBuffer) perfClass.getMethod("attach", int.class, String.class).invoke(perf, 0, "r");
        }
        Class<?> bufferClass = Class.forName("sun.jvmstat.perfdata.monitor.v2_0.PerfDataBuffer");
        Object buffer = bufferClass.getConstructor(ByteBuffer.class, int.class).newInstance(own, 0);
        Method find = Class.forName("sun.jvmstat.perfdata.monitor.PerfDataBufferImpl").getMethod("findByName", String.class);
        Method value = Class.forName("sun.jvmstat.monitor.Monitor").getMethod("getValue");
        StringBuilder b = new StringBuilder();
        for (String name : COUNTERS)
            b.append(b.length() == 0 ? "" : " ").append(name).append('=').append(value.invoke(find.invoke(buffer, name)));
        return b.toString();
    }
}
