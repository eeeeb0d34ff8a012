import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * A hot lock with a known minimum of contended entries: each round a holder
 * takes it, starts K threads that each enter it once, waits until all K are
 * BLOCKED on it (so each entry is contended), holds on, then lets them in.
 * The first round holds 800 ms (long enough for the agent's background check
 * to see the lock's class). Also W threads call Object.wait(5) N times each.
 * Args: platform|virtual K R W N. Prints READY, then
 * "CONTENTION min=K*R blocked=<sum of ThreadInfo.getBlockedCount> waits=W*N".
 */
public class HotContention {
    static final class HotLock { }
    static final class WaitRoom { }

    public static void main(String[] args) throws Exception {
        boolean virtual = args.length > 0 && args[0].equals("virtual");
        int k = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        int waiters = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        int waitsEach = args.length > 4 ? Integer.parseInt(args[4]) : 10;
        Method startVirtual = virtual ? Thread.class.getMethod("startVirtualThread", Runnable.class) : null;
        System.out.println("READY");
        System.out.flush();

        HotLock hot = new HotLock();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        java.util.concurrent.atomic.AtomicLong blockedTotal = new java.util.concurrent.atomic.AtomicLong();
        List<Thread> all = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            List<Thread> round = new ArrayList<>();
            synchronized (hot) {
                for (int i = 0; i < k; i++) {
                    Runnable body = () -> {
                        synchronized (hot) { hot.hashCode(); }
                        // The JVM's own count of this thread's contended entries (platform threads only).
                        ThreadInfo ti = virtual ? null : mx.getThreadInfo(Thread.currentThread().getId());
                        if (ti != null) blockedTotal.addAndGet(ti.getBlockedCount());
                    };
                    Thread t;
                    if (virtual) {
                        t = (Thread) startVirtual.invoke(null, body);
                    } else {
                        t = new Thread(body, "hot-" + r + "-" + i);
                        t.start();
                    }
                    round.add(t);
                }
                for (Thread t : round) while (t.getState() != Thread.State.BLOCKED) Thread.sleep(1);
                Thread.sleep(r == 0 ? 800 : 20);
            }
            for (Thread t : round) t.join();
            all.addAll(round);
        }

        WaitRoom room = new WaitRoom();
        List<Thread> waiting = new ArrayList<>();
        for (int i = 0; i < waiters; i++) {
            Thread t = new Thread(() -> {
                for (int n = 0; n < waitsEach; n++) {
                    synchronized (room) { try { room.wait(5); } catch (InterruptedException e) { return; } }
                }
            }, "waiter-" + i);
            t.start();
            waiting.add(t);
        }
        for (Thread t : waiting) t.join();

        long blocked = virtual ? -1 : blockedTotal.get();
        System.out.println("CONTENTION min=" + (k * rounds) + " blocked=" + blocked + " waits=" + (waiters * waitsEach));
        System.out.flush();
        GroundTruth.serveCommands();
        System.exit(0);
    }
}
