package dev.parley.audio.device;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The state a resilient device shares with its watchers: the fault of the current outage (null while the device
 * works), said once when it begins and once when it ends; a watcher added during an outage hears of it at once.
 */
public final class Outage {
    private final DeviceFault.Kind kind;
    private final String device;
    private final List<DeviceWatcher> watchers = new CopyOnWriteArrayList<>();
    private DeviceFault current;

    public Outage(DeviceFault.Kind kind, String device) {
        this.kind = kind;
        this.device = device;
    }

    public void watch(DeviceWatcher w) {
        DeviceFault f;
        synchronized (this) {
            watchers.add(w);
            f = current;
        }
        if (f != null) {
            w.fault(f);
        }
    }

    /** The device failed with {@code problem}; the watchers hear of the first failure of an outage only. */
    public void failed(String problem, long retryMillis) {
        DeviceFault f;
        synchronized (this) {
            if (current != null) {
                return;
            }
            f = current = new DeviceFault(kind, device, problem, retryMillis);
        }
        for (DeviceWatcher w : watchers) {
            w.fault(f);
        }
    }

    /** The device works (again). */
    public void works() {
        synchronized (this) {
            if (current == null) {
                return;
            }
            current = null;
        }
        for (DeviceWatcher w : watchers) {
            w.recovered(kind, device);
        }
    }

    /** The fault of the outage going on, or null. */
    public synchronized DeviceFault current() {
        return current;
    }

    /** The cause's own words, or its class name where it has none. */
    public static String problem(Throwable t) {
        Throwable root = t;
        String msg = t.getMessage();
        while ((msg == null || msg.isBlank()) && root.getCause() != null) {
            root = root.getCause();
            msg = root.getMessage();
        }
        return msg == null || msg.isBlank() ? t.getClass().getSimpleName() : msg;
    }
}
