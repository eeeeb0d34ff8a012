/** IdleThreads for a fixed time, then exits (so an agent's VMDeath runs). Args: threads millis. */
public class IdleThreadsFor {
    public static void main(String[] args) throws Exception {
        Thread idle = new Thread(() -> {
            try { IdleThreads.main(new String[] {args[0]}); } catch (Exception e) { }
        });
        idle.setDaemon(true);
        idle.start();
        Thread.sleep(Long.parseLong(args[1]));
        System.exit(0);
    }
}
