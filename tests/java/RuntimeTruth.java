import com.sun.management.OperatingSystemMXBean;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ClassLoadingMXBean;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * What the JVM's own MXBeans say about memory, classes, buffers, compilation
 * and process CPU, for comparison with the agent's client_java families.
 * Holds three direct buffers of 1 MiB; with the argument "busy", allocates
 * steadily in the background. Prints READY; on "report" prints
 * "RUNTIME key=value ..." (numbers) and "PROPS version=...\tvendor=...\truntime=...";
 * on "churn N" allocates N MiB, collects, and prints "CHURNED allocated=bytes".
 */
public class RuntimeTruth {
    static final List<ByteBuffer> held = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < 3; i++) held.add(ByteBuffer.allocateDirect(1 << 20));
        if (args.length > 0 && args[0].equals("busy")) {
            // A service's steady allocation: about 25 MiB/s, so young collections keep coming.
            Thread t = new Thread(() -> {
                while (true) {
                    for (int i = 0; i < 4; i++) sink = new byte[64 * 1024];
                    try { Thread.sleep(10); } catch (InterruptedException e) { return; }
                }
            }, "allocator");
            t.setDaemon(true);
            t.start();
        }
        System.out.println("READY");
        System.out.flush();
        java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
        for (String cmd; (cmd = in.readLine()) != null && !cmd.equals("exit"); ) {
            if (cmd.startsWith("churn ")) {
                System.out.println("CHURNED allocated=" + churn(Integer.parseInt(cmd.substring(6))));
                System.out.flush();
            } else if (cmd.equals("report")) {
                System.out.println(report());
                System.out.println("PROPS version=" + System.getProperty("java.runtime.version")
                    + "\tvendor=" + System.getProperty("java.vm.vendor")
                    + "\truntime=" + System.getProperty("java.runtime.name"));
                System.out.flush();
            }
        }
    }

    static volatile Object sink;

    /** Allocates mb MiB in small arrays, then collects; the bytes this thread allocated meanwhile. */
    static long churn(int mb) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
        for (int i = 0; i < mb * 16; i++) sink = new byte[64 * 1024];
        long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
        System.gc();
        return allocated;
    }

    static String report() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        ClassLoadingMXBean classes = ManagementFactory.getClassLoadingMXBean();
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long directCount = -1, directCapacity = -1;
        for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (b.getName().equals("direct")) {
                directCount = b.getCount();
                directCapacity = b.getTotalCapacity();
            }
        }
        return "RUNTIME heap_used=" + memory.getHeapMemoryUsage().getUsed()
            + " classes_loaded=" + classes.getLoadedClassCount()
            + " classes_total=" + classes.getTotalLoadedClassCount()
            + " classes_unloaded=" + classes.getUnloadedClassCount()
            + " compile_ms=" + jit.getTotalCompilationTime()
            + " cpu_ns=" + os.getProcessCpuTime()
            + " direct_count=" + directCount
            + " direct_capacity=" + directCapacity
            + " pools=" + ManagementFactory.getMemoryPoolMXBeans().size()
            + " start_ms=" + ManagementFactory.getRuntimeMXBean().getStartTime()
            + " processors=" + Runtime.getRuntime().availableProcessors();
    }
}
