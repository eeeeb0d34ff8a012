/** Prints READY, then serves stdin commands ("report", "exit"): a plain host JVM for the agent. */
public class Idle {
    public static void main(String[] args) throws Exception {
        System.out.println("READY");
        System.out.flush();
        GroundTruth.serveCommands();
    }
}
