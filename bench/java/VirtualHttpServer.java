import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;

/**
 * JDK 21+: a virtual-thread-per-request HTTP server (the JDK's HttpServer
 * with Executors.newVirtualThreadPerTaskExecutor). Each request hands a
 * small piece of work to one of WORKERS virtual threads through a shared
 * queue and waits for the answer on a SynchronousQueue, three times: every
 * hand-off parks and unparks a virtual thread on each side. No timers and
 * no sleeping, so under enough load the server is CPU-bound. Prints
 * "PORT <n>", then serves until killed. Compiled for release 8: virtual
 * threads by reflection.
 */
public class VirtualHttpServer {
    static final int WORKERS = 16;
    static final int HANDOFFS = 3;

    static final class Task {
        final long input;
        final SynchronousQueue<Long> reply = new SynchronousQueue<>();
        Task(long input) { this.input = input; }
    }

    static final LinkedBlockingQueue<Task> work = new LinkedBlockingQueue<>();

    static long compute(long x) {
        // A little CPU per hand-off, so the answer depends on the work done.
        for (int i = 0; i < 64; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        return x;
    }

    public static void main(String[] args) throws Exception {
        Method startVirtual = Thread.class.getMethod("startVirtualThread", Runnable.class);
        for (int i = 0; i < WORKERS; i++) {
            startVirtual.invoke(null, (Runnable) () -> {
                try {
                    while (true) {
                        Task t = work.take();
                        t.reply.put(compute(t.input));
                    }
                } catch (InterruptedException e) { }
            });
        }
        ExecutorService perRequest = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        server.createContext("/", exchange -> {
            long v = exchange.getRequestURI().getPath().length();
            try {
                for (int i = 0; i < HANDOFFS; i++) {
                    Task t = new Task(v);
                    work.put(t);
                    v = t.reply.take();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = (Long.toHexString(v) + "\n").getBytes("US-ASCII");
            exchange.getResponseHeaders().set("Content-Type", "text/plain");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.setExecutor(perRequest);
        server.start();
        System.out.println("PORT " + server.getAddress().getPort());
        System.out.flush();
    }
}
