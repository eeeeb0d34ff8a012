import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * JDK 21+: starts N virtual threads that stay alive (parked on a latch),
 * and M more that end; prints "VIRTUAL started=N+M alive=N". Compiled for
 * release 17, so virtual threads are reached by reflection.
 */
public class VirtualThreads {
    public static void main(String[] args) throws Exception {
        int alive = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        int ended = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        Method startVirtual = Thread.class.getMethod("startVirtualThread", Runnable.class);
        CountDownLatch release = new CountDownLatch(1);
        List<Thread> finished = new ArrayList<>();
        for (int i = 0; i < ended; i++) finished.add((Thread) startVirtual.invoke(null, (Runnable) () -> { }));
        for (Thread t : finished) t.join();
        CountDownLatch started = new CountDownLatch(alive);
        for (int i = 0; i < alive; i++) {
            startVirtual.invoke(null, (Runnable) () -> {
                started.countDown();
                try { release.await(); } catch (InterruptedException e) { }
            });
        }
        started.await();
        System.out.println("READY");
        System.out.println("VIRTUAL started=" + (alive + ended) + " alive=" + alive);
        System.out.flush();
        GroundTruth.serveCommands();
        release.countDown();
        System.exit(0);
    }
}
