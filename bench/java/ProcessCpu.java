import java.nio.file.Files;
import java.nio.file.Paths;

/**
 * This process's CPU time (user + system, every thread: the JIT, the GC and
 * any agent's threads too), from /proc/self/stat. The benches print it
 * beside elapsed time: on a busy machine it moves less than wall time.
 */
final class ProcessCpu {
    private ProcessCpu() {}

    static long ms() {
        try {
            String stat = new String(Files.readAllBytes(Paths.get("/proc/self/stat")), "US-ASCII");
            // Fields after the command name, which may hold blanks: state is the first.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);  // utime, stime (fields 14, 15)
            return ticks * 10;  // USER_HZ is 100 on Linux
        } catch (Exception e) {
            return -1;
        }
    }
}
