package dev.parley.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.device.DeviceFault;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What {@code parley talk} prints when a device fails and comes back (the loop's events, as the pipeline fires them). */
class VoiceTurnPrinterFaultTest {
    @Test
    void aDeviceFaultAndItsRecoveryArePrintedOnStderr() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        VoiceTurnPrinter printer = new VoiceTurnPrinter(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        DeviceFault fault = new DeviceFault(DeviceFault.Kind.MICROPHONE, "'USB Mic'",
                "Device or resource busy", 2000);
        printer.deviceFault(fault);
        printer.deviceRecovered(DeviceFault.Kind.MICROPHONE, "'USB Mic'");
        String[] lines = err.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(2, lines.length, err.toString(StandardCharsets.UTF_8));
        assertEquals("parley: The microphone ('USB Mic') is unavailable: Device or resource busy. Parley is not "
                + "listening (typed chat still works). Parley retries every 2 s and carries on by itself when it is back.",
                lines[0]);
        assertEquals("parley: the microphone ('USB Mic') works again; listening", lines[1]);
        assertTrue(out.toString(StandardCharsets.UTF_8).isEmpty(), "stdout keeps the conversation only");
    }
}
