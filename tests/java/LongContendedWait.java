import java.util.concurrent.CountDownLatch;

/**
 * One long contended wait with a known length: "holder" takes a
 * SlowLock and keeps it H ms; "long-waiter" blocks on it meanwhile, and
 * times its own wait around the synchronized block, then stays alive (as a
 * pool thread would) until the fixture exits.
 * Args: H. Prints READY, then "WAITED ns=<its wait> start_unix_ms=<when it began>", then serves commands.
 */
public class LongContendedWait {
    static final class SlowLock { }

    public static void main(String[] args) throws Exception {
        long holdMillis = Long.parseLong(args[0]);
        System.out.println("READY");
        System.out.flush();
        SlowLock lock = new SlowLock();
        CountDownLatch held = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            synchronized (lock) {
                held.countDown();
                try { Thread.sleep(holdMillis); } catch (InterruptedException e) { }
            }
        }, "holder");
        long[] waited = new long[2];
        CountDownLatch measured = new CountDownLatch(1);
        CountDownLatch exit = new CountDownLatch(1);
        Thread waiter = new Thread(() -> {
            try { held.await(); } catch (InterruptedException e) { }
            waited[1] = System.currentTimeMillis();
            long start = System.nanoTime();
            synchronized (lock) {
                waited[0] = System.nanoTime() - start;
            }
            measured.countDown();
            try { exit.await(); } catch (InterruptedException e) { }
        }, "long-waiter");
        waiter.setDaemon(true);
        holder.start();
        waiter.start();
        holder.join();
        measured.await();
        System.out.println("WAITED ns=" + waited[0] + " start_unix_ms=" + waited[1]);
        System.out.flush();
        GroundTruth.serveCommands();
        exit.countDown();
        System.exit(0);
    }
}
