import java.util.concurrent.locks.LockSupport;

/** N parked platform threads and nothing else, until killed. Prints READY. Args: threads. */
public class IdleThreads {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        for (int i = 0; i < n; i++) {
            Thread t = new Thread(null, LockSupport::park, "idle-" + i, 128 * 1024);
            t.setDaemon(true);
            t.start();
        }
        System.out.println("READY");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
