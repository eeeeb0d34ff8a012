import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Lock orders of known shape that never deadlock, with the JVM's own view of
 * every wait as ground truth. Scenarios run side by side, each on its own
 * locks and threads; in each, two phases run one after the other, twice
 * (rounds): a bystander holds the inner lock of the phase, and a thread takes
 * the outer lock, then asks for the inner one and waits (the contention that
 * makes an order visible), until the bystander lets go.
 *   inversion:  phase 1 takes A then B, phase 2 B then A, from two call sites.
 *   consistent: both phases take A then B.
 *   gated:      as inversion, both phases inside a common gate lock G.
 *   bank:       transfer(from, to) on two instances of one class: (a, b), then (b, a).
 * Prefixes: "m-" monitors, "j-" j.u.c. locks (A a ReentrantLock, B a fair
 * one, so their synchronizer classes differ), "x-" mixed (A a monitor, B a
 * ReentrantLock). A j.u.c. gate is first made contended once (a thread waits
 * for it), as a gate is in any program where it guards anything.
 *
 * Prints, once ThreadMXBean shows the thread waiting for the inner lock with
 * the bystander as owner:
 *   ORDER scenario=S thread=T held=H[,H...] wanted=H site=Class.method:line
 * where H is 0x%08x:class (identity hash and class as ThreadMXBean names the
 * monitors and synchronizers it owns and the lock it waits for) and site is
 * the first frame outside the lock machinery. Then
 *   DONE deadlocks=N inversions=S,S... none=S,S...
 * (N: times findDeadlockedThreads, polled every 20 ms, found one).
 * Stdin: "forget S" drops scenario S's locks and collects until they are
 * gone (WeakReference cleared), then prints "FORGOTTEN S"; "exit".
 */
public class LockOrders {
    static final class Left { }
    static final class Right { }
    static final class Account { final ReentrantLock lock = new ReentrantLock(); }
    static final class Gate { }

    static final long HOLD_AFTER_SEEN_MS = 2000;
    static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    static final AtomicInteger deadlocks = new AtomicInteger();
    static final Map<String, Object[]> locksOf = new LinkedHashMap<>();

    public static void main(String[] args) throws Exception {
        Thread watcher = daemon("deadlock-watch", () -> {
            while (true) {
                if (MX.findDeadlockedThreads() != null) deadlocks.incrementAndGet();
                sleep(20);
            }
        });
        watcher.start();
        List<Thread> runs = new ArrayList<>();
        runs.add(scenario("m-inversion", new Left(), new Right(), false, false));
        runs.add(scenario("m-consistent", new Left(), new Right(), true, false));
        runs.add(scenario("m-gated", new Left(), new Right(), false, true));
        runs.add(scenario("m-bank", new Account(), new Account(), false, false));
        runs.add(scenario("j-inversion", new ReentrantLock(), new ReentrantLock(true), false, false));
        runs.add(scenario("j-consistent", new ReentrantLock(), new ReentrantLock(true), true, false));
        runs.add(scenario("j-gated", new ReentrantLock(), new ReentrantLock(true), false, true));
        runs.add(scenario("j-bank", new Account(), new Account(), false, false));
        runs.add(scenario("x-inversion", new Left(), new ReentrantLock(), false, false));
        System.out.println("READY");
        System.out.flush();
        for (Thread t : runs) t.start();
        for (Thread t : runs) t.join();
        runs.clear();  // an ended Thread keeps its Runnable, and so the locks, on JDK 19+
        System.out.println("DONE deadlocks=" + deadlocks.get()
            + " inversions=m-inversion,m-bank,j-inversion,j-bank,x-inversion"
            + " none=m-consistent,m-gated,j-consistent,j-gated");
        System.out.flush();
        java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
        for (String cmd; (cmd = in.readLine()) != null; ) {
            if (cmd.startsWith("forget ")) System.out.println(forget(cmd.substring(7)));
            else if (cmd.equals("exit")) break;
            System.out.flush();
        }
        System.exit(0);
    }

    /** A scenario's two phases, twice, on one thread of its own. */
    static Thread scenario(String name, Object a, Object b, boolean consistent, boolean gated) throws Exception {
        boolean juc = name.startsWith("j-");
        Object gate = gated ? (juc ? new ReentrantLock() : new Gate()) : null;
        if (gate instanceof Lock) makeContended(name + "-gate", gate);
        locksOf.put(name, gate == null ? new Object[] {a, b} : new Object[] {a, b, gate});
        boolean bank = name.endsWith("bank");
        return daemon(name, () -> {
            for (int round = 0; round < 2; round++) {
                phase(name, name + "-ab", busy(b, juc), () -> order(a, b, gate, bank, juc, true));
                if (consistent) phase(name, name + "-ab", busy(b, juc), () -> order(a, b, gate, bank, juc, true));
                else phase(name, name + "-ba", busy(a, juc), () -> order(a, b, gate, bank, juc, false));
            }
        });
    }

    static void order(Object a, Object b, Object gate, boolean bank, boolean juc, boolean ab) {
        if (gate != null) {
            with(gate, () -> order(a, b, null, bank, juc, ab));
        } else if (bank && juc) {
            if (ab) transferJuc((Account) a, (Account) b); else transferJuc((Account) b, (Account) a);
        } else if (bank) {
            if (ab) transfer(a, b); else transfer(b, a);
        } else if (a instanceof Lock && b instanceof Lock) {
            if (ab) abJuc((Lock) a, (Lock) b); else baJuc((Lock) a, (Lock) b);
        } else if (b instanceof Lock) {
            if (ab) abMixed(a, (Lock) b); else baMixed(a, (Lock) b);
        } else {
            if (ab) abMonitor(a, b); else baMonitor(a, b);
        }
    }

