import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * JDK 21+: pins virtual threads on command, for the pinning family.
 * "monitor N MS": N virtual threads each sleep MS inside synchronized on a
 * lock of their own (pins on 21 to 23; JEP 491 ended it in 24).
 * "native N MS": N virtual threads each initialize a fresh copy of a class
 * whose static initializer sleeps MS, through Class.forName, a native
 * method: a native frame on the stack pins on every JDK so far.
 * Each prints "DONE pinned=N" when its threads have ended. What pinned is
 * JFR's to say: the test runs this with jdk.VirtualThreadPinned on.
 * "churn S MS": for S seconds one virtual thread pins again and again
 * (sleeps MS inside synchronized) while a platform thread starts empty
 * virtual threads as fast as it can, 1,000 at a time; prints
 * "CHURNED pinned=P started=V", P counted by the pinning thread itself.
 * Compiled for release 8, so virtual threads are reached by reflection.
 */
public class VirtualPinning {
    public static volatile long sleepMs;

    /** Initialized once per loader: each copy sleeps in its static initializer. */
    public static class SleepyInit {
        static {
            try { Thread.sleep(VirtualPinning.sleepMs); } catch (InterruptedException e) { }
        }
    }

    /** Defines its own copy of SleepyInit, so each load runs the initializer again. */
    static final class CopyLoader extends ClassLoader {
        private final byte[] bytes;
        CopyLoader(byte[] bytes) { super(VirtualPinning.class.getClassLoader()); this.bytes = bytes; }
        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.equals(SleepyInit.class.getName())) return super.loadClass(name, resolve);
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                return c != null ? c : defineClass(name, bytes, 0, bytes.length);
            }
        }
    }

    static byte[] classBytes(Class<?> c) throws Exception {
        String file = c.getName().replace('.', '/') + ".class";
        try (InputStream in = c.getClassLoader().getResourceAsStream(file)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[4096];
            for (int n; (n = in.read(buf)) > 0; ) out.write(buf, 0, n);
            return out.toByteArray();
        }
    }

    static void pin(String mode, int n) throws Exception {
        Method startVirtual = Thread.class.getMethod("startVirtualThread", Runnable.class);
        byte[] bytes = classBytes(SleepyInit.class);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            final Object lock = new Object();
            final ClassLoader loader = new CopyLoader(bytes);
            Runnable body = mode.equals("monitor") ? () -> {
                synchronized (lock) {
                    try { Thread.sleep(sleepMs); } catch (InterruptedException e) { }
                }
            } : () -> {
                try { Class.forName(SleepyInit.class.getName(), true, loader); } catch (ClassNotFoundException e) {
                    throw new IllegalStateException(e);
                }
            };
            threads.add((Thread) startVirtual.invoke(null, body));
        }
        for (Thread t : threads) t.join();
        System.out.println("DONE pinned=" + n);
    }

    static void churn(long seconds) throws Exception {
        Method startVirtual = Thread.class.getMethod("startVirtualThread", Runnable.class);
        final long end = System.nanoTime() + seconds * 1_000_000_000L;
        final long[] pinned = new long[1];
        final Object lock = new Object();
        Thread pinner = (Thread) startVirtual.invoke(null, (Runnable) () -> {
            while (System.nanoTime() < end) {
                synchronized (lock) {
                    try { Thread.sleep(sleepMs); } catch (InterruptedException e) { }
                }
                pinned[0]++;
            }
        });
        long started = 0;
        Runnable empty = () -> { };
        Thread[] batch = new Thread[1000];
        while (System.nanoTime() < end) {
            for (int i = 0; i < batch.length; i++) batch[i] = (Thread) startVirtual.invoke(null, empty);
            for (Thread t : batch) t.join();
            started += batch.length;
        }
        pinner.join();
        System.out.println("CHURNED pinned=" + pinned[0] + " started=" + started);
    }

    public static void main(String[] args) throws Exception {
        System.out.println("READY");
        System.out.flush();
        GroundTruth.serveCommands(line -> {
            String[] w = line.split(" ");
            sleepMs = Long.parseLong(w[2]);
            if (w[0].equals("churn")) churn(Long.parseLong(w[1]));
            else pin(w[0], Integer.parseInt(w[1]));
        });
        System.exit(0);
    }
}
