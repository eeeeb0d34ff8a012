/** A trivial program: the JVM's start and exit are all there is to time. */
public class Hello {
    public static void main(String[] args) {
        System.out.println("hello");
    }
}
