package dev.parley.audio.device;

/**
 * Hears when a microphone or speaker fails and when it works again. Called on the audio threads; must return quickly.
 */
public interface DeviceWatcher {
    /** The device cannot be used; it is tried again with a back-off. Said once per outage. */
    void fault(DeviceFault fault);

    /** The device works again after {@link #fault}. */
    void recovered(DeviceFault.Kind kind, String device);

    /** A watcher that hears nothing. */
    DeviceWatcher NONE = new DeviceWatcher() {
        @Override
        public void fault(DeviceFault fault) {
        }

        @Override
        public void recovered(DeviceFault.Kind kind, String device) {
        }
    };
}
