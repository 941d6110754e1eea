package dev.parley.app.gui;

import dev.parley.app.gui.voice.AppVoice;
import dev.parley.app.gui.voice.VoiceOptions;
import dev.parley.app.gui.voice.VoskModelLocator;
import dev.parley.app.gui.voice.VoiceControl;
import dev.parley.app.service.ChatService;
import dev.parley.app.service.GenerationParams;
import dev.parley.app.store.AppSettings;
import dev.parley.app.store.ConversationStore;
import dev.parley.app.store.ParleyHome;
import dev.parley.app.store.SettingsStore;
import dev.parley.models.catalog.ModelCatalog;
import dev.parley.models.download.Downloader;
import dev.parley.models.download.ZipUnpacker;
import dev.parley.models.store.ModelInstaller;
import java.io.IOException;

/**
 * What the window is built from: the Parley home with its conversation database and settings file,
 * the chat service and the voice loop. Owns and closes them.
 */
public final class AppContext implements AutoCloseable {
    private final ParleyHome home;
    private final ConversationStore store;
    private final SettingsStore settingsStore;
    private final ChatService chat;
    private final VoiceControl voice;
    private final ModelCatalog catalog;
    private final Downloader downloader;
    private volatile AppSettings settings;

    private AppContext(ParleyHome home, ConversationStore store, SettingsStore settingsStore, AppSettings settings,
                       VoiceControl voice, ModelCatalog catalog, Downloader downloader) {
        this.home = home;
        this.catalog = catalog;
        this.downloader = downloader;
        this.store = store;
        this.settingsStore = settingsStore;
        this.settings = settings;
        this.chat = new ChatService(store);
        this.voice = voice;
    }

    /**
     * Opens the home's database and settings, with the real voice loop: the Vosk model of the settings
     * (or the catalog's default one in the model store), MaryTTS and the settings' audio devices. The
     * loop starts when the window asks (in the background); without a Vosk model it says so.
     */
    public static AppContext open(ParleyHome home) throws IOException {
        home.create();
        ModelCatalog catalog = ModelCatalog.load();
        AppSettings settings = new SettingsStore(home.settings()).load();
        VoiceControl voice = new AppVoice(new VoskModelLocator(home.modelStore(), catalog), VoiceOptions.of(settings));
        return open(home, voice, catalog, new Downloader());
    }

    /** As {@link #open(ParleyHome)} with a voice loop. */
    public static AppContext open(ParleyHome home, VoiceControl voice) throws IOException {
        return open(home, voice, ModelCatalog.load(), new Downloader());
    }

    /** As {@link #open(ParleyHome, VoiceControl)} with the catalog and downloader of the first-run download. */
    public static AppContext open(ParleyHome home, VoiceControl voice, ModelCatalog catalog, Downloader downloader)
            throws IOException {
        home.create();
        SettingsStore settingsStore = new SettingsStore(home.settings());
        AppSettings settings = settingsStore.load();
        return new AppContext(home, ConversationStore.open(home.database()), settingsStore, settings, voice,
                catalog, downloader);
    }

    /** The model catalog (its default model is what the first run offers to download). */
    public ModelCatalog catalog() {
        return catalog;
    }

    /** An installer into the home's model store. */
    public ModelInstaller installer() {
        return new ModelInstaller(home.modelStore(), downloader, new ZipUnpacker());
    }

    public ParleyHome home() {
        return home;
    }

    public ConversationStore store() {
        return store;
    }

    public ChatService chat() {
        return chat;
    }

    public VoiceControl voice() {
        return voice;
    }

    public AppSettings settings() {
        return settings;
    }

    /** Persists and adopts new settings. */
    public void saveSettings(AppSettings next) throws IOException {
        settingsStore.save(next);
        settings = next;
    }

    /** Generation parameters of the current settings (a fresh seed per turn). */
    public GenerationParams generationParams() {
        AppSettings s = settings;
        return new GenerationParams(s.temperature(), s.topP(), s.maxTokens(), s.systemPrompt(), System.nanoTime(),
                s.contextPolicyValue());
    }

    @Override
    public void close() {
        voice.close();
        chat.close();
        store.close();
    }
}
