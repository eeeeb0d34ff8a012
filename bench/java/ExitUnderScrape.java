/** Works briefly (while a scraper hammers /metrics), prints EXITING, then returns from main. */
public class ExitUnderScrape {
    public static void main(String[] args) throws Exception {
        Thread.sleep(Long.parseLong(args[0]));
        System.out.println("EXITING " + System.nanoTime());
        System.out.flush();
    }
}
