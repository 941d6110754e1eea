package dev.parley.app.serve;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** The server's own counters: requests by route and status, tokens served, clients that went away. */
final class HttpMetrics {
    /** One counted response. */
    record Key(String route, int status) implements Comparable<Key> {
        @Override
        public int compareTo(Key o) {
            int c = route.compareTo(o.route);
            return c != 0 ? c : Integer.compare(status, o.status);
        }
    }

    private final Map<Key, LongAdder> requests = new ConcurrentHashMap<>();
    final LongAdder promptTokens = new LongAdder();
    final LongAdder completionTokens = new LongAdder();
    final LongAdder disconnects = new LongAdder();
    final LongAdder rejected = new LongAdder();

    void count(String route, int status) {
        requests.computeIfAbsent(new Key(route, status), k -> new LongAdder()).increment();
    }

    /** A sorted copy of the request counts. */
    Map<Key, Long> requests() {
        Map<Key, Long> copy = new TreeMap<>();
        requests.forEach((k, v) -> copy.put(k, v.sum()));
        return copy;
    }
}
