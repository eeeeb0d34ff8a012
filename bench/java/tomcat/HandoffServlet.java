import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.reflect.Method;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * For bench/vt_overhead.sh: Tomcat (useVirtualThreads="true", so each
 * request runs on a virtual thread) with a request that hands a small piece
 * of work to a new virtual thread three times and waits for each answer:
 * three creations and six park/unpark pairs per request, no timers.
 * Compiled against Debian's servlet API for release 11: virtual threads by
 * reflection.
 */
public class HandoffServlet extends HttpServlet {
    private static final int HANDOFFS = 3;
    private static final Method START_VIRTUAL;

    static {
        try {
            START_VIRTUAL = Thread.class.getMethod("startVirtualThread", Runnable.class);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    static long compute(long x) {
        for (int i = 0; i < 64; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        return x;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        long v = request.getRequestURI().length();
        try {
            for (int i = 0; i < HANDOFFS; i++) {
                final long input = v;
                FutureTask<Long> task = new FutureTask<>(() -> compute(input));
                START_VIRTUAL.invoke(null, task);
                v = task.get();
            }
        } catch (ReflectiveOperationException | ExecutionException e) {
            throw new IOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        response.setContentType("text/plain");
        response.getWriter().println(Long.toHexString(v));
    }
}
