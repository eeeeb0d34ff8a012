import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.LockSupport;

/**
 * Named thread pools whose membership the fixture knows by construction: a
 * Tomcat-like http-nio-8080-exec (2 parked, 1 sleeping, 1 blocked on a
 * monitor its 5th thread holds while sleeping), an Executors pool
 * (pool-N-thread, 3 workers waiting for tasks) and "burner" (4 parked
 * threads). Prints READY once every thread is in its state. Commands:
 * "burn" makes each burner burn 300 ms of its own CPU, then 2 end and 2
 * park again, and answers "BURNED" once that is done; "pools" prints a
 * POOLS line, each pool's threads by Thread.State as ThreadMXBean gives
 * them; "cpu" a CPU line, each pool's CPU in ns from ThreadMXBean (the
 * burners that ended measured their own just before), and burner_ended=
 * those two's alone; "spread N" starts N
 * more pools of one parked thread each (spread-I-worker-1), then "SPREAD".
 */
public class ThreadPools {
    static final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    static final Map<String, List<Thread>> pools = new TreeMap<>();
    static final long[] endedCpu = new long[2];
    static final Object monitor = new Object();
    static final CountDownLatch burned = new CountDownLatch(4);
    static volatile boolean burn;

    static Thread start(String pool, String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        pools.computeIfAbsent(pool, k -> new ArrayList<>()).add(t);
        t.start();
        return t;
    }

    static void sleepForever() {
        try {
            Thread.sleep(Long.MAX_VALUE);
        } catch (InterruptedException e) {
        }
    }

    static void burn(long ns) {
        long x = 0;
        while (mx.getCurrentThreadCpuTime() < ns) for (int i = 0; i < 100_000; i++) x += i ^ x;
        if (x == 42) System.out.print("");
    }

    public static void main(String[] args) throws Exception {
        String tomcat = "http-nio-8080-exec";
        start(tomcat, tomcat + "-1", () -> { for (;;) LockSupport.park(); });
        start(tomcat, tomcat + "-2", () -> { for (;;) LockSupport.park(); });
        start(tomcat, tomcat + "-3", ThreadPools::sleepForever);
        CountDownLatch held = new CountDownLatch(1);
        start(tomcat, tomcat + "-5", () -> {
            synchronized (monitor) {
                held.countDown();
                sleepForever();
            }
        });
        held.await();
        start(tomcat, tomcat + "-4", () -> { synchronized (monitor) { } });

        // Executors' default names: pool-<factory number>-thread-<n>.
        List<Thread> workers = new ArrayList<>();
        ThreadFactory executors = Executors.defaultThreadFactory();
        ThreadFactory named = r -> {
            Thread t = executors.newThread(r);
            t.setDaemon(true);
            workers.add(t);
            return t;
        };
        ExecutorService executor = Executors.newFixedThreadPool(3, named);
        for (int i = 0; i < 3; i++) executor.submit(() -> { });
        String executorPool = workers.get(0).getName().substring(0, workers.get(0).getName().lastIndexOf('-'));
        pools.put(executorPool, workers);

        for (int i = 0; i < 4; i++) {
            final int n = i;
            start("burner", "burner-" + i, () -> {
                while (!burn) LockSupport.park();
                burn(300_000_000L);
                if (n < 2) endedCpu[n] = mx.getCurrentThreadCpuTime();
                burned.countDown();
                if (n >= 2) for (;;) LockSupport.park();
            });
        }
        Map<Thread, Thread.State> settled = new java.util.HashMap<>();
        for (List<Thread> pool : pools.values())
            for (Thread t : pool) if (t.isAlive()) settled.put(t, Thread.State.WAITING);
        List<Thread> http = pools.get(tomcat);
        settled.put(http.get(2), Thread.State.TIMED_WAITING);
        settled.put(http.get(3), Thread.State.TIMED_WAITING);  // -5, holding the monitor
        settled.put(http.get(4), Thread.State.BLOCKED);        // -4
        GroundTruth.awaitStates(settled);
        System.out.println("READY");
        System.out.flush();
        GroundTruth.serveCommands(ThreadPools::command);
    }

    static void command(String line) throws Exception {
        if (line.equals("pools")) System.out.println("POOLS " + states());
        else if (line.equals("cpu")) System.out.println("CPU " + cpu());
        else if (line.equals("burn")) {
            burn = true;
            for (Thread t : pools.get("burner")) LockSupport.unpark(t);
            burned.await();
            for (Thread t : pools.get("burner").subList(0, 2)) t.join();
            System.out.println("BURNED");
        }
        else if (line.startsWith("spread ")) {
            for (int i = Integer.parseInt(line.substring(7)); i > 0; i--) {
                String pool = "spread-" + i + "-worker";
                start(pool, pool + "-1", () -> { for (;;) LockSupport.park(); });
            }
            Thread.sleep(200);
            System.out.println("SPREAD");
        }
    }

    /** pool/STATE=count for each pool and live state, from ThreadMXBean. */
    static String states() {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, List<Thread>> pool : pools.entrySet()) {
            if (pool.getKey().startsWith("spread-")) continue;
            Map<String, Integer> by = new TreeMap<>();
            for (String s : new String[] {"RUNNABLE", "BLOCKED", "WAITING", "TIMED_WAITING"}) by.put(s, 0);
            for (Thread t : pool.getValue()) {
                ThreadInfo info = mx.getThreadInfo(t.getId());
                if (info != null) by.merge(info.getThreadState().name(), 1, Integer::sum);
            }
            by.forEach((s, n) -> b.append(b.length() == 0 ? "" : " ").append(pool.getKey()).append('/').append(s)
                    .append('=').append(n));
        }
        return b.toString();
    }

    /** pool=ns: each pool's CPU, the ended burners' as they measured it. */
    static String cpu() {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, List<Thread>> pool : pools.entrySet()) {
            long sum = pool.getKey().equals("burner") ? endedCpu[0] + endedCpu[1] : 0;
            for (Thread t : pool.getValue()) sum += Math.max(0, mx.getThreadCpuTime(t.getId()));
            b.append(b.length() == 0 ? "" : " ").append(pool.getKey()).append('=').append(sum);
        }
        return b.append(" burner_ended=").append(endedCpu[0] + endedCpu[1]).toString();
    }
}
