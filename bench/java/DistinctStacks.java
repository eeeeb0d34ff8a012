/**
 * Contended monitor entries at N distinct stacks, for the mutex profile's
 * memory at many stacks: a holder thread keeps the lock until the waiter,
 * arriving through path k (0 <= k < N), a descent of 14 levels whose
 * call site at each level is bit k of the level, blocks on it, so every k
 * is a contended stack of its own. Args: N. Prints DONE n=N when all have waited once, then sleeps
 * until killed (-Xms/-Xmx fixed by the caller, so the heap does not vary).
 */
public class DistinctStacks {
    static final Object lock = new Object();
    static volatile boolean held;

    static void descend(int k, int level) throws InterruptedException {
        if (level == 14) {
            synchronized (lock) { held = false; }
            return;
        }
        if ((k >> level & 1) == 0) left(k, level + 1);
        else right(k, level + 1);
    }

    static void left(int k, int level) throws InterruptedException { descend(k, level); }

    static void right(int k, int level) throws InterruptedException { descend(k, level); }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        final Thread waiter = Thread.currentThread();
        for (int k = 0; k < n; k++) {
            // Held until the waiter blocks on it: every path k is a contended entry.
            Thread holder = new Thread(() -> {
                synchronized (lock) {
                    held = true;
                    while (waiter.getState() != Thread.State.BLOCKED) Thread.yield();
                }
            });
            holder.start();
            while (!held && holder.isAlive()) Thread.yield();
            descend(k, 0);
            holder.join();
        }
        System.out.println("DONE n=" + n);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
