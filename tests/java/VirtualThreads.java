import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * JDK 21+: starts N virtual threads that stay alive (parked on a latch)
 * through the Thread API, P more that stay alive in a virtual-thread-per-task
 * executor (a thread container of its own), and M more that end; prints
 * "VIRTUAL started=N+P+M alive=N+P". Compiled for release 8, so virtual
 * threads are reached by reflection. Usage: [N=50 [M=30 [P=0]]].
 */
public class VirtualThreads {
    public static void main(String[] args) throws Exception {
        int alive = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        int ended = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        int pooled = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        Method startVirtual = Thread.class.getMethod("startVirtualThread", Runnable.class);
        CountDownLatch release = new CountDownLatch(1);
        List<Thread> finished = new ArrayList<>();
        for (int i = 0; i < ended; i++) finished.add((Thread) startVirtual.invoke(null, (Runnable) () -> { }));
        for (Thread t : finished) t.join();
        CountDownLatch started = new CountDownLatch(alive + pooled);
        Runnable park = () -> {
            started.countDown();
            try { release.await(); } catch (InterruptedException e) { }
        };
        for (int i = 0; i < alive; i++) startVirtual.invoke(null, park);
        ExecutorService pool = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        for (int i = 0; i < pooled; i++) pool.submit(Executors.callable(park));
        started.await();
        System.out.println("READY");
        System.out.println("VIRTUAL started=" + (alive + pooled + ended) + " alive=" + (alive + pooled));
        System.out.flush();
        GroundTruth.serveCommands();
        release.countDown();
        pool.shutdown();
        System.exit(0);
    }
}
