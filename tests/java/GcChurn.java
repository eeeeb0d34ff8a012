import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * Forces a known amount of GC work on command, then prints what the
 * GarbageCollectorMXBeans say, for the GC integration tests.
 *
 * Commands (stdin): "churn <systemGcs> <megabytes>" runs that many
 * System.gc() calls plus that many MB of short-lived allocation, then prints
 * "CHURNED"; "gc" prints one line
 * "GC name=count/timeMs;name=count/timeMs;..." (names may contain spaces,
 * entries are separated by ';'); "flags" prints the GC flags that change how
 * collections map to pauses; "causes" prints one line
 * "CAUSES gcName|gcAction|gcCause=count;..." of the GC notifications this
 * JVM sent (com.sun.management.GarbageCollectionNotificationInfo), tallied by
 * its own listener, installed before READY when the first argument is
 * "causes"; plus GroundTruth's "report" and "exit".
 * It does no GC work before the first command, so the agent is fully set up
 * (GC notification listener installed) before the first collection.
 */
public class GcChurn {
    static volatile Object sink;

    static final java.util.Map<String, Long> causes = new java.util.TreeMap<>();

    static void tallyCauses() {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((javax.management.NotificationEmitter) gc).addNotificationListener((n, handback) -> {
                com.sun.management.GarbageCollectionNotificationInfo info =
                    com.sun.management.GarbageCollectionNotificationInfo.from(
                        (javax.management.openmbean.CompositeData) n.getUserData());
                String key = info.getGcName() + '|' + info.getGcAction() + '|' + info.getGcCause();
                synchronized (causes) {
                    causes.merge(key, 1L, Long::sum);
                }
            }, null, null);
        }
    }

    static String causes() {
        StringBuilder b = new StringBuilder("CAUSES ");
        synchronized (causes) {
            String sep = "";
            for (java.util.Map.Entry<String, Long> e : causes.entrySet()) {
                b.append(sep).append(e.getKey()).append('=').append(e.getValue());
                sep = ";";
            }
        }
        return b.toString();
    }

    static String beans() {
        StringBuilder b = new StringBuilder("GC ");
        String sep = "";
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            b.append(sep).append(gc.getName()).append('=').append(gc.getCollectionCount()).append('/')
             .append(gc.getCollectionTime());
            sep = ";";
        }
        return b.toString();
    }

    static void churn(int systemGcs, int megabytes) {
        // Short-lived garbage with a small live set: young collections (or
        // ZGC/Shenandoah cycles) without promotion failures.
        Object[] live = new Object[256];
        long chunks = megabytes * 1024L * 1024L / 8192;
        for (long i = 0; i < chunks; i++) {
            byte[] b = new byte[8192];
            live[(int) (i % live.length)] = b;
            sink = b;
            if (systemGcs > 0 && i % Math.max(1, chunks / systemGcs) == 0) {
                System.gc();
                systemGcs--;
            }
        }
        while (systemGcs-- > 0) System.gc();
    }

    /** 1 or 0 for a boolean VM flag, -1 if this JVM has no such flag. */
    static int flag(String name) {
        try {
            com.sun.management.HotSpotDiagnosticMXBean mx =
                ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            return Boolean.parseBoolean(mx.getVMOption(name).getValue()) ? 1 : 0;
        } catch (IllegalArgumentException absent) {
            return -1;
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("causes")) tallyCauses();
        System.out.println("READY");
        System.out.flush();
        GroundTruth.serveCommands(line -> {
            String[] w = line.split(" ");
            if (w[0].equals("churn")) {
                churn(Integer.parseInt(w[1]), Integer.parseInt(w[2]));
                System.out.println("CHURNED");
            } else if (w[0].equals("gc")) {
                System.out.println(beans());
            } else if (w[0].equals("causes")) {
                System.out.println(causes());
            } else if (w[0].equals("flags")) {
                System.out.println("FLAGS scavengeBeforeFullGC=" + flag("ScavengeBeforeFullGC"));
            }
        });
    }
}
