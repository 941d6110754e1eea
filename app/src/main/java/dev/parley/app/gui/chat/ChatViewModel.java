package dev.parley.app.gui.chat;

import dev.parley.app.gui.conversations.ConversationListViewModel;
import dev.parley.app.gui.voice.SpokenTurns;
import dev.parley.app.service.ChatService;
import dev.parley.app.service.GenerationParams;
import dev.parley.app.service.TurnOutcome;
import dev.parley.app.store.ConversationSummary;
import dev.parley.app.store.StoredMessage;
import dev.parley.engine.generate.StopReason;
import dev.parley.engine.generate.TokenEvent;
import dev.parley.engine.tokenizer.Role;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The open conversation: its messages, the message being typed, and the commands send, stop,
 * regenerate. Engine work runs on the {@link ChatService}'s thread; streamed text reaches the
 * messages through a {@link TextCoalescer} (at most one UI update per UI-thread turn, never one per
 * token). All properties are changed on the UI executor only.
 */
public final class ChatViewModel {
    private static final int TITLE_LENGTH = 40;

    /** The line shown (as a SYSTEM item) where the model's memory of a long conversation was cut. */
    public static final String CONTEXT_NOTICE =
            "Older messages were dropped from the model's memory to make room (they are still saved here).";

    private final ChatService service;
    private final Supplier<GenerationParams> params;
    private final Executor ui;
    private final Runnable conversationsChanged;
    private final LongConsumer conversationCreated;

    // Properties
    private final ObservableList<MessageItem> messages = FXCollections.observableArrayList();
    private final StringProperty input = new SimpleStringProperty("");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final BooleanProperty modelReady = new SimpleBooleanProperty();
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
    private final ReadOnlyLongWrapper conversationId = new ReadOnlyLongWrapper(-1);
    private final ReadOnlyLongWrapper streamedUpdates = new ReadOnlyLongWrapper();

    /**
     * @param conversationsChanged called (on the UI thread) when a conversation was created or updated
     * @param conversationCreated  called with the id of a conversation the first message created
     */
    public ChatViewModel(ChatService service, Supplier<GenerationParams> params, Executor ui,
                         Runnable conversationsChanged, LongConsumer conversationCreated) {
        this.service = service;
        this.params = params;
        this.ui = ui;
        this.conversationsChanged = conversationsChanged;
        this.conversationCreated = conversationCreated;
    }

    // Commands

    /** Shows a stored conversation (-1: none, the next message starts a new one). */
    public void open(long id) {
        if (id == conversationId.get() && !messages.isEmpty()) {
            return;
        }
        conversationId.set(id);
        if (id < 0) {
            messages.clear();
            return;
        }
        messages.setAll(service.store().messages(id).stream()
                .filter(m -> m.role() != Role.SYSTEM)
                .map(m -> new MessageItem(m.role(), m.content(), m.spoken(), false, m.interrupted()))
                .toList());
    }

    /** Sends the typed message; does nothing while a reply is generated or when the text is blank. */
    public void send() {
        String text = input.get().strip();
        if (text.isEmpty() || busy.get() || !modelReady.get()) {
            return;
        }
        input.set("");
        start(text, false, piece -> { }, () -> false);
    }

    /** Stops the reply being generated; what was generated stays, marked interrupted. */
    public void stop() {
        service.stop();
    }

    /** Answers the last message again, replacing the last reply. */
    public void regenerate() {
        if (busy.get() || conversationId.get() < 0 || !modelReady.get()) {
            return;
        }
        int lastUser = -1;
        for (int i = messages.size() - 1; i >= 0 && lastUser < 0; i--) {
            if (messages.get(i).role() == Role.USER) {
                lastUser = i;
            }
        }
        if (lastUser < 0) {
            return;
        }
        messages.remove(lastUser + 1, messages.size());
        MessageItem reply = new MessageItem(Role.ASSISTANT, "", messages.get(lastUser).spoken(), true, false);
        messages.add(reply);
        run(reply, listener -> service.regenerate(conversationId.get(), params.get(), listener), piece -> { });
    }

