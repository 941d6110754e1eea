package dev.parley.audio.room;

/**
 * A simulated room for the image-source method: the room, the loudspeaker (source) and microphone
 * positions, the reverberation time and the playback-to-capture latency of the device.
 *
 * @param name           a label (file names, tables)
 * @param room           the shoebox
 * @param source         where the sound comes from (the laptop speaker, or the user's mouth)
 * @param mic            where the microphone is
 * @param rt60           reverberation time in seconds (decay by 60 dB)
 * @param latencyMillis  device latency from playback to capture: leading zeros of the impulse response
 * @param absorption     how {@code rt60} becomes the walls' absorption
 */
public record RoomSpec(String name, Shoebox room, Point3 source, Point3 mic, double rt60, int latencyMillis,
                       Absorption absorption) {
    public RoomSpec {
        if (name == null || name.isBlank() || room == null || source == null || mic == null || absorption == null) {
            throw new IllegalArgumentException("expected a name, room, source, microphone and absorption but found null");
        }
        if (!room.contains(source, 0.05) || !room.contains(mic, 0.05)) {
            throw new IllegalArgumentException("expected source " + source + " and microphone " + mic
                    + " at least 5 cm inside the room " + room);
        }
        if (source.distanceTo(mic) < 0.05) {
            throw new IllegalArgumentException("expected the source at least 5 cm from the microphone but found "
                    + source.distanceTo(mic) + " m");
        }
        if (!(rt60 >= 0.05 && rt60 <= 3)) {
            throw new IllegalArgumentException("expected an RT60 of 0.05-3 s but found " + rt60);
        }
        if (latencyMillis < 0 || latencyMillis > 1000) {
            throw new IllegalArgumentException("expected a latency of 0-1000 ms but found " + latencyMillis);
        }
        absorption.coefficient(room, rt60);   // rejects an RT60 the room cannot have
    }

    /** The same room with the sound coming from {@code newSource} and no device latency (e.g. the user's mouth). */
    public RoomSpec withSource(String newName, Point3 newSource) {
        return new RoomSpec(newName, room, newSource, mic, rt60, 0, absorption);
    }
}
