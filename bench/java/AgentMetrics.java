import java.net.HttpURLConnection;
import java.net.URL;
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
        return parse(get(Integer.parseInt(Io.read(portfile).trim())));
    }

    /**
     * The whole /metrics response of the agent on this port, as a scraper gets
     * it: one plain connection, so the benches that time it time little else.
     */
    static String get(int port) throws Exception {
        HttpURLConnection c = (HttpURLConnection) new URL("http://127.0.0.1:" + port + "/metrics").openConnection();
        try (java.io.InputStream in = c.getInputStream()) {
            return new String(Io.readAll(in));
        }
    }

    /** The samples of a /metrics response, by name with labels as written. */
    static AgentMetrics parse(String body) {
        AgentMetrics m = new AgentMetrics();
        for (String line : body.split("\n")) {
            int space = line.lastIndexOf(' ');
            if (line.isEmpty() || line.startsWith("#") || space < 0) continue;
            m.values.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
        }
        return m;
    }

    /** A sample's value (name with labels as /metrics writes them); -1 if absent. */
    double value(String sample) {
        Double v = values.get(sample);
        return v == null ? -1 : v;
    }

    /** A metric given in seconds (a sample without labels), in milliseconds; -1 if absent. */
    double ms(String name) {
        Double v = values.get(name);
        return v == null ? -1 : v * 1e3;
    }
}
