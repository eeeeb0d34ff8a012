import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The JVMs of the alerting end-to-end test (tests/e2e): a workload that gives
 * every dashboard panel something to show, and a monitor deadlock on command.
 *
 * Args: "calm" or "contended".
 * Both: threads sleeping, parked, and in Object.wait(250) (returning, so the
 * wait counters move); allocation churn and a System.gc() every 500 ms (GC
 * pauses; ZGC/Shenandoah cycles when run with those collectors).
 * "contended" adds: three threads taking one Ledger monitor in turn (contended
 * entries with a known lock class, averaging well under one blocked thread,
 * so no contention alert); a Vault monitor held by "vault-holder" with 3
 * threads BLOCKED behind it (a lock queue below the alert's 5); a
 * ReentrantLock held by "juc-holder" with 2 threads parked on it; and on JDK
 * 21+ 10 parked virtual threads plus one short-lived virtual thread started
 * every 50 ms.
 * Prints "READY virtual=<0|1>" once all of it runs.
 * Stdin: "deadlock" makes threads dl-a and dl-b each take one Account monitor
 * and reach for the other's; prints "DEADLOCKED entered_ms=<T> confirmed_ms=<C>
 * threads=dl-a,dl-b": T is the wall clock (ms) when the second thread
 * reached for its second lock (the moment the deadlock exists), C when
 * ThreadMXBean.findDeadlockedThreads first reported it. "stop" starts a
 * thread that collects back to back (System.gc(): full stop-the-world
 * collections, so the JVM stands still nearly all the time) and prints
 * "STOPPING". "exit" ends.
 * The warnings before a deadlock (run with a short stuck_threshold_ms):
 * "stuck" makes "stuck-waiter" block on a StuckLedger monitor that
 * "stuck-holder" holds, printing "STUCK at_ms=<T>" once ThreadMXBean shows it
 * waiting; "unstick" lets it go ("UNSTUCK"). "inversion" takes two monitors
 * in opposite orders at different times, each time while a bystander makes
 * the inner one busy, so the threads wait (no deadlock can form); prints
 * "INVERSION orders=2". "forget" drops those two monitors and collects
 * until they are gone ("FORGOTTEN").
 */
public class AlertingWorkload {
    static final class Ledger { long entries; }
    static final class Vault { }
    static final class Account { }
    static final class WaitRoom { }

    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        boolean contended = args.length > 0 && args[0].equals("contended");
        List<Thread> settled = new ArrayList<>();

        for (int i = 0; i < 2; i++)
            settled.add(start("sleeper-" + i, () -> { try { Thread.sleep(Long.MAX_VALUE); } catch (InterruptedException e) { } }));
        for (int i = 0; i < 2; i++) settled.add(start("parked-" + i, LockSupport::park));
        WaitRoom room = new WaitRoom();
        for (int i = 0; i < 2; i++)
            start("object-waiter-" + i, () -> {
                while (true) synchronized (room) { try { room.wait(250); } catch (InterruptedException e) { return; } }
            });
        start("gc-churn", AlertingWorkload::churn);

        boolean virtual = false;
        if (contended) {
            Ledger ledger = new Ledger();
            for (int i = 0; i < 3; i++)
                start("ledger-" + i, () -> {
                    while (true) {
                        synchronized (ledger) { ledger.entries++; LockSupport.parkNanos(200_000); }
                        LockSupport.parkNanos(2_000_000);
                    }
                });

            Vault vault = new Vault();
            Thread vaultHolder = start("vault-holder", () -> { synchronized (vault) { LockSupport.park(); } });
            awaitState(vaultHolder, Thread.State.WAITING);
            for (int i = 0; i < 3; i++) settled.add(start("vault-waiter-" + i, () -> { synchronized (vault) { } }));

            ReentrantLock gate = new ReentrantLock();
            Thread jucHolder = start("juc-holder", () -> { gate.lock(); LockSupport.park(); });
            while (!gate.isLocked()) Thread.sleep(1);
            awaitState(jucHolder, Thread.State.WAITING);
            for (int i = 0; i < 2; i++) settled.add(start("juc-waiter-" + i, gate::lock));
            virtual = startVirtualThreads();
        }
        for (Thread t : settled) {
            Thread.State want = t.getName().startsWith("vault-waiter") ? Thread.State.BLOCKED
                : t.getName().startsWith("sleeper") ? Thread.State.TIMED_WAITING : Thread.State.WAITING;
            awaitState(t, want);
        }
        System.out.println("READY virtual=" + (virtual ? 1 : 0));
        System.out.flush();

        java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
        for (String cmd; (cmd = in.readLine()) != null; ) {
            if (cmd.equals("deadlock")) System.out.println(deadlock());
            else if (cmd.equals("stop")) {
                start("safepoint-storm", () -> { while (true) System.gc(); });
                System.out.println("STOPPING");
            } else if (cmd.equals("stuck")) System.out.println(stuck());
            else if (cmd.equals("unstick")) System.out.println(unstick());
            else if (cmd.equals("inversion")) System.out.println(inversion());
            else if (cmd.equals("forget")) System.out.println(forget());
            else if (cmd.equals("exit")) break;
            System.out.flush();
        }
        System.exit(0);
    }

    static String deadlock() throws InterruptedException {
        Account[] accounts = {new Account(), new Account()};
        CyclicBarrier bothHoldOne = new CyclicBarrier(2);
        AtomicLong entered = new AtomicLong();
        for (int i = 0; i < 2; i++) {
            Account first = accounts[i], second = accounts[1 - i];
            start("dl-" + (char) ('a' + i), () -> {
                synchronized (first) {
                    try { bothHoldOne.await(); } catch (Exception e) { throw new RuntimeException(e); }
                    entered.accumulateAndGet(System.currentTimeMillis(), Math::max);
                    synchronized (second) { }
                }
            });
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long deadline = System.nanoTime() + 30_000_000_000L;
        for (;;) {
            long[] ids = mx.findDeadlockedThreads();
            if (ids != null && ids.length == 2) {
                long confirmed = System.currentTimeMillis();
                TreeSet<String> names = new TreeSet<>();
                for (ThreadInfo ti : mx.getThreadInfo(ids)) if (ti != null) names.add(ti.getThreadName());
                return "DEADLOCKED entered_ms=" + entered.get() + " confirmed_ms=" + confirmed
                    + " threads=" + String.join(",", names);
            }
            if (System.nanoTime() > deadline) return "NO_DEADLOCK";
            Thread.sleep(2);
        }
    }

    static final class StuckLedger { }
    static final class InversionLeft { }
    static final class InversionRight { }
    static final CountDownLatch unstick = new CountDownLatch(1);
    static Thread stuckWaiter;
    static Object[] inversionLocks = {new InversionLeft(), new InversionRight()};

    static String stuck() throws InterruptedException {
        StuckLedger ledger = new StuckLedger();
        Thread holder = start("stuck-holder", () -> {
            synchronized (ledger) { try { unstick.await(); } catch (InterruptedException e) { } }
        });
        awaitState(holder, Thread.State.WAITING);
        stuckWaiter = start("stuck-waiter", () -> { synchronized (ledger) { } });
        awaitState(stuckWaiter, Thread.State.BLOCKED);
        return "STUCK at_ms=" + System.currentTimeMillis();
    }

    static String unstick() throws InterruptedException {
        unstick.countDown();
        stuckWaiter.join();
        return "UNSTUCK";
    }

    /** A then B while B is busy, later B then A while A is busy: the orders never overlap. */
    static String inversion() throws InterruptedException {
        Object a = inversionLocks[0], b = inversionLocks[1];
        orderWhileBusy("inversion-ab", b, () -> { synchronized (a) { synchronized (b) { } } });
        orderWhileBusy("inversion-ba", a, () -> { synchronized (b) { synchronized (a) { } } });
        return "INVERSION orders=2";
    }

    static void orderWhileBusy(String name, Object busy, Runnable order) throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        Thread bystander = start(name + "-bystander", () -> {
            synchronized (busy) { try { release.await(); } catch (InterruptedException e) { } }
        });
        awaitState(bystander, Thread.State.WAITING);
        Thread t = start(name, order);
        awaitState(t, Thread.State.BLOCKED);
        Thread.sleep(1500);  // three background checks see it wait
        release.countDown();
        t.join();
        bystander.join();
    }

    static String forget() throws InterruptedException {
        java.lang.ref.WeakReference<Object> a = new java.lang.ref.WeakReference<>(inversionLocks[0]);
        java.lang.ref.WeakReference<Object> b = new java.lang.ref.WeakReference<>(inversionLocks[1]);
        inversionLocks = null;
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (a.get() != null || b.get() != null) {
            if (System.nanoTime() > deadline) return "NOT_COLLECTED";
            System.gc();
            Thread.sleep(50);
        }
        return "FORGOTTEN";
    }

    /** Short-lived garbage with a small live set, and an explicit collection every 500 ms. */
    static void churn() {
        Object[] live = new Object[64];
        long next = System.nanoTime();
        for (long i = 0; ; i++) {
            byte[] b = new byte[64 * 1024];
            live[(int) (i % live.length)] = b;
            sink = b;
            if ((i & 3) == 3) LockSupport.parkNanos(1_000_000);
            if (System.nanoTime() >= next) {
                System.gc();
                next = System.nanoTime() + 500_000_000L;
            }
        }
    }

    /** JDK 21+: parked virtual threads, and a steady trickle of short ones. Built for release 17: by reflection. */
    static boolean startVirtualThreads() throws Exception {
        Method startVirtual;
        try {
            startVirtual = Thread.class.getMethod("startVirtualThread", Runnable.class);
        } catch (NoSuchMethodException e) {
            return false;
        }
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(10);
        for (int i = 0; i < 10; i++)
            startVirtual.invoke(null, (Runnable) () -> {
                started.countDown();
                try { never.await(); } catch (InterruptedException e) { }
            });
        started.await();
        Method spawn = startVirtual;
        start("virtual-spawner", () -> {
            while (true) {
                try { spawn.invoke(null, (Runnable) () -> sink = new Object()); } catch (Exception e) { return; }
                LockSupport.parkNanos(50_000_000);
            }
        });
        return true;
    }

    static void awaitState(Thread t, Thread.State want) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (t.getState() != want) {
            if (System.nanoTime() > deadline) throw new IllegalStateException(t.getName() + " never " + want);
            Thread.sleep(1);
        }
    }

    static Thread start(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
