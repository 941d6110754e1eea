package dev.parley.audio;

import dev.parley.audio.room.ImageSourceRir;
import dev.parley.audio.room.NoiseBed;
import dev.parley.audio.room.NoiseBeds;
import dev.parley.audio.room.RoomAssets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** `bench duplex`'s rooms and babble, rendered as the benchmark renders them, for {@link DuplexCase}s. */
final class BenchRooms {
    private BenchRooms() {
    }

    /** The echo path and the user's path of one of the benchmark's rooms. */
    record Paths(double[] echo, double[] user) {
    }

    /** The paths of the benchmark's room {@code name} (bedroom-soft, kitchen, living-room, meeting-room, office-small). */
    static Paths room(String name) {
        RoomAssets.Asset asset = RoomAssets.rooms().stream()
                .filter(a -> a.echoPath().name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("expected one of the benchmark's rooms but found "
                        + name));
        ImageSourceRir rir = new ImageSourceRir(OfflineDuplexRoom.RATE);
        return new Paths(taps(rir.render(asset.echoPath()).taps()), taps(rir.render(asset.userPath()).taps()));
    }

    /** The bench's babble ({@code bench duplex --make-rooms} writes it with seed 7 from the same recordings). */
    static short[] babble(int seconds) throws Exception {
        Path wav = SharedFixtures.require("vosk/wav");
        List<Path> said = new ArrayList<>(RoomAssets.speechFiles(wav.resolve("marytts")));
        said.addAll(RoomAssets.speechFiles(wav.resolve("espeak-ng")));
        return DuplexCase.pcm(NoiseBeds.make(NoiseBed.BABBLE, seconds, 7 + NoiseBed.BABBLE.ordinal(),
                RoomAssets.snippets(said)));
    }

    /** What the loop did in the room, in order. */
    static String events(OfflineDuplexRoom room) {
        StringBuilder events = new StringBuilder();
        for (OfflineDuplexRoom.Event e : room.events()) {
            events.append(e.what()).append(" at ").append(e.atMillis()).append(" ms; ");
        }
        return events.toString();
    }

    private static double[] taps(float[] t) {
        double[] d = new double[t.length];
        for (int i = 0; i < t.length; i++) {
            d[i] = t[i];
        }
        return d;
    }
}
