import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * CPU time of some of this JVM's own threads, found by name (comm), from
 * the kernel's se.sum_exec_runtime in /proc/self/task/TID/sched (nanosecond
 * resolution; /proc's utime and stime count 10 ms ticks). Wall-clock times
 * on a loaded machine add every wait for a core; CPU time is what the work
 * itself cost.
 */
final class ThreadCpu {
    private final List<Path> scheds = new ArrayList<>();

    /** The threads whose name starts with one of the prefixes, found once (their set must not change). */
    ThreadCpu(String... prefixes) throws IOException {
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Paths.get("/proc/self/task"))) {
            for (Path task : tasks) {
                String comm;
                try {
                    comm = Io.read(task.resolve("comm")).trim();
                } catch (IOException e) {
                    continue;  // ended meanwhile
                }
                for (String p : prefixes) {
                    if (comm.startsWith(p)) {
                        scheds.add(task.resolve("sched"));
                        break;
                    }
                }
            }
        }
    }

    int threads() {
        return scheds.size();
    }

    /** Their CPU time so far, in nanoseconds. */
    long ns() throws IOException {
        long sum = 0;
        for (Path p : scheds) {
            for (String line : Files.readAllLines(p)) {
                if (line.startsWith("se.sum_exec_runtime")) {
                    sum += (long) (Double.parseDouble(line.substring(line.indexOf(':') + 1).trim()) * 1e6);
                    break;
                }
            }
        }
        return sum;
    }
}
