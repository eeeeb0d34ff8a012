import java.util.concurrent.locks.LockSupport;

/** Something for the agent to see: workers taking turns on one lock, and garbage. */
public class Demo {
    static final Object lock = new Object();
    static volatile Object sink;

    public static void main(String[] args) throws InterruptedException {
        for (int i = 0; i < 4; i++) {
            Thread t = new Thread(Demo::work, "demo-worker-" + i);
            t.setDaemon(true);
            t.start();
        }
        while (true) {
            sink = new byte[64 * 1024];
            Thread.sleep(5);
        }
    }

    static void work() {
        while (true) {
            synchronized (lock) {
                LockSupport.parkNanos(1_000_000);
            }
            LockSupport.parkNanos(500_000);
        }
    }
}
