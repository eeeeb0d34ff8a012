import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * Holds known numbers of threads in each state, then prints what the JVM
 * says about all its threads ("THREADS ..."), and serves stdin commands.
 * Args: blocked waiting timedWaiting parked (defaults 3 2 4 2).
 */
public class ThreadStates {
    public static void main(String[] args) throws Exception {
        int blocked = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int waiting = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        int timed = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        int parked = args.length > 3 ? Integer.parseInt(args[3]) : 2;
        Map<Thread, Thread.State> expected = new LinkedHashMap<>();
        Object monitor = new Object();
        Object waitRoom = new Object();

        // The holder takes the monitor and parks holding it: the others block on it.
        Thread holder = daemon("holder", () -> { synchronized (monitor) { LockSupport.park(); } });
        holder.start();
        while (holder.getState() != Thread.State.WAITING) Thread.sleep(1);
        expected.put(holder, Thread.State.WAITING);
        for (int i = 0; i < blocked; i++) expected.put(daemon("blocked-" + i, () -> { synchronized (monitor) { } }), Thread.State.BLOCKED);
        for (int i = 0; i < waiting; i++) expected.put(daemon("waiting-" + i, () -> {
            synchronized (waitRoom) { try { waitRoom.wait(); } catch (InterruptedException e) { } }
        }), Thread.State.WAITING);
        for (int i = 0; i < timed; i++) expected.put(daemon("sleeping-" + i, () -> {
            try { Thread.sleep(600_000); } catch (InterruptedException e) { }
        }), Thread.State.TIMED_WAITING);
        for (int i = 0; i < parked; i++) expected.put(daemon("parked-" + i, LockSupport::park), Thread.State.WAITING);
        for (Thread t : expected.keySet()) if (t.getState() == Thread.State.NEW) t.start();
        GroundTruth.awaitStates(expected);
        System.out.println("READY");
        System.out.println("THREADS " + GroundTruth.threads());
        System.out.flush();
        GroundTruth.serveCommands();
        System.exit(0);
    }

    static Thread daemon(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
