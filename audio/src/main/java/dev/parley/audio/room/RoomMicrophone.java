package dev.parley.audio.room;

import dev.parley.audio.PcmAudio;
import dev.parley.audio.capture.AudioSource;

/** The microphone of a {@link VirtualRoom}: its frames, in real time. */
final class RoomMicrophone implements AudioSource {
    private final VirtualRoom room;

    RoomMicrophone(VirtualRoom room) {
        this.room = room;
    }

    @Override
    public int sampleRate() {
        return VirtualRoom.RATE;
    }

    @Override
    public PcmAudio read() throws InterruptedException {
        return room.nextMicFrame();
    }

    @Override
    public void close() {
        room.close();
    }
}
