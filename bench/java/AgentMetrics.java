import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** The agent's own metrics, read over HTTP by the benches that compare against them. */
final class AgentMetrics {
    private final Map<String, Double> values = new HashMap<>();

    private AgentMetrics() {}

    /** GET /metrics from the agent whose port is in portfile. */
    static AgentMetrics scrape(String portfile) throws Exception {
        int port = Integer.parseInt(Files.readString(Path.of(portfile)).trim());
        String body = HttpClient.newHttpClient().send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString()).body();
        AgentMetrics m = new AgentMetrics();
        for (String line : body.split("\n")) {
            int space = line.lastIndexOf(' ');
            if (line.isEmpty() || line.startsWith("#") || space < 0) continue;
            m.values.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
        }
        return m;
    }

    /** A metric given in seconds (a sample without labels), in milliseconds; -1 if absent. */
    double ms(String name) {
        Double v = values.get(name);
        return v == null ? -1 : v * 1e3;
    }
}
