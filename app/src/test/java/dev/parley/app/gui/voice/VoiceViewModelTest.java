package dev.parley.app.gui.voice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The voice controls drive a {@link VoiceControl} and show what it reports, coalesced. */
class VoiceViewModelTest {

    /** A voice loop that records what the controls asked of it. */
    private static final class RecordingVoice implements VoiceControl {
        final List<String> calls = new ArrayList<>();
        SpokenTurns turns;
        VoiceEvents events;

        @Override
        public Optional<String> unavailableReason() {
            return Optional.empty();
        }

        @Override
        public void start(SpokenTurns t, VoiceEvents e) {
            turns = t;
            events = e;
            calls.add("start");
        }

        @Override
        public void pushToTalk(boolean pressed) {
            calls.add("ptt " + pressed);
        }

        @Override
        public void setHandsFree(boolean on) {
            calls.add("hands-free " + on);
        }

        @Override
        public void setMuted(boolean muted) {
            calls.add("mute " + muted);
        }

        @Override
        public void interrupt() {
            calls.add("interrupt");
        }

        @Override
        public void close() {
        }
    }

    @Test
    void controlsReachTheLoopAndEventsAreCoalesced() throws Exception {
        RecordingVoice voice = new RecordingVoice();
        List<Runnable> ui = new ArrayList<>();
        VoiceViewModel vm = new VoiceViewModel(voice, ui::add, Runnable::run);
        List<String> replies = new ArrayList<>();
        vm.start((text, pieces, cancelled) -> {
            replies.add(text);
            return 7;
        });
        assertFalse(vm.availableProperty().get(), "not available until the loop reports it started");
        assertTrue(vm.loadingProperty().get());
        ui.forEach(Runnable::run);
        ui.clear();
        assertTrue(vm.availableProperty().get());
        assertFalse(vm.loadingProperty().get());
        assertTrue(vm.statusProperty().get().startsWith("Voice ready"), vm.statusProperty().get());
        vm.pushToTalk(true);
        vm.pushToTalk(true);
        vm.pushToTalk(false);
        vm.handsFreeProperty().set(true);
        assertFalse(vm.availableProperty().get(), "switching modes restarts the loop");
        ui.forEach(Runnable::run);
        ui.clear();
        assertTrue(vm.availableProperty().get());
        assertTrue(vm.statusProperty().get().startsWith("Hands-free"), vm.statusProperty().get());
        vm.mutedProperty().set(true);
        vm.interrupt();
        assertEquals(List.of("start", "ptt true", "ptt false", "hands-free true", "mute true", "interrupt"),
                voice.calls);

        voice.events.level(-60);
        voice.events.level(-30);
        voice.events.level(0);
        voice.events.partial("hel");
        voice.events.partial("hello");
        assertEquals(2, ui.size(), "one UI task for the levels, one for the partials");
        ui.forEach(Runnable::run);
        assertEquals(1.0, vm.levelProperty().get(), 1e-9);
        assertEquals("hello", vm.partialProperty().get());

        BooleanSupplier never = () -> false;
        Consumer<String> ignore = s -> { };
        assertEquals(7, voice.turns.respond("what time is it", ignore, never));
        assertEquals(List.of("what time is it"), replies);
    }

    @Test
    void anUnavailableLoopDisablesTheControlsAndSaysWhy() {
        VoiceViewModel vm = new VoiceViewModel(new UnavailableVoice("no microphone"), Runnable::run, Runnable::run);
        vm.start((t, p, c) -> -1);
        vm.pushToTalk(true);
        assertFalse(vm.availableProperty().get());
        assertFalse(vm.talkingProperty().get());
        assertTrue(vm.statusProperty().get().contains("no microphone"));
    }
}
