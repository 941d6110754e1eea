package dev.parley.audio;

import dev.parley.audio.room.VirtualRoom;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Puts a {@link VirtualRoom} behind the virtual ALSA device: what the real {@code SpeakerSink} writes
 * to {@code out.raw} is read as the file grows and played on the room's speaker, and the room's
 * microphone frames are written to the {@code in.raw} pipe in real time, where {@code MicrophoneSource}
 * captures them. Start it after the microphone was opened (ALSA's probe would swallow early audio).
 */
public final class RoomDeviceBridge implements AutoCloseable {
    private final VirtualSoundDevice device;
    private final VirtualRoom room;
    private final int playbackRate;
    private final Path out;
    private volatile boolean running = true;
    private volatile IOException failure;
    private Thread player;
    private Thread listener;

    public RoomDeviceBridge(VirtualSoundDevice device, VirtualRoom room, int playbackRate) {
        this.device = device;
        this.room = room;
        this.playbackRate = playbackRate;
        this.out = device.home().resolve("out.raw");
    }

    public void start() {
        player = Thread.ofPlatform().name("room-bridge-out").daemon().start(this::followPlayback);
        listener = Thread.ofPlatform().name("room-bridge-in").daemon().start(this::feedMicrophone);
    }

    /** Polls out.raw (a file that only grows, truncated when the line is reopened) and plays what is new. */
    private void followPlayback() {
        long pos = 0;
        try {
            while (running) {
                long size = Files.exists(out) ? Files.size(out) : 0;
                if (size < pos) {
                    pos = 0;            // the line was opened again: the file starts over
                }
                long end = size & ~1L;
                if (end > pos) {
                    ByteBuffer b = ByteBuffer.allocate((int) (end - pos));
                    try (FileChannel ch = FileChannel.open(out, StandardOpenOption.READ)) {
                        ch.position(pos);
                        while (b.hasRemaining() && ch.read(b) > 0) {
                            // read all that is there
                        }
                    }
                    int n = b.position() & ~1;
                    if (n > 0) {
                        room.speaker().play(PcmAudio.fromLittleEndianBytes(b.array(), 0, n, playbackRate));
                        pos += n;
                    }
                } else {
                    Thread.sleep(5);    // polling the device file, not timing anything
                }
            }
        } catch (IOException e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IllegalStateException e) {
            // the room was closed
        }
    }

    private void feedMicrophone() {
        try {
            PcmAudio frame;
            while (running && (frame = room.microphone().read()) != null) {
                device.speak(frame);
            }
        } catch (IOException e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws Exception {
        running = false;
        room.close();
        for (Thread t : new Thread[] {player, listener}) {
            if (t != null) {
                t.interrupt();
                t.join(2000);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