    /**
     * The handler of spoken turns for the voice loop: shows and answers them in this conversation
     * (stored marked spoken), and adds the stages the loop measured (speech end to transcript, first
     * token to first audio) to the chat turn's latency record for the dashboard.
     */
    public SpokenTurns spokenTurns() {
        return new SpokenTurns() {
            @Override
            public long respond(String text, Consumer<String> pieces, BooleanSupplier cancelled) throws Exception {
                CompletableFuture<TurnOutcome> done = new CompletableFuture<>();
                ui.execute(() -> start(text, true, pieces, cancelled).whenComplete((o, e) -> {
                    if (e != null) {
                        done.completeExceptionally(e);
                    } else {
                        done.complete(o);
                    }
                }));
                return done.get().latency().turn();
            }

            @Override
            public long speculate(String text, Consumer<String> pieces, BooleanSupplier cancelled,
                                  CompletionStage<Boolean> heard) throws Exception {
                CompletableFuture<Optional<TurnOutcome>> done = new CompletableFuture<>();
                ui.execute(() -> startSpeculation(text, pieces, cancelled, heard).whenComplete((o, e) -> {
                    if (e != null) {
                        done.completeExceptionally(e);
                    } else {
                        done.complete(o);
                    }
                }));
                return done.get().map(o -> o.latency().turn()).orElse(-1L);
            }

            @Override
            public boolean speculates() {
                return true;
            }

            @Override
            public void measured(long chatTurn, dev.parley.audio.TurnLatency latency) {
                double transcript = latency.millisAfterSpeechEnd(dev.parley.audio.TurnLatency.Stage.FINAL_TRANSCRIPT);
                double firstAudio = latency.firstAudio() < 0 || latency.firstText() < 0 ? 0
                        : (latency.firstAudio() - latency.firstText()) / 1e6;
                service.recordVoiceStages(chatTurn, Double.isNaN(transcript) ? 0 : transcript, firstAudio);
            }
        };
    }

    // Work

    private CompletableFuture<TurnOutcome> start(String text, boolean spoken, Consumer<String> pieces,
                                                 BooleanSupplier cancelled) {
        long id = openConversationFor(text);
        messages.add(new MessageItem(Role.USER, text, spoken, false, false));
        MessageItem reply = new MessageItem(Role.ASSISTANT, "", spoken, true, false);
        messages.add(reply);
        long chat = id;
        return run(reply, listener -> service.send(chat, text, spoken, params.get(), listener), piece -> {
            pieces.accept(piece);
            if (cancelled.getAsBoolean()) {
                service.stop();
            }
        });
    }

    /** The open conversation, created (and titled after {@code text}) when there is none or it is still untitled. */
    private long openConversationFor(String text) {
        long id = conversationId.get();
        if (id < 0) {
            ConversationSummary created = service.store().create(title(text));
            id = created.id();
            conversationId.set(id);
            messages.clear();
            conversationCreated.accept(id);
        } else if (messages.isEmpty() && service.store().find(id)
                .filter(c -> c.title().equals(ConversationListViewModel.NEW_TITLE)).isPresent()) {
            service.store().rename(id, title(text));
        }
        return id;
    }

    /**
     * A speculative spoken turn (UI thread): the reply is generated (and its pieces sent to speech) at once, in the
     * conversation open now; the turn appears here and in the store only once {@code heard} says it was heard. A
     * withdrawn one leaves nothing: no message, no conversation, no status.
     */
    private CompletableFuture<Optional<TurnOutcome>> startSpeculation(String text, Consumer<String> pieces,
                                                                      BooleanSupplier cancelled,
                                                                      CompletionStage<Boolean> heard) {
        long startedIn = conversationId.get();
        MessageItem reply = new MessageItem(Role.ASSISTANT, "", true, true, false);
        StringBuilder early = new StringBuilder();     // text generated before the turn was confirmed (UI thread)
        boolean[] shown = {false};
        TextCoalescer coalescer = new TextCoalescer(ui, piece -> {
            if (shown[0]) {
                reply.textProperty().set(reply.text() + piece);
                streamedUpdates.set(streamedUpdates.get() + 1);
            } else {
                early.append(piece);
            }
        });
        CompletableFuture<Long> target = new CompletableFuture<>();
        heard.whenComplete((yes, e) -> ui.execute(() -> {
            if (e != null || !Boolean.TRUE.equals(yes)) {
                target.complete(-1L);
                return;
            }
            long id;
            if (startedIn >= 0 || conversationId.get() < 0) {
                id = startedIn >= 0 ? startedIn : openConversationFor(text);
            } else {               // started with none open, and another was opened since: a new one of its own
                id = service.store().create(title(text)).id();
            }
            if (id == conversationId.get()) {
                if (messages.isEmpty() && startedIn >= 0) {
                    openConversationFor(text);                       // titles an untitled conversation
                }
                messages.add(new MessageItem(Role.USER, text, true, false, false));
                reply.textProperty().set(early.toString());
                messages.add(reply);
                shown[0] = true;
                busy.set(true);
                status.set("Generating…");
            }
            target.complete(id);
        }));
        CompletableFuture<Optional<TurnOutcome>> future = service.speculate(startedIn, text, params.get(), target,
                event -> {
                    String piece = switch (event) {
                        case TokenEvent.Token t -> t.text();
                        case TokenEvent.Text t -> t.text();
                        case TokenEvent.Done d -> "";
                    };
                    if (!piece.isEmpty()) {
                        coalescer.offer(piece);
                        pieces.accept(piece);
                        if (cancelled.getAsBoolean() && target.isDone() && target.join() >= 0) {
                            service.stop();    // a barge-in on the confirmed reply
                        }
                    }
                });
        // Settled once both the reply and the verdict are known (an error before the verdict shows only if heard).
        future.handle((o, e) -> null).thenCombine(target, (x, id) -> id).thenAccept(id -> ui.execute(() -> {
            coalescer.drain();
            Optional<TurnOutcome> outcome = future.isCompletedExceptionally() ? null : future.join();
            if (id < 0 || outcome != null && outcome.isEmpty()) {
                return;                                   // withdrawn: nothing was shown or stored
            }
            if (!shown[0]) {
                conversationsChanged.run();               // stored in a conversation that is not open
                return;
            }
            Throwable error = outcome == null ? future.handle((o, e) -> e).join() : null;
            settle(reply, outcome == null ? null : outcome.get(), error, id);
        }));
        return future;
    }