    // The call sites: each asks for its inner lock on a line of its own.
    static void abMonitor(Object a, Object b) {
        synchronized (a) {
            synchronized (b) { }
        }
    }

    static void baMonitor(Object a, Object b) {
        synchronized (b) {
            synchronized (a) { }
        }
    }

    static void abJuc(Lock a, Lock b) {
        a.lock();
        try {
            b.lock();
            b.unlock();
        } finally {
            a.unlock();
        }
    }

    static void baJuc(Lock a, Lock b) {
        b.lock();
        try {
            a.lock();
            a.unlock();
        } finally {
            b.unlock();
        }
    }

    static void abMixed(Object a, Lock b) {
        synchronized (a) {
            b.lock();
            b.unlock();
        }
    }

    static void baMixed(Object a, Lock b) {
        b.lock();
        try {
            synchronized (a) { }
        } finally {
            b.unlock();
        }
    }

    static void transfer(Object from, Object to) {
        synchronized (from) {
            synchronized (to) { }
        }
    }

    static void transferJuc(Account from, Account to) {
        from.lock.lock();
        try {
            to.lock.lock();
            to.lock.unlock();
        } finally {
            from.lock.unlock();
        }
    }

    /** A bystander holds `busy` while `thread` runs `body`; it lets go once ThreadMXBean showed the wait. */
    static void phase(String scenario, String thread, Object inner, Runnable body) {
        CountDownLatch held = new CountDownLatch(1), release = new CountDownLatch(1);
        Thread bystander = daemon(thread + "-bystander", () -> with(inner, () -> {
            held.countDown();
            await(release);
        }));
        bystander.start();
        await(held);
        Thread t = daemon(thread, body);
        t.start();
        ThreadInfo seen = awaitWaiting(t, bystander);
        System.out.println("ORDER scenario=" + scenario + " thread=" + thread + " held=" + held(seen) + " wanted="
            + lock(seen.getLockInfo()) + " site=" + site(seen));
        System.out.flush();
        sleep(HOLD_AFTER_SEEN_MS);
        release.countDown();
        join(t);
        join(bystander);
    }

    /** The inner lock as the phase's thread will ask for it: a bank account's own lock in j-bank. */
    static Object busy(Object lock, boolean juc) {
        return lock instanceof Account && juc ? ((Account) lock).lock : lock;
    }

    /** Waits until t waits for a lock owned by `owner`: its state as the JVM reports it, with locks held. */
    static ThreadInfo awaitWaiting(Thread t, Thread owner) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            ThreadInfo ti = MX.getThreadInfo(new long[] {t.getId()}, true, true)[0];
            if (ti != null && ti.getLockOwnerId() == owner.getId()
                && (ti.getThreadState() == Thread.State.BLOCKED || ti.getThreadState() == Thread.State.WAITING))
                return ti;
            sleep(5);
        }
        throw new IllegalStateException(t.getName() + " never waited");
    }

    static String held(ThreadInfo ti) {
        List<String> out = new ArrayList<>();
        for (LockInfo l : ti.getLockedMonitors()) out.add(lock(l));
        for (LockInfo l : ti.getLockedSynchronizers()) out.add(lock(l));
        return String.join(",", out);
    }

    static String lock(LockInfo l) { return String.format("0x%08x:%s", l.getIdentityHashCode(), l.getClassName()); }

    static final String[] MACHINERY = {"java.util.concurrent.locks.", "jdk.internal.misc.Unsafe", "sun.misc.Unsafe"};

    static String site(ThreadInfo ti) {
        for (StackTraceElement e : ti.getStackTrace()) {
            boolean machinery = false;
            for (String m : MACHINERY) machinery |= e.getClassName().startsWith(m);
            if (!machinery) return e.getClassName() + "." + e.getMethodName() + ":" + e.getLineNumber();
        }
        return "?";
    }

    /** A thread waits for the lock while another holds it, until ThreadMXBean has seen it wait for a while. */
    static void makeContended(String name, Object lock) {
        CountDownLatch held = new CountDownLatch(1), release = new CountDownLatch(1);
        Thread holder = daemon(name + "-holder", () -> with(lock, () -> {
            held.countDown();
            await(release);
        }));
        holder.start();
        await(held);
        Thread waiter = daemon(name + "-waiter", () -> with(lock, () -> { }));
        waiter.start();
        awaitWaiting(waiter, holder);
        sleep(HOLD_AFTER_SEEN_MS);
        release.countDown();
        join(waiter);
        join(holder);
    }

    static String forget(String scenario) {
        Object[] locks = locksOf.remove(scenario);
        if (locks == null) return "UNKNOWN " + scenario;
        List<WeakReference<Object>> refs = new ArrayList<>();
        for (Object l : locks) refs.add(new WeakReference<>(l));
        Arrays.fill(locks, null);
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (refs.stream().anyMatch(r -> r.get() != null)) {
            if (System.nanoTime() > deadline) return "NOT_COLLECTED " + scenario;
            System.gc();
            sleep(50);
        }
        return "FORGOTTEN " + scenario;
    }

    static void with(Object lock, Runnable r) {
        if (lock instanceof Lock) {
            ((Lock) lock).lock();
            try { r.run(); } finally { ((Lock) lock).unlock(); }
        } else {
            synchronized (lock) { r.run(); }
        }
    }

    static void await(CountDownLatch l) {
        try { l.await(); } catch (InterruptedException e) { throw new RuntimeException(e); }
    }

    static void join(Thread t) {
        try { t.join(); } catch (InterruptedException e) { throw new RuntimeException(e); }
    }

    static void sleep(long ms) {
        try { Thread.sleep(ms); } catch (InterruptedException e) { throw new RuntimeException(e); }
    }

    static Thread daemon(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
