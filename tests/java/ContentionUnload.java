import java.lang.management.ClassLoadingMXBean;
import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;

/**
 * Contended monitors whose waiting stacks are in classes that then unload:
 * each round loads Worker afresh in a class loader of its own, runs two
 * threads contending in it for `millis`, drops the loader and collects
 * until the JVM reports the class unloaded (ClassLoadingMXBean). Half the
 * rounds are short (10 ms), so some stacks may still be unnamed when their
 * class goes. Then waits with no Java frame: threads end while main holds
 * their Thread object's monitor, so each, past its run(), blocks for it in
 * the JVM's exit path (where join's notifyAll is sent), from when it shows
 * BLOCKED there for 100 ms. Args: rounds millis
 * [exits, 0 unless given]. Prints READY, then "UNLOAD rounds=..
 * unloaded=.. exits=.." (classes the JVM unloaded meanwhile; contended
 * exits), then serves commands.
 */
public class ContentionUnload {
    public static class Worker implements Runnable {
        private final Object lock = new Object();
        private final long end;

        public Worker(long millis) { this.end = System.nanoTime() + millis * 1_000_000; }

        public void run() {
            Thread other = new Thread(this::contend);
            other.start();
            contend();
            try { other.join(); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
        }

        private void contend() {
            while (System.nanoTime() < end) {
                synchronized (lock) {
                    long until = System.nanoTime() + 200_000;
                    while (System.nanoTime() < until) { }
                }
            }
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        long millis = Long.parseLong(args[1]);
        System.out.println("READY");
        System.out.flush();
        URL classes = ContentionUnload.class.getProtectionDomain().getCodeSource().getLocation();
        ClassLoadingMXBean loading = ManagementFactory.getClassLoadingMXBean();
        long unloadedBefore = loading.getUnloadedClassCount();
        for (int i = 0; i < rounds; i++) {
            WeakReference<ClassLoader> gone = runRound(classes, i % 2 == 0 ? millis : 10);
            for (int tries = 0; gone.get() != null && tries < 50; tries++) {
                System.gc();
                Thread.sleep(20);
            }
        }
        System.gc();
        int exits = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        for (int i = 0; i < exits; i++) {
            Thread ending = new Thread(() -> { });
            synchronized (ending) {
                ending.start();
                // Blocked in its exit path before the 100 ms count: on a loaded
                // machine a start alone can take longer than that.
                for (long t0 = System.nanoTime(); ending.getState() != Thread.State.BLOCKED
                        && System.nanoTime() - t0 < 10_000_000_000L;) {
                    Thread.sleep(1);
                }
                Thread.sleep(100);
            }
            ending.join();
        }
        System.out.println("UNLOAD rounds=" + rounds + " unloaded=" + (loading.getUnloadedClassCount() - unloadedBefore)
                + " exits=" + exits);
        System.out.flush();
        GroundTruth.serveCommands();
        System.exit(0);
    }

    static WeakReference<ClassLoader> runRound(URL classes, long millis) throws Exception {
        URLClassLoader loader = new URLClassLoader(new URL[] {classes}, null);
        Class<?> worker = loader.loadClass("ContentionUnload$Worker");
        Runnable r = (Runnable) worker.getConstructor(long.class).newInstance(millis);
        r.run();
        loader.close();
        return new WeakReference<ClassLoader>(loader);
    }
}