    private CompletableFuture<TurnOutcome> run(MessageItem reply,
                                               java.util.function.Function<Consumer<TokenEvent>,
                                                       CompletableFuture<TurnOutcome>> turn,
                                               Consumer<String> pieces) {
        busy.set(true);
        status.set("Generating…");
        long chat = conversationId.get();
        TextCoalescer coalescer = new TextCoalescer(ui, text -> {
            reply.textProperty().set(reply.text() + text);
            streamedUpdates.set(streamedUpdates.get() + 1);
        });
        CompletableFuture<TurnOutcome> future = turn.apply(event -> {
            String piece = switch (event) {
                case TokenEvent.Token t -> t.text();
                case TokenEvent.Text t -> t.text();
                case TokenEvent.Done d -> "";
            };
            if (!piece.isEmpty()) {
                coalescer.offer(piece);
                pieces.accept(piece);
            }
        });
        future.whenComplete((outcome, error) -> ui.execute(() -> {
            coalescer.drain();
            settle(reply, outcome, error, chat);
        }));
        return future;
    }

    /** Shows how a turn ended (UI thread): the stored reply, or why there is none. */
    private void settle(MessageItem reply, TurnOutcome outcome, Throwable error, long chat) {
        reply.streamingProperty().set(false);
        busy.set(false);
        if (error != null) {
            Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                    ? error.getCause() : error;
            messages.remove(reply);
            status.set("Could not answer: " + cause.getMessage());
        } else {
            StoredMessage stored = outcome.reply();
            if (outcome.droppedOlderMessages()) {
                // before this turn's question: the model answered it without the turns dropped above
                int question = messages.indexOf(reply) - 1;
                messages.add(Math.max(0, question), new MessageItem(Role.SYSTEM, CONTEXT_NOTICE, false, false, false));
            }
            reply.textProperty().set(stored.content());
            reply.interruptedProperty().set(stored.interrupted());
            status.set(summary(outcome));
        }
        if (chat == conversationId.get()) {
            conversationsChanged.run();
        }
    }

    private static String summary(TurnOutcome o) {
        String stop = o.reason() == StopReason.CANCELLED ? " · stopped" : o.reason() == StopReason.CONTEXT_FULL
                ? " · the context is full: start a new conversation" : "";
        return String.format(Locale.ROOT, "%d tokens · %.0f ms to first token · %.1f tok/s%s",
                o.stats().generatedTokens(), o.latency().timeToFirstTokenMs(), o.latency().tokensPerSecond(), stop);
    }

    static String title(String text) {
        String oneLine = text.strip().replaceAll("\\s+", " ");
        return oneLine.length() <= TITLE_LENGTH ? oneLine : oneLine.substring(0, TITLE_LENGTH - 1).strip() + "…";
    }

    // Property accessors

    public ObservableList<MessageItem> messages() {
        return messages;
    }

    public StringProperty inputProperty() {
        return input;
    }

    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** Set by the window once a model is loaded; sending waits for it. */
    public BooleanProperty modelReadyProperty() {
        return modelReady;
    }

    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }

    public ReadOnlyLongProperty conversationIdProperty() {
        return conversationId.getReadOnlyProperty();
    }

    /** How many coalesced text updates reached the messages (for tests and diagnostics). */
    public ReadOnlyLongProperty streamedUpdatesProperty() {
        return streamedUpdates.getReadOnlyProperty();
    }
}
